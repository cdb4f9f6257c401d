# Por qué un veredicto: la parte del reparto que explica casi todo el coste
# de un error, según lo que dieron las dos jugadas en las mismas partidas de
# muestra (crates/analysis/src/why.rs); lo dicen `tripoley analyse` y el
# análisis del navegador, una frase por cada $kind. $chips y $back son fichas; $best y $played,
# porcentajes de las partidas de muestra.

why = { $kind ->
    [fold] Al retirarte renunciaste a un bote que con esta mano ganas el { $best } % de las veces.
    [chased] Así pones fichas en un bote que { $played ->
        [0] casi nunca ganas
       *[other] solo ganas el { $played } % de las veces
    }: unas { $chips } fichas perdidas en el póquer.
    [paid] Pagaste por ella unas { $chips } fichas más que el experto, y te devolvió unas { $back }.
    [paid-worse] Pagaste unas { $chips } fichas por una mano que te vale menos que la tuya.
    [unpaid] Comprarla habría costado unas { $chips } fichas y te habría devuelto unas { $back }.
    [sold] La jugada del experto saca unas { $chips } fichas más de la subasta.
    [poker] La jugada del experto gana unas { $chips } fichas más en el póquer: se lleva el bote el { $best } % de las veces, la tuya el { $played } %.
    [bigger-pots] La jugada del experto gana unas { $chips } fichas más en el póquer: botes más grandes cuando gana y más pequeños cuando pierde.
    [michigan] La jugada del experto gana unas { $chips } fichas más en el Michigan: cierra primero el { $best } % de las veces, la tuya el { $played } %.
    [michigan-cards] La jugada del experto gana unas { $chips } fichas más en el Michigan: la misma probabilidad de cerrar primero, por más fichas.
    [pay-cards] La jugada del experto cobra unas { $chips } fichas más de las cartas de pago.
   *[board] La jugada del experto vale unas { $chips } fichas más de lo que queda en el tablero, para repartos posteriores o el bote final.
}
why-but = La tuya sale mejor por unas { $chips } { $part ->
    [spare] en la subasta
    [pay-cards] en las cartas de pago
    [poker] en el póquer
    [michigan] en el Michigan
   *[board] en el tablero
}.
