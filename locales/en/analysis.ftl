# The analysis of a finished game: the expert's verdict on each decision
# (`tripoley analyse`, crates/cli/src/cmd/analyse.rs).

analysis-heading = The expert judged { $decisions ->
    [one] one decision
   *[other] { $decisions } decisions
}, each by { $playouts } sample games.
analysis-unfinished = The record stops before the end of the game.
analysis-mistakes = Biggest mistakes first:
analysis-mistake = Deal { $deal }, { $you ->
    [yes] your move
   *[no] { $who }:
} “{ $played }” cost { $exact ->
    [yes] { $cost } chips in every sample game
   *[no] about { $cost } chips (± { $error })
}; the expert would { $best }.
analysis-none = No move cost a chip or more against the expert's choice.
analysis-more = { $count ->
    [one] One more move cost a chip or more.
   *[other] { $count } more moves cost a chip or more each.
}
analysis-chips = Chips over the game:
analysis-player = { $who }: { $start } at the start, { $end } at the end; { $you ->
    [yes] your
   *[no] their
} moves cost about { $cost } chips in all.
analysis-seat = Seat { $seat }
analysis-parts = Lost to mistakes: spare hand and bids { $spare }, poker { $poker }, Michigan { $michigan }.
analysis-line = The expert's line: { $moves }
analysis-line-move = { $who }: { $move }
