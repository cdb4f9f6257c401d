//! [`Table`]: a Tripoley game driven by integers, the shared core of the
//! PettingZoo environment and the OpenSpiel game. It keeps the cards picked
//! so far into a poker five, supplies chance either from its own seeded
//! generator or card by card from outside (OpenSpiel's chance nodes), and
//! records every engine step so the game can be saved and replayed in Rust.

use tripoley_cards::{Card, CardSet, GameRng, Rank, Suit, seeded_rng};
use tripoley_engine::{
    Action, ChanceKind, DealChance, Decision, Game, InfoSet, PaySuitRule, Pending, Record, Rules,
    Seat, SequenceRule, Step as RecordStep, View,
};

use crate::draw::DeckDraw;
use crate::observe::{Number, observation_size, observe, observe_packed};
use crate::space::{ActionSpace, Legal, Step, best_completion, chosen_five};
use crate::world::{Move, RESAMPLE_ATTEMPTS, replayed_world};
use tripoley_bots::Bot;

/// The Sequence's lowest rank is drawn among 2 .. Q (H9).
const SEQUENCE_STARTS: usize = 11;

/// How chance is supplied.
#[derive(Clone, Debug)]
enum Chance {
    /// From the table's own generator, at once.
    Auto(GameRng),
    /// From outside, one outcome at a time: the deck card by card from the
    /// top, then the draws of the pay suit and the Sequence.
    Outside(Draws),
}

/// A chance being drawn from outside, outcome by outcome.
#[derive(Clone, Debug, Default)]
struct Draws {
    deck: DeckDraw,
    pay_suit: Option<Suit>,
    sequence: Option<Rank>,
}

/// What the table waits for: the games' own [`Turn`], its chance asked for
/// only when chance comes from outside.
pub use tripoley_game::Turn;

/// A game of Tripoley played in integers (see [`crate::space`]).
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    space: ActionSpace,
    picked: CardSet,
    chance: Chance,
    /// Every engine step so far: the record's steps. The record's rules and
    /// names are made only when asked for, so a clone copies no strings.
    steps: Vec<RecordStep>,
    /// Whether `steps` grows. A batched lane keeps no steps: writing four
    /// records a learner step into a thousand tables' lists cost a sixth of
    /// the step (fresh memory each time), and the lane can play its game
    /// again from its seed when a record is asked for.
    recording: bool,
}

impl Table {
    /// A new game; chance comes from `seed`, or from outside when `seed` is
    /// `None`.
    pub fn new(rules: Rules, players: usize, seed: Option<u64>) -> Result<Table, String> {
        rules.validate().map_err(|e| e.to_string())?;
        let space = ActionSpace::new(&rules, players)?;
        let game = Game::new(rules, players).map_err(|e| e.to_string())?;
        let mut table = Table {
            game,
            space,
            picked: CardSet::EMPTY,
            chance: match seed {
                Some(s) => Chance::Auto(seeded_rng(s)),
                None => Chance::Outside(Draws::default()),
            },
            steps: Vec::new(),
            recording: true,
        };
        table.settle();
        Ok(table)
    }

    /// This table, keeping no steps from now on: its [`Table::record`]
    /// holds none (see `recording`).
    #[must_use]
    pub fn without_record(mut self) -> Table {
        self.recording = false;
        self.steps = Vec::new();
        self
    }

    /// A new game at this table (the same rules and seats), its chance from
    /// `seed`. The record's list keeps its room: a batched lane deals
    /// thousands of games, and growing a fresh list for each cost about
    /// a twentieth of its step.
    pub fn deal_again(&mut self, seed: u64) -> Result<(), String> {
        self.game =
            Game::new(self.game.rules().clone(), self.game.players()).map_err(|e| e.to_string())?;
        self.picked = CardSet::EMPTY;
        self.chance = Chance::Auto(seeded_rng(seed));
        self.steps.clear();
        self.settle();
        Ok(())
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The action space.
    pub fn space(&self) -> &ActionSpace {
        &self.space
    }

    /// The cards picked so far into the current poker five.
    pub fn picked(&self) -> CardSet {
        self.picked
    }

    /// Every step so far, as a record (the seats named `player_0` ...).
    pub fn record(&self) -> Record {
        let names = (0..self.game.players())
            .map(|s| format!("player_{s}"))
            .collect();
        let mut record = Record::new(self.game.rules().clone(), names);
        record.steps.clone_from(&self.steps);
        record
    }

    /// What the table waits for: its game's turn.
    pub fn turn(&self) -> Turn {
        tripoley_game::Game::turn(&self.game)
    }

    fn decision(&self) -> Option<Decision> {
        match self.game.pending() {
            Pending::Decide { decision, .. } => Some(decision),
            _ => None,
        }
    }

    /// The legal integers of the seat to act (none at chance or the end).
    pub fn legal(&self) -> Vec<usize> {
        self.decision()
            .map(|d| self.space.legal(&d, self.picked))
            .unwrap_or_default()
    }

    /// The legal integers of the seat to act as bits (none at chance or
    /// the end).
    pub fn legal_set(&self) -> Legal {
        self.decision()
            .map_or(Legal::NONE, |d| self.space.legal_set(&d, self.picked))
    }

    /// The legal integers as a 0/1 mask.
    pub fn mask(&self) -> Vec<u8> {
        self.decision().map_or_else(
            || vec![0; self.space.size()],
            |d| self.space.mask(&d, self.picked),
        )
    }

    /// What integer `a` would do now, if it is legal (inlined, as
    /// [`ActionSpace::decode`] is).
    #[inline]
    pub fn decode(&self, a: usize) -> Option<Step> {
        self.space.decode(&self.decision()?, self.picked, a)
    }

    /// Plays integer `a` for the seat to act.
    pub fn act(&mut self, a: usize) -> Result<(), String> {
        match self.decode(a) {
            Some(step) => self.play(step),
            None if matches!(self.turn(), Turn::Seat(_)) => Err(format!(
                "{} is not legal now (legal: {:?})",
                self.space.describe(a),
                self.legal()
            )),
            None => Err("no seat is to act now".into()),
        }
    }

    /// Plays `step`, which [`Table::decode`] gave for the seat to act (a
    /// batched lane decodes its learner's integer once, to know whether it
    /// is legal, and plays what it found).
    pub fn play(&mut self, step: Step) -> Result<(), String> {
        match step {
            Step::Pick(card) => {
                self.picked.insert(card);
                Ok(())
            }
            Step::Act(action) => self.apply(action),
        }
    }

    /// Plays a whole engine `action` for the seat to act, a five at once
    /// rather than pick by pick: how a batched lane plays its bots, whose
    /// picks nobody sees, without turning each answer into integers and
    /// back. Refused (nothing changes) when picks are under way or the
    /// engine finds the action illegal.
    pub fn act_whole(&mut self, action: Action) -> Result<(), String> {
        if !self.picked.is_empty() {
            return Err("cards are being picked into a five".into());
        }
        self.apply(action)
    }

    /// Applies `action` for the seat to act (the engine checks it), ending
    /// any picks, and supplies the chance that follows.
    fn apply(&mut self, action: Action) -> Result<(), String> {
        let Pending::Decide { seat, .. } = self.game.pending() else {
            return Err("no seat is to act now".into());
        };
        self.game
            .apply_into(seat, action, &mut tripoley_engine::NoEvents)
            .map_err(|e| e.to_string())?;
        self.picked = CardSet::EMPTY;
        if self.recording {
            self.steps.push(RecordStep::Act { seat, action });
        }
        self.settle();
        Ok(())
    }

    /// Supplies chance from the table's generator while the game waits for
    /// it. Asked after every move and needed after few (a deal's end): the
    /// look is inlined into each caller, the deal kept out of line, so a
    /// move that ends no deal pays a comparison, not a call.
    #[inline]
    fn settle(&mut self) {
        if matches!(self.game.pending(), Pending::Chance(_)) {
            self.deal_chance();
        }
    }

    /// [`Table::settle`]'s deals.
    #[inline(never)]
    fn deal_chance(&mut self) {
        while let (Pending::Chance(_), Chance::Auto(rng)) = (self.game.pending(), &mut self.chance)
        {
            let deal = DealChance::random(self.game.rules(), rng);
            self.supply(deal);
        }
    }

    fn supply(&mut self, deal: DealChance) {
        self.game
            .chance_into(&deal, &mut tripoley_engine::NoEvents)
            .expect("a whole deck with the draws the rules ask for is accepted");
        if self.recording {
            self.steps.push(RecordStep::Chance(deal));
        }
    }

    /// The draws the pending chance needs besides the deck.
    fn draws_needed(&self) -> (bool, bool) {
        let deal = self.game.pending() == Pending::Chance(ChanceKind::Deal);
        let rules = self.game.rules();
        (
            deal && rules.pay_suit == PaySuitRule::RandomEachDeal,
            deal && rules.sequence == SequenceRule::RandomEachDeal,
        )
    }

    /// The outcomes of the next chance draw (equally likely): the cards not
    /// yet dealt (dense indices), then the suits (0..4), then the Sequence's
    /// lowest rank (0..11). Empty when chance is not awaited from outside.
    pub fn chance_outcomes(&self) -> Vec<usize> {
        let Chance::Outside(draws) = &self.chance else {
            return Vec::new();
        };
        if !matches!(self.game.pending(), Pending::Chance(_)) {
            return Vec::new();
        }
        if !draws.deck.is_complete() {
            return draws.deck.outcomes();
        }
        let (suit, sequence) = self.draws_needed();
        if suit && draws.pay_suit.is_none() {
            (0..4).collect()
        } else if sequence && draws.sequence.is_none() {
            (0..SEQUENCE_STARTS).collect()
        } else {
            unreachable!("a complete chance is supplied at once")
        }
    }

    /// Whether `outcome` is one of [`Table::chance_outcomes`] (without
    /// listing them: a deck dealt card by card asks 51 times a deal).
    fn may_draw(&self, outcome: usize) -> bool {
        let Chance::Outside(draws) = &self.chance else {
            return false;
        };
        if !matches!(self.game.pending(), Pending::Chance(_)) {
            return false;
        }
        if !draws.deck.is_complete() {
            return draws.deck.may_draw(outcome);
        }
        let (suit, _) = self.draws_needed();
        let count = if suit && draws.pay_suit.is_none() {
            4
        } else {
            SEQUENCE_STARTS
        };
        outcome < count
    }

    /// Applies one outcome of chance drawn from outside.
    pub fn chance(&mut self, outcome: usize) -> Result<(), String> {
        if !self.may_draw(outcome) {
            return Err(format!("{outcome} is not a possible outcome of chance now"));
        }
        let (suit, sequence) = self.draws_needed();
        let Chance::Outside(draws) = &mut self.chance else {
            unreachable!("outcomes exist only for outside chance")
        };
        if !draws.deck.is_complete() {
            draws.deck.push(outcome);
        } else if suit && draws.pay_suit.is_none() {
            draws.pay_suit = Some(Suit::from_index(outcome as u8));
        } else {
            draws.sequence = Some(Rank::from_index(outcome as u8));
        }
        let complete = draws.deck.is_complete()
            && (!suit || draws.pay_suit.is_some())
            && (!sequence || draws.sequence.is_some());
        if complete {
            let draws = std::mem::take(draws);
            let deal = DealChance {
                deck: draws.deck.deck().expect("complete"),
                pay_suit: draws.pay_suit,
                sequence: draws.sequence,
            };
            self.supply(deal);
        }
        Ok(())
    }

    /// How many outcomes of the current chance are drawn so far.
    pub fn chance_progress(&self) -> usize {
        match &self.chance {
            Chance::Outside(d) => {
                d.deck.len() + usize::from(d.pay_suit.is_some()) + usize::from(d.sequence.is_some())
            }
            Chance::Auto(_) => 0,
        }
    }

    /// `seat`'s view (a spectator's for `None`).
    pub fn view(&self, seat: Option<Seat>) -> View {
        self.game.view(seat)
    }

    /// `seat`'s observation (see [`crate::observe`]).
    pub fn observation(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; observation_size(self.game.players())];
        self.observe_into(seat, &mut out);
        out
    }

    /// Writes `seat`'s observation into `out` (of its size; every number).
    pub fn observe_into<T: Number>(&self, seat: Seat, out: &mut [T]) {
        observe(self.game.sight(Some(seat)), self.picked_by(seat), out);
    }

    /// [`Table::observe_into`] packed (see [`observe_packed`]), into `out`
    /// of [`crate::observe::packed_observation_size`] bytes.
    pub fn observe_packed_into(&self, seat: Seat, out: &mut [u8]) {
        observe_packed(self.game.sight(Some(seat)), self.picked_by(seat), out);
    }

    /// The cards `seat` has picked into its five, which only it may know.
    pub fn picked_by(&self, seat: Seat) -> CardSet {
        match self.game.pending() {
            Pending::Decide { seat: s, .. } if s == seat => self.picked,
            _ => CardSet::EMPTY,
        }
    }

    /// The engine steps so far (the record's).
    pub(crate) fn steps(&self) -> &[RecordStep] {
        &self.steps
    }

    /// A table in the same information state for `seat`, with the integers
    /// that play it from the start (chance's as `None`): every card hidden
    /// from it, in past deals as in the current one, dealt again
    /// consistently with what it has seen (the engine's [`InfoSet`]
    /// sampling), others' hidden choices made again (see [`crate::world`]). Cards another seat has picked into its five
    /// are hidden from `seat`, so they are forgotten (its picks start
    /// again); chance half drawn from outside is dropped (nobody saw it).
    /// When no sample replays (see [`RESAMPLE_ATTEMPTS`]), the engine's
    /// sample alone, without integers: its past is the real game's record.
    /// A table with its own generator gets a new one, drawn from `seed`: the
    /// real generator holds the real game's later deals, which no seat knows.
    pub fn resample(&self, seat: Seat, seed: u64) -> (Table, Option<Vec<Move>>) {
        let mut rng = seeded_rng(seed);
        let (mut world, moves) =
            if let Some((world, moves)) = replayed_world(self, seat, &mut rng, RESAMPLE_ATTEMPTS) {
                (world, Some(moves))
            } else {
                let world = Table {
                    game: InfoSet::new(&self.game, seat).sample(&mut rng),
                    space: self.space,
                    picked: self.picked_by(seat),
                    chance: self.chance.clone(),
                    steps: self.steps.clone(),
                    recording: self.recording,
                };
                (world, None)
            };
        if let Chance::Auto(_) = self.chance {
            world.chance = Chance::Auto(rng);
            world.settle();
        }
        (world, moves)
    }

    /// Whether the record holds this game: false after [`Table::resample`]
    /// (the sampled cards are not the recorded ones).
    pub fn replays(&self) -> bool {
        self.record()
            .replay()
            .is_ok_and(|(g, _)| g.view(None) == self.game.view(None))
    }
}

/// Writes into `steps` (emptied first) the integers that play `bot`'s choice
/// at `table`'s decision: one, or the picks of a poker five (those not yet
/// picked). The caller's list is reused, so a batched step allocates none.
pub fn bot_steps(
    bot: &mut dyn Bot,
    table: &Table,
    rng: &mut GameRng,
    steps: &mut Vec<usize>,
) -> Result<(), String> {
    steps.clear();
    let Turn::Seat(seat) = table.turn() else {
        return Err("no seat is to act now".into());
    };
    let info = InfoSet::new(table.game(), seat);
    let action = bot.act_in(&info, rng);
    if let Some(a) = table.space().encode(action) {
        steps.push(a);
        return Ok(());
    }
    let picked = table.picked();
    let five = chosen_five(action)
        .ok_or_else(|| "the bot answered a choice of five with another action".to_owned())?;
    // Another policy may have begun this five with cards the bot would not
    // pick: it then plays the best five that holds them, so a bot takes over
    // any legal position.
    let eval = table.game().rules().evaluator();
    let five = if let Some(own) = best_completion(five, picked, eval) {
        own
    } else {
        let Some(Decision::ChooseFive { from }) = info.decision() else {
            unreachable!("picks are made only at a choice of five")
        };
        best_completion(*from, picked, eval)
            .expect("the masks let picks begin only a five that can be finished")
    };
    steps.extend((five - picked).iter().map(Card::index));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;
    use tripoley_cards::Card;
    use tripoley_engine::{AuctionItem, Preset, Space, Stage};

    fn play_randomly(table: &mut Table, seed: u64, mut each: impl FnMut(&Table)) {
        let mut rng = seeded_rng(seed);
        loop {
            each(table);
            match table.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outcomes = table.chance_outcomes();
                    for o in 0..=52 {
                        assert_eq!(table.may_draw(o), outcomes.contains(&o), "outcome {o}");
                    }
                    let i = (rng.next_u64() % outcomes.len() as u64) as usize;
                    table.chance(outcomes[i]).unwrap();
                }
                Turn::Seat(_) => {
                    let legal = table.legal();
                    let i = (rng.next_u64() % legal.len() as u64) as usize;
                    table.act(legal[i]).unwrap();
                }
            }
        }
    }

    #[test]
    fn every_preset_plays_to_the_end_in_integers_with_chips_conserved() {
        for preset in Preset::ALL {
            for outside in [false, true] {
                let rules = Rules::preset(preset);
                let seed = (!outside).then_some(3);
                let mut table = Table::new(rules, 4, seed).unwrap();
                play_randomly(&mut table, 11, |t| {
                    let mask = t.mask();
                    let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
                    assert_eq!(legal, t.legal());
                    assert_eq!(t.game().chips_in_play(), t.game().total_chips());
                });
                assert!(table.replays(), "{preset}: the record replays the game");
            }
        }
    }

    #[test]
    fn an_observation_never_holds_a_card_hidden_from_its_seat() {
        let rules = Rules::preset(Preset::Pagat);
        let mut table = Table::new(rules, 3, Some(5)).unwrap();
        play_randomly(&mut table, 2, |t| {
            let (hands, spare, _) = t.game().card_locations();
            for seat in 0..3u8 {
                let view = t.view(Some(seat));
                let obs = t.observation(seat);
                assert_eq!(obs.len(), observation_size(3));
                // The "known in hand" plane of every other seat.
                for other in 1..3usize {
                    let real = (usize::from(seat) + other) % 3;
                    let known = plane(&obs, 52 * (5 + other));
                    assert!(hands[real].contains_all(known));
                    assert!(view.known_cards[real].contains_all(known));
                }
                // The own hand plane is exactly the hand, never the spare.
                assert_eq!(plane(&obs, 0), hands[usize::from(seat)]);
                assert!((plane(&obs, 0).bits() & spare.bits()) == 0);
            }
        });
    }

    #[test]
    fn an_observation_writes_every_number_whatever_the_buffer_held() {
        let mut table = Table::new(Rules::preset(Preset::MichiganCasino), 4, Some(4)).unwrap();
        let size = observation_size(4);
        play_randomly(&mut table, 6, |t| {
            for seat in 0..4 {
                let mut dirty = vec![7.5; size];
                t.observe_into(seat, &mut dirty);
                assert_eq!(dirty, t.observation(seat));
            }
        });
    }

    /// What an observation must hold, worked out plainly from the seat's
    /// [`View`] (copied out field by field, read here seat by seat with
    /// `%`): the test oracle of the fast encoder, which reads the game in
    /// place, seat counts as constants and flags as turned bit sets.
    fn observation_from_view(view: &View, picked: CardSet) -> Vec<u32> {
        let n = usize::from(view.players);
        let me = view.seat.map_or(0, usize::from);
        let seat_at = |r: usize| (me + r) % n;
        let rel = |s: Seat| (usize::from(s) + n - me) % n;
        let mut out = Vec::new();
        let mut plane = |cards: CardSet| {
            out.extend((0..52).map(|i| u32::from(cards.contains(Card::from_index(i)))));
        };
        plane(view.hand);
        plane(picked);
        plane(view.spare_known);
        plane(
            view.last_played
                .map_or(CardSet::EMPTY, |(_, c)| CardSet::single(c)),
        );
        plane(view.my_five.unwrap_or_default());
        for per_seat in [&view.known_cards, &view.played, &view.cannot_hold] {
            for r in 0..n {
                plane(per_seat[seat_at(r)]);
            }
        }
        let one_hot =
            |len: usize, hot: Option<usize>| (0..len).map(move |i| u32::from(hot == Some(i)));
        let stages = [
            Stage::DrawForDealer,
            Stage::Dealing,
            Stage::Spare,
            Stage::Auction,
            Stage::PaySuit,
            Stage::ChooseFive,
            Stage::Betting,
            Stage::Michigan,
            Stage::FinalPot,
            Stage::GameOver,
        ];
        out.extend(one_hot(10, stages.iter().position(|&s| s == view.stage)));
        out.extend(one_hot(4, view.pay_suit.map(|s| usize::from(s.index()))));
        out.extend(one_hot(13, view.sequence.map(|r| usize::from(r.index()))));
        out.extend(Space::ALL.iter().map(|space| {
            view.layout
                .iter()
                .find(|(s, _)| s == space)
                .map_or(0, |&(_, chips)| chips)
        }));
        out.extend([
            view.spare_size,
            view.deal_number,
            view.deals_total,
            u32::from(view.decision.is_some()),
            view.last_played.map_or(0, |(s, _)| rel(s) as u32 + 1),
        ]);
        out.extend(one_hot(n, Some(rel(view.dealer))));
        out.extend(one_hot(n, view.to_act.map(rel)));
        let row = |f: &dyn Fn(usize) -> u32| (0..n).map(|r| f(seat_at(r))).collect::<Vec<u32>>();
        let flag = u32::from;
        out.extend(row(&|s| view.stacks[s]));
        out.extend(row(&|s| flag(view.out[s])));
        out.extend(row(&|s| view.hand_sizes[s]));
        let betting = view.betting.as_ref();
        out.extend(row(&|s| betting.map_or(0, |b| b.contributed[s])));
        out.extend(row(&|s| flag(betting.is_some_and(|b| b.folded[s]))));
        let auction = view.auction.as_ref();
        out.extend(one_hot(
            n,
            auction.and_then(|a| a.high).map(|(s, _)| rel(s)),
        ));
        out.extend(row(&|s| flag(auction.is_some_and(|a| a.bidding[s]))));
        out.extend(row(&|s| flag(view.chose_five[s])));
        out.extend([
            flag(betting.is_some()),
            betting.map_or(0, |b| b.current),
            betting.map_or(0, |b| b.raises),
            flag(auction.is_some()),
        ]);
        out.extend(one_hot(
            3,
            auction.map(|a| match a.item {
                Some(AuctionItem::Spare) => 0,
                Some(AuctionItem::DealersOldHand) => 1,
                None => 2,
            }),
        ));
        out.push(auction.and_then(|a| a.high).map_or(0, |(_, bid)| bid));
        out
    }

    /// Every observation, in each of its formats, is what its seat's view
    /// says, number for number: at every step of random games of every
    /// preset at every seat count it allows, for every seat. (The encoder
    /// is written for speed; this oracle for plainness.)
    #[test]
    fn every_observation_is_its_seats_view_number_by_number() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            for players in usize::from(rules.min_players)..=usize::from(rules.max_players) {
                let mut table = Table::new(rules.clone(), players, Some(players as u64)).unwrap();
                let size = observation_size(players);
                let mut steps = 0;
                play_randomly(&mut table, 5, |t| {
                    steps += 1;
                    for seat in 0..players as Seat {
                        let want = observation_from_view(&t.view(Some(seat)), t.picked_by(seat));
                        let floats: Vec<f32> = want.iter().map(|&x| x as f32).collect();
                        assert_eq!(
                            t.observation(seat),
                            floats,
                            "{preset} {players} seats, seat {seat}"
                        );
                        let mut bytes = vec![9u8; size];
                        t.observe_into(seat, &mut bytes);
                        let saturated: Vec<u8> = want
                            .iter()
                            .map(|&x| u8::try_from(x).unwrap_or(u8::MAX))
                            .collect();
                        assert_eq!(bytes, saturated);
                        let mut packed =
                            vec![9u8; crate::observe::packed_observation_size(players)];
                        t.observe_packed_into(seat, &mut packed);
                        let (planes, numbers) = packed.split_at(8 * (5 + 3 * players));
                        assert_eq!(numbers, &saturated[52 * (5 + 3 * players)..]);
                        for (p, word) in planes.chunks(8).enumerate() {
                            let set = u64::from_le_bytes(word.try_into().unwrap());
                            let cards = plane(&floats, 52 * p);
                            assert_eq!(set, cards.bits(), "plane {p}");
                        }
                    }
                });
                assert!(steps > 20, "{preset} {players} seats: {steps} steps");
            }
        }
    }

    /// The cards set in the 52 numbers from `base`.
    fn plane(obs: &[f32], base: usize) -> CardSet {
        let mut cards = CardSet::EMPTY;
        for (i, x) in obs[base..base + 52].iter().enumerate() {
            if *x > 0.5 {
                cards.insert(Card::from_index(i));
            }
        }
        cards
    }

    #[test]
    fn a_table_dealt_again_is_the_new_table_of_that_seed() {
        let rules = Rules::preset(Preset::Pagat);
        let mut table = Table::new(rules.clone(), 4, Some(1)).unwrap();
        play_randomly(&mut table, 3, |_| {});
        table.deal_again(8).unwrap();
        let fresh = Table::new(rules, 4, Some(8)).unwrap();
        assert_eq!(table.view(None), fresh.view(None));
        assert_eq!(table.record().steps, fresh.record().steps);
        assert_eq!(table.legal(), fresh.legal());
        assert!(table.replays());
    }

    #[test]
    fn resampling_keeps_the_seats_view() {
        let rules = Rules::preset(Preset::Pagat);
        let mut table = Table::new(rules, 4, Some(9)).unwrap();
        for a in 0..20 {
            let legal = table.legal();
            table.act(legal[a % legal.len()]).unwrap();
            if let Turn::Seat(seat) = table.turn() {
                let (sample, _) = table.resample(seat, a as u64);
                assert_eq!(sample.view(Some(seat)), table.view(Some(seat)));
                assert_eq!(sample.legal(), table.legal());
            }
        }
    }

    #[test]
    fn cosmo_draws_the_pay_suit_and_sequence_from_outside_chance() {
        let rules = Rules {
            first_dealer: tripoley_engine::FirstDealer::Seat(0),
            ..Rules::preset(Preset::Cosmo)
        };
        let mut table = Table::new(rules, 3, None).unwrap();
        for i in 0..51 {
            assert_eq!(table.turn(), Turn::Chance);
            assert_eq!(table.chance_outcomes().len(), 52 - i);
            let first = table.chance_outcomes()[0];
            table.chance(first).unwrap();
        }
        assert_eq!(table.chance_outcomes(), vec![0, 1, 2, 3]);
        table.chance(2).unwrap();
        assert_eq!(table.chance_outcomes().len(), SEQUENCE_STARTS);
        assert!(table.chance(11).is_err());
        table.chance(10).unwrap();
        let record = table.record();
        let Some(RecordStep::Chance(deal)) = record.steps.first() else {
            panic!("the deal is recorded");
        };
        assert_eq!(deal.pay_suit, Some(Suit::Hearts));
        assert_eq!(deal.sequence, Some(Rank::Queen));
    }
}
