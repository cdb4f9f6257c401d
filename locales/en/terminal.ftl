## The terminal game (`tripoley play`, crates/cli/src/play): the log from
## the human's side ("You bid 3." / "Bot 1 bids 3."): each message chooses
## by $you (yes or no) and names $who; one paid chooses by $to_you and names $to.

term-drew = Draw for first dealer: { $draws }.
term-first-dealer = { $you ->
    [yes] You deal
   *[no] { $who } deals
} first.
term-player-out = { $you ->
    [yes] You cannot pay the ante and leave
   *[no] { $who } cannot pay the ante and leaves
} the game with { $chips }.
term-deal-started = Deal { $number } of { $total }: { $you ->
    [yes] You deal
   *[no] { $who } deals
}. Pay suit { $suit ->
    [none] to be auctioned
   *[other] { words-suit } { $symbol }
}, Sequence { $sequence }.
term-dealer-kept = { $you ->
    [yes] You keep your
   *[no] { $who } keeps their
} hand.
term-swapped = { $you ->
    [yes] You swap your
   *[no] { $who } swaps their
} hand for the spare.
term-auction-opened = { $item ->
    [spare] The spare is auctioned, unseen.
   *[old] The dealer's old hand is auctioned.
}
term-bid = { $you ->
    [yes] You bid
   *[no] { $who } bids
} { $amount }.
term-passed = { $you ->
    [yes] You pass
   *[no] { $who } passes
}.
term-auction-sold = { $you ->
    [yes] You buy
   *[no] { $who } buys
} the hand for { $price }.
term-auction-unsold = Nobody buys the hand.
term-pay-suit-named = { $you ->
    [yes] You name
   *[no] { $who } names
} { words-suit } as the pay suit.
term-pay-suit-default = Everybody passed: { words-suit } are the pay suit.
term-shows = { $you ->
    [yes] You show
   *[no] { $who } shows
} { $cards }.
term-sequence-shared = { $players } players share the Sequence; { $remainder ->
    [one] 1 chip stays
   *[other] { $remainder } chips stay
} on it.
term-set-five-apart = { $you ->
    [yes] You set
   *[no] { $who } sets
} five cards apart for the poker.
term-checked = { $you ->
    [yes] You check
   *[no] { $who } checks
}.
term-bet = { $you ->
    [yes] You bet
   *[no] { $who } bets
} { $amount }.
term-called = { $you ->
    [yes] You call
   *[no] { $who } calls
} { $amount }{ $allin ->
    [yes] , all in
   *[no] {""}
}.
term-raised = { $you ->
    [yes] You raise
   *[no] { $who } raises
} by { $by } ({ $you ->
    [yes] you put
   *[no] puts
} in { $amount }).
term-folded = { $you ->
    [yes] You fold
   *[no] { $who } folds
}.
term-showed = { $you ->
    [yes] You show
   *[no] { $who } shows
} { $cards }: { $hand }.
term-led = { $you ->
    [yes] You lead
   *[no] { $who } leads
} { $card }{ $misplay ->
    [yes] , not the lowest of its suit (a misplay)
   *[no] {""}
}.
term-played = { $you ->
    [yes] You play
   *[no] { $who } plays
} { $card }.
term-withheld = { $you ->
    [yes] You withhold
   *[no] { $who } withholds
} { $card } (a misplay).
term-run-stopped = The run stops: { $why }.
term-cannot-lead = { $you ->
    [yes] You cannot
   *[no] { $who } cannot
} lead; the lead passes left.
term-went-out = { $you ->
    [yes] You play your last card and go out!
   *[no] { $who } plays their last card and goes out!
}
term-final-pot-round = Final pot { $round }: { $chips }, five new cards each.
term-face-up = { $you ->
    [yes] You get
   *[no] { $who } gets
} { $cards } face up.
term-game-over = The game is over. Most chips: { $winners }.
term-took = { $you ->
    [yes] You take
   *[no] { $who } takes
} { $n } from { $what }.
term-won = { $you ->
    [yes] You win
   *[no] { $who } wins
} { $pot ->
    [poker_pool] the Poker Pool
    [final_pot] the final pot
   *[pot] the Pot
}: { $chips }.
term-took-back = { $you ->
    [yes] You take
   *[no] { $who } takes
} back { $chips } nobody matched.
term-pays = { $you ->
    [yes] You pay
   *[no] { $who } pays
} { $n } to { $to_you ->
    [yes] you
   *[no] { $to }
} ({ $reason }).
term-space-pays = { $what } pays { $n } to { $to_you ->
    [yes] you
   *[no] { $to }
} ({ $reason }).
term-antes = Antes: { $list }
term-reason = { $reason ->
    [ante] ante
    [pay_card] pay card
    [king_queen] king and queen of { $symbol }
    [sequence] the Sequence
    [auction_price] price of the auctioned hand
    [pay_suit_bid] bid to name the pay suit
    [bet] poker bets
    [pot_won] won the poker pot
    [unmatched] returned: nobody matched them
    [blocked] cards held at the block
    [went_out] went out: the Kitty
    [cards_left] cards left at going out
    [misled] misplay: lead not the lowest
    [withheld] misplay: withheld a card
    [poker_pool] the Poker Pool
    [final_pot_gathered] gathered for the final pot
   *[final_pot] won the final pot
}
term-stop = { $why ->
    [ace] it reached the ace
    [played] { $card } was played earlier
    [spare_or_withheld] no { $card } (spare/withheld)
   *[spare] { $card } is in the spare
}
term-stopped = Stopped:
term-space-card = the { $label } space
term-space-king-queen = the King-Queen space

## The terminal's screen: header, panels, prompts and keys

term-too-small = The table needs a terminal of at least { $w }x{ $h }; this one is { $width }x{ $height }. Make it larger, or press q to save and quit.
term-stage = { $stage ->
    [draw_for_dealer] draw for dealer
    [dealing] dealing
    [spare] the spare
    [auction] auction
    [pay_suit] pay suit
    [choose_five] poker: choosing fives
    [betting] poker
    [michigan] Michigan
    [final_pot] final pot
   *[game_over] game over
}
term-head-deal = deal { $n }/{ $total }
term-head-dealer = { $you ->
    [yes] you deal
   *[no] dealer { $who }
}
term-head-pay = pay { $symbol }
term-col-chips = chips
term-col-cards = cards
term-seat-bet = bet { $n }{ $allin ->
    [yes] {" "}all in
   *[no] {""}
}
term-seat-bid = bid { $n }
term-seq-short = Seq
term-layout = Layout{ $spare ->
    [yes] { $suit ->
        [none] {" "}· x: in the spare
       *[other] {" "}{ $symbol } · x: in the spare
    }
   *[no] { $suit ->
        [none] {""}
       *[other] {" "}({ words-suit } { $symbol })
    }
}
term-last = Last: { $you ->
    [yes] your
   *[no] { $who }
} { $card }
term-betting-status = Pot { $pot }, high bet { $high }, raises { $raises }
term-auction-status = { $what ->
    [spare] Spare auction
    [hand] Hand auction
   *[pay_suit] Pay suit auction
}: { $bid ->
    [yes] { $n } by { $you ->
        [yes] you
       *[no] { $who }
    }
   *[no] no bid yet
}
term-panel-log = Log (l: ledger)
term-panel-ledger-now = Ledger of deal { $n } so far (l: next)
term-panel-ledger-last = Ledger of deal { $n } (l: log)
term-panel-ledger = Ledger
term-hidden = ▼ { $n ->
    [one] { $n } newer line
   *[other] { $n } newer lines
} hidden: PgDn
term-no-chips = No chips have moved yet.
term-hand-title = Your hand: { $n ->
    [one] { $n } card
   *[other] { $n } cards
}
term-to-play = { $who } to play…
term-bots-playing = The bots are playing…
term-key-skip-turn = skip to your turn
term-key-keep = keep
term-key-swap = swap unseen
term-key-auction = auction the spare
term-key-swap-auction = swap, auction yours
term-prompt-spare = You deal: keep your hand, or take the spare?
term-key-pass = pass
term-key-bid = bid
term-prompt-auction = Auction of { $item ->
    [spare] the spare (unseen)
   *[old] the dealer's old hand
}: { $high }.
term-prompt-pay-suit-bid = Auction to name the pay suit: { $high }.
term-prompt-name-suit = You won the auction: name the pay suit.
term-key-check = check
term-key-bet = bet
term-prompt-open = Poker: no bet yet. Pot { $pot }. { $hand }
term-key-fold = fold
term-key-call = call { $n }{ $allin ->
    [yes] {" "}(all in)
   *[no] {""}
}
term-key-raise = raise by
term-prompt-respond = Poker: { $n } to call. Pot { $pot }. { $hand }
term-key-move = move
term-key-take = take/drop
term-key-best = best five
term-key-set-apart = set them apart
term-prompt-five = Pick your five: { $cards }, { $hand }
term-prompt-five-count = Pick your five poker cards: { $n } chosen.
term-key-choose = choose
term-key-suit = suit
term-key-lead = lead
term-prompt-misplay = Misplay: { $card } is not your lowest { $suit ->
    [clubs] club
    [diamonds] diamond
    [hearts] heart
   *[spades] spade
}. Costs { words-chips } and your pay spaces.
term-prompt-lead = Your lead: { $card }.
term-prompt-lead-choose = Your lead: choose a marked card.
term-prompt-lead-only = Your only lead: { $card }.
term-key-play = play it
term-key-withhold = withhold (a misplay: lose your pay spaces, may owe chips)
term-prompt-follow = Your { $card } is next in the run.
term-withhold-confirm = Withhold the { $card }? The run stops, you lose your pay spaces for this deal and may owe chips. Press w again to withhold it; any other key cancels.
term-nothing-to-decide = Nothing to decide this deal: { $poker ->
    [no] no poker under these rules, and your plays in Michigan were all forced.
   *[yes] your plays were all forced.
}
term-bonus-no-bid = You hold { $n ->
    [one] a bonus card ({ $cards })
   *[other] bonus cards ({ $cards })
}, so you may not bid for this hand.
term-bonus-no-swap = You deal and hold { $n ->
    [one] a bonus card ({ $cards })
   *[other] bonus cards ({ $cards })
}: you may not swap.
term-high-bid = high bid { $n } by { $you ->
    [yes] you
   *[no] { $who }
}
term-no-bid = no bid yet
term-your-five = Your five: { $cards }, { $hand }.
term-keycap = { $key ->
    [space] Space
    [enter] Enter
   *[pages] PgUp/PgDn
}
term-key-hint = hint
term-key-log = log/ledger
term-key-scroll = scroll
term-key-skip = skip
term-key-quit = save and quit
term-more-below = ↓ { $n } more { $n ->
    [one] line
   *[other] lines
} below
term-key-quit-only = quit
term-key-continue = continue
term-quit-question = Save and quit?
term-quit-answers = yes  any other key: no
term-deal-over = Deal { $n } of { $total } over: who paid whom, and why
term-chips-title = Chips
term-after-last = After the last deal (the final pot):
term-left-on-layout = { words-chips } on the layout nobody won: they stay there.
term-saved-to = The game record is saved to { $path }
term-replay-hint = (tripoley replay { $path } prints every deal's ledger).

## The terminal's notes, refusals and hints

term-resumed = Game resumed after { $n } steps.
term-refused = refused: { $why }
term-note-went-out = Michigan: { $you ->
    [yes] you
   *[no] { $who }
} went out{ $card ->
    [none] {""}
   *[other] {" "}on { $card }
}.
term-note-blocked = Michigan ended blocked: nobody could lead.
term-note-final-pot = Final pot: { $line }
term-not-allowed = That is not allowed now.
term-amount-range = The amount must be from { $min } to { $max }.
term-five-full = Five cards are chosen: take one out first.
term-five-exactly = Choose exactly five cards ({ $n } chosen).
term-may-not-lead-suit = You may not lead { words-suit } now.
term-may-not-lead = That card may not be led.
term-hint = Hint from the expert bot ({ $n } sample deals played out): { $action }{ $why }.
term-hint-why = { $best } chips expected at the deal's end; next best, { $next }: { $worth }
term-action = { $action ->
    [keep] keep the hand
    [swap] swap for the spare
    [auction_spare] auction the spare
    [swap_and_auction] swap, then auction the old hand
    [bid] bid { $n }
    [pass] pass
    [name_suit] name { words-suit }
    [check] check
    [bet] bet { $n }
    [call] call
    [raise] raise by { $n }
    [fold] fold
    [choose] set apart { $cards }
    [lead] lead { $cards }
    [play] play the card
   *[withhold] withhold the card
}

## The terminal's Napalm table (crates/cli/src/play/napalm)

tn-result = Game over: { $count ->
    [one] { $who } { $you ->
        [yes] take
       *[no] takes
    } the pot of { $pot } chips.
   *[other] { $you ->
        [among] you and { $others }
       *[no] { $who }
    } share the pot of { $pot } chips.
}
tn-hand-started = Hand { $n }: { $you ->
    [yes] You deal
   *[no] { $who } deals
} and everyone antes.
tn-player-out = { $you ->
    [yes] You leave
   *[no] { $who } leaves
} the game with { $chips } chips: not enough to ante.
tn-side-bet = { $you ->
    [yes] You pay
   *[no] { $who } pays
} { $to_you ->
    [yes] you
   *[no] { $to }
} a side bet of { $n } chips (the pot).
tn-pot-won = { $you ->
    [yes] You take
   *[no] { $who } takes
} the pot: { $n } chips.
tn-round-started = Round { $n }: a Yes claims { napalm-claim }.{ $got ->
    [all] {" "}You get { $held } ({ $hand }).
    [more] {" "}You get { $dealt }; you hold { $held } ({ $hand }).
   *[none] {""}
}
tn-declared = { $you ->
    [yes] You say
   *[no] { $who } says
} { $yes ->
    [yes] Yes
   *[no] No
}.
tn-challenged = { $you ->
    [yes] You challenge
   *[no] { $who } challenges
} the dealer: No becomes Yes.
tn-kept-no = { $you ->
    [yes] You keep
   *[no] { $who } keeps
} No.
tn-compared = Compared privately between { $who }: { $hands }. Best: { $best }.
tn-compared-unseen = { $who } compare their hands privately (you do not see them).
tn-token = { $you ->
    [yes] You are the only Yes and take
   *[no] { $who } is the only Yes and takes
} a token ({ $tokens } now).
tn-hand-ended = Hand { $n } is over.
tn-game-over = Game over: { $you ->
    [yes] you
    [among] you and { $others }
   *[no] { $who }
} won.
tn-hint = Hint: the heuristic bot would { $answer ->
    [yes] say Yes
    [no] say No
    [challenge] challenge
   *[decline] decline
}; your hand beats { $share }% of random hands.
tn-pair = pair of { $a }
tn-two-cards = { $hi } and { $lo }
tn-lowest-five = lowest five { $cards }: { $hand }
tn-best-five = best five: { $hand }
tn-head-hand = hand { $n } · { $you ->
    [yes] you deal
   *[no] dealer { $who }
}
tn-head-pot = pot { $pot } · { $tokens } tokens win
tn-head-round = Round { $n } of 3: a Yes claims { napalm-claim }
tn-between-hands = Between hands
tn-col-player = player
tn-col-tokens = tokens
tn-col-says = says
tn-col-seen = cards you saw
tn-says = { $said ->
    [challenged] No→Yes
    [yes] Yes
    [no] No
   *[nothing] —
}
tn-result-title = Result
tn-table = Table
tn-log = Log
tn-your-cards = Your cards: { $n }
tn-prompt-declare = Your turn: do you hold { napalm-claim }?
tn-prompt-challenge = { $who } alone said Yes to { napalm-claim }. Challenge?
tn-key-challenge = Challenge (No becomes Yes)
tn-key-decline = Decline (keep No)
tn-hands-played = { $n ->
    [one] { $n } hand played. The end of the log:
   *[other] { $n } hands played. The end of the log:
}
tn-key-leave = leave
tn-key-scroll-log = scroll log

## After the screen closes, and saving

term-over-saved = The game is over. Its record is saved to { $path }; `tripoley replay { $path }` prints its ledger.
term-paused-saved = Game saved to { $path }. Continue it with: { $command }
term-crash-saved = tripoley: the game so far is saved to { $path }
term-cannot-save = Cannot save to { $path }: { $error }
tn-over-saved = { $result } The record is saved to { $path }.
term-bot-illegal = { $you ->
    [yes] You tried
   *[no] { $who } tried
} a move the rules do not allow ({ $action }); another is played instead.
term-bot-level = { $level ->
    [random] random
    [expert] expert
   *[heuristic] heuristic
}

## tripoley replay: the ledger of a recorded game

rp-header = { $players } players, { $rules }: { $names }
rp-preset = preset { $name }
rp-preset-deals = preset { $name }, { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
}
rp-house-rules = house rules
rp-seat = seat { $seat }
rp-seat-named = seat { $seat } ({ $name })
rp-deal = Deal { $n }
rp-deal-unfinished = Deal { $n } (unfinished: the record stops here)
rp-deal-bare = Deal
rp-before-first = Before the first deal
rp-final-pot = Final pot
rp-after-last = After the last deal (the record stops here)
rp-dealer = : dealer { $player }
rp-pay-suit = , pay suit { words-suit }
rp-sequence = , Sequence { $run }
rp-no-chips = no chips moved
rp-out = { $player } cannot pay the ante and is out of the game with { words-chips }
rp-transfer = { $payer } -> { $payee }: { $amount } ({ $reason ->
    [ante] ante
    [pay_card] pay card
    [king_queen] King-Queen
    [sequence] Sequence
    [auction_price] price of the auctioned hand
    [pay_suit_bid] bid for the pay suit
    [bet] bet
    [pot_won] pot won
    [unmatched] returned: not matched
    [blocked] blocked play, 1 per card held
    [went_out] went out: the Kitty
    [cards_left] went out: 1 per card left
    [misled] misplayed lead
    [withheld] withheld card
    [poker_pool] Poker Pool
    [final_pot_gathered] gathered for the final pot
   *[final_pot] final pot won
})
rp-stacks = Stacks:
rp-layout = Layout: { $list }
rp-standings = Standings
rp-standing = { $player }: { words-chips }{ $winner ->
    [yes] , winner
   *[no] {""}
}
rp-no-standings = The record stops before the end of the game: no standings yet.
term-hint-cursor = The cursor moved to { $card }: Enter leads it.
term-hint-five-picked = The expert's five are picked now: Enter sets them apart.
term-hint-five-kept = Your own five stay picked: press ? again to pick the expert's.

## tripoley replay of a Napalm record: each hand's ledger

rpn-header = Napalm: { $players } players, { $tokens } tokens to win, at most { $hands } hands
rpn-hand = Hand { $n }, dealt by { $player }
rpn-after-last = After the last hand
rpn-out = { $player } is out (cannot ante), keeping { words-chips }
rpn-pot = the pot
rpn-transfer = { $payer } -> { $payee } ({ $reason ->
    [ante] ante
    [side_bet] side bet
   *[pot_won] the pot won
})
rpn-token = { $player } takes a token
rpn-stack = { $name } { $chips } ({ $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
})
rpn-chips = chips: { $list }; pot { $pot }
rpn-game-over = Game over: the pot goes to { $players }.
rpn-unfinished = The record stops before the end of the game.
