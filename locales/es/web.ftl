## La mesa en el navegador (web/): páginas, paneles, botones y lo que dicen.
## Las líneas del historial, casillas, cartas y jugadas están en words.ftl.

## La página de inicio

preset-name = { $preset ->
    [pagat] Tripoley (reglas de pagat.com)
    [tripoley] Tripoley (juego de caja)
    [michigan-casino] Michigan Rummy (reglas de casino: las jugadas indebidas cuestan fichas)
    [rummoli] Rummoli
    [cosmo] Cosmo (sin póquer; el palo de pago cambia en cada reparto)
   *[other] { $preset }
}
home-unreachable = No se puede conectar con el servidor: { $error }
home-new-table = Mesa nueva
home-your-name = Tu nombre
home-game = Juego
home-game-tripoley = Tripoley
home-game-napalm = Póquer Napalm
home-rules = Reglas
home-seats = Asientos
home-chips = Fichas al empezar
home-tokens = Puntos para ganar (Napalm)
home-deals = Repartos (vacío: uno por jugador)
home-turn = Segundos por turno (0: sin límite)
home-intro = Tripoley es el juego de cartas de la familia: un tablero, una mano de póquer y una carrera para quedarse sin cartas, todo en un reparto. Abre una mesa, envía el enlace y juega aquí con amigos o con bots.
home-bot = Nivel de los bots
home-bot-level = { $level ->
    [random] Tranquilo (juega al azar)
    [expert] Fuerte (piensa por adelantado)
   *[heuristic] Bueno
}
home-house-rules = Reglas de la casa
home-house-rules-help = Deja un campo vacío para jugarlo como dicen las reglas elegidas.
home-rule-ante = Fichas que cada jugador pone en cada casilla
home-rule-bet-limit = Apuesta o subida más alta
home-rule-misplays = Salir con una carta que no es la más baja de su palo
home-rule-misplays-choice = { $choice ->
    [forbidden] No se permite
    [penalised] Se permite, pagando 1 ficha a cada uno de los demás
   *[preset] Como dicen las reglas
}
home-rule-space-antes = Fichas en cada casilla (vacío: lo mismo que en todas)
home-house-rules-json = Reglas de la casa en JSON
home-house-rules-bad = Las reglas de la casa no son JSON válido: { $error }
home-guide = Mi primera partida: explicar cada fase cuando llegue
home-create = Crear mesa
home-join = Unirse a una mesa
home-invite-code = Código de invitación
home-open = Abrir
back = Volver
lang-switch = Idioma

## Errores: los códigos del servidor (docs/protocol.md), traducidos; si el
## código no se conoce, las palabras del servidor (en inglés).

error = { $code ->
    [bad_message] El servidor no entendió el mensaje.
    [version] Esta página es de otra versión: recárgala.
    [too_large] El mensaje es demasiado largo.
    [rate_limited] Demasiados mensajes seguidos: espera un momento.
    [unauthorized] No tienes permiso para hacer eso.
    [wrong_seat] Ese asiento no es el tuyo.
    [not_your_turn] No es tu turno.
    [illegal] Esa jugada no está permitida ahora.
    [stale] La mesa ya ha cambiado: vuelve a intentarlo.
    [not_started] La partida aún no ha empezado.
    [already_started] La partida ya ha empezado.
    [game_over] La partida ha terminado.
    [no_table] No existe esa mesa.
    [seat_taken] Ese asiento está ocupado o la mesa está llena.
    [invalid] No se puede usar: { $message }
    [full] No caben más mesas ni espectadores.
    [storage] El servidor no pudo guardar la jugada; no ha cambiado nada.
    [busy] El servidor está ocupado: inténtalo de nuevo en un momento.
    [forbidden] Petición rechazada.
   *[other] { $message }
}
# Qué falló exactamente en una petición (el "detail" del error del servidor), en lugar de su mensaje en inglés.
error-detail = { $reason ->
    [house_rule] Una de las reglas de la casa no existe o su valor no vale.
    [house_rules] Estas reglas de la casa no encajan entre sí.
    [seats] Este juego es para { $min } a { $max } jugadores.
    [starting_chips] Las fichas iniciales van de 1 a { $max }.
    [turn_seconds] El tiempo por turno es como mucho { $max } segundos (0 para no tener límite).
    [other_game] Uno de estos ajustes es del otro juego.
    [name] { $problem ->
        [too_long] Un nombre tiene como mucho 16 letras (8 caracteres chinos, japoneses o coreanos o emojis).
        [invisible] Un nombre no puede llevar caracteres invisibles ni de control.
        [empty] Un nombre necesita al menos un carácter visible.
        [you] Un nombre no puede contener «(tú)» ni «(you)»: la mesa lo añade tras tu propio nombre.
        [bot_name] Los nombres como «Bot 3» son para los bots de la mesa.
        [marks] Un nombre no puede llevar más de cuatro acentos sobre una letra.
        [taken] Alguien en esta mesa tiene un nombre que se ve igual: elige otro.
       *[other] { $message }
    }
    [chat] { $problem ->
        [too_long] Un mensaje tiene como mucho 200 caracteres.
        [control] Un mensaje del chat es de una sola línea.
        [empty] Un mensaje necesita al menos un carácter visible.
       *[other] { $message }
    }
    [free_seat] { $problem ->
        [no_such_seat] No existe ese asiento.
        [empty] Nadie ocupa ese asiento.
        [own] No puedes liberar tu propio asiento.
        [here] Este jugador está aquí: solo se libera el asiento de quien se ha ido.
        [just_left] Este jugador se fue hace un momento: espera a que un bot juegue por él.
       *[other] { $message }
    }
    [no_seat] Esta mesa no tiene ese asiento (sus asientos van del 0 al { $last }).
    [record] { $problem ->
        [too_big] Este archivo es demasiado grande para ser el registro de una partida (4 MB como mucho).
        [too_long] Este registro tiene más pasos de los que puede tener una partida.
        [too_long_to_analyse] Este registro es demasiado largo para que el servidor lo analice: ábrelo sin servidor (la partida en este dispositivo) o con `tripoley analyse`.
        [napalm] Es una partida de Napalm: el experto solo juega al Tripoley, así que no da veredicto sobre las jugadas de Napalm.
        [not_a_record] Este archivo no es un registro de partida que se pueda repetir ({ $message }).
       *[other] { $message }
    }
   *[other] { $message }
}
# Ninguna respuesta, o la página de error de un proxy.
error-unreachable = No se pudo llegar al servidor: inténtalo de nuevo en un momento.

## La conexión y la barra sobre la mesa

conn-connecting = conectando…
conn-reconnecting = reconectando…
conn-player = eres { $name }
conn-watching = mirando
log-auto = (un bot jugó por alguien que no estaba o se quedó sin tiempo)
settings = Ajustes
settings-four-colour = Baraja de cuatro colores
settings-sound = Sonidos
settings-guide = Explicar cada fase
seat-link = Tu asiento en otro dispositivo
seat-link-help = Abre este enlace en tu otro móvil u ordenador para jugar tu asiento allí. No lo compartas: quien lo tenga juega tu asiento.
seat-link-label = El enlace de tu asiento
rules-view = Reglas
rules-unavailable = No se pueden mostrar las reglas: { $error }
timer = { $s } s
rematch-failed = No hay revancha: { $error }

## La sala de espera

lobby = Sala de espera
lobby-invited = { $host } te invita a jugar { $game ->
    [napalm] al póquer Napalm
   *[tripoley] al Tripoley
}
lobby-waiting = Esperando para empezar
lobby-send-link = Envía este enlace a los demás jugadores:
lobby-invite-link = Enlace de invitación
lobby-copy = Copiar enlace
lobby-copied = Copiado.
lobby-copy-by-hand = Selecciona el enlace y cópialo.
# El asiento de una persona en la sala: el propio nombre ya dice "(tú)"; se
# marca a quien se ha ido.
lobby-seat-taken = { $name }{ $away ->
    [yes] {" "}(ausente)
   *[no] {""}
}
lobby-seat-open = libre: si nadie se sienta, juega un bot { $level }
lobby-seat-bot = { $name }: un bot { $level }
# The host's choice of who plays an open or bot seat ($seat: "Asiento 3").
lobby-seat-who = Quién juega en { $seat }
lobby-seat-choice-open = Libre para una persona
lobby-seat-choice-bot = Un bot { $level }
lobby-remove = Quitar a { $name }
lobby-remove-ask = ¿Quitar a { $name } de la mesa?
lobby-remove-yes = Quitar
lobby-remove-no = Dejar a { $name }
# A bot's level in a word (the home page's levels without their explanation).
bot-level = { $level ->
    [random] Tranquilo
    [expert] Fuerte
   *[heuristic] Bueno
}
# El nivel dentro de una frase, tras «bot»: en minúscula («un bot bueno»).
bot-level-in-sentence = { $level ->
    [random] tranquilo
    [expert] fuerte
   *[heuristic] bueno
}
lobby-seat = Asiento
lobby-sit = Sentarse
lobby-start = Empezar la partida
lobby-wait-host = Esperando a que el anfitrión empiece.
lobby-summary-napalm = Póquer Napalm: { $seats } asientos, { $chips } fichas cada uno, apuesta inicial de { $ante }, gana quien llegue a { $tokens } puntos{ $turn ->
    [0] {""}
   *[other] , { $turn } segundos por turno
}.
lobby-summary-tripoley = Tripoley: { $seats } asientos, { $chips } fichas cada uno, { $spare ->
    [unused] sin mano extra
    [dealer_swap_or_auction] el repartidor puede cambiar su mano por la extra o subastarla
   *[other] una mano extra
}, { $poker ->
    [betting] póquer con apuestas
    [none] sin póquer
   *[other] póquer sin apuestas
}{ $misplays ->
    [yes] , las jugadas indebidas cuestan fichas
   *[no] {""}
}{ $turn ->
    [0] {""}
   *[other] , { $turn } segundos por turno
}.

## La mesa de Tripoley (board.js)

table-players = Jugadores
table-status = Estado
table-deal-of = Reparto { $n } de { $total }
table-your-turn = Te toca
table-to-play = Le toca a { $who }
table-bot-plays = (juega un bot)
clock-to-play = le toca
dealer = Repartidor
dealer-mark = R
tag-bot = bot { $level }
tag-away = ausente
tag-out = fuera
# Sin género: la etiqueta va junto a cualquier nombre («Ana (tú)»).
tag-winner = gana
seat-label = { $who }, { $chips } fichas, { $cards } cartas{ $dealer ->
    [yes] , reparte
   *[no] {""}
}{ $turn ->
    [yes] , le toca
   *[no] {""}
}
seat-cards-title = cartas en la mano
seat-folded = se retiró
seat-bet = apuesta { $n }
seat-five-apart = cinco cartas apartadas
space-label = { $space }: { $chips } fichas
board-label = El tablero
board-label-suit = El tablero, palo de pago { words-suit }
board-pay-suit = Palo de pago { $symbol }
board-pay-suit-to-come = Falta el palo de pago
board-pay-suit-named = Palo de pago { $symbol } { words-suit }
board-pay-suit-unnamed = Aún no hay palo de pago
board-sequence = Secuencia { $run }
board-highest-bet = apuesta más alta { $n }
board-high-bid = puja más alta { $n } de { $who }
played-label = Cartas jugadas
played-last = Última carta: { $card } de { $who }
played-stopped = la última serie se cortó: { $why }
card-in-five = { $card }, en tus cinco de póquer
card-misplay-label = { $card }, jugada indebida: cuesta { $n } fichas
card-play-label = { $card }, jugarla
misplay-price = indebida −{ $n }
confirm-misplay = ¿Salir con { $card }? No es tu carta más baja de { $suit ->
    [C] tréboles
    [D] diamantes
    [H] corazones
   *[S] picas
}: es una jugada indebida. Pagas 1 ficha a cada uno de los demás ({ $n } en total) y ya no cobras ninguna casilla de pago en este reparto.
confirm-misplay-yes = Salir igualmente
hand-label = Tu mano
hand-label-of = Mano de { $who }
hand-five-marked = Tus cinco cartas de póquer llevan una barra dorada.
hand-five-marked-of = Las cinco cartas de póquer de { $who } llevan una barra dorada.
prompt = { $kind ->
    [spare_option] ¿Cambias tu mano por la extra (sin verla)?
    [auction_bid] { $item ->
        [spare] Puja por la mano extra
       *[other] Puja por la mano que dejó el repartidor
    }
    [pay_suit_bid] Puja por el derecho a elegir el palo de pago
    [name_pay_suit] Elige el palo de pago
    [open] ¿Pasas o apuestas?
    [respond] ¿Igualas { $n }, subes o te retiras?
    [choose_five] Elige tus cinco cartas de póquer
    [lead] Sal con una carta
    [follow] ¿Juegas { $card } o te la guardas?
   *[other] Te toca
}
amount-label = { $what } (de { $min } a { $max })
btn-keep = Quedarme mi mano
btn-swap = Cambiar por la extra
btn-auction-spare = Quedármela y subastar la extra
btn-swap-and-auction = Cambiar y subastar mi mano anterior
btn-bid = Pujar
btn-pass = Pasar
btn-check = Pasar
btn-bet = Apostar
btn-fold = Retirarse
btn-call = Igualar { $n }
btn-stay = Seguir
btn-raise = Subir
btn-these-five = Estas cinco
btn-play = Jugar { $card }
btn-withhold = Guardármela
btn-cancel = Cancelar
btn-hint = Pista
btn-got-it = Entendido
btn-rematch = Revancha
# La mesa terminada, cuando un jugador ya empezó la partida siguiente.
btn-join-next = Unirse a la partida nueva
btn-watch-next = Ver la partida nueva
confirm-fold = ¿Retirarte? Podrías seguir sin pagar nada.
confirm-fold-yes = Retirarme igualmente
confirm-withhold = ¿Guardarte { $card }? La serie se corta; ya no cobras ninguna casilla de pago en este reparto y, después de Michigan, pagas las fichas de cada casilla de pago cuya carta, de un palo en el que te guardaste una carta, siga en la mano de otro jugador.
confirm-withhold-yes = Guardármela igualmente
confirm-label = ¿Seguro?
five-picked = { $best ->
    [yes] { $n } de 5 elegidas (ya tienes marcadas las cinco mejores)
   *[no] { $n } de 5 elegidas
}
lead-help = Toca una carta levantada para salir con ella.
follow-window = Nadie puede saber por el tiempo si te la guardas: si te la guardas, la serie se corta cuando se acaba tu reloj. Si no contestas antes, se juega { $card }.
follow-withheld = Tu respuesta ya está: te guardas { $card }. Los demás verán cortarse la serie cuando se acabe tu reloj, igual que si nadie la tuviera.
btn-lead-only = Sal con tu { $card } (tu única salida)
hint-expert = El experto { $action }.
hint-five = { $same ->
    [yes] Estas ya son las cinco que apartaría el experto.
   *[no] Ya están elegidas las cinco del experto: «Estas cinco» las aparta.
}
announce-turn = Te toca: { $what }
title-your-turn = Te toca · Tripoley
notice-time-ran-out = Se acabó el tiempo: la mesa jugó por ti sin gastar fichas.
offline-banner = Conexión perdida: reconectando… Tus jugadas esperan a que la mesa responda.
offline-not-sent = No enviado: se perdió la conexión. Vuelve a intentarlo cuando vuelva la mesa.
result-label = Resultado del reparto { $n }
result-final = El bote final
result-title = Reparto { $n }: el resultado
result-spaces = Casillas cobradas
result-other = Pujas y precios
result-poker = Póquer
result-michigan = Michigan
result-folded = { $count ->
    [one] { $who } se retiró
   *[other] { $who } se retiraron
}
result-this-deal = En este reparto
result-net = { $who } { $n }
result-stays = { $n ->
    [one] Una ficha se queda en el tablero para el próximo reparto.
   *[other] { $n } fichas se quedan en el tablero para el próximo reparto.
  }
standings-label = Clasificación final
game-over = Fin de la partida
next-game-by = { $who } ha empezado una partida nueva
next-game-by-host = El anfitrión ha empezado una partida nueva
winners = { $count ->
    [one] ¡Gana { $who }!
   *[other] { $who } comparten la victoria.
}
chips-n = { $n ->
    [one] { $n } ficha
   *[other] { $n } fichas
}
final-pot-line = Bote final: { $what }.
ledger-label = Las cuentas de este reparto
ledger-title = Las fichas de este reparto
ledger-full = Todas las cuentas
log-title = Lo que ha pasado

## El resultado de un reparto (summary.js)

sum-showed = { $who }: { $cards } ({ $hand })
sum-face-up = { $who } tenía { $cards } boca arriba
sum-claim = { $who } cobró { account-space }{ $symbol ->
    [none] {""}
   *[other] {" "}{ $symbol }
}: { $n }
sum-pot-won = { $who } ganó { $pot ->
    [poker_pool] la Bolsa de póquer
    [final_pot] el bote final
   *[pot_won] el Bote
}: { $n }
sum-antes = Cada uno puso { $each } en cada casilla ({ $total } en total).
sum-antes-dealer = Cada uno puso su apuesta inicial en cada casilla, y el repartidor más ({ $total } en total).
sum-antes-spaces = Cada uno puso { $spaces } ({ $total } en total).
space-antes-on = { $n } en { $spaces }
space-antes-words = { $named }, { $rest } en cada una de las demás casillas
sum-bet = { $who } apostó { $n } en total
sum-misplay-paid = { $count ->
    [one] { $from } pagó { $n } a { $to } por una jugada indebida
   *[other] { $from } pagó { $n } a cada uno de { $to } por una jugada indebida
}
sum-went-out = { $who } cerró{ $card ->
    [none] {""}
   *[other] {" "}con { $card }
}.
sum-blocked = El juego quedó bloqueado: nadie podía salir.
sum-michigan = { $reason ->
    [blocked] { $from } puso { $n } en el Pozo (cartas en la mano con el juego bloqueado)
    [went_out] { $to } se llevó el Pozo: { $n }
    [cards_left] { $from } pagó { $n } a { $to } por las cartas que le quedaban
    [misled] { $from } pagó { $n } a { $to } por una jugada indebida
    [withheld] { $from } pagó { $n } a { $to } por una carta retenida
   *[other] { $from } → { $to }: { $n }
}

## La primera partida guiada (coach.js)

coach-title = Cómo funciona
coach-off = Dejar de explicar
coach-first = Tripoley tiene tres fases en cada reparto: primero las cartas de pago (quien tenga el As, el Rey, la Reina, la Jota o el Diez del palo de pago se lleva las fichas de su casilla), luego una mano de póquer por el Bote y, por último, Michigan, donde el primero que se queda sin cartas se lleva el Pozo. Las fichas que quedan en una casilla se guardan para el siguiente reparto.
coach-stage = { $stage ->
    [spare] El repartidor mira su mano y decide qué hacer con la mano extra, la que se reparte boca abajo: puede quedarse su mano, cambiarla por la extra sin verla o subastar la extra entre los demás.
    [auction] Una subasta: por turnos, cada jugador puja más fichas que la última puja o pasa y ya no vuelve a pujar. El último en pujar cambia su mano por la subastada y paga el precio al repartidor.
    [pay_suit] En este reparto se puja por el palo de pago: quien puje más alto lo elige.
    [betting] Apuestas de póquer: pasa o apuesta; después iguala, sube o retírate. Las apuestas van al Bote, que se lleva la mejor mano de cinco cartas entre los que siguen. Retirarse no cuesta nada más, pero renuncias al Bote.
    [michigan] Michigan: quien sale juega una carta, la más baja que tenga de un palo, y quien tenga la siguiente de ese palo la juega, y así hasta que la serie se corta (en un as, o en una carta que nadie puede jugar). Quien jugó la última vuelve a salir. { $inplay ->
        [yes] Quien juega el As, el Rey, la Reina, la Jota o el Diez del palo de pago se lleva su casilla del tablero.{" "}
       *[no] {""}
    }El primero que juega todas sus cartas se lleva el Pozo y una ficha por cada carta que les quede a los demás.{ $misplays ->
        [yes] {" "}En esta mesa puedes salir con una carta que no es la más baja de su palo, o guardarte una carta, pero cuesta fichas.
       *[no] {""}
    }
    [final_pot] Se acabaron los repartos de la partida: las fichas que quedan en el tablero se juegan en un último bote de póquer.
    [game_over] Se acabó la partida: gana quien tenga más fichas. Revancha empieza una partida nueva con las mismas personas.
   *[other] Póquer: cada jugador elige cinco cartas de su mano como su mano de póquer (ya tienes marcadas las cinco mejores; toca una carta para cambiarla). La mejor mano gana el Bote.
}

## La mesa de Napalm (napalm.js)

napalm-claim = { $round ->
    [best_two] las dos mejores cartas
    [lowest_five] la mano de cinco cartas más baja
   *[best_of_seven] las cinco mejores cartas de siete
}
nev-hand-started = Mano { $number }: reparte { $dealer }; todos ponen la apuesta inicial.
nev-side-bet = { $from } paga a { $to } { $amount } (una apuesta aparte del valor del bote).
nev-pot-won = { $who } se lleva el bote: { $amount } fichas.
nev-round-started = Ronda { $number } ({ $round ->
    [best_two] dos cartas cada uno
    [lowest_five] tres cartas más cada uno
   *[best_of_seven] dos cartas más cada uno
}): un Sí dice tener { napalm-claim }.
nev-declared = { $who } dice { $yes ->
    [yes] Sí.
   *[no] No.
}
nev-challenged = { $who }{ $yes ->
    [yes] {" "}desafía al repartidor: ahora dice Sí.
   *[no] {" "}mantiene su No.
}
nev-compared = Comparación en privado: { $hands }. Mejor: { $best }{ $count ->
    [one] .
   *[other] {" "}(empate).
}
nev-token = { $who } es el único Sí y gana un punto (ya tiene { $tokens }).
nev-hand-ended = Se acabó la mano { $number }.
nev-game-over = Fin de la partida. { $winners }{ $count ->
    [one] {" "}se lleva el bote y gana.
   *[other] {" "}se reparten el bote.
}
napalm-hand = Mano { $n }
napalm-round = ronda { $number } de 3: un Sí dice tener { napalm-claim }
napalm-seat-label = { $who }, { $chips } fichas, { $tokens } puntos
napalm-said = { $yes ->
    [yes] dijo Sí
   *[no] dijo No
}
napalm-yes-means = Sí quiere decir: tengo { napalm-claim }.
napalm-result = Resultado final
napalm-winners = { $count ->
    [one] Ganador: { $who }
   *[other] Ganadores: { $who }
}
napalm-chips-tokens = { $chips } fichas, { $tokens ->
    [one] { $tokens } punto
   *[other] { $tokens } puntos
}
napalm-your-cards = Tus cartas
napalm-your-cards-of = Cartas de { $who }
napalm-do-you-hold = ¿Tienes { napalm-claim }?
napalm-yes = Sí
napalm-no = No
napalm-challenge-question = Solo el repartidor dijo Sí. ¿Cambias tu No por un Sí?
napalm-challenge = Desafiar: decir Sí
napalm-decline = Mantener mi No
hint-bot = El bot { $action }.

## Pasar el dispositivo: varios jugadores en un mismo dispositivo.
pass-add = Añadir un jugador en este dispositivo
pass-name = Su nombre
pass-here = Juegan en este dispositivo: { $names }
pass-title = Pasa el dispositivo a { $name }
pass-help = Los demás, no miréis: ahora van las cartas de { $name }.
pass-continue = Soy { $name }: mostrar mis cartas

## La vista de las reglas: el juego en secciones cortas, luego el reglamento completo.
rules-book = El reglamento completo
rules-quick-title = Cómo se juega, en breve
rules-board-picture = El tablero, con sus casillas: { $spaces }
rules-quick-aim-title = El objetivo
rules-quick-aim = Ganar fichas a los demás. { $poker ->
    [yes] Cada reparto tiene tres partes: las cartas de pago, una mano de póquer y Michigan, una carrera por quedarse sin cartas.
   *[no] Cada reparto tiene dos partes: las cartas de pago y Michigan, una carrera por quedarse sin cartas.
}
rules-quick-board-title = El tablero
rules-quick-board = Antes de cada reparto todos ponen fichas en cada casilla. Cada reparto tiene un palo de pago: quien tiene su As, Rey, Reina, Jota o Diez se lleva las fichas de esa casilla, su Rey y su Reina juntos se llevan la casilla Rey-Reina, y las tres cartas de la Secuencia se llevan la Secuencia.
rules-quick-poker-title = Póquer
rules-quick-poker = Eliges las cinco mejores cartas de tu mano y apuestas por ellas. La mejor mano mostrada se lleva el Bote; retirarse no cuesta más que lo apostado.
rules-quick-michigan-title = Michigan
rules-quick-michigan = Quien sale juega su carta más baja de un palo, y quien tiene la siguiente hacia arriba la juega, hasta que la serie se corta; quien jugó la última vuelve a salir. El primero en quedarse sin cartas se lleva el Pozo y una ficha por cada carta que aún tienen los demás.
rules-quick-end-title = El final
rules-quick-end = Tras el último reparto, gana quien tiene más fichas. Las fichas que quedan en el tablero no son de nadie.

## The replay of a finished game and the expert's analysis
btn-replay = Repetición
replay-title = Repetición
replay-close = Cerrar
replay-face-up = Todas las cartas boca arriba
replay-slider = Paso
replay-back = Paso atrás
replay-forward = Paso adelante
replay-step = Paso { $n } de { $total } · { $game ->
        [napalm] mano
       *[other] reparto
    } { $deal }
replay-keys = ← → paso a paso · Inicio Fin · RePág AvPág { $game ->
        [napalm] de mano en mano
       *[other] reparto a reparto
    }
replay-analyse = Preguntar al experto
replay-analysing = El experto está mirando cada decisión…
replay-napalm-no-analysis = El experto solo juega al Tripoley: no da veredicto sobre las jugadas de Napalm. Recorre la partida paso a paso para ver cómo fue.
replay-mistakes = Los errores más caros
replay-mistake = Reparto { $deal }: { $who } — { $played }; el experto: { $best } ({ $exact ->
    [yes] { $cost ->
        [one] 1 ficha
       *[other] { $cost } fichas
    } en todas las partidas de muestra
   *[no] { $cost ->
        [one] 1 ficha
       *[other] unas { $cost } fichas
    }, ± { $error }
  })
replay-no-mistakes = El experto no encontró ningún error caro.
replay-mistakes-of = Los errores más caros de { $who }
replay-mistakes-yours = Tus errores más caros
replay-line = La línea del experto: { $moves }
replay-line-move = { $who }: { $move }
replay-line-hidden = { $kind ->
    [lead] salir con una carta
   *[five] apartar cinco cartas
}
replay-summary = Fichas perdidas en errores, por jugador
replay-summary-player = Jugador
replay-summary-total = En total
replay-summary-part = { $part ->
    [spare] Mano extra y pujas
    [poker] Póquer
   *[michigan] Michigan
}
replay-summary-chips = { $chips }
replay-chart-start = inicio
replay-chart-end = final
replay-chart-deals = Repartos
replay-chart-point = { $who }: { $chips } fichas { $deal ->
    [start] al empezar
    [end] al terminar
   *[other] tras el reparto { $deal }
}
replay-chart-key = { $who }: { $chips }
replay-try = Pruébalo tú
replay-try-label = Pruébalo tú: sigue desde aquí como { $who }, contra bots, en este dispositivo
replay-chart = Las fichas de cada jugador tras cada reparto
replay-seen-by = Con qué ojos
replay-seen-as = Como lo vio { $who }
replay-link = Enlace a esta repetición
games-title = Mis partidas ({ $n })
games-list = Mis partidas
games-none = Aún no hay partidas terminadas: aquí aparecen las que juegues hasta el final en este navegador.
games-line = { $date }: { $players } — { $count ->
    [0] nadie ganó
    [one] ganó { $winners }
   *[other] ganaron { $winners }
}
games-chips = { $who } { $n }
games-open-file = Abrir el archivo de una partida
games-drop = O suelta en esta página el archivo de una partida para repetirla.
games-file-help = Un archivo guardado por el juego de terminal o el simulador; se repite aquí y no se guarda.

## La partida jugada en este dispositivo, sin servidor
home-others-here = Otros que juegan en este dispositivo
home-others-here-example = Bob, Cleo
home-play-here = Jugar aquí con bots
home-new-game-here = Partida nueva en este dispositivo
home-intro-here = Tripoley es el juego de cartas de la familia: un tablero, una mano de póquer y una carrera para quedarse sin cartas, todo en un reparto. Juégalo aquí contra bots, o pasa este dispositivo por la mesa.
home-play-here-help = «Jugar aquí» no necesita conexión: la partida y los bots funcionan en este dispositivo, y sigue donde la dejaste.
home-no-server = Sin conexión con un servidor de Tripoley: puedes jugar aquí contra bots y pasar el dispositivo. Jugar con gente de otros lugares necesita conexión.
home-offline-kept = Tienes en este dispositivo una partida sin terminar.
home-offline-resume = Seguir con ella
offline-none = No hay ninguna partida en este dispositivo para seguir.
games-save-file = Guardar el registro
rules-offline = El reglamento completo lo da un servidor de Tripoley: sin conexión, las reglas breves de arriba son todo lo que hay.
app-install = Instalar
app-update-ready = Hay una versión nueva.
app-update-reload = Recargar
replay-resume = Seguir con esta partida aquí
replay-resume-replaces = Esto sustituye la partida sin terminar de este dispositivo.
