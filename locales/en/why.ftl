# Why a verdict: the part of the deal that accounts for most of a mistake's
# cost, from what both moves brought in the same sample games
# (crates/analysis/src/why.rs); said by `tripoley analyse` and the browser's
# analysis, one wording per $kind. $chips and $back are chips, $best and
# $played percentages of the sample games.

why = { $kind ->
    [fold] Folding gave up a pot you win { $best }% of the time with this hand.
    [chased] This puts chips into a pot you { $played ->
        [0] almost never win
       *[other] win only { $played }% of the time
    }: about { $chips } chips lost at poker.
    [paid] You paid about { $chips } chips more for it than the expert would, and it brought back about { $back }.
    [paid-worse] You paid about { $chips } chips for a hand worth less to you than your own.
    [unpaid] Buying it would have cost about { $chips } chips and brought back about { $back }.
    [sold] The expert's choice brings about { $chips } chips more from the auction.
    [poker] The expert's choice wins about { $chips } chips more at poker: it takes the pot { $best }% of the time, yours { $played }%.
    [bigger-pots] The expert's choice wins about { $chips } chips more at poker: bigger pots when it wins, smaller when it loses.
    [michigan] The expert's choice wins about { $chips } chips more in Michigan: it goes out first { $best }% of the time, yours { $played }%.
    [michigan-cards] The expert's choice wins about { $chips } chips more in Michigan: the same chance to go out first, for more chips.
    [pay-cards] The expert's choice takes about { $chips } chips more from the pay cards.
   *[board] The expert's choice is worth about { $chips } chips more of what stays on the board, for later deals or the final pot.
}
why-but = Yours does better by about { $chips } { $part ->
    [spare] in the auction
    [pay-cards] from the pay cards
    [poker] at poker
    [michigan] in Michigan
   *[board] on the board
}.
