# El análisis de una partida terminada: el veredicto del experto sobre cada
# decisión (`tripoley analyse`, crates/cli/src/cmd/analyse.rs).

analysis-heading = El experto juzgó { $decisions ->
    [one] una decisión
   *[other] { $decisions } decisiones
}, cada una con { $playouts } partidas de muestra.
analysis-unfinished = La partida guardada termina antes del final del juego.
analysis-mistakes = Los errores más caros primero:
analysis-mistake = Reparto { $deal }, { $you ->
    [yes] tu jugada
   *[no] { $who }:
} «{ $played }» costó { $exact ->
    [yes] { $cost } fichas en todas las partidas de muestra
   *[no] unas { $cost } fichas (± { $error })
}; el experto habría elegido «{ $best }».
analysis-none = Ninguna jugada costó una ficha o más frente a la elección del experto.
analysis-more = { $count ->
    [one] Otra jugada costó una ficha o más.
   *[other] Otras { $count } jugadas costaron una ficha o más cada una.
}
analysis-chips = Fichas a lo largo de la partida:
analysis-player = { $who }: { $start } al empezar, { $end } al terminar; { $you ->
    [yes] tus
   *[no] sus
} jugadas costaron unas { $cost } fichas en total.
analysis-seat = Asiento { $seat }
analysis-parts = Perdido en errores: mano extra y pujas { $spare }, póquer { $poker }, Michigan { $michigan }.
analysis-line = La línea del experto: { $moves }
analysis-line-move = { $who }: { $move }
