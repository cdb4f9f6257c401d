## Words the browser and the terminal share: seats, suits, spaces, stages,
## hands, reasons for chips moving, and the events of a game in a line each.

seat-n = Seat { $n }
# The player, named: $at is start (alone, or where a line or a sentence
# starts) or within (inside a sentence: "between you and Bot 3"). A player
# named just this (the terminal's name for one who gave none) is not also
# marked "(you)".
you = { $at ->
    [start] You
   *[within] you
}
name-you = { $name } (you)
names-and = { $first } and { $last }
words-chips = { $n ->
    [one] { $n } chip
   *[other] { $n } chips
}
words-suit = { $suit ->
    [clubs] clubs
    [diamonds] diamonds
    [hearts] hearts
   *[spades] spades
}
space = { $space ->
    [ace] Ace
    [king] King
    [queen] Queen
    [jack] Jack
    [ten] Ten
    [king_queen] King-Queen
    [sequence] Sequence
    [kitty] Kitty
   *[pot] Pot
}
account-pot = the pot
account-space = { $space ->
    [ace] the Ace
    [king] the King
    [queen] the Queen
    [jack] the Jack
    [ten] the Ten
    [king_queen] the King-Queen
    [sequence] the Sequence
    [kitty] the Kitty
   *[pot] the Pot
}
stage = { $stage ->
    [draw_for_dealer] Drawing for the first dealer
    [dealing] Dealing
    [spare] The spare hand
    [auction] Auction
    [pay_suit] Naming the pay suit
    [choose_five] Poker: choosing five cards
    [betting] Poker: betting
    [showdown] Poker: showing hands
    [michigan] Michigan
    [final_pot] The final pot
   *[game_over] Game over
}
hand-name = { $category ->
    [0] high card
    [1] a pair
    [2] two pair
    [3] three of a kind
    [4] a straight
    [5] a flush
    [6] a full house
    [7] four of a kind
    [8] a straight flush
   *[other] a hand
}
reason = { $reason ->
    [ante] ante
    [pay_card] pay card
    [king_queen] King-Queen
    [sequence] Sequence
    [auction_price] price of a hand
    [pay_suit_bid] bid for the pay suit
    [bet] bet
    [pot_won] won the pot
    [unmatched] returned: not matched
    [blocked] blocked play
    [went_out] went out
    [cards_left] cards left
    [misled] misplay
    [withheld] withheld card
    [poker_pool] poker pool
    [final_pot_gathered] board gathered for the final pot
    [final_pot] final pot
    [side_bet] side bet
   *[other] { $reason }
}
ledger-line = { $from } → { $to }: { $amount } ({ $reason })
stop-why = { $reason ->
    [ace] it reached an ace
    [already_played] { $next } was played earlier
   *[other] nobody played { $next }
}

## The log: one line per event

ev-drew-for-dealer = Draw for dealer: { $draws }.
ev-first-dealer = { $who } deals first.
ev-player-out = { $who } cannot ante and leaves the game with { $chips } chips.
ev-deal-started = Deal { $number }: { $dealer } deals{ $suit ->
    [none] {""}
   *[other] ; the pay suit is { words-suit }
}; the Sequence starts at { $sequence }.
ev-dealt = You are dealt { $cards }.
ev-dealt-to = { $who } is dealt { $cards }.
ev-dealer-kept = { $who } keeps the hand dealt.
ev-swapped = { $who } swaps for the other hand.
ev-new-hand = Your new hand: { $cards }.
ev-new-hand-to = New hand of { $who }: { $cards }.
ev-auction-opened = Up for auction: { $item ->
    [spare] the spare hand
   *[other] the dealer's old hand
}.
ev-bid = { $who } bids { $amount }.
ev-passed = { $who } passes.
ev-auction-sold = { $who } buys it for { $price }.
ev-auction-unsold = Nobody buys it.
ev-pay-suit-named = The pay suit is { words-suit }{ $named ->
    [yes] , named by { $who }
   *[no] {""}
}.
ev-shows = { $who } shows { $cards }.
ev-sequence-shared = The Sequence is shared; { $remainder } stays on it.
ev-checked = { $who } checks.
ev-bet = { $who } bets { $amount }.
ev-called = { $who } calls { $amount }{ $allin ->
    [yes] {" "}(all in)
   *[no] {""}
}.
ev-raised = { $who } raises by { $by }.
ev-folded = { $who } folds.
ev-chose-five = Your five poker cards: { $cards }.
ev-chose-five-of = { $who }'s five poker cards: { $cards }.
ev-set-five-apart = { $who } sets five cards apart.
ev-showed = { $who } shows { $cards }: { $hand }.
ev-led = { $who } leads { $card }{ $misplay ->
    [yes] {" "}(a misplay: not the lowest of the suit)
   *[no] {""}
}.
ev-withheld = You hold back { $card }.
ev-withheld-by = { $who } holds back { $card }.
ev-run-stopped = The run stops: { $why }.
ev-cannot-lead = { $who } cannot lead; the turn passes on.
ev-play-blocked = Nobody can lead: play is blocked.
ev-went-out = { $who } plays their last card and goes out.
ev-final-pot-round = Final pot { $round }: { $chips } chips.
ev-face-up = { $who } is dealt { $cards } face up.
ev-deal-ended = Deal { $number } is over.
ev-game-over = Game over: { $winners }{ $count ->
    [one] {" "}wins.
   *[other] {" "}share the win.
}

## Actions, as the hint says them ("The expert would ...")

action = { $action ->
    [keep] keep the hand
    [swap] swap for the spare
    [auction_spare] auction the spare
    [swap_and_auction] swap and auction the old hand
    [pass] pass
    [check] check
    [call] call
    [fold] fold
    [play] play the card
    [withhold] hold the card back
    [yes] say Yes
    [no] say No
    [challenge] challenge
    [decline] keep the No
   *[other] { $action }
}
action-lead = lead { $card }
action-name-suit = name { words-suit }
action-pick = pick { $cards }
action-amount = { $action ->
    [bid] bid
    [bet] bet
    [raise] raise by
   *[other] { $action }
} { $amount }

## A move made, as the analysis names it ("Ann — bid 5; the expert: pass")

move = { $action ->
    [keep] keep the hand
    [swap] swap for the spare
    [auction_spare] auction the spare
    [swap_and_auction] swap and auction the old hand
    [pass] pass
    [check] check
    [call] call
    [fold] fold
    [play] play the card
    [withhold] hold the card back
    [yes] say Yes
    [no] say No
    [challenge] challenge
    [decline] keep the No
   *[other] { $action }
}
move-lead = lead { $card }
move-name-suit = name { words-suit }
move-pick = pick { $cards }
move-amount = { $action ->
    [bid] bid
    [bet] bet
    [raise] raise by
   *[other] { $action }
} { $amount }

## Cards as a screen reader says them ("ten of hearts")

card-words = { $rank ->
    [2] two
    [3] three
    [4] four
    [5] five
    [6] six
    [7] seven
    [8] eight
    [9] nine
    [10] ten
    [J] jack
    [Q] queen
    [K] king
   *[A] ace
} of { words-suit }

## A poker hand with its ranks ("full house, kings over fives"), for the terminal

rank-name = { $rank ->
    [two] two
    [three] three
    [four] four
    [five] five
    [six] six
    [seven] seven
    [eight] eight
    [nine] nine
    [ten] ten
    [jack] jack
    [queen] queen
    [king] king
   *[ace] ace
}
rank-plural = { $rank ->
    [two] twos
    [three] threes
    [four] fours
    [five] fives
    [six] sixes
    [seven] sevens
    [eight] eights
    [nine] nines
    [ten] tens
    [jack] jacks
    [queen] queens
    [king] kings
   *[ace] aces
}
rank-high = { rank-name } high
poker-hand = { $shape ->
    [royal] royal flush
    [high] { $category ->
        [flush] flush
       *[high_card] high card
    }, { $high }
    [run] { $category ->
        [straight_flush] straight flush
       *[straight] straight
    }, { $high }
    [pair] pair of { $a }
    [two_pair] two pair, { $a } and { $b }
    [trips] three of a kind, { $a }
    [full] full house, { $a } over { $b }
   *[quads] four of a kind, { $a }
}

# A bidder with nothing to bid, in the terminal and the browser.
bid-none = { $why ->
    [bonus] You hold a bonus card, so you may not bid: pass.
   *[chips] You have no chips left to bid: pass.
}
