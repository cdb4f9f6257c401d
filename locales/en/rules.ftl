## The rules of a table in plain words (crates/i18n/src/rules.rs), what
## `tripoley rules` prints and the web's Rules view shows. The code adds
## each rule's id in RULES.md, such as "(T5)", after its sentence.

rules-of-suit = { $suit ->
    [clubs] of clubs
    [diamonds] of diamonds
    [hearts] of hearts
    [spades] of spades
   *[any] of the pay suit
}
rules-preset = The rules of the { $preset } preset.
rules-house = House rules (they match none of the five presets).
rules-invalid = These rules cannot be played: { $error }
rules-unused = Without effect here ({ $why }): { $options }.
rules-unset = unset (no limit)

rules-heading-setup = Table and setup
rules-heading-spare = Spare hand
rules-heading-pay = Pay cards
rules-heading-poker = Poker
rules-heading-michigan = Michigan
rules-heading-end = End of the game

## Table and setup

rules-t1 = One 52-card deck, no jokers. Cards rank from 2 (low) up to 10, J, Q, K and A (high).
rules-t2 = Players: { $min } to { $max }. Each starts with { $chips }.
rules-t3-draw = First dealer: everyone draws a card and the highest rank deals (suits do not count); players tied for highest draw again from a fresh deck.
rules-t3-seat = First dealer: seat { $seat }.
rules-t3-passes = After each deal the deal passes to the left.
rules-t4 = The layout has { $spaces } spaces, in this order: the Ace, King, Queen, Jack and Ten { $of_suit }, the King-Queen { $of_suit }, the Sequence, the Kitty{ $pot ->
    [yes] {" "}and the Pot
   *[no] {" "}(no Pot: there is no poker)
}. Chips on a space stay there from deal to deal until someone takes them.
rules-t5 = Before each deal every player puts { $chips } on each of the { $spaces } spaces.
rules-t5-dealer = Before each deal every player puts { $chips } on each of the { $spaces } spaces (the dealer puts { $dealer }).
rules-t5-spaces = Before each deal every player puts { $named }{ $others ->
    [0] {""}
   *[other] , and { $chips } on each other space
}{ $dealer ->
    [more] {" "}(the dealer puts { $by } more on every space)
    [less] {" "}(the dealer puts { $by } fewer on every space)
   *[same] {""}
}.
rules-t5-on-space = { $chips } on { $space }
rules-t6-out = A player who cannot pay their whole ante ({ $deal } a deal, { $dealing } when dealing) is out of the game and keeps the chips they have; if they were to deal, the deal passes left. Play goes on while at least two players remain.
rules-t6-zero = Nobody's stack goes below zero: a payment a player owes is capped at what they have, and nobody can bet more than they have.
rules-t7 = Chips are never created or lost: stacks plus the layout always add up to the chips the game started with.
rules-t8 = When several payments happen at once they go in turn, which matters when a payer runs short: antes and blocked-play payments clockwise from the dealer's left; pay spaces in layout order; a misplay's chips from the leader's left; going out, the Kitty first, then the others from the winner's left; withholders in the order they first withheld; split pots and spaces to the winners from the dealer's left.

## Spare hand

rules-d1 = The whole deck is dealt one card at a time, clockwise from the player left of the dealer, with one extra hand, the spare, taking its card right after the dealer. The first hands in dealing order may get one card more than the others.
rules-d2 = The spare hand stays face down all deal: nobody ever sees it.
rules-unused-spare = the spare is never swapped or sold
rules-d3 = After looking at their hand, the dealer chooses one of: a) keep it; b) swap it for the spare, unseen; c) auction the spare, unseen; d) swap, then auction their old hand. If nobody buys the spare, the dealer may still swap. Nobody ever swaps back; a hand given up becomes the spare.
rules-d4 = Auction: the players other than the dealer bid in turn, clockwise from the dealer's left, each bid higher than the last (at least 1, at most their stack), or pass for good. The last bidder left swaps their hand for the auctioned one and pays the price { $payee ->
    [dealer] to the dealer
   *[kitty] into the Kitty
}; if everybody passes, the hand is not sold.
rules-d5-limits = The dealer may swap only if their hand holds no bonus card, and only players whose hand holds no bonus card may bid. A bonus card is the A, K, Q, J or 10 { $of_suit }, or a card of a whole Sequence of one suit held in the hand.
rules-d5-none = Anyone may swap or bid, whatever cards they hold (no bonus-card limits).
rules-d6 = The dealer knows the hand they gave up, a buyer knows the hand they gave up, and nobody else learns anything about the spare.

## Pay cards

rules-h1-suit = The pay suit is { words-suit }: its A, K, Q, J and 10 are the pay cards.
rules-h8 = The pay suit is auctioned once the spare hand is settled: bidding starts with the dealer and goes round as often as needed until all but one have passed. The high bidder puts the bid into the Kitty and names the pay suit; if everybody passes, it is { words-suit }.
rules-h9-suit = The pay suit is drawn at random before each deal and shown to everyone.
rules-h7 = The Sequence is { $run } of any one suit.
rules-h7-impossible = The Sequence is three ranks from { $low } (impossible: they would run past the ace) of any one suit.
rules-h9-sequence = The Sequence is three consecutive ranks (Q-K-A at the highest) drawn at random before each deal and shown to everyone; it may be of any one suit.
rules-h1 = Stage 1: whoever holds the A, K, Q, J or 10 { $of_suit } shows it and takes all the chips on its space. The cards shown are public.
rules-h2 = A player holding both the K and the Q { $of_suit } also takes the King-Queen space.
rules-h3 = Every player holding the Sequence in one suit claims the Sequence space; with several claimants each takes an equal share, rounded down, and the remainder stays on the space. Holding it in two suits still makes one claimant.
rules-h4 = Spaces nobody claims keep their chips; the Kitty { $pot ->
    [yes] and the Pot are
   *[no] is
} never paid in stage 1.
rules-h5 = There is no stage 1: pay cards are collected in stage 3. A player who plays a pay card takes its space at once.
rules-h6 = A player who plays the Q and then the K { $of_suit } as two consecutive cards takes the King-Queen space; one who plays the three cards of the Sequence of one suit consecutively takes the Sequence space. "Consecutive" means the very next cards played, all by that player. Pay cards still in a hand at the end of the deal take nothing.

## Poker

rules-p2 = { $high ->
    [yes] The ace is always high: A-2-3-4-5 is not a straight.
   *[no] A-2-3-4-5 is the lowest straight.
}
rules-raises-unlimited = there is no limit on the number of raises
rules-raises-at-most = { $n ->
    [0] no raises are allowed
    [one] at most { $n } raise is allowed in a round
   *[other] at most { $n } raises are allowed in a round
}
rules-p1 = Stage 2: before any betting, each player still in picks exactly five cards of their hand as their poker hand, not necessarily their best, and sets them apart face down, in turn from the dealer's left; the bets are on those five, and nobody learns another player's five until it is shown.
rules-hand-ranks = Hands rank from straight flush down to high card, ties broken by kickers, never by suits. { $straights }
rules-p3 = Betting starts with { $opener ->
    [dealer] the dealer
   *[left] the player left of the dealer
} and goes clockwise.
rules-p4 = With no bet yet a player checks or bets 1 to { $limit }; after a bet a player folds, calls, or raises by 1 to { $limit } on top of the call; { $raises }.
rules-p5 = All bets go on the Pot. If all but one fold, that player takes the Pot and nobody shows; otherwise the round ends when everyone still in has put in the same and acted since the last bet or raise.
rules-p6 = At the showdown the best hand takes the whole Pot; equal best hands split it and the remainder stays. Hands are shown from the last player who bet or raised (the opener if nobody did), clockwise; folded hands are never shown.
rules-p7 = A player who cannot match a bet may call with all they have; the others' excess makes side pots. Chips already on the Pot belong to the main pot.
rules-p8 = Cards shown at the showdown are public for the rest of the deal.
rules-p9 = There is no betting. After stage 3, the best five cards of the hand each player held when stage 3 began (chosen for them) are compared, and the best takes the Pot space, the Poker Pool; equal best hands split it and the remainder stays.
rules-no-poker = There is no poker in the deals and no Pot space.
rules-final-straights = For the final pot: { $straights }
rules-unused-betting = nobody bets at this table
rules-final-betting = In the final pot, betting starts with { $opener ->
    [dealer] the dealer
   *[left] the player left of the dealer
}; bets are 1 to { $limit } and { $raises }.
rules-unused-poker = no poker hands are compared

## Michigan

rules-m1 = Stage 3: every player takes back their whole hand.
rules-m2-winner = The winner of the poker pot leads first (with side pots, the winner of the main pot; with a split pot, the first winner clockwise from the dealer's left).
rules-m2-dealer = The dealer leads first.
rules-m2-left = The player left of the dealer leads first.
rules-m3 = A lead is the lowest card the leader holds in the suit they choose.
rules-m3-any = The first lead of a deal is like any other.
rules-m3-lowest = The first lead of a deal is the lowest card in the leader's hand; with equally low cards in several suits, the leader picks.
rules-m3-black = The first lead of a deal is the leader's lowest black card; if they hold none, the turn passes left, and if nobody holds one, play ends blocked.
rules-m4 = Then whoever holds the next higher card of the same suit plays it, and so on; { $withhold ->
    [yes] the holder may also withhold it (see M9).
   *[no] these cards are played for them.
}
rules-m5 = A run stops at an ace, or when the next card is in nobody's hand (it is in the spare or was played earlier). The player of the last card leads next.
rules-m5-other-suit = After a stop the lead is any suit but the one just played. If the leader holds only that suit, the turn to lead passes left to the first player holding another suit; if nobody does, play ends blocked.
rules-m6-alternate = After a stop the lead must be a suit of the other colour than the one just stopped (the leader picks the suit). If the leader holds none, the turn passes left; if no player holds that colour, the stop player leads again with any suit, the one just stopped included.
rules-m6-strict = After a stop the lead is the leader's lowest card of the other colour than the one just stopped (with equally low cards in both suits, the leader picks). If the leader holds none, the turn passes left; if nobody holds that colour, play ends blocked.
rules-m5-blocked = When play ends blocked, every player puts 1 chip per card they still hold into the Kitty, which stays for the next deal.
rules-m7 = The first player to play their last card ends play at once: they take the whole Kitty and 1 chip for every card each other player still holds, from that player.
rules-m8-in-play = Pay cards, King-Queen and the Sequence are collected as they are played (H5, H6).
rules-m8-stage1 = Pay cards played here collect nothing: they were paid in stage 1.
rules-m9-none = No misplays: every lead is the lowest card of its suit and following is automatic. Only leaders choose (which suit).
rules-m9a = Misplays are allowed at a price. a) Leading a card that is not the lowest of its suit: the leader pays 1 chip to each other player still in the game at once and can collect no pay space for the rest of the deal.
rules-m9b = b) Withholding the next card when it is yours to play stops the run: the withholder collects no pay space for the rest of the deal; once stage 3 is settled, for every A, K, Q, J or 10 space still holding chips whose card is of a suit they withheld in and is still in another player's hand, the withholder pays that player the chips on that space. A withholder who plays their last card collects nothing for going out, and play goes on without them.
rules-m9-order = Settlement order: stage 3 (going out or blocked), then the withholding payments{ $pool ->
    [yes] , then the Poker Pool
   *[no] {""}
}. Leaders choose their suit and whether to misplay; whoever holds the next card chooses to play or withhold it.

## End of the game

rules-e1-round = A game is one round: as many deals as there were players at the start, unless the table stops earlier or fewer than two players remain.
rules-e1-deals = A game is { $n ->
    [one] { $n } deal
   *[other] { $n } deals
}, unless the table stops earlier or fewer than two players remain.
rules-e2-betting = Chips left on the layout at the end are played for{ $rounds ->
    [1] {" "}as one pot
   *[other] , split into { $rounds } equal pots played one after another (the remainder goes to the last)
}: five cards each from a freshly shuffled deck and a betting round as in stage 2, with no new antes; the winner takes the pot.
rules-e2-showdown = Chips left on the layout at the end are played for{ $rounds ->
    [1] {" "}as one pot
   *[other] , split into { $rounds } equal pots played one after another (the remainder goes to the last)
}: five cards face up to each player from a freshly shuffled deck, no betting; the best hand takes the pot.
rules-e2-keep = Chips left on the layout at the end stay there and count for nobody.
rules-e2-who = Players who are out take no part; equal best hands split, the remainder going to the first tied player left of the last deal's dealer. The deal goes on passing left: the first final pot is dealt by the player left of the last deal's dealer, each further one by the next player on the left, one card at a time from the dealer's left.
rules-unused-final = no final pot is played
rules-e3 = The player with the most chips wins; players who went out count with the chips they kept, and equal stacks share the win.

## Napalm poker (crates/napalm, RULES.md section 7)

napalm-rules-title = Napalm poker
napalm-rules-players = Players: { $min } to { $max }. Each starts with { $chips } and no tokens.
napalm-rules-n1 = Every player puts { $ante } into the pot at the start of each hand; the deal then passes left. The first player to hold { $tokens } tokens wins the game and takes the pot.
napalm-rules-n2 = Round 1: two cards each. In turn from the dealer's left, the dealer last, each player says Yes (I hold the best two cards) or No. If all said No and the dealer says Yes, each other player in turn may change their No to Yes.
napalm-rules-n3 = Two cards: a pair beats any two different cards; otherwise the higher card decides, then the lower.
napalm-rules-n4 = Round 2: three more cards each. Declarations as in round 1, for the lowest five-card hand; straights and flushes count, and the ace is high.
napalm-rules-n5 = Round 3: two more cards each. Declarations as in round 1, for the best five cards of seven; the ace is high only.
napalm-rules-n6 = After each round: a single Yes takes a token. Two or more Yes compare their hands privately; the single best takes from each other Yes a side bet equal to the pot. If the best hands tie, nobody pays, except that each Yes below the tied hands pays each of them the pot. No Yes: nothing happens.
napalm-rules-n7 = Hands compared privately are seen only by the players in that comparison.
napalm-rules-n8-out = A player who cannot put in the ante is out of the game and keeps the chips they have. When fewer than two players can ante, the game ends and the last player still in takes the pot; a player who is out never takes it, whatever their tokens. When the last players go out together (nobody can ante the next hand), they share the pot, the odd chips to the first of them on the dealer's left.
napalm-rules-n8-hands = After { $hands } hands the game ends (no ante is due, so everyone who played the last hand is still in): the player still in with the most tokens takes the pot; equal counts share it, the odd chip to the first of them on the left of the last hand's dealer.
napalm-rules-n8-order = A player who owes side bets to several tied winners pays them in turn from the dealer's left, so when they run short the nearest on the dealer's left are paid first; players pay only what they have.
