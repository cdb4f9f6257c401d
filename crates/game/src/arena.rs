//! Duplicate matches between bots, for any [`Game`]: each duplicate deal's
//! chance is replayed with the bots rotated through the seats, so the luck
//! of the cards cancels and what is left is skill.
//!
//! Every duplicate deal is played once per distinct rotation of the
//! line-up. Chance draws from its own stream, seeded per duplicate deal
//! ([`Dice`] with the bots' own RNG), so every rotation sees the same
//! decks; the bots draw from a separate stream, seeded per game. A bot's
//! result for a duplicate deal is the mean of its seats over the rotations,
//! and the intervals are over duplicate deals. Deals are played on the run
//! driver ([`play_rounds`], one round each), so the figures depend on the
//! seed and the count, never on the threads.
//!
//! Why here: Tripoley's arena (`tripoley-bots`) and Napalm's
//! (`tripoley-napalm`) differ only in one game's figures and in what a
//! bot reports besides its chips ([`Duplicate`]).

use std::fmt::Display;

use tripoley_cards::seeded_rng;

use crate::run::{Counted, game_seed, play_rounds};
use crate::stats::{Estimate, Moments};
use crate::{Bot, Dice, Game};

/// What a game's arena supplies: its bots, one game played and scored,
/// and what a bot reports besides its figures.
pub trait Duplicate: Sync {
    /// The game.
    type Game: Game;
    /// Its players.
    type Bot: Bot<Self::Game> + ?Sized;
    /// What a bot reports of its games besides its figures (Tripoley: what
    /// its searches cost), gathered over the match; `()` for nothing.
    type Report: Merge + Default;
    /// Why a game could not be played.
    type Error: Send;

    /// Figures per seat of a game: chips won first (the differences
    /// between bots are over it), then whatever parts the game splits
    /// them into (Tripoley's stages).
    fn figures(&self) -> usize;

    /// A new copy of distinct bot `b` (made once per worker thread).
    fn bot(&self, b: usize) -> Box<Self::Bot>;

    /// Plays one game, seat `s` played by `bots[s]`, with `dice`; returns
    /// each seat's [`Duplicate::figures`].
    fn play(
        &self,
        bots: &mut [Box<Self::Bot>],
        dice: Dice<'_>,
    ) -> Result<Vec<Vec<f64>>, Self::Error>;

    /// What `bot` reports of the games since it was last asked.
    fn report(&self, _bot: &mut Self::Bot) -> Self::Report {
        Self::Report::default()
    }
}

/// Figures that add up over games, merged in the order the games were
/// counted.
pub trait Merge: Send {
    /// Adds `later`'s figures to these.
    fn merge(&mut self, later: Self);
}

impl Merge for () {
    fn merge(&mut self, (): ()) {}
}

/// Nothing merged with something is that thing: a bot reports only once
/// it has something to say.
impl<T: Merge> Merge for Option<T> {
    fn merge(&mut self, later: Option<T>) {
        match (self.as_mut(), later) {
            (Some(a), Some(b)) => a.merge(b),
            (None, b) => *self = b,
            (Some(_), None) => {}
        }
    }
}

/// The line-ups of a match: the bots named, seated in turn around the
/// table, and the rotations of them that differ.
#[derive(Clone, Debug)]
pub struct Lineups<S> {
    /// The distinct bots, in the order first named.
    distinct: Vec<S>,
    /// The first line-up's bot per seat (index into `distinct`).
    base: Vec<usize>,
    /// Rotations that give different line-ups: line-up `r` seats
    /// `base[(s + r) % n]` in seat `s`.
    rotations: Vec<usize>,
}

impl<S: Clone + PartialEq + Display> Lineups<S> {
    /// Seat `i` of the first line-up gets `bots[i % bots.len()]`; `Err`
    /// says why the bots do not fit `players` seats.
    pub fn new(players: usize, bots: &[S]) -> Result<Lineups<S>, String> {
        let n = players;
        if bots.is_empty() || bots.len() > n {
            return Err(format!("name from one to {n} bots for {n} players"));
        }
        let mut distinct: Vec<S> = Vec::new();
        for b in bots {
            if !distinct.contains(b) {
                distinct.push(b.clone());
            }
        }
        let base: Vec<usize> = (0..n)
            .map(|i| {
                let b = &bots[i % bots.len()];
                distinct.iter().position(|d| d == b).expect("listed")
            })
            .collect();
        let lineup = |r: usize| -> Vec<usize> { (0..n).map(|s| base[(s + r) % n]).collect() };
        let mut seen: Vec<Vec<usize>> = Vec::new();
        let mut rotations = Vec::new();
        for r in 0..n {
            let l = lineup(r);
            if !seen.contains(&l) {
                seen.push(l);
                rotations.push(r);
            }
        }
        Ok(Lineups {
            distinct,
            base,
            rotations,
        })
    }

    /// The line-ups each deck is played with, seat by seat, named.
    pub fn names(&self) -> Vec<Vec<String>> {
        let n = self.base.len();
        self.rotations
            .iter()
            .map(|&r| {
                (0..n)
                    .map(|s| self.distinct[self.base[(s + r) % n]].to_string())
                    .collect()
            })
            .collect()
    }

    /// Games per duplicate deal.
    pub fn games_per_deal(&self) -> u64 {
        self.rotations.len() as u64
    }
}

impl<S> Lineups<S> {
    /// The distinct bots, in the order first named.
    pub fn distinct(&self) -> &[S] {
        &self.distinct
    }

    /// Seats distinct bot `b` holds in each game.
    pub fn seats(&self, b: usize) -> usize {
        self.base.iter().filter(|&&x| x == b).count()
    }
}

/// What a match found, per distinct bot (in [`Lineups::distinct`]'s order).
#[derive(Clone, Debug)]
pub struct Outcome<R> {
    /// Duplicate deals played.
    pub deals: u64,
    /// Per bot: each figure per seat per game, over duplicate deals.
    pub bots: Vec<Vec<Estimate>>,
    /// Per pair of bots `(i, j)`, `i < j`: `i`'s chips minus `j`'s, over
    /// the same decks.
    pub differences: Vec<(usize, usize, Estimate)>,
    /// Per bot: what it reported.
    pub reports: Vec<R>,
}

/// One duplicate deal: per distinct bot, its figures (the mean of its
/// seats) and what it reported.
struct DealResult<R> {
    figures: Vec<Vec<f64>>,
    reports: Vec<R>,
}

impl<R> Counted for DealResult<R> {
    fn rounds(&self) -> u64 {
        1
    }
}

/// Plays `deals` duplicate deals of `game` seeded with `seed` on the
/// current rayon pool; `progress` is told the deals finished so far.
pub fn play_match<D: Duplicate, S>(
    game: &D,
    lineups: &Lineups<S>,
    deals: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Outcome<D::Report>, D::Error>
where
    S: Sync,
{
    let k = lineups.distinct.len();
    let mut bots = vec![vec![Moments::default(); game.figures()]; k];
    let mut pairs: Vec<(usize, usize, Moments)> = (0..k)
        .flat_map(|i| (i + 1..k).map(move |j| (i, j, Moments::default())))
        .collect();
    let mut reports: Vec<D::Report> = (0..k).map(|_| D::Report::default()).collect();
    play_rounds(
        deals,
        1,
        || -> Vec<Box<D::Bot>> { lineups.base.iter().map(|&b| game.bot(b)).collect() },
        |seated, d, _| duplicate_deal(game, lineups, seated, seed, d),
        |_, deal| {
            for (m, row) in bots.iter_mut().zip(&deal.figures) {
                for (mm, &x) in m.iter_mut().zip(row) {
                    mm.push(x);
                }
            }
            for (i, j, m) in &mut pairs {
                m.push(deal.figures[*i][0] - deal.figures[*j][0]);
            }
            for (a, b) in reports.iter_mut().zip(deal.reports) {
                a.merge(b);
            }
            Ok(())
        },
        progress,
    )?;
    Ok(Outcome {
        deals,
        bots: bots
            .iter()
            .map(|m| m.iter().map(Moments::estimate).collect())
            .collect(),
        differences: pairs
            .into_iter()
            .map(|(i, j, m)| (i, j, m.estimate()))
            .collect(),
        reports,
    })
}

/// Plays deck `d` with every line-up, `seated` in the first line-up's
/// order (and left so).
fn duplicate_deal<D: Duplicate, S>(
    game: &D,
    lineups: &Lineups<S>,
    seated: &mut [Box<D::Bot>],
    seed: u64,
    d: u64,
) -> Result<DealResult<D::Report>, D::Error> {
    let n = lineups.base.len();
    let k = lineups.distinct.len();
    let rotations = lineups.rotations.len() as u64;
    let mut sums = vec![vec![0f64; game.figures()]; k];
    let mut reports: Vec<D::Report> = (0..k).map(|_| D::Report::default()).collect();
    for (ri, &r) in (0u64..).zip(&lineups.rotations) {
        let mut chance = seeded_rng(game_seed(seed, d));
        let mut bot_rng = seeded_rng(game_seed(seed ^ 0xB075_EED5, d * rotations + ri));
        let dice = Dice {
            chance: &mut chance,
            bots: Some(&mut bot_rng),
        };
        // Seat s plays the bot of base position (s + r) % n.
        seated.rotate_left(r);
        let played = game.play(seated, dice);
        for (s, bot) in seated.iter_mut().enumerate() {
            reports[lineups.base[(s + r) % n]].merge(game.report(bot));
        }
        seated.rotate_right(r);
        for (s, row) in played?.iter().enumerate() {
            let b = lineups.base[(s + r) % n];
            for (acc, &x) in sums[b].iter_mut().zip(row) {
                *acc += x;
            }
        }
    }
    // Each rotation seats bot `b` in as many seats as the first line-up.
    for (b, row) in sums.iter_mut().enumerate() {
        let seats = (lineups.seats(b) as u64 * rotations).max(1) as f64;
        for x in row.iter_mut() {
            *x /= seats;
        }
    }
    Ok(DealResult {
        figures: sums,
        reports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ups_rotate_the_bots_named_and_keep_those_that_differ() {
        let l = Lineups::new(4, &["a", "b"]).unwrap();
        assert_eq!(l.distinct(), ["a", "b"]);
        assert_eq!((l.seats(0), l.seats(1), l.games_per_deal()), (2, 2, 2));
        assert_eq!(l.names(), [["a", "b", "a", "b"], ["b", "a", "b", "a"]]);
        let l = Lineups::new(3, &["a", "b", "a"]).unwrap();
        assert_eq!((l.seats(0), l.games_per_deal()), (2, 3));
        assert_eq!(Lineups::new(3, &["x"]).unwrap().games_per_deal(), 1);
        assert!(Lineups::<&str>::new(2, &["a", "b", "c"]).is_err());
        assert!(Lineups::<&str>::new(2, &[]).is_err());
    }
}
