//! [`NapalmTable`]: Napalm poker played in integers, with the same shape as
//! [`crate::table::Table`]. Two integers: 0 says yes (declare Yes, or
//! challenge the dealer's lone Yes), 1 says no (declare No, or decline).

use tripoley_cards::{Deck, GameRng, seeded_rng};
use tripoley_napalm::{
    Action, Decision, NapalmGame, NapalmRecord, NapalmRules, NapalmStep, NapalmView, Pending,
    Round, Seat,
};

use crate::draw::DeckDraw;
use crate::observe::Writer;
use crate::table::Turn;
use crate::world::{Dealt, Move, RESAMPLE_ATTEMPTS, replayed_world};

/// The integers of a Napalm table.
pub const NAPALM_ACTIONS: usize = 2;

/// How chance is supplied.
#[derive(Clone, Debug)]
enum Chance {
    Auto(GameRng),
    Outside(DeckDraw),
}

/// A game of Napalm played in integers.
#[derive(Clone, Debug)]
pub struct NapalmTable {
    game: NapalmGame,
    chance: Chance,
    record: NapalmRecord,
}

/// The answer integer `a` gives to `decision`.
pub fn napalm_action(decision: Decision, a: usize) -> Option<Action> {
    let yes = match a {
        0 => true,
        1 => false,
        _ => return None,
    };
    Some(match (decision, yes) {
        (Decision::Declare { .. }, true) => Action::Yes,
        (Decision::Declare { .. }, false) => Action::No,
        (Decision::Challenge { .. }, true) => Action::Challenge,
        (Decision::Challenge { .. }, false) => Action::Decline,
    })
}

/// The integer of a Napalm action.
pub fn napalm_integer(action: Action) -> usize {
    usize::from(matches!(action, Action::No | Action::Decline))
}

impl NapalmTable {
    /// A new game; chance from `seed`, or from outside when `None`.
    pub fn new(rules: NapalmRules, players: usize, seed: Option<u64>) -> Result<Self, String> {
        let game = NapalmGame::new(rules.clone(), players).map_err(|e| e.to_string())?;
        let names = (0..players).map(|s| format!("player_{s}")).collect();
        let mut table = NapalmTable {
            game,
            chance: match seed {
                Some(s) => Chance::Auto(seeded_rng(s)),
                None => Chance::Outside(DeckDraw::default()),
            },
            record: NapalmRecord::new(rules, names),
        };
        table.settle();
        Ok(table)
    }

    /// The game.
    pub fn game(&self) -> &NapalmGame {
        &self.game
    }

    /// Every step so far.
    pub fn record(&self) -> &NapalmRecord {
        &self.record
    }

    /// What the table waits for: its game's turn.
    pub fn turn(&self) -> Turn {
        tripoley_game::Game::turn(&self.game)
    }

    /// The legal integers: both, on a seat's turn.
    pub fn legal(&self) -> Vec<usize> {
        match self.turn() {
            Turn::Seat(_) => vec![0, 1],
            _ => Vec::new(),
        }
    }

    /// Plays integer `a` for the seat to act.
    pub fn act(&mut self, a: usize) -> Result<(), String> {
        let Pending::Decide { seat, decision } = self.game.pending() else {
            return Err("no seat is to act now".into());
        };
        let action = napalm_action(decision, a)
            .ok_or_else(|| format!("{a} is not an answer: 0 says yes, 1 says no"))?;
        self.game.apply(seat, action).map_err(|e| e.to_string())?;
        self.record.steps.push(NapalmStep::Act { seat, action });
        self.settle();
        Ok(())
    }

    fn settle(&mut self) {
        while let (Pending::Deck, Chance::Auto(rng)) = (self.game.pending(), &mut self.chance) {
            let deck = Deck::shuffled(rng);
            self.supply(&deck);
        }
    }

    fn supply(&mut self, deck: &Deck) {
        self.game.deal(deck).expect("the game waits for a deck");
        self.record.steps.push(NapalmStep::Deck(deck.clone()));
    }

    /// The cards that may come next from the top of the deck.
    pub fn chance_outcomes(&self) -> Vec<usize> {
        match (&self.chance, self.game.pending()) {
            (Chance::Outside(draw), Pending::Deck) => draw.outcomes(),
            _ => Vec::new(),
        }
    }

    /// Places card `outcome` next on the deck being drawn from outside.
    pub fn chance(&mut self, outcome: usize) -> Result<(), String> {
        let Chance::Outside(draw) = &mut self.chance else {
            return Err("this table draws its own chance".into());
        };
        if self.game.pending() != Pending::Deck || !draw.push(outcome) {
            return Err(format!("{outcome} is not a possible outcome of chance now"));
        }
        if let Some(deck) = draw.deck() {
            *draw = DeckDraw::default();
            self.supply(&deck);
        }
        Ok(())
    }

    /// Outcomes of the current chance drawn so far.
    pub fn chance_progress(&self) -> usize {
        match &self.chance {
            Chance::Outside(d) => d.len(),
            Chance::Auto(_) => 0,
        }
    }

    /// `seat`'s view.
    pub fn view(&self, seat: Option<Seat>) -> NapalmView {
        self.game.view(seat)
    }

    /// `seat`'s observation (see [`napalm_observation_size`]).
    pub fn observation(&self, seat: Seat) -> Vec<f32> {
        let n = self.game.players();
        let mut out = vec![0.0; napalm_observation_size(n)];
        self.observe_into(seat, &mut out);
        out
    }

    /// A table in the same information state for `seat`, with the integers
    /// that play it from the start (chance's as `None`): every hand, past or
    /// current, played again with every card hidden from `seat` dealt again
    /// (see [`crate::world`] and [`NapalmGame::sample_world`]: the sampled
    /// world's deck deals its cards in the same rounds, and every comparison
    /// keeps its winners), the answers as they were (all public); outside
    /// chance half drawn is dropped (nobody saw it). When no sample of a
    /// hand replays, the engine's sample alone, without integers. Later
    /// decks come from a generator of `seed` when the table has its own (the
    /// real one holds the real future).
    pub fn resample(&self, seat: Seat, seed: u64) -> (NapalmTable, Option<Vec<Move>>) {
        let mut rng = seeded_rng(seed);
        let (mut out, moves) =
            if let Some((out, moves)) = replayed_world(self, seat, &mut rng, RESAMPLE_ATTEMPTS) {
                (out, Some(moves))
            } else {
                let world = NapalmTable {
                    game: self.game.sample_world(seat, &mut rng),
                    chance: self.chance.clone(),
                    record: self.record.clone(),
                };
                (world, None)
            };
        if let Chance::Auto(_) = self.chance {
            out.chance = Chance::Auto(rng);
            out.settle();
        }
        (out, moves)
    }

    /// Plays a recorded step from outside, noting the integers.
    fn play(&mut self, step: &NapalmStep, moves: &mut Vec<Move>) -> Result<(), String> {
        match step {
            NapalmStep::Deck(deck) => self.draw_deck(deck, moves),
            NapalmStep::Act { seat, action } => {
                let a = napalm_integer(*action);
                self.act(a)?;
                moves.push((Some(*seat), a));
                Ok(())
            }
        }
    }

    /// Draws `deck` from outside card by card, noting the integers.
    fn draw_deck(&mut self, deck: &Deck, moves: &mut Vec<Move>) -> Result<(), String> {
        for card in &deck.cards()[..deck.cards().len() - 1] {
            self.chance(card.index())?;
            moves.push((None, card.index()));
        }
        Ok(())
    }

    /// Writes `seat`'s observation into `out` (of its size; every number).
    pub fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        observe_napalm(&self.view(Some(seat)), out);
    }

    /// What everyone knows, laid out as `seat`'s observation.
    pub fn observe_public_into(&self, seat: Seat, out: &mut [f32]) {
        let mut view = self.view(None);
        view.seat = Some(seat);
        observe_napalm(&view, out);
    }
}

/// Napalm's hands are dealt again one by one as Tripoley's deals are (see
/// [`crate::world`]): a hand's deck from a sample at the hand's end.
impl Dealt for NapalmTable {
    type Step = NapalmStep;

    fn outside(&self) -> Option<NapalmTable> {
        NapalmTable::new(self.game.rules().clone(), self.game.players(), None).ok()
    }

    fn record_steps(&self) -> &[NapalmStep] {
        &self.record.steps
    }

    fn deals(step: &NapalmStep) -> bool {
        matches!(step, NapalmStep::Deck(_))
    }

    fn replay(&mut self, step: &NapalmStep, moves: &mut Vec<Move>) -> Option<()> {
        self.play(step, moves).ok()
    }

    /// The sample's deck, then the answers as they were (all public): a
    /// tie the sampler did not draw again would move other chips.
    fn deal_again(
        &mut self,
        moves: &mut Vec<Move>,
        deal: &[NapalmStep],
        before: &NapalmTable,
        after: &NapalmTable,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<()> {
        let [NapalmStep::Deck(deck), rest @ ..] = deal else {
            return None;
        };
        let mut real = before.game.clone();
        real.deal(deck).ok()?;
        let sampled = after.game.sample_world(seat, rng).hand_deck()?;
        self.draw_deck(&sampled, moves).ok()?;
        for step in rest {
            self.play(step, moves).ok()?;
            if let NapalmStep::Act { seat: s, action } = step {
                real.apply(*s, *action).ok()?;
            }
            let same = self.game.stacks() == real.stacks() && self.game.pot() == real.pot();
            same.then_some(())?;
        }
        (self.view(Some(seat)) == after.view(Some(seat))).then_some(())
    }
}

/// The length of a Napalm observation at a table of `n`: own cards, cards
/// seen per seat, then the round (3), the pot, my turn, and per seat the
/// dealer, to act, stack, tokens, out, cards held, declared yes, declared no.
pub fn napalm_observation_size(n: usize) -> usize {
    52 * (1 + n) + 3 + 2 + 8 * n
}

fn observe_napalm(view: &NapalmView, out: &mut [f32]) {
    let n = usize::from(view.players);
    let mut w = Writer::new(out, n, view.seat.map_or(0, usize::from));
    let flag = u32::from;
    w.plane(view.cards);
    w.seat_planes(&view.seen);
    let round = view.round.map(|r| match r {
        Round::BestTwo => 0,
        Round::LowestFive => 1,
        Round::BestOfSeven => 2,
    });
    w.one_hot(3, round);
    w.number(view.pot);
    w.flag(view.decision.is_some());
    w.seat_row(|s| flag(usize::from(view.dealer) == s));
    w.seat_row(|s| flag(view.to_act.map(usize::from) == Some(s)));
    w.seat_row(|s| view.stacks[s]);
    w.seat_row(|s| view.tokens[s]);
    w.seat_row(|s| flag(view.out[s]));
    w.seat_row(|s| view.card_counts[s]);
    w.seat_row(|s| flag(view.declared[s] == Some(true)));
    w.seat_row(|s| flag(view.declared[s] == Some(false)));
    debug_assert_eq!(w.written(), napalm_observation_size(n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn n2_a_napalm_game_plays_to_the_end_in_integers_and_replays() {
        for outside in [false, true] {
            let mut table =
                NapalmTable::new(NapalmRules::default(), 3, (!outside).then_some(4)).unwrap();
            let mut rng = seeded_rng(8);
            let mut steps = 0;
            loop {
                match table.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        let o = table.chance_outcomes();
                        table
                            .chance(o[(rng.next_u64() % o.len() as u64) as usize])
                            .unwrap();
                    }
                    Turn::Seat(seat) => {
                        assert_eq!(table.observation(seat).len(), napalm_observation_size(3));
                        table.act((rng.next_u32() >> 31) as usize).unwrap();
                    }
                }
                steps += 1;
                assert!(steps < 1_000_000);
            }
            let (replayed, _) = table.record().replay().unwrap();
            assert_eq!(replayed, *table.game());
            assert_eq!(table.game().chips_in_play(), table.game().total_chips());
        }
    }

    #[test]
    fn n2_integers_answer_both_kinds_of_decision() {
        let declare = Decision::Declare {
            round: Round::BestTwo,
        };
        let challenge = Decision::Challenge {
            round: Round::BestTwo,
        };
        assert_eq!(napalm_action(declare, 0), Some(Action::Yes));
        assert_eq!(napalm_action(challenge, 1), Some(Action::Decline));
        assert_eq!(napalm_action(challenge, 2), None);
        for action in [Action::Yes, Action::No, Action::Challenge, Action::Decline] {
            let d = if matches!(action, Action::Yes | Action::No) {
                declare
            } else {
                challenge
            };
            assert_eq!(napalm_action(d, napalm_integer(action)), Some(action));
        }
    }
}
