## The browser table (web/): pages, panels, buttons and what they say.
## Event lines, spaces, cards and hand names are in words.ftl.

## The home page

preset-name = { $preset ->
    [pagat] Tripoley (pagat.com rules)
    [tripoley] Tripoley (boxed game)
    [michigan-casino] Michigan Rummy (casino rules, misplays cost chips)
    [rummoli] Rummoli
    [cosmo] Cosmo (no poker; pay suit changes each deal)
   *[other] { $preset }
}
home-unreachable = Cannot reach the server: { $error }
home-new-table = New table
home-your-name = Your name
home-game = Game
home-game-tripoley = Tripoley
home-game-napalm = Napalm poker
home-rules = Rules
home-seats = Seats
home-chips = Starting chips
home-tokens = Tokens to win (Napalm)
home-deals = Deals (empty: one per player)
home-turn = Seconds per turn (0: no limit)
home-intro = Tripoley is the family card game of a board, a poker hand and a race to empty your hand, all in one deal. Open a table, send the link, and play here with friends or bots.
home-bot = Bots play at the level
home-bot-level = { $level ->
    [random] Relaxed (plays at random)
    [expert] Strong (looks ahead)
   *[heuristic] Good
}
home-house-rules = House rules
home-house-rules-help = Leave a field empty to play it as the chosen rules say.
home-rule-ante = Chips each player puts on each space
home-rule-bet-limit = Largest bet or raise
home-rule-misplays = Leading a card that is not your lowest of its suit
home-rule-misplays-choice = { $choice ->
    [forbidden] Not allowed
    [penalised] Allowed, paying 1 chip to each other player
   *[preset] As the rules say
}
home-rule-space-antes = Chips on each space (empty: the same as every space)
home-house-rules-json = House rules as JSON
home-house-rules-bad = The house rules are not valid JSON: { $error }
home-guide = My first game: explain each stage as it comes
home-create = Create table
home-join = Join a table
home-invite-code = Invite code
home-open = Open
back = Back
lang-switch = Language

## Errors: the server's codes (docs/protocol.md); in English its own words.

error = { $message }
# What exactly a request got wrong (the server's error "detail"), in place of its English message.
error-detail = { $reason ->
    [house_rule] One of the house rules does not exist or its value does not fit.
    [house_rules] These house rules do not fit together.
    [seats] This game is for { $min } to { $max } players.
    [starting_chips] Starting chips are 1 to { $max }.
    [turn_seconds] The turn timer is at most { $max } seconds (0 for none).
    [other_game] One of these settings belongs to the other game.
    [name] { $problem ->
        [too_long] A name has at most 16 letters (8 Chinese, Japanese or Korean characters or emoji).
        [invisible] A name cannot hold invisible or control characters.
        [empty] A name needs at least one visible character.
        [you] A name cannot contain “(you)” or “(tú)”: the table adds it after your own name.
        [bot_name] Names like “Bot 3” are kept for the table's bots.
        [marks] A name cannot stack more than four accents on one letter.
        [taken] Someone at this table has a name that looks the same: choose another.
       *[other] { $message }
    }
    [chat] { $problem ->
        [too_long] A chat message has at most 200 characters.
        [control] A chat message is one line.
        [empty] A chat message needs at least one visible character.
       *[other] { $message }
    }
    [free_seat] { $problem ->
        [no_such_seat] There is no such seat.
        [empty] Nobody holds this seat.
        [own] You cannot free your own seat.
        [here] This player is here: a seat is freed only when its player has left.
        [just_left] This player left only a moment ago: wait until a bot plays for them.
       *[other] { $message }
    }
    [no_seat] This table has no such seat (its seats are numbered 0 to { $last }).
    [record] { $problem ->
        [too_big] This file is too large for a game record (at most 4 MB).
        [too_long] This record has more steps than a game can have.
        [too_long_to_analyse] This record is too long for the server to analyse: open it with no server (the game on this device) or with `tripoley analyse`.
        [napalm] This is a Napalm game: the expert plays only Tripoley, so it gives no verdict on Napalm moves.
        [not_a_record] This file is not a game record that can be replayed ({ $message }).
       *[other] { $message }
    }
   *[other] { $message }
}
# No answer at all, or a proxy's error page (not the server's words).
error-unreachable = The server could not be reached: try again in a moment.

## The connection and the bar above the table

conn-connecting = connecting…
conn-reconnecting = reconnecting…
conn-player = you are { $name }
conn-watching = watching
log-auto = (a bot played for someone who was away or out of time)
settings = Settings
settings-four-colour = Four-colour deck
settings-sound = Sounds
settings-guide = Explain each stage
seat-link = Your seat on another device
seat-link-help = Open this link on your other phone or computer to play your seat there. Keep it to yourself: whoever has it plays your seat.
seat-link-label = Your seat's link
rules-view = Rules
rules-unavailable = The rules cannot be shown: { $error }
timer = { $s } s
rematch-failed = No rematch: { $error }

## The lobby

lobby = Lobby
lobby-invited = { $host } invited you to play { $game ->
    [napalm] Napalm poker
   *[tripoley] Tripoley
}
lobby-waiting = Waiting to start
lobby-send-link = Send this link to the other players:
lobby-invite-link = Invite link
lobby-copy = Copy link
lobby-copied = Copied.
lobby-copy-by-hand = Select the link and copy it.
# A person's seat in the lobby: the viewer's own name says "(you)" already;
# whoever has left is marked (nobody is marked for being here: a guest read
# the others as being at their device).
lobby-seat-taken = { $name }{ $away ->
    [yes] {" "}(away)
   *[no] {""}
}
lobby-seat-open = open: a { $level } bot plays if nobody sits
lobby-seat-bot = { $name }: a { $level } bot
# The host's choice of who plays an open or bot seat ($seat: "Seat 3").
lobby-seat-who = Who plays { $seat }
lobby-seat-choice-open = Open for a player
lobby-seat-choice-bot = A { $level } bot
lobby-remove = Remove { $name }
lobby-remove-ask = Remove { $name } from the table?
lobby-remove-yes = Remove
lobby-remove-no = Keep { $name }
# A bot's level in a word (the home page's levels without their explanation).
bot-level = { $level ->
    [random] Relaxed
    [expert] Strong
   *[heuristic] Good
}
# The level inside a sentence ("a Good bot"): English keeps its capital.
bot-level-in-sentence = { bot-level }
lobby-seat = Seat
lobby-sit = Take the seat
lobby-start = Start the game
lobby-wait-host = Waiting for the host to start.
lobby-summary-napalm = Napalm poker: { $seats } seats, { $chips } chips each, ante { $ante }, { $tokens } tokens win{ $turn ->
    [0] {""}
   *[other] , { $turn } seconds a turn
}.
lobby-summary-tripoley = Tripoley: { $seats } seats, { $chips } chips each, { $spare ->
    [unused] no spare hand
    [dealer_swap_or_auction] the dealer may swap for the spare hand or auction it
   *[other] a spare hand
}, { $poker ->
    [betting] poker with betting
    [none] no poker
   *[other] poker without betting
}{ $misplays ->
    [yes] , misplays cost chips
   *[no] {""}
}{ $turn ->
    [0] {""}
   *[other] , { $turn } seconds a turn
}.

## The Tripoley table (board.js)

table-players = Players
table-status = Status
table-deal-of = Deal { $n } of { $total }
table-your-turn = Your turn
table-to-play = { $who } to play
table-bot-plays = (a bot plays)
clock-to-play = to play
dealer = Dealer
dealer-mark = D
tag-bot = { $level } bot
tag-away = away
tag-out = out
tag-winner = winner
seat-label = { $who }, { $chips } chips, { $cards } cards{ $dealer ->
    [yes] , dealer
   *[no] {""}
}{ $turn ->
    [yes] , to play
   *[no] {""}
}
seat-cards-title = cards in hand
seat-folded = folded
seat-bet = bet { $n }
seat-five-apart = five cards set apart
space-label = { $space }: { $chips } chips
board-label = The board
board-label-suit = The board, pay suit { words-suit }
board-pay-suit = Pay suit { $symbol }
board-pay-suit-to-come = Pay suit to come
board-pay-suit-named = Pay suit { $symbol } { words-suit }
board-pay-suit-unnamed = Pay suit not yet named
board-sequence = Sequence { $run }
board-highest-bet = highest bet { $n }
board-high-bid = high bid { $n } by { $who }
played-label = Cards played
played-last = Last card: { $card } by { $who }
played-stopped = the last run stopped: { $why }
card-in-five = { $card }, in your poker five
card-misplay-label = { $card }, a misplay: costs { $n } chips
card-play-label = { $card }, play it
misplay-price = misplay −{ $n }
confirm-misplay = Lead { $card }? It is not your lowest { $suit ->
    [C] club
    [D] diamond
    [H] heart
   *[S] spade
}: a misplay. You pay 1 chip to each other player ({ $n } in all) and can collect no pay space for the rest of this deal.
confirm-misplay-yes = Lead it anyway
hand-label = Your hand
hand-label-of = { $who }'s hand
hand-five-marked = Your poker five are marked with a gold bar.
hand-five-marked-of = { $who }'s poker five are marked with a gold bar.
prompt = { $kind ->
    [spare_option] Swap your hand for the spare (unseen)?
    [auction_bid] { $item ->
        [spare] Bid for the spare hand
       *[other] Bid for the dealer's old hand
    }
    [pay_suit_bid] Bid for the right to name the pay suit
    [name_pay_suit] Name the pay suit
    [open] Check or bet?
    [respond] Call { $n }, raise or fold?
    [choose_five] Pick your five poker cards
    [lead] Lead a card
    [follow] Play { $card } or hold it back?
   *[other] Your move
}
amount-label = { $what } ({ $min } to { $max })
btn-keep = Keep my hand
btn-swap = Swap for the spare
btn-auction-spare = Keep, and auction the spare
btn-swap-and-auction = Swap, then auction my old hand
btn-bid = Bid
btn-pass = Pass
btn-check = Check
btn-bet = Bet
btn-fold = Fold
btn-call = Call { $n }
btn-stay = Stay in
btn-raise = Raise
btn-these-five = These five
btn-play = Play { $card }
btn-withhold = Hold it back
btn-cancel = Cancel
btn-hint = Hint
btn-got-it = Got it
btn-rematch = Rematch
# The finished table, once a player started the next game.
btn-join-next = Join the new game
btn-watch-next = Watch the new game
confirm-fold = Fold? You could stay in for free.
confirm-fold-yes = Fold anyway
confirm-withhold = Hold back { $card }? The run stops; you can collect no pay space for the rest of this deal, and after Michigan you pay the chips on each pay space whose card, of a suit you held back in, is still in another player's hand.
confirm-withhold-yes = Hold it back anyway
confirm-label = Are you sure?
five-picked = { $best ->
    [yes] { $n } of 5 picked (the best five are picked for you)
   *[no] { $n } of 5 picked
}
lead-help = Tap a raised card to lead it.
follow-window = Nobody can tell from the timing whether you hold it back: if you do, the run stops when your clock runs out. With no answer by then, { $card } is played.
follow-withheld = Your answer is in: you hold back { $card }. The others see the run stop when your clock runs out, as they would if nobody held it.
btn-lead-only = Lead your { $card } (your only lead)
hint-expert = The expert would { $action }.
hint-five = { $same ->
    [yes] These already are the five the expert would set apart.
   *[no] The expert's five are picked: “These five” sets them apart.
}
announce-turn = Your turn: { $what }
title-your-turn = Your turn · Tripoley
notice-time-ran-out = Time ran out: the table made your move, spending no chips.
offline-banner = Connection lost: reconnecting… Your moves wait until the table answers.
offline-not-sent = Not sent: the connection was lost. Try again once the table is back.
result-label = Result of deal { $n }
result-final = The final pot
result-title = Deal { $n }: the result
result-spaces = Spaces taken
result-other = Bids and prices
result-poker = Poker
result-michigan = Michigan
result-folded = { $who } folded
result-this-deal = This deal
result-net = { $who } { $n }
result-stays = { $n ->
    [one] One chip stays on the board for the next deal.
   *[other] { $n } chips stay on the board for the next deal.
  }
standings-label = Final standings
game-over = Game over
next-game-by = { $who } started a new game
next-game-by-host = The host started a new game
winners = { $count ->
    [one] { $who } wins!
   *[other] { $who } share the win.
}
chips-n = { $n ->
    [one] { $n } chip
   *[other] { $n } chips
}
final-pot-line = Final pot: { $what }.
ledger-label = This deal's ledger
ledger-title = This deal's chips
ledger-full = Full ledger
log-title = What happened

## A deal's result (summary.js)

sum-showed = { $who }: { $cards } ({ $hand })
sum-face-up = { $who } had { $cards } face up
sum-claim = { $who } took { account-space }{ $symbol ->
    [none] {""}
   *[other] {" "}{ $symbol }
}: { $n }
sum-pot-won = { $who } won { $pot ->
    [poker_pool] the Poker Pool
    [final_pot] the final pot
   *[pot_won] the Pot
}: { $n }
sum-antes = Everyone put { $each } on each space ({ $total } in all).
sum-antes-dealer = Everyone put an ante on every space, the dealer more ({ $total } in all).
sum-antes-spaces = Everyone put { $spaces } ({ $total } in all).
space-antes-on = { $n } on { $spaces }
space-antes-words = { $named }, { $rest } on every other space
sum-bet = { $who } bet { $n } in all
sum-misplay-paid = { $count ->
    [one] { $from } paid { $to } { $n } for a misplay
   *[other] { $from } paid { $n } each to { $to } for a misplay
}
sum-went-out = { $who } went out{ $card ->
    [none] {""}
   *[other] {" "}on { $card }
}.
sum-blocked = Play was blocked: nobody could lead.
sum-michigan = { $reason ->
    [blocked] { $from } put { $n } in the Kitty (cards left when play was blocked)
    [went_out] { $to } took the Kitty: { $n }
    [cards_left] { $from } paid { $to } { $n } for cards left
    [misled] { $from } paid { $to } { $n } for a misplay
    [withheld] { $from } paid { $to } { $n } for a card held back
   *[other] { $from } → { $to }: { $n }
}

## The guided first game (coach.js)

coach-title = How this works
coach-off = Stop explaining
coach-first = Tripoley in three stages each deal: first the pay cards (whoever holds the Ace, King, Queen, Jack or Ten of the pay suit takes the chips on its space), then a hand of poker for the Pot, then Michigan, where the first to play out their cards takes the Kitty. Chips left on a space stay for the next deal.
coach-stage = { $stage ->
    [spare] The dealer looks at their hand and decides about the spare: the extra hand dealt face down. They may keep their hand, swap it for the spare without looking, or have the spare auctioned to the others.
    [auction] An auction: each player in turn bids more chips than the last bid, or passes for good. The last bidder swaps their hand for the one on sale and pays the price to the dealer.
    [pay_suit] This deal's pay suit is bid for: the highest bidder names it.
    [betting] Poker betting: check or bet, then call, raise or fold. Bets go to the Pot, which the best five-card hand among those still in takes. Folding costs nothing more, but gives up the Pot.
    [michigan] Michigan: the leader plays a card, the lowest they hold of a suit, and whoever holds the next card up of that suit plays it, on and on until the run stops (an ace, or a card nobody can play). The last player leads again. { $inplay ->
        [yes] Playing an Ace, King, Queen, Jack or Ten of the pay suit takes its space on the board.{" "}
       *[no] {""}
    }The first to play all their cards takes the Kitty and a chip for every card the others still hold.{ $misplays ->
        [yes] {" "}Here leading a card that is not your lowest of its suit, or holding back a card, is allowed but costs chips.
       *[no] {""}
    }
    [final_pot] The game's last deals are over: the chips left on the board are played for as a final poker pot.
    [game_over] The game is over: the player with the most chips wins. Rematch starts a new game with the same people.
   *[other] Poker: each player picks five cards of their hand as their poker hand (the best five are picked for you; tap cards to change them). The best hand wins the Pot.
}

## The Napalm table (napalm.js)

napalm-claim = { $round ->
    [best_two] the best two cards
    [lowest_five] the lowest five-card hand
   *[best_of_seven] the best five cards of seven
}
nev-hand-started = Hand { $number }: { $dealer } deals; everyone antes.
nev-side-bet = { $from } pays { $to } { $amount } (a side bet worth the pot).
nev-pot-won = { $who } takes the pot: { $amount } chips.
nev-round-started = Round { $number } ({ $round ->
    [best_two] two cards each
    [lowest_five] three more cards each
   *[best_of_seven] two more cards each
}): a Yes claims { napalm-claim }.
nev-declared = { $who } says { $yes ->
    [yes] Yes.
   *[no] No.
}
nev-challenged = { $who }{ $yes ->
    [yes] {" "}challenges the dealer: now Yes.
   *[no] {" "}keeps their No.
}
nev-compared = Compared privately: { $hands }. Best: { $best }{ $count ->
    [one] .
   *[other] {" "}(a tie).
}
nev-token = { $who } is the only Yes and takes a token ({ $tokens } now).
nev-hand-ended = Hand { $number } is over.
nev-game-over = Game over. { $winners }{ $count ->
    [one] {" "}takes the pot and wins.
   *[other] {" "}share the pot.
}
napalm-hand = Hand { $n }
napalm-round = round { $number } of 3: a Yes claims { napalm-claim }
napalm-seat-label = { $who }, { $chips } chips, { $tokens } tokens
napalm-said = { $yes ->
    [yes] said Yes
   *[no] said No
}
napalm-yes-means = Yes means: I hold { napalm-claim }.
napalm-result = Final result
napalm-winners = { $count ->
    [one] Winner: { $who }
   *[other] Winners: { $who }
}
napalm-chips-tokens = { $chips } chips, { $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
}
napalm-your-cards = Your cards
napalm-your-cards-of = { $who }'s cards
napalm-do-you-hold = Do you hold { napalm-claim }?
napalm-yes = Yes
napalm-no = No
napalm-challenge-question = The dealer alone said Yes. Change your No to Yes?
napalm-challenge = Challenge: say Yes
napalm-decline = Keep my No
hint-bot = The bot would { $action }.

## Pass-and-play: several players on one device.
pass-add = Add a player on this device
pass-name = Their name
pass-here = Playing on this device: { $names }
pass-title = Pass the device to { $name }
pass-help = Everyone else, look away: { $name }'s cards come next.
pass-continue = I am { $name }: show my cards

## The rules view: the game in short sections, then the full rule book.
rules-book = The full rule book
rules-quick-title = How to play, in short
rules-board-picture = The board, with its spaces: { $spaces }
rules-quick-aim-title = The aim
rules-quick-aim = Win chips from the others. { $poker ->
    [yes] Each deal has three parts: the pay cards, a hand of poker, and Michigan, a race to play out your cards.
   *[no] Each deal has two parts: the pay cards, and Michigan, a race to play out your cards.
}
rules-quick-board-title = The board
rules-quick-board = Before each deal everyone puts chips on every space. Each deal has a pay suit: the player with its Ace, King, Queen, Jack or Ten takes the chips on that space, its King and Queen together take the King-Queen, and the three cards of the Sequence take the Sequence.
rules-quick-poker-title = Poker
rules-quick-poker = You pick the best five cards of your hand and bet on them. The best hand shown takes the Pot; folding costs nothing more than what you bet.
rules-quick-michigan-title = Michigan
rules-quick-michigan = The leader plays their lowest card of a suit, and whoever holds the next card up plays it, until the run stops; whoever played last leads again. The first to play all their cards takes the Kitty and one chip for each card the others still hold.
rules-quick-end-title = The end
rules-quick-end = After the last deal, whoever has the most chips wins. Chips left on the board count for nobody.

## The replay of a finished game and the expert's analysis
btn-replay = Replay
replay-title = Replay
replay-close = Close
replay-face-up = Every card face up
replay-slider = Step
replay-back = Step back
replay-forward = Step forward
replay-step = Step { $n } of { $total } · { $game ->
        [napalm] hand
       *[other] deal
    } { $deal }
replay-keys = ← → step · Home End · PgUp PgDn { $game ->
        [napalm] hand by hand
       *[other] deal by deal
    }
replay-analyse = Ask the expert
replay-analysing = The expert is looking at every decision…
replay-napalm-no-analysis = The expert plays only Tripoley: it gives no verdict on Napalm moves. Step through the game to see how it went.
replay-mistakes = The biggest mistakes
replay-mistake = Deal { $deal }: { $who } — { $played }; the expert: { $best } ({ $exact ->
    [yes] { $cost ->
        [one] 1 chip
       *[other] { $cost } chips
    } in every sample game
   *[no] about { $cost ->
        [one] 1 chip
       *[other] { $cost } chips
    }, ± { $error }
  })
replay-no-mistakes = The expert found no costly mistake.
replay-mistakes-of = { $who }'s biggest mistakes
replay-mistakes-yours = Your biggest mistakes
replay-line = The expert's line: { $moves }
replay-line-move = { $who }: { $move }
replay-line-hidden = { $kind ->
    [lead] lead a card
   *[five] set five cards apart
}
replay-summary = Chips lost to mistakes, by player
replay-summary-player = Player
replay-summary-total = In all
replay-summary-part = { $part ->
    [spare] Spare hand and bids
    [poker] Poker
   *[michigan] Michigan
}
replay-summary-chips = { $chips }
replay-chart-start = start
replay-chart-end = end
replay-chart-deals = Deals
replay-chart-point = { $who }: { $chips } chips { $deal ->
    [start] at the start
    [end] at the end
   *[other] after deal { $deal }
}
replay-chart-key = { $who }: { $chips }
replay-try = Try it yourself
replay-try-label = Try it yourself: play on from here as { $who }, against bots, on this device
replay-chart = Each player's chips after each deal
replay-seen-by = Whose eyes
replay-seen-as = As { $who } saw it
replay-link = Link to this replay
games-title = My games ({ $n })
games-list = My games
games-none = No finished game yet: the games you play to the end in this browser are listed here.
games-line = { $date }: { $players } — { $count ->
    [0] nobody won
    [one] { $winners } won
   *[other] { $winners } won
}
games-chips = { $who } { $n }
games-open-file = Open a game record file
games-drop = Or drop a game record file on this page to replay it.
games-file-help = A file saved by the terminal game or the simulator; it is replayed here and not kept.

## The game played on this device, with no server
home-others-here = Others playing on this device
home-others-here-example = Bob, Cleo
home-play-here = Play here with bots
home-new-game-here = New game on this device
home-intro-here = Tripoley is the family card game of a board, a poker hand and a race to empty your hand, all in one deal. Play it here against bots, or pass this device round the table.
home-play-here-help = “Play here” needs no connection: the game and the bots run on this device, and it goes on where you left it.
home-no-server = No connection to a Tripoley server: you can play here against bots, and pass the device round. Playing with people elsewhere needs a connection.
home-offline-kept = You have a game on this device that is not finished.
home-offline-resume = Go on with it
offline-none = There is no game on this device to go on with.
games-save-file = Save the record
rules-offline = The full rule book comes from a Tripoley server: with no connection, the short rules above are the whole of it.
app-install = Install
app-update-ready = A new version is ready.
app-update-reload = Reload
replay-resume = Go on with this game here
replay-resume-replaces = This replaces the unfinished game on this device.
