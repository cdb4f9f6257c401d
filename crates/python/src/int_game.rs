//! [`IntGame`]: what the Python environments need of a game played in
//! integers, so one binding and one Python wrapper serve Tripoley and Napalm.
//! It is an adapter over the game's [`tripoley_game::Game`]: seats and views
//! come from there; what is its own is the integer action space, chance as
//! integers, and observations.

use std::fmt::Write as _;

use tripoley_engine::Seat;
use tripoley_game::Game as _;

use crate::napalm::{NAPALM_ACTIONS, NapalmTable, napalm_observation_size};
use crate::observe::observation_size;
use crate::table::{Table, Turn};

/// A game played in integers.
pub trait IntGame: Clone + Send + Sync {
    /// The game played in integers.
    type Game: tripoley_game::Game<View: serde::Serialize>;
    /// The game played in integers, as it stands.
    fn game(&self) -> &Self::Game;
    /// Seats.
    fn players(&self) -> usize {
        self.game().players()
    }
    /// Integers in the action space.
    fn num_actions(&self) -> usize;
    /// Numbers in an observation.
    fn observation_size(&self) -> usize;
    /// What the game waits for.
    fn turn(&self) -> Turn {
        self.game().turn()
    }
    /// The legal integers of the seat to act, ascending.
    fn legal(&self) -> Vec<usize>;
    /// Plays integer `a` for the seat to act.
    fn act(&mut self, a: usize) -> Result<(), String>;
    /// The equally likely outcomes of the next chance drawn from outside.
    fn chance_outcomes(&self) -> Vec<usize>;
    /// Applies an outcome of chance.
    fn chance(&mut self, outcome: usize) -> Result<(), String>;
    /// Outcomes of the current chance drawn so far.
    fn chance_progress(&self) -> usize;
    /// Writes `seat`'s observation into `out` (of `observation_size`; every number).
    fn observe_into(&self, seat: Seat, out: &mut [f32]);
    /// What everyone knows, laid out as `seat`'s observation (seats counted
    /// from it) and written into `out` (every number): a spectator's view, so the
    /// numbers only `seat` knows are zero (OpenSpiel's public observation).
    fn observe_public_into(&self, seat: Seat, out: &mut [f32]);
    /// `seat`'s observation.
    fn observation(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; self.observation_size()];
        self.observe_into(seat, &mut out);
        out
    }
    /// `seat`'s view as JSON (a spectator's for `None`).
    fn view_json(&self, seat: Option<Seat>) -> String {
        serde_json::to_string(&self.game().view(seat)).expect("views serialise")
    }
    /// Everything `seat` knows, as text: equal for two states exactly when
    /// the seat cannot tell them apart by its view.
    fn information(&self, seat: Seat) -> String;
    /// Each seat's chips.
    fn stacks(&self) -> Vec<u32>;
    /// Chips each seat started with.
    fn starting_chips(&self) -> u32;
    /// Deals (Napalm: hands) finished.
    fn deals_done(&self) -> u32;
    /// Integer `a` in words.
    fn describe(&self, a: usize) -> String;
    /// The record of the game so far, as JSON.
    fn record_json(&self) -> String;
    /// An upper bound on the steps of a game, chance included.
    fn max_length(&self) -> usize;
    /// The table as text for people, as `seat` sees it.
    fn render(&self, seat: Option<Seat>) -> String;
}

/// Chance steps of one shuffled deck (the last card places itself).
const DECK_DRAWS: usize = 51;

impl IntGame for Table {
    type Game = tripoley_engine::Game;
    fn game(&self) -> &tripoley_engine::Game {
        Table::game(self)
    }
    fn num_actions(&self) -> usize {
        self.space().size()
    }
    fn observation_size(&self) -> usize {
        observation_size(self.players())
    }
    fn legal(&self) -> Vec<usize> {
        Table::legal(self)
    }
    fn act(&mut self, a: usize) -> Result<(), String> {
        Table::act(self, a)
    }
    fn chance_outcomes(&self) -> Vec<usize> {
        Table::chance_outcomes(self)
    }
    fn chance(&mut self, outcome: usize) -> Result<(), String> {
        Table::chance(self, outcome)
    }
    fn chance_progress(&self) -> usize {
        Table::chance_progress(self)
    }
    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        Table::observe_into(self, seat, out);
    }
    fn observe_public_into(&self, seat: Seat, out: &mut [f32]) {
        let sight = self.game().public_sight_at(seat);
        crate::observe::observe(sight, tripoley_cards::CardSet::EMPTY, out);
    }
    fn information(&self, seat: Seat) -> String {
        format!(
            "{}|picked {}",
            self.view_json(Some(seat)),
            self.picked_by(seat)
        )
    }
    fn stacks(&self) -> Vec<u32> {
        self.game().stacks().to_vec()
    }
    fn starting_chips(&self) -> u32 {
        self.game().rules().starting_chips
    }
    fn deals_done(&self) -> u32 {
        self.game().deals_done()
    }
    fn describe(&self, a: usize) -> String {
        let word = self.space().describe(a);
        match self.game().pending() {
            tripoley_engine::Pending::Decide {
                decision: tripoley_engine::Decision::ChooseFive { .. },
                ..
            } => word.replacen("card", "pick", 1),
            _ => word,
        }
    }
    fn record_json(&self) -> String {
        self.record().to_json()
    }
    fn max_length(&self) -> usize {
        let rules = self.game().rules();
        let n = self.players();
        let chips = rules.starting_chips as usize * n;
        // Per deal: the deck and draws, the spare, two auctions of at most
        // one bid per chip plus passes, a pay suit, bets of at least a chip
        // each plus checks, folds and calls, five picks per seat, and at
        // most two steps per card in Michigan.
        let deal = DECK_DRAWS + 2 + 1 + 2 * (chips + n) + 1 + (chips + 3 * n) + 5 * n + 104;
        // The draw for first dealer may take a deck per seat; final pots
        // (E2) are deals with a deck, betting and picks.
        let deals = rules.deals.unwrap_or(n as u32) as usize + rules.final_pot_rounds as usize + 1;
        n * DECK_DRAWS + deals * deal
    }
    fn render(&self, seat: Option<Seat>) -> String {
        render_tripoley(self, seat)
    }
}

/// Tripoley as text: stage, stacks, layout, the hand, what is known.
fn render_tripoley(table: &Table, seat: Option<Seat>) -> String {
    let v = table.view(seat);
    let mut s = String::new();
    let stage = serde_json::to_value(v.stage).unwrap_or_default();
    let _ = writeln!(
        s,
        "deal {} of {}, {}, dealer: player_{}",
        v.deal_number,
        v.deals_total,
        stage.as_str().unwrap_or("").replace('_', " "),
        v.dealer
    );
    if let Some(suit) = v.pay_suit {
        let _ = writeln!(s, "pay suit: {}", suit.name());
    }
    let layout: Vec<String> = v
        .layout
        .iter()
        .map(|(space, chips)| format!("{space} {chips}"))
        .collect();
    let _ = writeln!(s, "layout: {}", layout.join(", "));
    for p in 0..usize::from(v.players) {
        let mut line = format!(
            "player_{p}: {} chips, {} cards",
            v.stacks[p], v.hand_sizes[p]
        );
        if v.out[p] {
            line.push_str(", out");
        }
        if let Some(b) = &v.betting {
            let _ = write!(line, ", bet {}", b.contributed[p]);
            if b.folded[p] {
                line.push_str(", folded");
            }
        }
        if !v.played[p].is_empty() {
            let _ = write!(line, ", played {:#}", v.played[p]);
        }
        if Some(p) != seat.map(usize::from) && !v.known_cards[p].is_empty() {
            let _ = write!(line, ", holds {:#}", v.known_cards[p]);
        }
        if v.to_act.map(usize::from) == Some(p) {
            line.push_str("  <- to act");
        }
        let _ = writeln!(s, "{line}");
    }
    if let Some(me) = seat {
        let _ = writeln!(s, "your hand: {:#}", v.hand);
        let picked = table.picked_by(me);
        if !picked.is_empty() {
            let _ = writeln!(s, "picked for your five: {picked:#}");
        }
        if v.decision.is_some() {
            let moves: Vec<String> = table.legal().iter().map(|&a| table.describe(a)).collect();
            let _ = writeln!(s, "you may: {}", moves.join(", "));
        }
    }
    s
}

impl IntGame for NapalmTable {
    type Game = tripoley_napalm::NapalmGame;
    fn game(&self) -> &tripoley_napalm::NapalmGame {
        NapalmTable::game(self)
    }
    fn num_actions(&self) -> usize {
        NAPALM_ACTIONS
    }
    fn observation_size(&self) -> usize {
        napalm_observation_size(self.players())
    }
    fn legal(&self) -> Vec<usize> {
        NapalmTable::legal(self)
    }
    fn act(&mut self, a: usize) -> Result<(), String> {
        NapalmTable::act(self, a)
    }
    fn chance_outcomes(&self) -> Vec<usize> {
        NapalmTable::chance_outcomes(self)
    }
    fn chance(&mut self, outcome: usize) -> Result<(), String> {
        NapalmTable::chance(self, outcome)
    }
    fn chance_progress(&self) -> usize {
        NapalmTable::chance_progress(self)
    }
    fn observe_into(&self, seat: Seat, out: &mut [f32]) {
        NapalmTable::observe_into(self, seat, out);
    }
    fn observe_public_into(&self, seat: Seat, out: &mut [f32]) {
        NapalmTable::observe_public_into(self, seat, out);
    }
    fn information(&self, seat: Seat) -> String {
        self.view_json(Some(seat))
    }
    fn stacks(&self) -> Vec<u32> {
        self.game().stacks().to_vec()
    }
    fn starting_chips(&self) -> u32 {
        self.game().rules().starting_chips
    }
    fn deals_done(&self) -> u32 {
        self.game().hands_played()
    }
    fn describe(&self, a: usize) -> String {
        match (self.game().pending(), a) {
            (tripoley_napalm::Pending::Decide { decision, .. }, _) => {
                crate::napalm::napalm_action(decision, a).map_or_else(
                    || format!("no action {a}"),
                    |x| format!("{x:?}").to_lowercase(),
                )
            }
            (_, 0) => "yes".into(),
            (_, 1) => "no".into(),
            _ => format!("no action {a}"),
        }
    }
    fn record_json(&self) -> String {
        serde_json::to_string_pretty(self.record()).expect("records serialise")
    }
    fn max_length(&self) -> usize {
        let hands = self.game().rules().max_hands as usize;
        // A deck, then three rounds of a declaration and a challenge per seat.
        hands * (DECK_DRAWS + 6 * self.players())
    }
    fn render(&self, seat: Option<Seat>) -> String {
        let v = self.view(seat);
        let mut s = format!(
            "hand {}, pot {}, dealer: player_{}\n",
            v.hand_number, v.pot, v.dealer
        );
        if let Some(r) = v.round {
            let _ = writeln!(s, "a Yes claims {}", r.claim());
        }
        for p in 0..usize::from(v.players) {
            let said = match v.declared[p] {
                Some(true) => ", said yes",
                Some(false) => ", said no",
                None => "",
            };
            let turn = if v.to_act.map(usize::from) == Some(p) {
                "  <- to act"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "player_{p}: {} chips, {} tokens, {} cards{said}{turn}",
                v.stacks[p], v.tokens[p], v.card_counts[p]
            );
        }
        if seat.is_some() {
            let _ = writeln!(s, "your cards: {:#}", v.cards);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;
    use tripoley_cards::seeded_rng;
    use tripoley_engine::{Preset, Rules};
    use tripoley_napalm::NapalmRules;

    /// Plays to the end at random, chance from outside; returns the steps.
    fn steps_to_end(game: &mut impl IntGame, seed: u64) -> usize {
        let mut rng = seeded_rng(seed);
        let mut steps = 0;
        loop {
            let pick = |options: Vec<usize>, rng: &mut tripoley_cards::GameRng| {
                options[(rng.next_u64() % options.len() as u64) as usize]
            };
            match game.turn() {
                Turn::Over => return steps,
                Turn::Chance => game.chance(pick(game.chance_outcomes(), &mut rng)).unwrap(),
                Turn::Seat(_) => game.act(pick(game.legal(), &mut rng)).unwrap(),
            }
            steps += 1;
        }
    }

    #[test]
    fn e1_a_whole_game_stays_within_its_announced_length() {
        for preset in Preset::ALL {
            for seed in 0..3 {
                let mut table = Table::new(Rules::preset(preset), 4, None).unwrap();
                let bound = table.max_length();
                let steps = steps_to_end(&mut table, seed);
                assert!(steps <= bound, "{preset}: {steps} steps, bound {bound}");
            }
        }
        let mut napalm = NapalmTable::new(NapalmRules::default(), 3, None).unwrap();
        let bound = napalm.max_length();
        assert!(steps_to_end(&mut napalm, 1) <= bound);
    }

    #[test]
    fn render_shows_the_seat_its_own_hand_and_nobody_elses() {
        let table = Table::new(Rules::preset(Preset::Pagat), 4, Some(2)).unwrap();
        let Turn::Seat(seat) = table.turn() else {
            panic!("a seat decides after the deal");
        };
        let text = table.render(Some(seat));
        let hand = format!("{:#}", table.view(Some(seat)).hand);
        assert!(text.contains(&format!("your hand: {hand}")), "{text}");
        assert!(text.contains("to act") && text.contains("you may: keep"));
        assert!(!table.render(None).contains("your hand"));
    }

    #[test]
    fn a_resampled_world_has_the_same_information_for_the_seat() {
        let table = Table::new(Rules::preset(Preset::Pagat), 4, Some(5)).unwrap();
        let Turn::Seat(seat) = table.turn() else {
            panic!("a seat decides after the deal");
        };
        let other = (seat + 1) % 4;
        assert_ne!(table.information(seat), table.information(other));
        let (sample, _) = table.resample(seat, 9);
        assert_eq!(sample.information(seat), table.information(seat));
    }
}
