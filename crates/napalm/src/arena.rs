//! Napalm in the arena of every game ([`tripoley_game::arena`]): one whole
//! game per duplicate deal, its decks replayed with the bots rotated
//! through the seats, each seat scored by the chips it won over the game.

use std::convert::Infallible;

use tripoley_game::arena::{Duplicate, Lineups, Outcome, play_match};
use tripoley_game::{Bot, Dice};

use crate::{NapalmBotKind, NapalmGame, NapalmRules};

/// Napalm as the arena plays it: whole games, chips won per seat.
struct WholeGame<'a> {
    rules: &'a NapalmRules,
    distinct: &'a [NapalmBotKind],
}

impl Duplicate for WholeGame<'_> {
    type Game = NapalmGame;
    type Bot = dyn Bot<NapalmGame>;
    type Report = ();
    type Error = Infallible;

    /// Chips won, with no parts.
    fn figures(&self) -> usize {
        1
    }

    fn bot(&self, b: usize) -> Box<dyn Bot<NapalmGame>> {
        self.distinct[b].make()
    }

    fn play(
        &self,
        bots: &mut [Box<dyn Bot<NapalmGame>>],
        dice: Dice<'_>,
    ) -> Result<Vec<Vec<f64>>, Infallible> {
        let mut game = NapalmGame::new(self.rules.clone(), bots.len()).expect("checked table");
        tripoley_game::play_quietly(&mut game, bots, dice).expect("bots answer legally");
        let start = f64::from(self.rules.starting_chips);
        Ok(game
            .stacks()
            .iter()
            .map(|&c| vec![f64::from(c) - start])
            .collect())
    }
}

/// Plays `deals` duplicate deals (one game each, per line-up) at a table of
/// `rules` (checked for the line-ups' seats by the caller), seeded with
/// `seed`, on the current rayon pool; `progress` is told the deals finished.
pub fn play_arena(
    rules: &NapalmRules,
    lineups: &Lineups<NapalmBotKind>,
    deals: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Outcome<()> {
    let game = WholeGame {
        rules,
        distinct: lineups.distinct(),
    };
    play_match(&game, lineups, deals, seed, progress).unwrap_or_else(|never| match never {})
}
