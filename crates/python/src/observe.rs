//! Observations: one seat's view as a flat vector of numbers, seats counted
//! from the viewer (the viewer first), so one policy can play any seat.
//! Cards are 0/1 planes of 52 (dense card index), chips raw counts; in
//! `f32`, or in a narrower [`Number`] type for batched learning, or packed
//! ([`observe_packed`]: the planes as bits, the counts as bytes).

use tripoley_cards::CardSet;
use tripoley_engine::{AuctionItem, Sight, Space, Stage};

/// The stages, as the observation numbers them. An exhaustive match: a
/// stage the engine adds stops the build here rather than going unseen.
/// (Matched, not compared by their serialised names: that cost a JSON value
/// per observation.)
fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::DrawForDealer => 0,
        Stage::Dealing => 1,
        Stage::Spare => 2,
        Stage::Auction => 3,
        Stage::PaySuit => 4,
        Stage::ChooseFive => 5,
        Stage::Betting => 6,
        Stage::Michigan => 7,
        Stage::FinalPot => 8,
        Stage::GameOver => 9,
    }
}

// A space's number is its place in `Space::ALL`, as the layout is written.
const _: () = {
    let mut i = 0;
    while i < Space::ALL.len() {
        assert!(
            Space::ALL[i] as usize == i,
            "Space::ALL is in declaration order"
        );
        i += 1;
    }
};

/// How many stages [`stage_index`] numbers.
const STAGES: usize = 10;
/// The groups of fixed length after the card planes: the stage, the pay
/// suit and the Sequence's lowest rank (one-hot), the chips on each space.
const FIXED: usize = STAGES + 4 + 13 + Space::ALL.len();

/// Card planes besides the per-seat ones: own hand, picked, known spare,
/// the last card played, the viewer's chosen five.
const PLANES: usize = 5;
/// Per-seat card planes: known in its hand, played by it, known not held.
const SEAT_PLANES: usize = 3;
/// Per-seat numbers: dealer, to act, stack, out, hand size, contributed,
/// folded, high bidder, still bidding, has set a five apart.
const SEAT_ROWS: usize = 10;
/// Single numbers: spare size, deal number, deals total, my turn, who played
/// last; betting on, current total, raises; auction on, its item (3), high bid.
const SCALARS: usize = 5 + 3 + 5;

/// The card planes of an observation at a table of `n` seats.
fn plane_count(n: usize) -> usize {
    PLANES + SEAT_PLANES * n
}

/// The numbers after the card planes at a table of `n` seats.
fn number_count(n: usize) -> usize {
    FIXED + SEAT_ROWS * n + SCALARS
}

/// The length of an observation at a table of `n` seats.
pub fn observation_size(n: usize) -> usize {
    card_plane_numbers(n) + number_count(n)
}

/// The 0/1 card numbers an observation at a table of `n` seats begins
/// with (52 a plane).
pub fn card_plane_numbers(n: usize) -> usize {
    52 * plane_count(n)
}

/// The bytes of the card planes of a packed observation at a table of `n`
/// seats: eight a plane (see [`observe_packed`]).
fn packed_planes_size(n: usize) -> usize {
    8 * plane_count(n)
}

/// The length in bytes of a packed observation ([`observe_packed`]) at a
/// table of `n` seats.
pub fn packed_observation_size(n: usize) -> usize {
    packed_planes_size(n) + number_count(n)
}

/// A number type an observation can be written in: `f32` (the default),
/// or `u16` and `u8` for batched learning, where a smaller observation is
/// written (and read by the learner) faster. Every number of an
/// observation is a whole count or a 0/1 flag, so the narrower types hold
/// it exactly, except counts above their largest value (chips beyond 255
/// in `u8`, beyond 65,535 in `u16`), which are written as that value.
pub trait Number: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// The eight 0/1 numbers of each byte, low bit first.
    const BYTE_FLAGS: &'static [[Self; 8]; 256];
    /// `x` (a count or a 0/1 flag) in this type, saturating.
    fn from_count(x: u32) -> Self;
}

/// Builds a [`Number::BYTE_FLAGS`] table (a macro: a `const fn` cannot be
/// generic over the number's type).
macro_rules! byte_flags {
    ($zero:expr, $one:expr) => {{
        let mut table = [[$zero; 8]; 256];
        let mut byte = 0;
        while byte < 256 {
            let mut bit = 0;
            while bit < 8 {
                if byte >> bit & 1 == 1 {
                    table[byte][bit] = $one;
                }
                bit += 1;
            }
            byte += 1;
        }
        table
    }};
}

impl Number for f32 {
    const BYTE_FLAGS: &'static [[f32; 8]; 256] = &byte_flags!(0.0, 1.0);
    fn from_count(x: u32) -> f32 {
        // Exact: no table holds 2^24 chips (rules and action space bound them).
        x as f32
    }
}

impl Number for u16 {
    const BYTE_FLAGS: &'static [[u16; 8]; 256] = &byte_flags!(0, 1);
    fn from_count(x: u32) -> u16 {
        x.min(u32::from(u16::MAX)) as u16
    }
}

impl Number for u8 {
    const BYTE_FLAGS: &'static [[u8; 8]; 256] = &byte_flags!(0, 1);
    fn from_count(x: u32) -> u8 {
        x.min(u32::from(u8::MAX)) as u8
    }
}

/// Writes `cards` as its 52 numbers, 1 for a card held, 0 else (dense
/// index order: 13 ranks per suit). A suit's 13 ranks are the low bits of
/// its 16-bit lane of [`CardSet::bits`]: they are written as two runs of
/// eight from [`Number::BYTE_FLAGS`], ranks 0..8 and 5..13 (the three in
/// both get the same numbers twice). Eight lookups at fixed places into a
/// plane of known length: no gathering of the suits first and no bounds
/// checks. Every number is written, so the buffer needs no zeroing first
/// (zeroing the whole observation and then setting its few ones cost a
/// tenth of a batched step, a loop over single bits a fifth). An empty
/// set (about half an observation's planes: others' known cards, the
/// picks, most of the play before it starts) is a plain fill of zeroes, a
/// few wide stores instead of the eight lookups.
fn dense_plane<T: Number>(out: &mut [T; 52], cards: CardSet) {
    if cards.is_empty() {
        out.fill(T::from_count(0));
        return;
    }
    let bits = cards.bits();
    for suit in 0..4 {
        let lane = (bits >> (16 * suit)) as usize;
        let at = 13 * suit;
        out[at..at + 8].copy_from_slice(&T::BYTE_FLAGS[lane & 0xff]);
        out[at + 5..at + 13].copy_from_slice(&T::BYTE_FLAGS[lane >> 5 & 0xff]);
    }
}

/// `cards` as 52 bits in dense index order (bit `13 * suit + rank`): each
/// suit's 13 ranks, the low bits of its 16-bit lane of [`CardSet::bits`],
/// moved down next to the last suit's.
pub fn dense_bits(cards: CardSet) -> u64 {
    // Two moves: the odd suits down 3 bits next to the even ones (suits 0
    // and 1 at bits 0-25, 2 and 3 at 32-57), then the upper pair down 6.
    const EVEN: u64 = 0x0000_1fff_0000_1fff;
    const LOW_PAIR: u64 = (1 << 26) - 1;
    let b = cards.bits();
    let pairs = (b & EVEN) | (b >> 3 & EVEN << 13);
    (pairs & LOW_PAIR) | (pairs >> 6 & LOW_PAIR << 26)
}

/// How many seats a table has: a number known when the game runs
/// (`usize`), or a constant ([`Seats`]) with which every per-seat loop of
/// an observation has a fixed length the compiler unrolls (the loops'
/// counting and bounds checks were a fifth of a batched step).
pub trait SeatCount: Copy {
    /// The seats.
    fn get(self) -> usize;
}

impl SeatCount for usize {
    fn get(self) -> usize {
        self
    }
}

/// `N` seats, as a constant.
#[derive(Clone, Copy, Debug)]
pub struct Seats<const N: usize>;

impl<const N: usize> SeatCount for Seats<N> {
    fn get(self) -> usize {
        N
    }
}

/// Evaluates `$body` with `$seats` bound to the seat count `$n` as a
/// [`Seats`] constant (every count the rules allow, T2), else as a
/// `usize`: one copy of the code for each count, each with its loops
/// unrolled.
macro_rules! with_seats {
    ($n:expr, |$seats:ident| $body:expr) => {
        match $n {
            2 => {
                let $seats = Seats::<2>;
                $body
            }
            3 => {
                let $seats = Seats::<3>;
                $body
            }
            4 => {
                let $seats = Seats::<4>;
                $body
            }
            5 => {
                let $seats = Seats::<5>;
                $body
            }
            6 => {
                let $seats = Seats::<6>;
                $body
            }
            7 => {
                let $seats = Seats::<7>;
                $body
            }
            8 => {
                let $seats = Seats::<8>;
                $body
            }
            9 => {
                let $seats = Seats::<9>;
                $body
            }
            n => {
                let $seats: usize = n;
                $body
            }
        }
    };
}

/// Writes an observation from the front, seats relative to the viewer:
/// every number of it, whatever the buffer held.
pub struct Writer<'a, T: Number = f32, S: SeatCount = usize> {
    out: &'a mut [T],
    at: usize,
    seats: S,
    me: usize,
}

impl<'a, T: Number, S: SeatCount> Writer<'a, T, S> {
    /// A writer into `out`, for `me` at a table of `seats`: `out` is zeroed
    /// first, in one go, so groups of mostly zeroes (one-hot groups, rows
    /// of a round that is not on) need only their few other numbers
    /// written (zeroing each small group apart called `memset` four times
    /// an observation).
    pub fn new(out: &'a mut [T], seats: S, me: usize) -> Writer<'a, T, S> {
        out.fill(T::from_count(0));
        Writer {
            out,
            at: 0,
            seats,
            // A viewer is one of the seats: a number past them would only
            // come from a caller's mistake (and would misplace every seat).
            me: me.min(seats.get() - 1),
        }
    }

    /// The seats at the table.
    fn n(&self) -> usize {
        self.seats.get()
    }

    /// Where seat `s` goes: the viewer first, then the seats to its left.
    /// (A comparison, not `%`: no division for each of the fifty-odd seat
    /// numbers an observation writes.)
    pub fn rel(&self, s: usize) -> usize {
        if s >= self.me {
            s - self.me
        } else {
            s + self.n() - self.me
        }
    }

    /// The next `count` planes of 52, cut once (one bounds check for all).
    fn next_planes(&mut self, count: usize) -> &mut [[T; 52]] {
        let at = self.at;
        self.at += 52 * count;
        self.out[at..self.at].as_chunks_mut::<52>().0
    }

    /// A 0/1 plane of 52 cards.
    pub fn plane(&mut self, cards: CardSet) {
        self.planes(&[cards]);
    }

    /// A 0/1 plane of 52 cards for each of `sets`, in turn.
    pub fn planes(&mut self, sets: &[CardSet]) {
        for (plane, &cards) in self.next_planes(sets.len()).iter_mut().zip(sets) {
            dense_plane(plane, cards);
        }
    }

    /// One plane per seat (an empty one for a seat `per_seat` lacks).
    pub fn seat_planes(&mut self, per_seat: &[CardSet]) {
        self.seat_planes_with(|s| per_seat.get(s).copied().unwrap_or_default());
    }

    /// One plane per seat, `cards(s)` seat `s`'s, walked in the planes'
    /// order: the viewer to the last seat, then the first seat to the
    /// viewer's right.
    pub fn seat_planes_with(&mut self, cards: impl Fn(usize) -> CardSet) {
        let (n, me) = (self.n(), self.me);
        let (from_me, before_me) = self.next_planes(n).split_at_mut(n - me);
        for (plane, s) in from_me.iter_mut().zip(me..) {
            dense_plane(plane, cards(s));
        }
        for (plane, s) in before_me.iter_mut().zip(0..) {
            dense_plane(plane, cards(s));
        }
    }

    /// A one-hot group of `len` (all zero for `None`).
    pub fn one_hot(&mut self, len: usize, hot: Option<usize>) {
        if let Some(i) = hot.filter(|&i| i < len) {
            self.out[self.at + i] = T::from_count(1);
        }
        self.at += len;
    }

    /// One number (a count, written saturating in a narrow type).
    pub fn number(&mut self, x: u32) {
        self.out[self.at] = T::from_count(x);
        self.at += 1;
    }

    /// A 0/1 number.
    pub fn flag(&mut self, b: bool) {
        self.number(u32::from(b));
    }

    /// One number per seat, `f(s)` seat `s`'s, the viewer's first: place
    /// `r`'s seat is `me + r`, less `n` past the end (with the seat count a
    /// constant, the loop unrolls into a pick of two seats a place). Not
    /// worked out in seat order into a scratch row and copied from the
    /// viewer's place: reading several numbers just stored one by one as
    /// one wider load stalls the core until the stores land (a tenth of
    /// the observation's time).
    pub fn seat_row(&mut self, f: impl Fn(usize) -> u32) {
        let (n, me) = (self.n(), self.me);
        let row = &mut self.out[self.at..self.at + n];
        for (r, x) in row.iter_mut().enumerate() {
            *x = T::from_count(f(if r + me < n { r + me } else { r + me - n }));
        }
        self.at += n;
    }

    /// A 0/1 number per seat, bit `s` of `seats` seat `s`'s, the viewer's
    /// first: the bits turned so the viewer's is the lowest, then written
    /// eight at a time from [`Number::BYTE_FLAGS`].
    pub fn seat_flags(&mut self, seats: u16) {
        let (n, me) = (self.n(), self.me);
        let all = (1u32 << n) - 1;
        let bits = u32::from(seats) & all;
        let turned = (bits >> me | bits << (n - me)) & all;
        let row = &mut self.out[self.at..self.at + n];
        for (eight, byte) in row.chunks_mut(8).zip(turned.to_le_bytes()) {
            eight.copy_from_slice(&T::BYTE_FLAGS[usize::from(byte)][..eight.len()]);
        }
        self.at += n;
    }

    /// The next `N` numbers (zero, as [`Writer::new`] left them), cut
    /// once: a group of fixed length whose few non-zero numbers are then
    /// set at their places.
    pub fn zeroed<const N: usize>(&mut self) -> &mut [T; N] {
        let at = self.at;
        self.at += N;
        <&mut [T; N]>::try_from(&mut self.out[at..at + N]).expect("N numbers")
    }

    /// `len` zeroes (left as [`Writer::new`] wrote them).
    pub fn zeroes(&mut self, len: usize) {
        self.at += len;
    }

    /// How much is written.
    pub fn written(&self) -> usize {
        self.at
    }
}

/// Calls `plane` with each card plane `sight` shows, in the observation's
/// order (see [`PLANES`] and [`SEAT_PLANES`]; per seat, the viewer first),
/// the cards the viewer has picked into its five among them: the one place
/// that order is written, for the dense and the packed observation.
fn each_plane(
    sight: &Sight,
    seats: impl SeatCount,
    picked: CardSet,
    mut plane: impl FnMut(CardSet),
) {
    let n = seats.get();
    let me = sight.seat().map_or(0, usize::from);
    plane(sight.hand());
    plane(picked);
    plane(sight.spare_known());
    plane(
        sight
            .last_played()
            .map_or(CardSet::EMPTY, |(_, c)| CardSet::single(c)),
    );
    plane(sight.my_five().unwrap_or_default());
    // Seats from the viewer, place `r`'s seat `me + r` less `n` past the
    // end: a loop of `n` (unrolled when the seat count is a constant; two
    // ranges split at the viewer were loops of unknown lengths).
    let mut seats = |plane_of: &dyn Fn(usize) -> CardSet| {
        for r in 0..n {
            plane(plane_of(if r + me < n { r + me } else { r + me - n }));
        }
    };
    seats(&|s| sight.known_cards(s));
    seats(&|s| sight.played(s));
    seats(&|s| sight.cannot_hold(s));
}

/// Encodes what `sight` sees and the cards the viewer has picked into its
/// five (read in place: no [`tripoley_engine::View`] is copied out).
pub fn observe<T: Number>(sight: Sight, picked: CardSet, out: &mut [T]) {
    with_seats!(sight.players(), |seats| {
        let n = seats.get();
        let (planes, rest) = out.split_at_mut(52 * plane_count(n));
        let mut planes = planes.as_chunks_mut::<52>().0.iter_mut();
        each_plane(&sight, seats, picked, |cards| {
            if let Some(out) = planes.next() {
                dense_plane(out, cards);
            }
        });
        numbers(&sight, seats, rest);
    });
}

/// [`observe`] packed into bytes (of [`packed_observation_size`]): each
/// card plane as the 64 bits of its [`CardSet`], a suit's 13 ranks at its
/// 16 bits (card `c` of the plane's 52, suit `c / 13` and rank `c % 13`,
/// at bit `16 * (c / 13) + c % 13` of the plane's eight bytes, low bit of
/// each byte first; the three bits above each suit's ranks are 0); then
/// the numbers after the planes as `u8` (the same bytes as in [`observe`]'s
/// `u8` observation). A fifth of the bytes of the `u8` observation, for
/// learners that keep many (a replay buffer) or unpack them where they
/// learn (NumPy's `unpackbits(..., bitorder="little")`, less each suit's
/// last three bits, gives the 0/1 planes back). A plane is its set's word
/// as it is, not its 52 bits squeezed together: squeezing (and pairing
/// planes into whole bytes) cost more instructions than the rest of the
/// observation.
pub fn observe_packed(sight: Sight, picked: CardSet, out: &mut [u8]) {
    with_seats!(sight.players(), |seats| packed(&sight, seats, picked, out));
}

/// [`observe_packed`] at a table of `seats`.
fn packed(sight: &Sight, seats: impl SeatCount, picked: CardSet, out: &mut [u8]) {
    let (planes, rest) = out.split_at_mut(packed_planes_size(seats.get()));
    let mut planes = planes.as_chunks_mut::<8>().0.iter_mut();
    each_plane(sight, seats, picked, |cards| {
        if let Some(out) = planes.next() {
            *out = cards.bits().to_le_bytes();
        }
    });
    numbers(sight, seats, rest);
}

/// Writes the numbers of an observation after its card planes into `out`
/// (of [`number_count`]), every one of them.
fn numbers<T: Number>(sight: &Sight, seats: impl SeatCount, out: &mut [T]) {
    let n = seats.get();
    let out = &mut out[..number_count(n)];
    let mut w = Writer::new(out, seats, sight.seat().map_or(0, usize::from));
    let last_played = sight.last_played();
    let one = T::from_count(1);
    let fixed = w.zeroed::<FIXED>();
    fixed[stage_index(sight.stage())] = one;
    if let Some(suit) = sight.pay_suit() {
        fixed[STAGES + usize::from(suit.index())] = one;
    }
    if let Some(rank) = sight.sequence() {
        fixed[STAGES + 4 + usize::from(rank.index())] = one;
    }
    // Each space at its place in `Space::ALL` (0 for a space the table
    // lacks).
    let spaces = &mut fixed[STAGES + 4 + 13..];
    for (x, chips) in spaces.iter_mut().zip(sight.space_chips()) {
        *x = T::from_count(chips);
    }
    let (to_act, decision) = sight.turn();
    w.number(sight.spare_size());
    w.number(sight.deal_number());
    w.number(sight.deals_total());
    w.flag(decision.is_some());
    let last = last_played.map(|(s, _)| w.rel(usize::from(s)));
    w.number(last.map_or(0, |r| r as u32 + 1));
    // A row with one seat flagged: zeroes and the one at its place.
    let dealer = w.rel(usize::from(sight.dealer()));
    w.one_hot(n, Some(dealer));
    let to_act = to_act.map(|s| w.rel(usize::from(s)));
    w.one_hot(n, to_act);
    let stacks = sight.stacks();
    w.seat_row(|s| stacks[s]);
    w.seat_flags(sight.out_seats());
    w.seat_row(|s| sight.hand_size(s));
    let betting = sight.betting();
    match &betting {
        Some(b) => w.seat_row(|s| b.contributed[s]),
        None => w.zeroes(n),
    }
    w.seat_flags(sight.folded());
    let auction = sight.auction();
    let high = auction.as_ref().and_then(|a| a.high);
    let high_bidder = high.map(|(h, _)| w.rel(usize::from(h)));
    w.one_hot(n, high_bidder);
    w.seat_flags(sight.bidding());
    w.seat_flags(sight.chose_five());
    w.flag(betting.is_some());
    w.number(betting.as_ref().map_or(0, |b| b.current));
    w.number(betting.as_ref().map_or(0, |b| b.raises));
    w.flag(auction.is_some());
    let item = auction.map(|a| match a.item {
        Some(AuctionItem::Spare) => 0,
        Some(AuctionItem::DealersOldHand) => 1,
        None => 2,
    });
    w.one_hot(3, item);
    w.number(high.map_or(0, |(_, bid)| bid));
    debug_assert_eq!(w.written(), number_count(n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use tripoley_cards::Card;

    /// Every card's bit lands at its dense index (13 a suit), and a set is
    /// the union of its cards' bits (the full deck: the low 52 bits).
    #[test]
    fn dense_bits_put_each_card_at_its_dense_index() {
        for i in 0..52 {
            let card = Card::from_index(i);
            assert_eq!(dense_bits(CardSet::single(card)), 1 << i, "{card:?}");
        }
        let all = (0..52).fold(CardSet::EMPTY, |set, i| {
            let mut set = set;
            set.insert(Card::from_index(i));
            set
        });
        assert_eq!(dense_bits(all), (1 << 52) - 1);
    }
}
