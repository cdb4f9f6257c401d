## Las reglas de una mesa en palabras (crates/i18n/src/rules.rs): lo que
## escribe `tripoley rules --lang es` y lo que muestra la vista Reglas. El
## código añade tras cada frase el identificador de la regla en RULES.md,
## como "(T5)".

rules-of-suit = { $suit ->
    [clubs] de tréboles
    [diamonds] de diamantes
    [hearts] de corazones
    [spades] de picas
   *[any] del palo de pago
}
rules-preset = Las reglas de la variante { $preset }.
rules-house = Reglas de la casa (no coinciden con ninguna de las cinco variantes).
rules-invalid = Con estas reglas no se puede jugar: { $error }
rules-unused = Sin efecto en esta mesa ({ $why }): { $options }.
rules-unset = sin fijar (sin límite)

rules-heading-setup = Mesa y preparación
rules-heading-spare = Mano extra
rules-heading-pay = Cartas de pago
rules-heading-poker = Póquer
rules-heading-michigan = Michigan
rules-heading-end = Fin de la partida

## Mesa y preparación

rules-t1 = Una baraja de 52 cartas, sin comodines. Las cartas van del 2 (la más baja) al as (la más alta): 2, 3, 4, 5, 6, 7, 8, 9, 10, J (jota), Q (reina), K (rey) y A (as).
rules-t2 = Jugadores: de { $min } a { $max }. Cada uno empieza con { $chips }.
rules-t3-draw = Primer repartidor: cada uno saca una carta y reparte quien saque la más alta (los palos no cuentan); si hay empate en la más alta, los empatados vuelven a sacar de una baraja nueva.
rules-t3-seat = Primer repartidor: el asiento { $seat }.
rules-t3-passes = Tras cada reparto, reparte el jugador de la izquierda.
rules-t4 = El tablero tiene { $spaces } casillas, en este orden: el As, el Rey, la Reina, la Jota y el Diez { $of_suit }, el Rey-Reina { $of_suit }, la Secuencia, el Pozo{ $pot ->
    [yes] {" "}y el Bote
   *[no] {" "}(no hay Bote: no se juega al póquer)
}. Las fichas de una casilla se quedan en ella de un reparto a otro hasta que alguien se las lleva.
rules-t5 = Antes de cada reparto cada jugador pone { $chips } en cada una de las { $spaces } casillas.
rules-t5-dealer = Antes de cada reparto cada jugador pone { $chips } en cada una de las { $spaces } casillas (el repartidor pone { $dealer }).
rules-t5-spaces = Antes de cada reparto cada jugador pone { $named }{ $others ->
    [0] {""}
   *[other] , y { $chips } en cada una de las demás casillas
}{ $dealer ->
    [more] {" "}(el repartidor pone { $by } más en cada casilla)
    [less] {" "}(el repartidor pone { $by } menos en cada casilla)
   *[same] {""}
}.
rules-t5-on-space = { $chips } en { $space }
rules-t6-out = Quien no pueda pagar toda su apuesta inicial ({ $deal } por reparto, { $dealing } cuando reparte) queda fuera de la partida y se queda con las fichas que tenga; si le tocaba repartir, reparte el de su izquierda. Se sigue jugando mientras queden al menos dos jugadores.
rules-t6-zero = Nadie baja de cero fichas: lo que un jugador debe pagar se limita a lo que tiene, y nadie puede apostar más de lo que tiene.
rules-t7 = Las fichas ni se crean ni se pierden: lo que tienen los jugadores más lo que hay en el tablero suma siempre las fichas con las que empezó la partida.
rules-t8 = Cuando hay varios pagos a la vez se hacen por turnos, lo que importa si a alguien no le llegan las fichas: las apuestas iniciales y los pagos por juego bloqueado, en el sentido de las agujas del reloj desde la izquierda del repartidor; las casillas de pago, en el orden del tablero; las fichas de una jugada indebida, desde la izquierda de quien salió; al cerrar, primero el Pozo y luego los demás desde la izquierda del ganador; quienes retuvieron cartas, en el orden en que retuvieron por primera vez; los botes y casillas compartidos, a los ganadores desde la izquierda del repartidor.

## Mano extra

rules-d1 = Se reparte toda la baraja carta a carta, en el sentido de las agujas del reloj desde el jugador a la izquierda del repartidor, con una mano de más, la mano extra, que recibe su carta justo después del repartidor. Las primeras manos en el orden de reparto pueden tener una carta más que las demás.
rules-d2 = La mano extra se queda boca abajo todo el reparto: nadie la ve nunca.
rules-unused-spare = la mano extra nunca se cambia ni se vende
rules-d3 = Después de mirar su mano, el repartidor elige una opción: a) quedársela; b) cambiarla por la mano extra, sin verla; c) subastar la mano extra, sin verla; d) cambiarla y luego subastar su mano anterior. Si nadie compra la mano extra, el repartidor aún puede cambiar. Nadie deshace un cambio; la mano que se deja pasa a ser la extra.
rules-d4 = Subasta: los jugadores que no reparten pujan por turnos, en el sentido de las agujas del reloj desde la izquierda del repartidor, cada puja más alta que la anterior (al menos 1, como mucho sus fichas), o pasan y ya no vuelven a pujar. El último que queda pujando cambia su mano por la subastada y paga el precio { $payee ->
    [dealer] al repartidor
   *[kitty] al Pozo
}; si todos pasan, la mano no se vende.
rules-d5-limits = El repartidor solo puede cambiar si su mano no tiene ninguna carta de premio, y solo pueden pujar los jugadores cuya mano no tenga ninguna. Una carta de premio es el as, el rey, la reina, la jota o el diez { $of_suit }, o una carta de una Secuencia completa de un mismo palo que esté en la mano.
rules-d5-none = Cualquiera puede cambiar o pujar, tenga las cartas que tenga (sin límites por cartas de premio).
rules-d6 = El repartidor conoce la mano que dejó, el comprador conoce la mano que dejó, y nadie más sabe nada de la mano extra.

## Cartas de pago

rules-h1-suit = El palo de pago es { words-suit }: su A, K, Q, J y 10 son las cartas de pago.
rules-h8 = El palo de pago se subasta cuando ya está resuelta la mano extra: empieza a pujar el repartidor y se dan las vueltas que hagan falta hasta que todos menos uno hayan pasado. Quien puja más alto pone su puja en el Pozo y elige el palo de pago; si todos pasan, es { words-suit }.
rules-h9-suit = El palo de pago se sortea antes de cada reparto y todos lo ven.
rules-h7 = La Secuencia es { $run } de un mismo palo, cualquiera.
rules-h7-impossible = La Secuencia son tres cartas desde { $low ->
    [J] la J
    [Q] la Q
   *[other] el { $low }
} (imposible: pasarían del as) de un mismo palo, cualquiera.
rules-h9-sequence = La Secuencia son tres cartas seguidas (Q-K-A como mucho) que se sortean antes de cada reparto y todos ven; puede ser de cualquier palo, todas del mismo.
rules-h1 = Fase 1: quien tenga el as, el rey, la reina, la jota o el diez { $of_suit } lo enseña y se lleva todas las fichas de su casilla. Las cartas enseñadas quedan a la vista de todos.
rules-h2 = Quien tenga a la vez el rey y la reina { $of_suit } se lleva además la casilla del Rey-Reina.
rules-h3 = Cada jugador que tenga la Secuencia en un mismo palo cobra la casilla de la Secuencia; si son varios, cada uno se lleva una parte igual, redondeando hacia abajo, y el resto se queda en la casilla. Tenerla en dos palos cuenta como una sola.
rules-h4 = Las casillas que nadie cobra conservan sus fichas; { $pot ->
    [yes] el Pozo y el Bote nunca se cobran
   *[no] el Pozo nunca se cobra
} en la fase 1.
rules-h5 = No hay fase 1: las cartas de pago se cobran en la fase 3. Quien juega una carta de pago se lleva su casilla en el acto.
rules-h6 = Quien juega la reina y luego el rey { $of_suit } como dos cartas seguidas se lleva la casilla del Rey-Reina; quien juega seguidas las tres cartas de la Secuencia de un mismo palo se lleva la casilla de la Secuencia. "Seguidas" quiere decir las cartas jugadas justo a continuación, todas por ese jugador. Las cartas de pago que sigan en la mano al acabar el reparto no cobran nada.

## Póquer

rules-p2 = { $high ->
    [yes] El as es siempre alto: A-2-3-4-5 no es escalera.
   *[no] A-2-3-4-5 es la escalera más baja.
}
rules-raises-unlimited = no hay límite de subidas
rules-raises-at-most = { $n ->
    [0] no se permite subir
    [one] se permite como mucho { $n } subida por ronda
   *[other] se permiten como mucho { $n } subidas por ronda
}
rules-p1 = Fase 2: antes de apostar, cada jugador que sigue en juego elige exactamente cinco cartas de su mano como su mano de póquer, no necesariamente las mejores, y las aparta boca abajo, por turnos desde la izquierda del repartidor; se apuesta por esas cinco, y nadie conoce las cinco de otro hasta que se enseñan.
rules-hand-ranks = Las jugadas van de la escalera de color a la carta alta; los empates se deciden por las cartas sueltas, nunca por los palos. { $straights }
rules-p3 = Empieza a apostar { $opener ->
    [dealer] el repartidor
   *[left] el jugador a la izquierda del repartidor
} y se sigue en el sentido de las agujas del reloj.
rules-p4 = Si nadie ha apostado, un jugador pasa o apuesta de 1 a { $limit }; tras una apuesta, un jugador se retira, iguala o sube de 1 a { $limit } por encima de lo que iguala; { $raises }.
rules-p5 = Todas las apuestas van al Bote. Si todos menos uno se retiran, ese jugador se lleva el Bote y nadie enseña; si no, la ronda acaba cuando todos los que siguen han puesto lo mismo y han hablado desde la última apuesta o subida.
rules-p6 = Al enseñar, la mejor mano se lleva todo el Bote; si hay empate en la mejor, se reparte y el resto se queda. Las manos se enseñan desde el último que apostó o subió (quien abrió si nadie lo hizo), en el sentido de las agujas del reloj; las manos retiradas nunca se enseñan.
rules-p7 = Quien no pueda igualar una apuesta puede ir con todo lo que tiene; lo que los demás pongan de más forma botes aparte. Las fichas que ya estaban en el Bote son del bote principal.
rules-p8 = Las cartas enseñadas quedan a la vista de todos el resto del reparto.
rules-p9 = No hay apuestas. Después de la fase 3 se comparan las cinco mejores cartas de la mano que cada jugador tenía al empezar la fase 3 (elegidas por el juego, no por el jugador), y la mejor se lleva la casilla del Bote, la Bolsa de póquer; si hay empate en la mejor, se reparte y el resto se queda.
rules-no-poker = En los repartos no se juega al póquer y no hay casilla de Bote.
rules-final-straights = Para el bote final: { $straights }
rules-unused-betting = en esta mesa nadie apuesta
rules-final-betting = En el bote final empieza a apostar { $opener ->
    [dealer] el repartidor
   *[left] el jugador a la izquierda del repartidor
}; las apuestas son de 1 a { $limit } y { $raises }.
rules-unused-poker = no se comparan manos de póquer

## Michigan

rules-m1 = Fase 3: cada jugador recupera toda su mano.
rules-m2-winner = Sale primero quien ganó el bote de póquer (con botes aparte, quien ganó el principal; con un bote compartido, el primer ganador en el sentido de las agujas del reloj desde la izquierda del repartidor).
rules-m2-dealer = Sale primero el repartidor.
rules-m2-left = Sale primero el jugador a la izquierda del repartidor.
rules-m3 = Salir es jugar la carta más baja que se tenga del palo que se elija.
rules-m3-any = La primera salida de un reparto es como cualquier otra.
rules-m3-lowest = La primera salida de un reparto es la carta más baja de la mano de quien sale; si tiene cartas igual de bajas en varios palos, elige él.
rules-m3-black = La primera salida de un reparto es la carta negra más baja de quien sale; si no tiene ninguna, el turno pasa a la izquierda, y si nadie tiene, el juego queda bloqueado.
rules-m4 = Después, quien tenga la carta siguiente del mismo palo la juega, y así sucesivamente; { $withhold ->
    [yes] quien la tiene también puede guardársela (ver M9).
   *[no] esas cartas se juegan solas.
}
rules-m5 = Una serie se corta en un as, o cuando la carta siguiente no está en ninguna mano (está en la mano extra o ya se jugó). Quien jugó la última carta sale a continuación.
rules-m5-other-suit = Tras un corte se sale de cualquier palo menos el que se acaba de jugar. Si quien sale solo tiene ese palo, el turno de salida pasa a la izquierda al primer jugador que tenga otro palo; si nadie lo tiene, el juego queda bloqueado.
rules-m6-alternate = Tras un corte hay que salir de un palo del otro color que el recién cortado (quien sale elige el palo). Si quien sale no tiene ninguno, el turno pasa a la izquierda; si ningún jugador tiene ese color, quien cortó vuelve a salir de cualquier palo, incluido el recién cortado.
rules-m6-strict = Tras un corte se sale con la carta más baja del otro color que el recién cortado (si tiene cartas igual de bajas en los dos palos, elige quien sale). Si quien sale no tiene ninguna, el turno pasa a la izquierda; si nadie tiene ese color, el juego queda bloqueado.
rules-m5-blocked = Cuando el juego queda bloqueado, cada jugador pone 1 ficha por cada carta que le quede en el Pozo, que se guarda para el siguiente reparto.
rules-m7 = El primero que juega su última carta acaba el juego en el acto: se lleva todo el Pozo y 1 ficha por cada carta que le quede a cada uno de los demás, pagada por ese jugador.
rules-m8-in-play = Las cartas de pago, el Rey-Reina y la Secuencia se cobran al jugarse (H5, H6).
rules-m8-stage1 = Las cartas de pago jugadas aquí no cobran nada: ya se pagaron en la fase 1.
rules-m9-none = No hay jugadas indebidas: cada salida es la carta más baja de su palo y seguir es automático. Solo quien sale elige (el palo).
rules-m9a = Las jugadas indebidas se permiten, pero se pagan. a) Salir con una carta que no es la más baja de su palo: quien sale paga en el acto 1 ficha a cada uno de los demás jugadores que sigan en la partida y ya no cobra ninguna casilla de pago el resto del reparto.
rules-m9b = b) Guardarse la carta siguiente cuando le toca jugarla corta la serie: quien se la guarda ya no cobra ninguna casilla de pago el resto del reparto; al cerrar la fase 3, por cada casilla de A, K, Q, J o 10 que aún tenga fichas y cuya carta sea de un palo en el que se guardó una carta y siga en la mano de otro jugador, quien se la guardó paga a ese jugador las fichas de esa casilla. Quien se guardó una carta y juega su última no cobra nada por cerrar, y el juego sigue sin él.
rules-m9-order = Orden de los pagos: la fase 3 (cierre o bloqueo), después los pagos por cartas guardadas{ $pool ->
    [yes] , después la Bolsa de póquer
   *[no] {""}
}. Quien sale elige el palo y si hace una jugada indebida; quien tiene la carta siguiente elige jugarla o guardársela.

## Fin de la partida

rules-e1-round = Una partida es una vuelta: tantos repartos como jugadores había al empezar, salvo que la mesa pare antes o queden menos de dos jugadores.
rules-e1-deals = Una partida es { $n ->
    [one] { $n } reparto
   *[other] { $n } repartos
}, salvo que la mesa pare antes o queden menos de dos jugadores.
rules-e2-betting = Las fichas que quedan en el tablero al final se juegan { $rounds ->
    [1] en un solo bote
   *[other] repartidas en { $rounds } botes iguales que se juegan uno tras otro (el resto va al último)
}: cinco cartas a cada uno de una baraja recién barajada y una ronda de apuestas como en la fase 2, sin nuevas apuestas iniciales; el ganador se lleva el bote.
rules-e2-showdown = Las fichas que quedan en el tablero al final se juegan { $rounds ->
    [1] en un solo bote
   *[other] repartidas en { $rounds } botes iguales que se juegan uno tras otro (el resto va al último)
}: cinco cartas boca arriba a cada jugador de una baraja recién barajada, sin apuestas; la mejor mano se lleva el bote.
rules-e2-keep = Las fichas que quedan en el tablero al final se quedan ahí y no son de nadie.
rules-e2-who = Los jugadores que están fuera no participan; si hay empate en la mejor mano se reparte, y el resto va al primer empatado a la izquierda del repartidor del último reparto. Se sigue repartiendo hacia la izquierda: el primer bote final lo reparte el jugador a la izquierda del último repartidor, cada uno de los siguientes el siguiente jugador a la izquierda, carta a carta desde la izquierda del repartidor.
rules-unused-final = no se juega bote final
rules-e3 = Gana quien tenga más fichas; los que quedaron fuera cuentan con las fichas que conservaron, y si hay empate se comparte la victoria.

## Póquer Napalm (crates/napalm, RULES.md sección 7)

napalm-rules-title = Póquer Napalm
napalm-rules-players = Jugadores: de { $min } a { $max }. Cada uno empieza con { $chips } y ningún punto.
napalm-rules-n1 = Al empezar cada mano, cada jugador pone { $ante } en el bote; luego reparte el de la izquierda. El primero que reúne { $tokens } puntos gana la partida y se lleva el bote.
napalm-rules-n2 = Ronda 1: dos cartas a cada uno. Por turnos desde la izquierda del repartidor, y el repartidor el último, cada jugador dice Sí (tengo las dos mejores cartas) o No. Si todos dijeron No y el repartidor dice Sí, cada uno de los demás, por turnos, puede cambiar su No por un Sí.
napalm-rules-n3 = Con dos cartas: una pareja gana a dos cartas distintas; si no, decide la carta más alta, y luego la más baja.
napalm-rules-n4 = Ronda 2: tres cartas más a cada uno. Se declara como en la ronda 1, por la mano de cinco cartas más baja; las escaleras y los colores cuentan, y el as es alto.
napalm-rules-n5 = Ronda 3: dos cartas más a cada uno. Se declara como en la ronda 1, por las cinco mejores cartas de siete; el as solo es alto.
napalm-rules-n6 = Tras cada ronda: si hay un solo Sí, gana un punto. Si hay dos o más, comparan sus manos en privado; el mejor, si es uno solo, cobra de cada uno de los otros Sí una apuesta aparte igual al bote. Si las mejores manos empatan, nadie paga, salvo que cada Sí por debajo de los empatados paga el bote a cada uno de ellos. Si nadie dice Sí, no pasa nada.
napalm-rules-n7 = Las manos comparadas en privado solo las ven los jugadores de esa comparación.
napalm-rules-n8-out = Quien no pueda poner la apuesta inicial queda fuera de la partida y se queda con las fichas que tenga. Cuando menos de dos jugadores pueden poner la apuesta inicial, la partida acaba y el último que sigue en juego se lleva el bote; quien está fuera nunca se lo lleva, tenga los puntos que tenga. Si los últimos jugadores quedan fuera a la vez (nadie puede poner la apuesta inicial de la mano siguiente), se reparten el bote, y las fichas sobrantes son para el primero de ellos a la izquierda del repartidor.
napalm-rules-n8-hands = Tras { $hands } manos la partida acaba (no hay que poner apuesta inicial, así que todos los que jugaron la última mano siguen en juego): se lleva el bote el jugador en juego con más puntos; si hay empate lo comparten, y la ficha que sobre va al primero de ellos a la izquierda del repartidor de la última mano.
napalm-rules-n8-order = Quien debe apuestas aparte a varios ganadores empatados les paga por turnos desde la izquierda del repartidor, así que si no le llegan las fichas cobran primero los más cercanos a la izquierda del repartidor; cada uno paga solo lo que tiene.
