//! [`judge`]: the expert's verdict on a move already made, for the analysis
//! of a finished game: what the move was expected to bring against the best
//! answer the search finds, and how sure that is.

use tripoley_cards::seeded_rng;
use tripoley_engine::{Action, InfoSet, Rules};

use super::Budget;
use super::candidates::{MAX_CANDIDATES, candidates};
use super::earned::Earned;
use super::search::search;
use crate::Bot;

/// The expert's verdict on one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// What was played.
    pub played: Action,
    /// What the expert would have played (`played` when it agrees, or when
    /// there was only one sensible answer).
    pub best: Action,
    /// The chips `played` is expected to have cost against `best` (0 or
    /// more): the mean, over sampled worlds, of the seat's worth after the
    /// best minus after the move made, both played out in the same worlds.
    pub cost: f64,
    /// The standard error of `cost`.
    pub std_error: f64,
    /// Sampled worlds both moves were played out in (0 when nothing was
    /// searched).
    pub worlds: u32,
    /// What the move made brought, part by part, in those worlds: why it
    /// cost what it did, beside [`Verdict::best_earned`].
    pub played_earned: Earned,
    /// What the best brought in the same worlds.
    pub best_earned: Earned,
}

/// Judges `played` at `info`'s decision: the hint's candidates and sampling
/// (the same worlds for every candidate, successive halving), with `played`
/// added to the candidates and never dropped, so that the best is measured
/// against it in every world. Deterministic for a playout budget and `seed`
/// (an analysis gives every position its own).
pub fn judge(
    info: &InfoSet<'_>,
    rules: &Rules,
    played: Action,
    budget: Budget,
    seed: u64,
) -> Verdict {
    let forced = Verdict {
        played,
        best: played,
        cost: 0.0,
        std_error: 0.0,
        worlds: 0,
        played_earned: Earned::default(),
        best_earned: Earned::default(),
    };
    let view = info.view();
    // No decision, or one answer (a lead with one card): nothing to judge.
    let Some(decision) = view.decision.filter(|d| d.only().is_none()) else {
        return forced;
    };
    let mut rollout = super::playout_player(rules);
    rollout.prepare();
    let mut rng = seeded_rng(seed);
    let first = rollout.act(&view, &mut rng);
    let mut cands = candidates(&view, decision, first, rules);
    let keep = match cands.iter().position(|&a| a == played) {
        Some(i) => i,
        None if cands.len() < MAX_CANDIDATES => {
            cands.push(played);
            cands.len() - 1
        }
        None => {
            let last = cands.len() - 1;
            cands[last] = played;
            last
        }
    };
    if cands.len() < 2 {
        return forced;
    }
    let out = search(
        info,
        &cands,
        Some(keep),
        rollout,
        rules.bet_limit,
        budget,
        &mut rng,
    );
    let edge = out.edge.expect("a kept candidate is measured");
    let best = cands
        .iter()
        .position(|&a| a == out.best)
        .expect("the best is a candidate");
    Verdict {
        played,
        best: out.best,
        cost: edge.mean,
        std_error: edge.std_error,
        worlds: edge.worlds,
        played_earned: out.earned[keep],
        best_earned: out.earned[best],
    }
}
