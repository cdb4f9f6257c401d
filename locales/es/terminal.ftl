## El juego en el terminal (`tripoley play`, crates/cli/src/play): el
## historial desde el lado del jugador ("Pujas 3." / "Bot 1 puja 3."): cada
## mensaje elige según $you (yes o no) y nombra a $who; quien cobra, según $to_you, y se nombra $to.

term-drew = Sorteo del primer repartidor: { $draws }.
term-first-dealer = { $you ->
    [yes] Repartes tú
   *[no] Reparte { $who }
} primero.
term-player-out = { $you ->
    [yes] No puedes pagar la apuesta inicial y dejas
   *[no] { $who } no puede pagar la apuesta inicial y deja
} la partida con { $chips }.
term-deal-started = Reparto { $number } de { $total }: { $you ->
    [yes] repartes tú
   *[no] reparte { $who }
}. Palo de pago { $suit ->
    [none] por subastar
   *[other] { words-suit } { $symbol }
}, Secuencia { $sequence }.
term-dealer-kept = { $you ->
    [yes] Te quedas tu
   *[no] { $who } se queda su
} mano.
term-swapped = { $you ->
    [yes] Cambias tu
   *[no] { $who } cambia su
} mano por la extra.
term-auction-opened = { $item ->
    [spare] Se subasta la mano extra, sin verla.
   *[old] Se subasta la mano que dejó el repartidor.
}
term-bid = { $you ->
    [yes] Pujas
   *[no] { $who } puja
} { $amount }.
term-passed = { $you ->
    [yes] Pasas
   *[no] { $who } pasa
}.
term-auction-sold = { $you ->
    [yes] Compras
   *[no] { $who } compra
} la mano por { $price }.
term-auction-unsold = Nadie compra la mano.
term-pay-suit-named = { $you ->
    [yes] Eliges
   *[no] { $who } elige
} { words-suit } como palo de pago.
term-pay-suit-default = Todos pasaron: el palo de pago es { words-suit }.
term-shows = { $you ->
    [yes] Enseñas
   *[no] { $who } enseña
} { $cards }.
term-sequence-shared = { $players } jugadores se reparten la Secuencia; { $remainder ->
    [one] queda 1 ficha
   *[other] quedan { $remainder } fichas
} en ella.
term-set-five-apart = { $you ->
    [yes] Apartas
   *[no] { $who } aparta
} cinco cartas para el póquer.
term-checked = { $you ->
    [yes] Pasas
   *[no] { $who } pasa
}.
term-bet = { $you ->
    [yes] Apuestas
   *[no] { $who } apuesta
} { $amount }.
term-called = { $you ->
    [yes] Igualas
   *[no] { $who } iguala
} { $amount }{ $allin ->
    [yes] , con todo
   *[no] {""}
}.
term-raised = { $you ->
    [yes] Subes
   *[no] { $who } sube
} { $by } (pone { $amount }).
term-folded = { $you ->
    [yes] Te retiras
   *[no] { $who } se retira
}.
term-showed = { $you ->
    [yes] Enseñas
   *[no] { $who } enseña
} { $cards }: { $hand }.
term-led = { $you ->
    [yes] Sales con
   *[no] { $who } sale con
} { $card }{ $misplay ->
    [yes] , que no es la más baja de su palo (jugada indebida)
   *[no] {""}
}.
term-played = { $you ->
    [yes] Juegas
   *[no] { $who } juega
} { $card }.
term-withheld = { $you ->
    [yes] Te guardas
   *[no] { $who } se guarda
} { $card } (jugada indebida).
term-run-stopped = La serie se corta: { $why }.
term-cannot-lead = { $you ->
    [yes] No puedes
   *[no] { $who } no puede
} salir; la salida pasa a la izquierda.
term-went-out = { $you ->
    [yes] ¡Juegas tu última carta y cierras!
   *[no] ¡{ $who } juega su última carta y cierra!
}
term-final-pot-round = Bote final { $round }: { $chips }, cinco cartas nuevas a cada uno.
term-face-up = { $you ->
    [yes] Recibes
   *[no] { $who } recibe
} { $cards } boca arriba.
term-game-over = Se acabó la partida. Más fichas: { $winners }.
term-took = { $you ->
    [yes] Cobras
   *[no] { $who } cobra
} { $what }: { $n }.
term-won = { $you ->
    [yes] Ganas
   *[no] { $who } gana
} { $pot ->
    [poker_pool] la Bolsa de póquer
    [final_pot] el bote final
   *[pot] el Bote
}: { $chips }.
term-took-back = { $you ->
    [yes] Recuperas
   *[no] { $who } recupera
} { $chips } que nadie igualó.
term-pays = { $you ->
    [yes] Pagas
   *[no] { $who } paga
} { $n } ({ $reason }), para { $to_you ->
    [yes] ti
   *[no] { $to }
}.
term-space-pays = { $what } paga { $n } ({ $reason }), para { $to_you ->
    [yes] ti
   *[no] { $to }
}.
term-antes = Apuestas iniciales: { $list }
term-reason = { $reason ->
    [ante] apuesta inicial
    [pay_card] carta de pago
    [king_queen] rey y reina de { $symbol }
    [sequence] la Secuencia
    [auction_price] precio de la mano subastada
    [pay_suit_bid] puja por elegir el palo de pago
    [bet] apuestas de póquer
    [pot_won] ganó el bote de póquer
    [unmatched] devuelto: nadie lo igualó
    [blocked] cartas en la mano al bloquearse
    [went_out] cerró: el Pozo
    [cards_left] cartas que quedaban al cerrar
    [misled] indebida: no salió con la más baja
    [withheld] indebida: se guardó una carta
    [poker_pool] la Bolsa de póquer
    [final_pot_gathered] se junta para el bote final
   *[final_pot] ganó el bote final
}
term-stop = { $why ->
    [ace] llegó al as
    [played] { $card } ya se jugó
    [spare_or_withheld] { $card } (¿extra o guardado?)
   *[spare] { $card } está en la extra
}
term-stopped = Cortada:
term-space-card = la casilla { $label }
term-space-king-queen = la casilla Rey-Reina

## La pantalla del terminal: cabecera, paneles, preguntas y teclas

term-too-small = La mesa necesita un terminal de al menos { $w }x{ $h }; este mide { $width }x{ $height }. Agrándalo, o pulsa q para guardar y terminar.
term-stage = { $stage ->
    [draw_for_dealer] sorteo del repartidor
    [dealing] reparto
    [spare] la mano extra
    [auction] subasta
    [pay_suit] palo de pago
    [choose_five] póquer: elegir cinco
    [betting] póquer
    [michigan] Michigan
    [final_pot] bote final
   *[game_over] fin de la partida
}
term-head-deal = reparto { $n }/{ $total }
term-head-dealer = { $you ->
    [yes] repartes tú
   *[no] reparte { $who }
}
term-head-pay = pago { $symbol }
term-col-chips = fichas
term-col-cards = cartas
term-seat-bet = apuesta { $n }{ $allin ->
    [yes] {" "}con todo
   *[no] {""}
}
term-seat-bid = puja { $n }
term-seq-short = Sec
term-layout = Tablero{ $spare ->
    [yes] { $suit ->
        [none] {" "}· x: en la extra
       *[other] {" "}{ $symbol } · x: en la extra
    }
   *[no] { $suit ->
        [none] {""}
       *[other] {" "}({ words-suit } { $symbol })
    }
}
term-last = Última: { $you ->
    [yes] tu
   *[no] { $who }
} { $card }
term-betting-status = Bote { $pot } · apuesta { $high } · subidas { $raises }
term-auction-status = { $what ->
    [spare] Subasta de la extra
    [hand] Subasta de una mano
   *[pay_suit] Subasta del palo de pago
}: { $bid ->
    [yes] { $n }{ $you ->
        [yes] , tuya
       *[no] {" "}de { $who }
    }
   *[no] sin pujas aún
}
term-panel-log = Historial (l: cuentas)
term-panel-ledger-now = Cuentas del reparto { $n } hasta ahora (l: siguiente)
term-panel-ledger-last = Cuentas del reparto { $n } (l: historial)
term-panel-ledger = Cuentas
term-hidden = ▼ { $n ->
    [one] { $n } línea nueva oculta
   *[other] { $n } líneas nuevas ocultas
}: AvPág
term-no-chips = Aún no se ha movido ninguna ficha.
term-hand-title = Tu mano: { $n ->
    [one] { $n } carta
   *[other] { $n } cartas
}
term-to-play = Le toca a { $who }…
term-bots-playing = Están jugando los bots…
term-key-skip-turn = saltar hasta tu turno
term-key-keep = quedarte
term-key-swap = cambiar sin ver
term-key-auction = subastar la extra
term-key-swap-auction = cambiar y subastar la tuya
term-prompt-spare = Repartes tú: ¿te quedas tu mano o tomas la extra?
term-key-pass = pasar
term-key-bid = pujar
term-prompt-auction = Subasta de { $item ->
    [spare] la mano extra (sin verla)
   *[old] la mano que dejó el repartidor
}: { $high }.
term-prompt-pay-suit-bid = Subasta para elegir el palo de pago: { $high }.
term-prompt-name-suit = Ganaste la subasta: elige el palo de pago.
term-key-check = pasar
term-key-bet = apostar
term-prompt-open = Póquer: nadie ha apostado. Bote { $pot }. { $hand }
term-key-fold = retirarte
term-key-call = igualar { $n }{ $allin ->
    [yes] {" "}(con todo)
   *[no] {""}
}
term-key-raise = subir
term-prompt-respond = Póquer: { $n } para igualar. Bote { $pot }. { $hand }
term-key-move = mover
term-key-take = tomar/dejar
term-key-best = las cinco mejores
term-key-set-apart = apartarlas
term-prompt-five = Elige tus cinco: { $cards }, { $hand }
term-prompt-five-count = Elige tus cinco cartas de póquer: { $n } elegidas.
term-key-choose = elegir
term-key-suit = palo
term-key-lead = salir
term-prompt-misplay = Jugada indebida: { $card } no es tu carta más baja de { words-suit }. Cuesta { words-chips } y tus casillas de pago.
term-prompt-lead = Sales con { $card }.
term-prompt-lead-choose = Te toca salir: elige una carta marcada.
term-prompt-lead-only = Tu única salida: { $card }.
term-key-play = jugarla
term-key-withhold = guardártela (jugada indebida: pierdes tus casillas de pago y puedes deber fichas)
term-prompt-follow = Tu { $card } es la siguiente de la serie.
term-withhold-confirm = ¿Te guardas { $card }? La serie se corta, pierdes tus casillas de pago en este reparto y puedes deber fichas. Pulsa w otra vez para guardártela; cualquier otra tecla lo cancela.
term-nothing-to-decide = Nada que decidir en este reparto: { $poker ->
    [no] estas reglas no tienen póquer y todas tus jugadas de Michigan eran obligadas.
   *[yes] todas tus jugadas eran obligadas.
}
term-bonus-no-bid = Tienes { $n ->
    [one] una carta de premio ({ $cards })
   *[other] cartas de premio ({ $cards })
}, así que no puedes pujar por esta mano.
term-bonus-no-swap = Repartes y tienes { $n ->
    [one] una carta de premio ({ $cards })
   *[other] cartas de premio ({ $cards })
}: no puedes cambiar de mano.
term-high-bid = puja más alta { $n }{ $you ->
    [yes] , tuya
   *[no] {" "}de { $who }
}
term-no-bid = sin pujas aún
term-your-five = Tus cinco: { $cards }, { $hand }.
term-keycap = { $key ->
    [space] Espacio
    [enter] Intro
   *[pages] RePág/AvPág
}
term-key-hint = pista
term-key-log = historial
term-key-scroll = mover
term-key-skip = saltar
term-key-quit = guardar y parar
term-more-below = ↓ { $n ->
    [one] { $n } línea más
   *[other] { $n } líneas más
} abajo
term-key-quit-only = terminar
term-key-continue = seguir
term-quit-question = ¿Guardar y terminar?
term-quit-answers = sí  cualquier otra tecla: no
term-deal-over = Fin del reparto { $n } de { $total }: quién pagó a quién
term-chips-title = Fichas
term-after-last = Después del último reparto (el bote final):
term-left-on-layout = { words-chips } en el tablero que nadie ganó: se quedan ahí.
term-saved-to = La partida está guardada en { $path }
term-replay-hint = (tripoley replay { $path } muestra las cuentas de cada reparto).

## Las notas, negativas y pistas del terminal

term-resumed = Partida reanudada tras { $n } pasos.
term-refused = rechazada: { $why }
term-note-went-out = Michigan: { $you ->
    [yes] cerraste
   *[no] { $who } cerró
}{ $card ->
    [none] {""}
   *[other] {" "}con { $card }
}.
term-note-blocked = Michigan acabó bloqueado: nadie podía salir.
term-note-final-pot = Bote final: { $line }
term-not-allowed = Eso no se puede hacer ahora.
term-amount-range = La cantidad tiene que ir de { $min } a { $max }.
term-five-full = Ya tienes cinco cartas: quita una primero.
term-five-exactly = Elige exactamente cinco cartas ({ $n } elegidas).
term-may-not-lead-suit = Ahora no puedes salir de { words-suit }.
term-may-not-lead = No puedes salir con esa carta.
term-hint = Pista del bot experto ({ $n } repartos de muestra jugados): { $action }{ $why }.
term-hint-why = { $best } fichas esperadas al final del reparto; la siguiente mejor, { $next }: { $worth }
term-action = { $action ->
    [keep] quedarte tu mano
    [swap] cambiarla por la extra
    [auction_spare] subastar la extra
    [swap_and_auction] cambiar y subastar tu mano anterior
    [bid] pujar { $n }
    [pass] pasar
    [name_suit] elegir { words-suit }
    [check] pasar
    [bet] apostar { $n }
    [call] igualar
    [raise] subir { $n }
    [fold] retirarte
    [choose] apartar { $cards }
    [lead] salir con { $cards }
    [play] jugar la carta
   *[withhold] guardarte la carta
}

## La mesa de Napalm en el terminal (crates/cli/src/play/napalm)

tn-result = Fin de la partida: { $count ->
    [one] { $you ->
        [yes] te llevas
       *[no] { $who } se lleva
    } el bote de { $pot } fichas.
   *[other] { $you ->
        [among] tú y { $others } os repartís
       *[no] { $who } se reparten
    } el bote de { $pot } fichas.
}
tn-hand-started = Mano { $n }: { $you ->
    [yes] repartes tú
   *[no] reparte { $who }
} y todos ponen la apuesta inicial.
tn-player-out = { $you ->
    [yes] Dejas la partida con { $chips } fichas: no te llegan
   *[no] { $who } deja la partida con { $chips } fichas: no le llegan
} para la apuesta inicial.
tn-side-bet = { $you ->
    [yes] Pagas a { $to }
   *[no] { $who } { $to_you ->
        [yes] te paga
       *[no] paga a { $to }
    }
} una apuesta aparte de { $n } fichas (el bote).
tn-pot-won = { $you ->
    [yes] Te llevas
   *[no] { $who } se lleva
} el bote: { $n } fichas.
tn-round-started = Ronda { $n }: un Sí dice tener { napalm-claim }.{ $got ->
    [all] {" "}Te tocan { $held } ({ $hand }).
    [more] {" "}Te tocan { $dealt }; tienes { $held } ({ $hand }).
   *[none] {""}
}
tn-declared = { $you ->
    [yes] Dices
   *[no] { $who } dice
} { $yes ->
    [yes] Sí
   *[no] No
}.
tn-challenged = { $you ->
    [yes] Desafías
   *[no] { $who } desafía
} al repartidor: el No pasa a Sí.
tn-kept-no = { $you ->
    [yes] Mantienes
   *[no] { $who } mantiene
} el No.
tn-compared = Comparación en privado entre { $who }: { $hands }. Mejor: { $best }.
tn-compared-unseen = { $who } comparan sus manos en privado (tú no las ves).
tn-token = { $you ->
    [yes] Eres el único Sí y ganas un punto: llevas
   *[no] { $who } es el único Sí y gana un punto: lleva
} { $tokens ->
    [one] { $tokens } punto
   *[other] { $tokens } puntos
}.
tn-hand-ended = Se acabó la mano { $n }.
tn-game-over = Fin de la partida: { $you ->
    [yes] ganaste
    [among] ganasteis tú y { $others }
   *[no] { $count ->
        [one] ganó
       *[other] ganaron
    } { $who }
}.
tn-hint = Pista: el bot heurístico { $answer ->
    [yes] diría Sí
    [no] diría No
    [challenge] desafiaría
   *[decline] no desafiaría
}; tu mano gana al { $share } % de las manos al azar.
tn-pair = pareja de { $a }
tn-two-cards = { $hi } y { $lo }
tn-lowest-five = las cinco más bajas { $cards }: { $hand }
tn-best-five = las cinco mejores: { $hand }
tn-head-hand = mano { $n } · { $you ->
    [yes] repartes tú
   *[no] reparte { $who }
}
tn-head-pot = bote { $pot } · gana quien llegue a { $tokens } puntos
tn-head-round = Ronda { $n } de 3: un Sí dice tener { napalm-claim }
tn-between-hands = Entre manos
tn-col-player = jugador
tn-col-tokens = puntos
tn-col-says = dice
tn-col-seen = cartas que viste
tn-says = { $said ->
    [challenged] No→Sí
    [yes] Sí
    [no] No
   *[nothing] —
}
tn-result-title = Resultado
tn-table = Mesa
tn-log = Historial
tn-your-cards = Tus cartas: { $n }
tn-prompt-declare = Te toca: ¿tienes { napalm-claim }?
tn-prompt-challenge = Solo { $who } dijo Sí a { napalm-claim }. ¿Desafías?
tn-key-challenge = Desafiar (el No pasa a Sí)
tn-key-decline = No desafiar (mantener el No)
tn-hands-played = { $n ->
    [one] Se jugó { $n } mano. El final del historial:
   *[other] Se jugaron { $n } manos. El final del historial:
}
tn-key-leave = terminar
tn-key-scroll-log = desplazar el historial

## Al cerrarse la pantalla, y al guardar

term-over-saved = Se acabó la partida. Está guardada en { $path }; `tripoley replay { $path }` muestra sus cuentas.
term-paused-saved = Partida guardada en { $path }. Para seguirla: { $command }
term-crash-saved = tripoley: la partida hasta aquí está guardada en { $path }
term-cannot-save = No se puede guardar en { $path }: { $error }
tn-over-saved = { $result } La partida está guardada en { $path }.
term-bot-illegal = { $you ->
    [yes] Intentaste
   *[no] { $who } intentó
} una jugada que las reglas no permiten ({ $action }); se juega otra en su lugar.
term-bot-level = { $level ->
    [random] al azar
    [expert] experto
   *[heuristic] heurístico
}

## tripoley replay: las cuentas de una partida guardada

rp-header = { $players } jugadores, { $rules }: { $names }
rp-preset = reglas { $name }
rp-preset-deals = reglas { $name }, { $deals ->
    [one] { $deals } reparto
   *[other] { $deals } repartos
}
rp-house-rules = reglas de la casa
rp-seat = asiento { $seat }
rp-seat-named = asiento { $seat } ({ $name })
rp-deal = Reparto { $n }
rp-deal-unfinished = Reparto { $n } (sin terminar: la partida guardada acaba aquí)
rp-deal-bare = Reparto
rp-before-first = Antes del primer reparto
rp-final-pot = Bote final
rp-after-last = Después del último reparto (la partida guardada acaba aquí)
rp-dealer = : reparte { $player }
rp-pay-suit = , palo de pago { words-suit }
rp-sequence = , Secuencia { $run }
rp-no-chips = no se movió ninguna ficha
rp-out = { $player } no puede poner la apuesta inicial y deja la partida con { words-chips }
rp-transfer = { $payer } -> { $payee }: { $amount } ({ $reason ->
    [ante] apuesta inicial
    [pay_card] carta de pago
    [king_queen] Rey-Reina
    [sequence] Secuencia
    [auction_price] precio de la mano subastada
    [pay_suit_bid] puja por el palo de pago
    [bet] apuesta
    [pot_won] bote ganado
    [unmatched] devuelto: nadie lo igualó
    [blocked] juego bloqueado, 1 por carta en mano
    [went_out] cerró: el Pozo
    [cards_left] cerró: 1 por carta que quedaba
    [misled] jugada indebida: no salió con la más baja
    [withheld] jugada indebida: se guardó una carta
    [poker_pool] Bolsa de póquer
    [final_pot_gathered] se junta para el bote final
   *[final_pot] bote final ganado
})
rp-stacks = Fichas:
rp-layout = Tablero: { $list }
rp-standings = Clasificación
rp-standing = { $player }: { words-chips }{ $winner ->
    [yes] , ganador
   *[no] {""}
}
rp-no-standings = La partida guardada acaba antes del final: aún no hay clasificación.
term-hint-cursor = El cursor pasó a { $card }: Intro sale con ella.
term-hint-five-picked = Ahora están elegidas las cinco del experto: Intro las aparta.
term-hint-five-kept = Tus cinco siguen elegidas: pulsa ? otra vez para elegir las del experto.

## tripoley replay de una partida de Napalm: las cuentas de cada mano

rpn-header = Napalm: { $players } jugadores, gana quien llegue a { $tokens } puntos, { $hands } manos como mucho
rpn-hand = Mano { $n }, reparte { $player }
rpn-after-last = Tras la última mano
rpn-out = { $player } queda fuera (no puede poner la apuesta inicial) con { words-chips }
rpn-pot = el bote
rpn-transfer = { $payer } -> { $payee } ({ $reason ->
    [ante] apuesta inicial
    [side_bet] apuesta aparte
   *[pot_won] bote ganado
})
rpn-token = { $player } gana un punto
rpn-stack = { $name } { $chips } ({ $tokens ->
    [one] { $tokens } punto
   *[other] { $tokens } puntos
})
rpn-chips = fichas: { $list }; bote { $pot }
rpn-game-over = Fin de la partida: el bote es para { $players }.
rpn-unfinished = La partida guardada acaba antes del final.
