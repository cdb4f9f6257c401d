## Palabras que comparten el navegador y el terminal: asientos, palos,
## casillas, fases, jugadas de póquer, motivos de cada pago y los sucesos
## de la partida, uno por línea.

seat-n = Asiento { $n }
# Tú, dicho como nombre: $at es start (solo, o al empezar una línea o una
# frase) o within (dentro de una frase: «entre tú y Bot 3»). Quien se llama
# así (el nombre del terminal para quien no dio ninguno) no lleva además «(tú)».
you = { $at ->
    [start] Tú
   *[within] tú
}
name-you = { $name } (tú)
names-and = { $first } y { $last }
words-chips = { $n ->
    [one] { $n } ficha
   *[other] { $n } fichas
}
words-suit = { $suit ->
    [clubs] tréboles
    [diamonds] diamantes
    [hearts] corazones
   *[spades] picas
}
space = { $space ->
    [ace] As
    [king] Rey
    [queen] Reina
    [jack] Jota
    [ten] Diez
    [king_queen] Rey-Reina
    [sequence] Secuencia
    [kitty] Pozo
   *[pot] Bote
}
account-pot = el bote
account-space = { $space ->
    [ace] el As
    [king] el Rey
    [queen] la Reina
    [jack] la Jota
    [ten] el Diez
    [king_queen] el Rey-Reina
    [sequence] la Secuencia
    [kitty] el Pozo
   *[pot] el Bote
}
stage = { $stage ->
    [draw_for_dealer] Sorteo del primer repartidor
    [dealing] Reparto de cartas
    [spare] La mano extra
    [auction] Subasta
    [pay_suit] Elección del palo de pago
    [choose_five] Póquer: elegir cinco cartas
    [betting] Póquer: apuestas
    [showdown] Póquer: se enseñan las manos
    [michigan] Michigan
    [final_pot] El bote final
   *[game_over] Fin de la partida
}
hand-name = { $category ->
    [0] carta alta
    [1] una pareja
    [2] doble pareja
    [3] un trío
    [4] una escalera
    [5] un color
    [6] un full
    [7] un póquer
    [8] una escalera de color
   *[other] una jugada
}
reason = { $reason ->
    [ante] apuesta inicial
    [pay_card] carta de pago
    [king_queen] Rey-Reina
    [sequence] Secuencia
    [auction_price] precio de una mano
    [pay_suit_bid] puja por el palo de pago
    [bet] apuesta
    [pot_won] ganó el bote
    [unmatched] devuelto: nadie lo igualó
    [blocked] juego bloqueado
    [went_out] cerró
    [cards_left] cartas en la mano
    [misled] jugada indebida
    [withheld] carta retenida
    [poker_pool] bolsa de póquer
    [final_pot_gathered] el tablero se junta para el bote final
    [final_pot] bote final
    [side_bet] apuesta aparte
   *[other] { $reason }
}
ledger-line = { $from } → { $to }: { $amount } ({ $reason })
stop-why = { $reason ->
    [ace] llegó a un as
    [already_played] { $next } ya se había jugado
   *[other] nadie jugó { $next }
}

## El historial: una línea por suceso

ev-drew-for-dealer = Sorteo del repartidor: { $draws }.
ev-first-dealer = { $who } reparte primero.
ev-player-out = { $who } no puede pagar la apuesta inicial y deja la partida con { $chips } fichas.
ev-deal-started = Reparto { $number }: reparte { $dealer }{ $suit ->
    [none] {""}
   *[other] ; el palo de pago es { words-suit }
}; la Secuencia empieza en { $sequence ->
    [J] la J
    [Q] la Q
   *[other] el { $sequence }
}.
ev-dealt = Te tocan { $cards }.
ev-dealt-to = A { $who } le tocan { $cards }.
ev-dealer-kept = { $who } se queda con la mano repartida.
ev-swapped = { $who } cambia su mano por la otra.
ev-new-hand = Tu nueva mano: { $cards }.
ev-new-hand-to = Nueva mano de { $who }: { $cards }.
ev-auction-opened = Se subasta { $item ->
    [spare] la mano extra
   *[other] la mano que dejó el repartidor
}.
ev-bid = { $who } puja { $amount }.
ev-passed = { $who } pasa.
ev-auction-sold = { $who } se la lleva por { $price }.
ev-auction-unsold = Nadie la compra.
ev-pay-suit-named = El palo de pago es { words-suit }{ $named ->
    [yes] , elegido por { $who }
   *[no] {""}
}.
ev-shows = { $who } enseña { $cards }.
ev-sequence-shared = La Secuencia se reparte; { $remainder } se queda en la casilla.
ev-checked = { $who } pasa.
ev-bet = { $who } apuesta { $amount }.
ev-called = { $who } iguala { $amount }{ $allin ->
    [yes] {" "}(va con todo)
   *[no] {""}
}.
ev-raised = { $who } sube { $by }.
ev-folded = { $who } se retira.
ev-chose-five = Tus cinco cartas de póquer: { $cards }.
ev-chose-five-of = Las cinco cartas de póquer de { $who }: { $cards }.
ev-set-five-apart = { $who } aparta sus cinco cartas.
ev-showed = { $who } enseña { $cards }: { $hand }.
ev-led = { $who } sale con { $card }{ $misplay ->
    [yes] {" "}(jugada indebida: no es la más baja del palo)
   *[no] {""}
}.
ev-withheld = Te guardas { $card }.
ev-withheld-by = { $who } se guarda { $card }.
ev-run-stopped = La serie se corta: { $why }.
ev-cannot-lead = { $who } no puede salir; el turno pasa al siguiente.
ev-play-blocked = Nadie puede salir: el juego queda bloqueado.
ev-went-out = { $who } juega su última carta y cierra.
ev-final-pot-round = Bote final { $round }: { $chips } fichas.
ev-face-up = A { $who } le tocan { $cards } boca arriba.
ev-deal-ended = Se acabó el reparto { $number }.
ev-game-over = Fin de la partida: { $winners }{ $count ->
    [one] {" "}gana.
   *[other] {" "}comparten la victoria.
}

## Las jugadas, como las dice la pista ("El experto ...")

action = { $action ->
    [keep] se quedaría con su mano
    [swap] cambiaría su mano por la extra
    [auction_spare] subastaría la mano extra
    [swap_and_auction] cambiaría y subastaría su mano anterior
    [pass] pasaría
    [check] pasaría
    [call] igualaría
    [fold] se retiraría
    [play] jugaría la carta
    [withhold] se guardaría la carta
    [yes] diría Sí
    [no] diría No
    [challenge] desafiaría
    [decline] mantendría su No
   *[other] { $action }
}
action-lead = saldría con { $card }
action-name-suit = elegiría { words-suit }
action-pick = elegiría { $cards }
action-amount = { $action ->
    [bid] pujaría
    [bet] apostaría
    [raise] subiría
   *[other] { $action }
} { $amount }

## Una jugada hecha, como la nombra el análisis ("Ana — pujar 5; el experto: pasaría")

move = { $action ->
    [keep] quedarse con su mano
    [swap] cambiar su mano por la extra
    [auction_spare] subastar la mano extra
    [swap_and_auction] cambiar y subastar su mano anterior
    [pass] pasar
    [check] pasar
    [call] igualar
    [fold] retirarse
    [play] jugar la carta
    [withhold] guardarse la carta
    [yes] decir Sí
    [no] decir No
    [challenge] desafiar
    [decline] mantener su No
   *[other] { $action }
}
move-lead = salir con { $card }
move-name-suit = elegir { words-suit }
move-pick = elegir { $cards }
move-amount = { $action ->
    [bid] pujar
    [bet] apostar
    [raise] subir
   *[other] { $action }
} { $amount }

## Las cartas como las dice un lector de pantalla ("diez de corazones")

card-words = { $rank ->
    [2] dos
    [3] tres
    [4] cuatro
    [5] cinco
    [6] seis
    [7] siete
    [8] ocho
    [9] nueve
    [10] diez
    [J] jota
    [Q] reina
    [K] rey
   *[A] as
} de { words-suit }

## Una jugada de póquer con sus cartas ("full de reyes y cincos"), para el terminal

rank-name = { $rank ->
    [two] dos
    [three] tres
    [four] cuatro
    [five] cinco
    [six] seis
    [seven] siete
    [eight] ocho
    [nine] nueve
    [ten] diez
    [jack] jota
    [queen] reina
    [king] rey
   *[ace] as
}
rank-plural = { $rank ->
    [two] doses
    [three] treses
    [four] cuatros
    [five] cincos
    [six] seises
    [seven] sietes
    [eight] ochos
    [nine] nueves
    [ten] dieces
    [jack] jotas
    [queen] reinas
    [king] reyes
   *[ace] ases
}
rank-high = { $rank ->
    [queen] a la reina
    [jack] a la jota
   *[other] al { rank-name }
}
poker-hand = { $shape ->
    [royal] escalera real
    [high] { $category ->
        [flush] color { $high }
       *[high_card] carta alta: { $card }
    }
    [run] { $category ->
        [straight_flush] escalera de color { $high }
       *[straight] escalera { $high }
    }
    [pair] pareja de { $a }
    [two_pair] doble pareja de { $a } y { $b }
    [trips] trío de { $a }
    [full] full de { $a } y { $b }
   *[quads] póquer de { $a }
}

# A bidder with nothing to bid, in the terminal and the browser.
bid-none = { $why ->
    [bonus] Tienes una carta de premio, así que no puedes pujar: pasa.
   *[chips] No te quedan fichas para pujar: pasa.
}
