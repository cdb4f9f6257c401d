//! [`InfoSet`]: what a searching bot may use at its decision: its view, and
//! games sampled consistently with that view (determinizations).

use arrayvec::ArrayVec;
use rand_core::Rng;
use tripoley_cards::{Card, CardSet, Suit};

use crate::game::{Deal, Game, MAX_SEATS, Phase};
use crate::layout::Seat;
use crate::michigan::LeadRule;
use crate::view::View;

/// One seat's information set at a decision. It holds the real game but
/// lets a bot see only the seat's [`View`] and sample whole games that look
/// exactly the same from that seat: every card hidden from it is dealt anew,
/// respecting hand sizes, the cards it knows where they are, and every public
/// deduction (a seat that led a card held nothing lower the rule asked for,
/// one penalised for a misplay held such a card, a card nobody played after
/// a stop is in the spare, a seat that bid for a hand held no bonus card,
/// a settled deal's withholding payments...). Hidden choices of other
/// players (a withheld card, M9b) are forgotten in the sample too.
pub struct InfoSet<'a> {
    game: &'a Game,
    seat: Seat,
}

impl<'a> InfoSet<'a> {
    /// The information set of `seat` in `game`.
    pub fn new(game: &'a Game, seat: Seat) -> InfoSet<'a> {
        InfoSet { game, seat }
    }

    /// Whose information set this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat's own decision, when it must decide: what a bot that needs
    /// no more than the question can answer from without building a view.
    /// Borrowed: the engine has just stored it field by field, and a copy
    /// would read it back whole, which waits for those stores to land.
    pub fn decision(&self) -> Option<&'a crate::action::Decision> {
        match self.game.pending_ref() {
            crate::action::Pending::Decide { seat, decision } if *seat == self.seat => {
                Some(decision)
            }
            _ => None,
        }
    }

    /// The seat's view.
    pub fn view(&self) -> View {
        self.game.view(Some(self.seat))
    }

    /// A game that looks the same from this seat, hidden cards dealt at random.
    pub fn sample(&self, rng: &mut (impl Rng + ?Sized)) -> Game {
        self.game.deal_world(self.seat, rng, false)
    }

    /// [`InfoSet::sample`], believing that nobody withheld a card (M9b) they
    /// need not have: each card a run stopped below, where the seat cannot
    /// see it, lies in the spare while the spare has room. Withholding costs
    /// a player every pay card and payments after, so people (and every bot
    /// here) rarely do it, while a uniform draw puts such a card in a hand
    /// about two times in three: a hand that then holds a card its owner in
    /// truth never had, and is a withholder. Before a deal is settled only;
    /// the settlement's payments say who withheld.
    pub fn sample_likely(&self, rng: &mut (impl Rng + ?Sized)) -> Game {
        self.game.deal_world(self.seat, rng, true)
    }
}

/// Draws of the hidden cards [`Game::deal_world`] makes before it keeps
/// one that breaks a deduction slots cannot say (a Sequence nobody claimed
/// dealt whole, a misplay without the lower card): a draw misses one time in
/// five or so, and the later draws place the misplays' cards first, so this
/// many misses in a row does not happen.
const MAX_REDRAWS: u32 = 64;

/// Draws for a deal settled already, whose withholding payments (M9b)
/// bind the withheld cards and the pay cards together: a draw may miss
/// hundreds of times (650 at most in `tests/sampling.rs`). Such a deal is
/// sampled only between deals, where nobody decides, so searches never pay
/// for it.
const SETTLED_REDRAWS: u32 = 4096;

/// Plain draws before the later ones place a card of each unproved misplay
/// first: the plain ones keep every placement as likely as another.
const PLAIN_DRAWS: u32 = 8;

/// M9a's proofs of a deal: for each misplay, the leader and the cards of
/// which it held one. Held in place, so a game clones without allocating
/// (self-play allocates nothing); a misplay is a lead, which plays a card,
/// so a deal has at most 52.
pub(crate) type Proofs = ArrayVec<(Seat, CardSet), 52>;

/// The bit of [`BonusProofs`]' places that stands for the spare.
const SPARE_PLACE: u16 = 1 << 15;

/// What one D5 event shows about the hands it judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BonusFact {
    /// Each held a bonus card: nobody with chips could bid, so the auction
    /// ended unsold at once.
    Each,
    /// None held one: each bid, or the dealer swapped.
    None,
    /// One at least held none: the auction ran, so somebody could bid.
    NotAll,
}

/// D5's proofs of a deal: the hands that held a bonus card each, those that
/// held none, and those of which one held none, each a mask of places (a
/// bit per seat, [`SPARE_PLACE`] for the spare) that follows the hands
/// through later swaps, so it tells where the judged cards are now (a
/// seat's hand with its played cards, or the spare). Every D5 event comes
/// before the pay suit is named (H8), so one set of pay cards judges them
/// all. Plain masks: a game clones without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BonusProofs {
    each: u16,
    none: u16,
    /// A deal has one hand auction at most, so one such group: were there
    /// more, their union would be kept, a weaker fact that still holds.
    not_all: u16,
    pay: CardSet,
}

impl BonusProofs {
    /// Records that `fact` holds of the hands of the seats in `seats`,
    /// judged with the pay cards `pay`.
    pub(crate) fn note(&mut self, fact: BonusFact, seats: u16, pay: CardSet) {
        self.pay = pay;
        match fact {
            BonusFact::Each => self.each |= seats,
            BonusFact::None => self.none |= seats,
            BonusFact::NotAll => self.not_all |= seats,
        }
    }

    /// The pay cards judged (A K Q J 10 of the pay suit, or of hearts
    /// before it was named) when `seat`'s hand was shown to hold no bonus
    /// card; a Sequence run held whole is no set of cards, so only these.
    pub(crate) fn not_held_by(&self, seat: usize) -> CardSet {
        if self.none >> seat & 1 == 1 {
            self.pay
        } else {
            CardSet::EMPTY
        }
    }

    /// D3, D4: `seat`'s hand and the spare change places.
    pub(crate) fn swap_with_spare(&mut self, seat: Seat) {
        let swap = |mask: &mut u16| {
            let (at_seat, at_spare) = (*mask >> seat & 1 == 1, *mask & SPARE_PLACE != 0);
            *mask &= !(1 << seat | SPARE_PLACE);
            *mask |= (u16::from(at_seat) * SPARE_PLACE) | (u16::from(at_spare) << seat);
        };
        swap(&mut self.each);
        swap(&mut self.none);
        swap(&mut self.not_all);
    }

    /// The slots (0..n the seats, n the spare) of the places in `mask`.
    fn slots(mask: u16, n: usize) -> impl Iterator<Item = usize> {
        let mut left = mask;
        std::iter::from_fn(move || {
            let bit = left.trailing_zeros() as usize;
            left &= left.wrapping_sub(1);
            (bit < 16).then(|| if 1 << bit == SPARE_PLACE { n } else { bit })
        })
    }

    /// Whether a draw keeps every proof, `held(k)` telling whether place
    /// `k` (a slot) holds a bonus card in it.
    fn kept(&self, n: usize, held: &dyn Fn(usize) -> bool) -> bool {
        self.each | self.none | self.not_all == 0
            || BonusProofs::slots(self.each, n).all(held)
                && !BonusProofs::slots(self.none, n).any(held)
                && (self.not_all == 0 || !BonusProofs::slots(self.not_all, n).all(held))
    }

    /// The cards to give first in the later draws ([`deal_proving`]): a
    /// pay card to each place that held a bonus card and keeps none
    /// (`lacks(k)`). One might have been a whole run: this only steers the
    /// draw, [`BonusProofs::kept`] judges it.
    fn hints<'a>(
        &self,
        n: usize,
        lacks: &'a dyn Fn(usize) -> bool,
        slots: &'a [Slot],
        hidden: CardSet,
    ) -> impl Iterator<Item = (usize, CardSet)> + 'a {
        let pay = self.pay;
        BonusProofs::slots(self.each, n)
            .filter(move |&k| lacks(k) && slots[k].room > 0)
            .map(move |k| (k, pay & (hidden - slots[k].forbidden)))
            .filter(|&(_, cards)| !cards.is_empty())
    }
}

impl Deal {
    /// In a sample of `real` for seat `me`: others' private knowledge
    /// follows the new cards, as its existence is public; their withholding
    /// (M9b) is private, so it follows the new cards too: whoever holds a
    /// card a run stopped below withheld it.
    fn follow_others_knowledge(&mut self, real: &Deal, me: usize, n: usize) {
        for o in (0..n).filter(|&o| o != me) {
            for h in 0..n {
                if !real.known_by[o][h].is_empty() {
                    self.known_by[o][h] = self.hands[h];
                }
            }
            if !real.spare_known[o].is_empty() {
                self.spare_known[o] = self.spare;
            }
        }
        self.withhold_what_stopped_runs(n);
    }

    /// M9b in a sampled world: each card a run stopped below unplayed was
    /// withheld by whoever holds it there (now, or among the cards it played
    /// since), and nobody else withheld anything. Who really withheld is
    /// private; a world that gave the card to a seat without making it a
    /// withholder would let that seat collect pay cards, go out and escape
    /// the payments a withholder cannot.
    fn withhold_what_stopped_runs(&mut self, n: usize) {
        self.withheld_suits = [0; MAX_SEATS];
        self.withholders.clear();
        for &card in &self.stops {
            let Some(w) = (0..n).find(|&h| (self.hands[h] | self.played_by[h]).contains(card))
            else {
                continue;
            };
            if self.withheld_suits[w] == 0 {
                // Seats are below MAX_SEATS, so each fits a `Seat`.
                self.withholders.push(w as Seat);
            }
            self.withheld_suits[w] |= 1 << card.suit().index();
        }
        // M9a's and M9b's bars: misplays are public.
        self.barred = self.misled;
        for &w in &self.withholders {
            self.barred |= 1 << w;
        }
    }

    /// [`InfoSet::sample_likely`]: moves the cards runs stopped below from
    /// `hidden` to `spare_fixed` while the spare has room (a spare shown to
    /// hold no bonus card, D5, takes no pay card).
    fn stops_to_spare(&self, hidden: &mut CardSet, spare_fixed: &mut CardSet) {
        let barred = if self.bonus_proofs.none & SPARE_PLACE != 0 {
            self.bonus_proofs.pay
        } else {
            CardSet::EMPTY
        };
        for &card in &self.stops {
            if hidden.contains(card)
                && !barred.contains(card)
                && spare_fixed.len() < self.spare.len()
            {
                spare_fixed.insert(card);
                hidden.remove(card);
            }
        }
    }

    /// M3, M5, M6, M9a: what everyone learns from `seat` leading `card` under
    /// `rule`. A proper lead shows the leader holds none of the cards that
    /// would have come before it (lower in the suit, or lower in rank where
    /// the rule asks for the lowest rank); a misplay shows they held one, of
    /// those not played yet, which a sampled world must keep. Inlined: a
    /// few masks, asked at every lead.
    #[inline]
    pub(crate) fn note_lead(&mut self, seat: Seat, rule: LeadRule, card: Card, misplay: bool) {
        let rank_below = (1u16 << card.rank().index()) - 1;
        let before = match rule {
            LeadRule::LowestOverall => CardSet::of_ranks(rank_below),
            LeadRule::ColourLowest(red) => {
                CardSet::of_ranks(rank_below) & crate::michigan::colour(red)
            }
            LeadRule::AnySuit | LeadRule::NotSuit(_) | LeadRule::ColourEachSuit(_) => {
                CardSet::from_suit_mask(card.suit(), rank_below)
            }
        };
        if misplay {
            self.misplay_proofs.push((seat, before - self.played));
        } else {
            self.cannot_hold[usize::from(seat)] |= before;
        }
    }
}

/// Where a hidden card may go: a seat's hand or the spare.
#[derive(Clone, Copy)]
struct Slot {
    /// Cards still to place.
    room: u32,
    /// Cards it may not take.
    forbidden: CardSet,
}

impl Game {
    /// A copy of this game in which every card `seat` cannot see is dealt
    /// again at random (see [`InfoSet`]); with `stops_in_spare`, the cards
    /// runs stopped below go to the spare first ([`InfoSet::sample_likely`]).
    pub(crate) fn deal_world(
        &self,
        seat: Seat,
        rng: &mut (impl Rng + ?Sized),
        stops_in_spare: bool,
    ) -> Game {
        let mut g = self.clone();
        let n = usize::from(self.n);
        let me = usize::from(seat);
        let d = &self.deal;
        if d.number == 0 && !matches!(self.phase, Phase::AwaitFinalDeck { .. }) {
            return g;
        }
        // Cards fixed where the seat knows them to be.
        let fixed: [CardSet; MAX_SEATS] = std::array::from_fn(|h| match h {
            _ if h >= n => CardSet::EMPTY,
            _ if h == me => d.hands[h],
            _ => (d.public | d.known_by[me][h]) & d.hands[h],
        });
        let mut spare_fixed = (d.public_spare | d.spare_known[me]) & d.spare;
        let mut hidden = fixed
            .iter()
            .fold(CardSet::FULL - d.played - spare_fixed, |a, &f| a - f);
        if stops_in_spare && d.settled.is_none() {
            d.stops_to_spare(&mut hidden, &mut spare_fixed);
        }
        let mut slots = self.slots(&fixed, spare_fixed, hidden);
        let bonus = d.bonus_proofs;
        // H4: a Sequence nobody claimed was in no hand as stage 1 began;
        // M9a: a seat penalised for a misplay held a lower card then; D5: a
        // hand held a bonus card (or none, or not all did); M9b: the
        // withholding payments of a settled deal. Each binds cards together,
        // which slots cannot say: draw again until the draw keeps them all
        // (a few draws at most; the real deal does, and after many misses
        // the last draw stands).
        let unclaimed = Suit::ALL.map(|suit| {
            (d.unclaimed_sequences >> suit.index() & 1 == 1).then(|| self.sequence_cards(suit))
        });
        // Cards a place (a seat's hand with its played cards, the spare)
        // holds in every sample.
        let kept_by = |k: usize| match k {
            _ if k == n => spare_fixed,
            _ => fixed[k] | d.played_by[k],
        };
        let holds_bonus = |cards: CardSet| self.holds_bonus_card(cards, bonus.pay);
        // Misplays that the cards kept do not prove already, and M5, M6:
        // the seat asked to lead holds a card it may lead (now, so its
        // played cards prove nothing).
        let leader = self.leader_holds_one_of().filter(|&(h, cards)| {
            usize::from(h) != me && (fixed[usize::from(h)] & cards).is_empty()
        });
        let proofs: Vec<(usize, CardSet)> = d
            .misplay_proofs
            .iter()
            .map(|&(h, cards)| (usize::from(h), cards))
            .filter(|&(h, cards)| (kept_by(h) & cards).is_empty())
            .chain(leader.map(|(h, cards)| (usize::from(h), cards)))
            .map(|(h, cards)| (h, cards & (hidden - slots[h].forbidden)))
            .collect();
        let proving: Vec<(usize, CardSet)> = bonus
            .hints(n, &|k| !holds_bonus(kept_by(k)), &slots, hidden)
            .chain(proofs.iter().copied())
            .collect();
        // M9b: a settled deal's withholding payments were public.
        let paid = self.withholding_paid(&|h| d.hands[h]);
        let (mut placed, mut kept_all) = (None, false);
        let redraws = if paid.is_some() {
            SETTLED_REDRAWS
        } else {
            MAX_REDRAWS
        };
        for tries in 0..redraws {
            let draw = if tries < PLAIN_DRAWS || proving.is_empty() {
                deal_hidden(hidden, &mut slots[..=n], rng)
            } else {
                deal_proving(hidden, &slots[..=n], &proving, rng)
            };
            let Some(draw) = draw else { continue };
            let kept = (0..n).all(|h| {
                let hand = kept_by(h) | draw[h];
                !unclaimed
                    .iter()
                    .flatten()
                    .any(|&seq| hand.contains_all(seq))
            }) && proofs
                .iter()
                .all(|&(h, cards)| !(draw[h] & cards).is_empty())
                && bonus.kept(n, &|k| holds_bonus(kept_by(k) | draw[k]))
                && self.withholding_paid(&|h| fixed[h] | draw[h]) == paid;
            placed = Some(draw);
            if kept {
                kept_all = true;
                break;
            }
        }
        if stops_in_spare && !kept_all {
            // The seat's deductions keep a card runs stopped below out of
            // the spare: drawn as any other, it goes where it may.
            return self.deal_world(seat, rng, false);
        }
        let placed = placed.unwrap_or_else(|| {
            deal_hidden(hidden, &mut slots[..=n], rng)
                .expect("the real deal satisfies the constraints, so a placement exists")
        });
        self.deal_sample(
            &mut g,
            me,
            |h| fixed[h] | placed[h],
            spare_fixed | placed[n],
        );
        g
    }

    /// Where the `hidden` cards may go: slots 0..n are the seats, slot n the
    /// spare, each with room for what it holds beyond its `fixed` cards
    /// (the spare's: `spare_fixed`) and the cards it cannot hold.
    fn slots(
        &self,
        fixed: &[CardSet; MAX_SEATS],
        spare_fixed: CardSet,
        hidden: CardSet,
    ) -> [Slot; MAX_SEATS + 1] {
        let d = &self.deal;
        let n = usize::from(self.n);
        let mut slots = [Slot {
            room: 0,
            forbidden: CardSet::EMPTY,
        }; MAX_SEATS + 1];
        for h in 0..n {
            slots[h] = Slot {
                room: d.hands[h].len() - fixed[h].len(),
                forbidden: d.known_not_held(h),
            };
        }
        slots[n].room = d.spare.len() - spare_fixed.len();
        // M9b: a run waits on a card's holder, so a hand holds it: which
        // one, the sample draws where the seat cannot see.
        if let Some((_, card)) = self.followed_card().filter(|&(_, c)| hidden.contains(c)) {
            slots[n].forbidden.insert(card);
        }
        // D5: a hand that held no bonus card held none of the pay cards (the
        // seats' hands say so in `known_not_held`; the spare's here).
        if d.bonus_proofs.none & SPARE_PLACE != 0 {
            slots[n].forbidden |= d.bonus_proofs.pay;
        }
        slots
    }

    /// Gives `g`, a sample of this game for seat `me`, its hands and spare,
    /// and what follows from them.
    fn deal_sample(
        &self,
        g: &mut Game,
        me: usize,
        hand: impl Fn(usize) -> CardSet,
        spare: CardSet,
    ) {
        let n = usize::from(self.n);
        for h in 0..n {
            g.deal.hands[h] = hand(h);
        }
        g.deal.spare = spare;
        g.deal.index_hands(n);
        g.deal.follow_others_knowledge(&self.deal, me, n);
        self.choose_fives_again(g, me);
        g.follow_its_holder();
        if matches!(self.phase, Phase::Michigan(_)) {
            for h in 0..n {
                g.deal.stage3_hands[h] = g.deal.hands[h] | g.deal.played_by[h];
            }
        }
        g.refresh_pending();
    }

    /// P1: others' fives are hidden choices; in the sample `g` of this game
    /// for seat `me` each chooses the best five of their new hand (a shown
    /// five stays as it is).
    fn choose_fives_again(&self, g: &mut Game, me: usize) {
        let d = &self.deal;
        if matches!(self.phase, Phase::ChooseFive { .. } | Phase::Betting(_)) {
            let eval = self.rules.evaluator();
            for o in (0..usize::from(self.n)).filter(|&o| o != me && !d.fives[o].is_empty()) {
                if !d.public.contains_all(d.fives[o]) {
                    g.deal.fives[o] = eval.best_five(g.deal.hands[o]).1;
                }
            }
        }
    }
}

/// A draw that gives each seat of `proofs` one of its cards before the
/// others are placed (see [`deal_hidden`]); `None` when the cards picked
/// leave no room for the rest.
fn deal_proving(
    hidden: CardSet,
    slots: &[Slot],
    proofs: &[(usize, CardSet)],
    rng: &mut (impl Rng + ?Sized),
) -> Option<Vec<CardSet>> {
    let mut slots = slots.to_vec();
    let mut rest = hidden;
    let mut given = vec![CardSet::EMPTY; slots.len()];
    for &(h, cards) in proofs {
        let open = cards & rest;
        if !(given[h] & cards).is_empty() {
            continue;
        }
        if open.is_empty() || slots[h].room == 0 {
            return None;
        }
        let pick = ((u64::from(rng.next_u32()) * u64::from(open.len())) >> 32) as u32;
        let card = open.nth(pick)?;
        given[h].insert(card);
        rest.remove(card);
        slots[h].room -= 1;
    }
    let mut placed = deal_hidden(rest, &mut slots, rng)?;
    for (p, g) in placed.iter_mut().zip(given) {
        *p |= g;
    }
    Some(placed)
}

/// Places every card of `hidden` in a slot with room that does not forbid it,
/// filling every slot exactly. Cards are taken in random order, the most
/// constrained first, each into a random allowed slot weighted by its room;
/// when that dead-ends, an augmenting path (bipartite matching) moves earlier
/// cards to make space, so a placement is found whenever one exists.
fn deal_hidden(
    hidden: CardSet,
    slots: &mut [Slot],
    rng: &mut (impl Rng + ?Sized),
) -> Option<Vec<CardSet>> {
    let mut cards: Vec<Card> = hidden.to_vec();
    // Random order (Fisher-Yates), then most constrained first (stable).
    for i in (1..cards.len()).rev() {
        let j = ((u64::from(rng.next_u32()) * (i as u64 + 1)) >> 32) as usize;
        cards.swap(i, j);
    }
    let allowed = |c: Card, s: &Slot| !s.forbidden.contains(c);
    cards.sort_by_key(|&c| slots.iter().filter(|s| allowed(c, s)).count());
    let mut owner: Vec<usize> = vec![usize::MAX; cards.len()];
    let mut load = vec![0u32; slots.len()];
    for i in 0..cards.len() {
        let open: u32 = slots
            .iter()
            .enumerate()
            .filter(|&(k, s)| allowed(cards[i], s) && load[k] < s.room)
            .map(|(k, s)| s.room - load[k])
            .sum();
        if open > 0 {
            let mut pick = ((u64::from(rng.next_u32()) * u64::from(open)) >> 32) as u32;
            for (k, s) in slots.iter().enumerate() {
                if allowed(cards[i], s) && load[k] < s.room {
                    let free = s.room - load[k];
                    if pick < free {
                        owner[i] = k;
                        load[k] += 1;
                        break;
                    }
                    pick -= free;
                }
            }
        } else {
            let mut seen = vec![false; slots.len()];
            if !augment(i, &cards, slots, &mut owner, &mut load, &mut seen) {
                return None;
            }
        }
    }
    let mut out = vec![CardSet::EMPTY; slots.len()];
    for (i, &k) in owner.iter().enumerate() {
        out[k].insert(cards[i]);
    }
    Some(out)
}

/// Finds room for card `i` by moving other cards along an augmenting path.
fn augment(
    i: usize,
    cards: &[Card],
    slots: &[Slot],
    owner: &mut [usize],
    load: &mut [u32],
    seen: &mut [bool],
) -> bool {
    for k in 0..slots.len() {
        if seen[k] || slots[k].forbidden.contains(cards[i]) {
            continue;
        }
        seen[k] = true;
        if load[k] < slots[k].room {
            owner[i] = k;
            load[k] += 1;
            return true;
        }
        // Slot k is full: try to move one of its cards elsewhere.
        for j in 0..cards.len() {
            if owner[j] == k {
                load[k] -= 1;
                owner[j] = usize::MAX;
                if augment(j, cards, slots, owner, load, seen) {
                    owner[i] = k;
                    load[k] += 1;
                    return true;
                }
                owner[j] = k;
                load[k] += 1;
            }
        }
    }
    false
}
