//! The analysis of a recorded game: at each decision of a chosen player (or
//! of all), the chips the move made was expected to bring against the best
//! move the expert bot finds, from the same sampling as its hint
//! ([`tripoley_bots::judge`]), with a standard error; the biggest mistakes
//! first, and each player's chips after every deal (for a chart).
//!
//! Every position gets its own fixed seed (from its place in the record), so
//! an analysis is reproducible and positions do not share their luck.
//!
//! Records come from outside (a file, an upload): [`read`] bounds their size
//! and length and says in words why one is refused. Napalm records are
//! refused too: the expert bot does not play Napalm (its hint is the
//! heuristic's answer, with no sampling to measure a move by).

mod read;
mod why;

pub use read::{AnalysisError, MAX_RECORD_BYTES, MAX_STEPS, read};
pub use why::{Trade, Why, WhyKind, WhyPart, why};

use serde::Serialize;
use tripoley_bots::{Budget, Verdict, hint, judge};
use tripoley_engine::{
    Account, Action, Event, Game, InfoSet, NoEvents, Pending, Record, ReplayError, Rules, Seat,
    Stage, Step,
};

/// Playouts per decision by default: the web table's hint budget.
pub const DEFAULT_PLAYOUTS: u32 = 2000;

/// The most playouts per decision a caller may ask for.
pub const MAX_PLAYOUTS: u32 = 100_000;

/// The seed every position's seed is made from (the hint's, "HINT").
const SEED: u64 = 0x4849_4E54;

/// A mistake costs at least this much to get the expert's line after it.
pub const LINE_COST: f64 = 0.5;

/// The most mistakes, the costliest first, that get the expert's line.
pub const LINE_MISTAKES: usize = 20;

/// Moves in the expert's line after a mistake: the expert's own answer,
/// then what the table would do next (each seat's expert hint), until the
/// deal needs the cards of chance or the game ends.
pub const LINE_MOVES: usize = 5;

/// Playouts for each later move of a line (the answer itself is the
/// verdict's): enough for a sensible move, cheap beside the verdicts.
const LINE_PLAYOUTS: u32 = 300;

/// What to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whose decisions (`None`: everyone's).
    pub seat: Option<Seat>,
    /// Playouts per decision (at most [`MAX_PLAYOUTS`]).
    pub playouts: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seat: None,
            playouts: DEFAULT_PLAYOUTS,
        }
    }
}

/// The verdict on one decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judged {
    /// Its place in the record's steps (0 for the first).
    pub step: usize,
    /// The deal it was made in (1 for the first).
    pub deal: u32,
    /// Who decided.
    pub seat: Seat,
    /// What was played.
    pub played: Action,
    /// What the expert would have played.
    pub best: Action,
    /// Chips the move is expected to have cost against `best` (0 or more).
    pub cost: f64,
    /// The standard error of `cost`.
    pub std_error: f64,
    /// Sampled worlds behind the verdict's cost (0: the move made was the
    /// best found, or the only sensible one).
    pub worlds: u32,
    /// Where in the deal it was decided (for the summary by stage).
    pub part: Part,
    /// Why the expert's choice is better, in the search's numbers (none
    /// when it is the move made, or no part differs by half a chip).
    pub why: Option<Why>,
    /// The expert's line from this position: `best`, then the next moves
    /// at the table, each seat's as the expert would make it from what that
    /// seat knew (at most [`LINE_MOVES`]; only for the costliest mistakes,
    /// [`LINE_MISTAKES`] of at least [`LINE_COST`] chips, else empty).
    pub line: Vec<LineMove>,
}

/// One move of the expert's line after a mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineMove {
    /// Who moves.
    pub seat: Seat,
    /// The move.
    pub action: Action,
}

/// The three parts of a deal a decision belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The spare hand, its auction and the pay suit's.
    Spare,
    /// Poker: the five and the betting (the final pot's too).
    Poker,
    /// Michigan.
    Michigan,
}

impl Part {
    /// The part of a deal at `stage`.
    pub fn of(stage: Stage) -> Part {
        match stage {
            Stage::ChooseFive | Stage::Betting | Stage::FinalPot => Part::Poker,
            Stage::Michigan => Part::Michigan,
            _ => Part::Spare,
        }
    }
}

/// Chips lost to mistakes in each part of the deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ByPart {
    /// The spare hand and the auctions.
    pub spare: f64,
    /// Poker.
    pub poker: f64,
    /// Michigan.
    pub michigan: f64,
}

impl ByPart {
    fn add(&mut self, part: Part, chips: f64) {
        match part {
            Part::Spare => self.spare += chips,
            Part::Poker => self.poker += chips,
            Part::Michigan => self.michigan += chips,
        }
    }
}

/// Each player's chips at one point of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChipsAt {
    /// Deals finished by then (0: the start).
    pub deals: u32,
    /// Each seat's stack: after the deal's last payment, before the next
    /// deal's antes (or the final pot, which has an entry of its own).
    pub stacks: Vec<u32>,
}

/// A whole game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The players, by seat.
    pub names: Vec<String>,
    /// Whose decisions were judged (`None`: everyone's).
    pub seat: Option<Seat>,
    /// Playouts per decision.
    pub playouts: u32,
    /// Every decision judged, the costliest first (ties in game order).
    pub decisions: Vec<Judged>,
    /// Each seat's expected chips lost to its judged moves, added up.
    pub cost_by_seat: Vec<f64>,
    /// The same by part of the deal.
    pub cost_by_part: Vec<ByPart>,
    /// The stacks at the start, after each deal, and at the end.
    pub chips: Vec<ChipsAt>,
    /// Whether the record reaches the end of the game.
    pub finished: bool,
}

/// A decision to judge: the game just before it, and what was played.
struct Position {
    step: usize,
    game: Game,
    seat: Seat,
    played: Action,
}

/// Analyses `record` (see the crate's docs). `progress` is told the
/// decisions judged and the total before each one; answering `false` stops
/// the work ([`AnalysisError::Cancelled`]).
pub fn analyse(
    record: &Record,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Analysis, AnalysisError> {
    if options.playouts == 0 || options.playouts > MAX_PLAYOUTS {
        return Err(AnalysisError::Budget(options.playouts));
    }
    if let Some(s) = options.seat
        && usize::from(s) >= record.names.len()
    {
        return Err(AnalysisError::Seat {
            seat: s,
            players: record.names.len(),
        });
    }
    let (positions, chips, finished) = walk(record, options.seat)?;
    let budget = Budget::playouts(options.playouts);
    let mut decisions = Vec::with_capacity(positions.len());
    for (done, p) in positions.iter().enumerate() {
        if !progress(done, positions.len()) {
            return Err(AnalysisError::Cancelled);
        }
        let seed = SEED ^ (p.step as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let v = judge(
            &InfoSet::new(&p.game, p.seat),
            p.game.rules(),
            p.played,
            budget,
            seed,
        );
        let reason = why((v.played, v.best), &v.played_earned, &v.best_earned);
        let (best, cost, reason) = if stands(&v, p.game.rules(), reason.as_ref()) {
            (v.best, v.cost, reason)
        } else {
            (v.played, 0.0, None)
        };
        decisions.push(Judged {
            step: p.step,
            deal: p.game.deal_number(),
            seat: p.seat,
            played: v.played,
            best,
            cost,
            std_error: v.std_error,
            worlds: v.worlds,
            part: Part::of(p.game.stage()),
            why: reason,
            line: Vec::new(),
        });
    }
    let mut cost_by_seat = vec![0.0; record.names.len()];
    let mut cost_by_part = vec![ByPart::default(); record.names.len()];
    for d in &decisions {
        cost_by_seat[usize::from(d.seat)] += d.cost;
        cost_by_part[usize::from(d.seat)].add(d.part, d.cost);
    }
    decisions.sort_by(|a, b| b.cost.total_cmp(&a.cost).then(a.step.cmp(&b.step)));
    let line_budget = Budget::playouts(options.playouts.min(LINE_PLAYOUTS));
    for d in decisions
        .iter_mut()
        .take(LINE_MISTAKES)
        .filter(|d| d.cost >= LINE_COST && d.best != d.played)
    {
        let p = positions
            .iter()
            .find(|p| p.step == d.step)
            .expect("every verdict is of a position");
        d.line = line(&p.game, d.seat, d.best, line_budget);
    }
    Ok(Analysis {
        names: record.names.clone(),
        seat: options.seat,
        playouts: options.playouts,
        decisions,
        cost_by_seat,
        cost_by_part,
        chips,
        finished,
    })
}

/// Whether a verdict calls its move a mistake. A best that measured no
/// better than the move made, in worlds of its own, leaves no mistake (a
/// verdict's cost may fall below 0). A verdict that prefers a five below a
/// straight to a straight or better goes against what every player knows
/// of poker: it stands only when its cost is two standard errors clear of
/// 0 and it has a reason to give (issue 47).
fn stands(v: &Verdict, rules: &Rules, reason: Option<&Why>) -> bool {
    v.cost > 0.0
        && (!v.prefers_a_weaker_five(rules) || (v.cost > 2.0 * v.std_error && reason.is_some()))
}

/// The expert's line from `game`: `seat` plays `best`, then each seat due
/// plays the expert's hint from what it knows (a decision with one answer
/// takes it), until [`LINE_MOVES`] moves, the cards of chance or the end.
/// Each hint has its fixed seed, so a line is the same every time.
fn line(game: &Game, seat: Seat, best: Action, budget: Budget) -> Vec<LineMove> {
    let mut game = game.clone();
    let mut moves = Vec::with_capacity(LINE_MOVES);
    let (mut seat, mut action) = (seat, best);
    loop {
        if game.apply_into(seat, action, &mut NoEvents).is_err() {
            break;
        }
        moves.push(LineMove { seat, action });
        if moves.len() >= LINE_MOVES {
            break;
        }
        let Pending::Decide {
            seat: due,
            decision,
        } = game.pending()
        else {
            break;
        };
        action = match decision.only() {
            Some(only) => only,
            None => hint(&InfoSet::new(&game, due), game.rules(), budget),
        };
        seat = due;
    }
    moves
}

/// Replays the record: the positions to judge, the stacks after each deal,
/// and whether the game ended.
fn walk(
    record: &Record,
    seat: Option<Seat>,
) -> Result<(Vec<Position>, Vec<ChipsAt>, bool), AnalysisError> {
    let mut events = Vec::new();
    let mut game = record.start(&mut events)?;
    let mut chips = vec![ChipsAt {
        deals: 0,
        stacks: game.stacks().to_vec(),
    }];
    let mut positions = Vec::new();
    for (index, step) in record.steps.iter().enumerate() {
        // A decision with one answer (a lead with one card) is no choice:
        // no verdict for it.
        if let (
            Step::Act { seat: s, action },
            Pending::Decide {
                seat: due,
                decision,
            },
        ) = (step, game.pending())
            && *s == due
            && seat.is_none_or(|want| want == due)
            && decision.only().is_none()
        {
            positions.push(Position {
                step: index,
                game: game.clone(),
                seat: due,
                played: *action,
            });
        }
        events.clear();
        // The stacks followed payment by payment through the step: a deal's
        // end and the next deal's antes come in one step.
        let mut stacks = game.stacks().to_vec();
        game.step(step, &mut events)
            .map_err(|error| ReplayError::Step { index, error })?;
        for e in &events {
            match e {
                Event::Transfer(t) => {
                    if let Account::Stack(s) = t.from {
                        stacks[usize::from(s)] -= t.amount;
                    }
                    if let Account::Stack(s) = t.to {
                        stacks[usize::from(s)] += t.amount;
                    }
                }
                Event::DealEnded { number } => chips.push(ChipsAt {
                    deals: *number,
                    stacks: stacks.clone(),
                }),
                _ => {}
            }
        }
    }
    let finished = matches!(game.pending(), Pending::GameOver);
    let last = chips.last().expect("the start at least");
    if last.stacks != game.stacks() {
        chips.push(ChipsAt {
            deals: game.deals_done(),
            stacks: game.stacks().to_vec(),
        });
    }
    Ok((positions, chips, finished))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tripoley_bots::{BotKind, record_game};
    use tripoley_engine::{Preset, Reason, Rules};

    fn game() -> Record {
        game_of(1)
    }

    fn game_of(deals: u32) -> Record {
        let mut rules = Rules::preset(Preset::Pagat);
        rules.deals = Some(deals);
        let mut bots: Vec<_> = (0..3).map(|_| BotKind::Heuristic.make(&rules)).collect();
        let names = (0..3).map(|i| format!("P{i}")).collect();
        record_game(&rules, &mut bots, names, 5).expect("a game")
    }

    /// A deal's point of the chart is its result: the stacks after its last
    /// payment, not after the next deal's antes (which come in the same
    /// step). Failed before: deal 1 read its stacks less the next antes.
    #[test]
    fn the_chips_after_a_deal_are_taken_before_the_next_deals_antes() {
        let record = game_of(3);
        let a = analyse(
            &record,
            &Options {
                seat: None,
                playouts: 1,
            },
            &mut |_, _| true,
        )
        .expect("it analyses");
        // Every payment of the game in order, added up to each deal's end.
        let mut events = Vec::new();
        let mut game = record.start(&mut events).unwrap();
        for step in &record.steps {
            game.step(step, &mut events).unwrap();
        }
        let mut stacks = a.chips[0].stacks.clone();
        let mut ends = Vec::new();
        let mut antes_after_end = false;
        for e in &events {
            match e {
                Event::Transfer(t) => {
                    if let Account::Stack(s) = t.from {
                        stacks[usize::from(s)] -= t.amount;
                        antes_after_end |= !ends.is_empty() && t.reason == Reason::Ante;
                    }
                    if let Account::Stack(s) = t.to {
                        stacks[usize::from(s)] += t.amount;
                    }
                }
                Event::DealEnded { number } => ends.push((*number, stacks.clone())),
                _ => {}
            }
        }
        assert!(antes_after_end, "a later deal's antes were paid");
        assert_eq!(ends.len(), 3);
        for (number, at_end) in ends {
            let point = a.chips.iter().find(|c| c.deals == number).expect("a point");
            assert_eq!(point.stacks, at_end, "deal {number}");
        }
        assert_eq!(a.chips.last().unwrap().stacks, game.stacks());
    }

    /// The costliest mistakes come with the expert's line after them: its
    /// answer first, then legal moves of the seats due, a few at most.
    #[test]
    fn a_costly_mistake_has_the_experts_line_after_it() {
        let record = game_of(2);
        let a = analyse(
            &record,
            &Options {
                seat: None,
                playouts: 50,
            },
            &mut |_, _| true,
        )
        .expect("it analyses");
        let mut lines = 0;
        for (i, d) in a.decisions.iter().enumerate() {
            if d.line.is_empty() {
                assert!(i >= LINE_MISTAKES || d.cost < LINE_COST || d.best == d.played);
                continue;
            }
            lines += 1;
            assert!(d.line.len() <= LINE_MOVES);
            assert_eq!(
                d.line[0],
                LineMove {
                    seat: d.seat,
                    action: d.best
                }
            );
            // The line plays from the position decided.
            let mut game = record.start(&mut Vec::new()).unwrap();
            for step in &record.steps[..d.step] {
                game.step(step, &mut Vec::new()).unwrap();
            }
            for m in &d.line {
                game.apply(m.seat, m.action).expect("a legal move");
            }
        }
        assert!(lines > 0, "some mistake has a line");
        // Each part's costs add up to the seat's.
        for (seat, by) in a.cost_by_part.iter().enumerate() {
            let sum = by.spare + by.poker + by.michigan;
            assert!((sum - a.cost_by_seat[seat]).abs() < 1e-9);
        }
        assert!(
            a.decisions
                .iter()
                .any(|d| d.part == Part::Poker && matches!(d.played, Action::Choose(_)))
        );
    }

    /// The smallest budget (the fuzz target's): a decision with many
    /// candidates plays more worlds than the budget, which must not
    /// overdraw it (found by fuzzing: an overflow in the halving rounds).
    #[test]
    fn one_playout_a_decision_is_enough_to_judge_every_decision() {
        // The fuzz target's first seed, whose decisions have five and more
        // candidates.
        let record = read(include_str!("../../../fuzz/seeds/record/pagat.json")).expect("a record");
        let options = Options {
            seat: None,
            playouts: 1,
        };
        let a = analyse(&record, &options, &mut |_, _| true).expect("it analyses");
        assert!(!a.decisions.is_empty());
        assert!(a.decisions.iter().all(|d| d.cost >= 0.0));
    }

    #[test]
    fn a_caller_stops_the_work_between_two_decisions() {
        let record = game();
        let options = Options {
            seat: None,
            playouts: 50,
        };
        let mut asked = 0;
        let stopped = analyse(&record, &options, &mut |done, total| {
            asked += 1;
            assert!(done < total);
            done < 3
        });
        assert!(
            matches!(stopped, Err(AnalysisError::Cancelled)),
            "{stopped:?}"
        );
        assert_eq!(asked, 4);
    }

    #[test]
    fn every_decision_is_judged_once_with_the_stacks_after_each_deal() {
        let record = game();
        let options = Options {
            seat: None,
            playouts: 50,
        };
        let a = analyse(&record, &options, &mut |_, _| true).expect("it analyses");
        // Every act but those with one answer (M10: a lead with one card is
        // asked, yet no choice): those get no verdict.
        let (mut acts, mut only) = (0, 0);
        let mut game = record.start(&mut Vec::new()).unwrap();
        for step in &record.steps {
            if let Pending::Decide { decision, .. } = game.pending() {
                if decision.only().is_some() {
                    only += 1;
                } else {
                    acts += 1;
                }
            }
            game.step(step, &mut Vec::new()).unwrap();
        }
        assert!(only > 0, "the game has a lead with one card");
        assert_eq!(a.decisions.len(), acts);
        assert!(a.finished);
        assert_eq!(a.chips[0].stacks, vec![100; 3]);
        assert_eq!(
            a.chips.last().unwrap().stacks,
            record.replay().unwrap().0.stacks()
        );
        let total: f64 = a.decisions.iter().map(|d| d.cost).sum();
        assert!((a.cost_by_seat.iter().sum::<f64>() - total).abs() < 1e-9);
        assert!(
            a.decisions
                .iter()
                .all(|d| d.cost >= 0.0 && d.std_error >= 0.0)
        );
        for (bad, why) in [(0, "budget"), (MAX_PLAYOUTS + 1, "budget")] {
            let e = analyse(
                &record,
                &Options {
                    seat: None,
                    playouts: bad,
                },
                &mut |_, _| true,
            );
            assert!(matches!(e, Err(AnalysisError::Budget(_))), "{why}: {e:?}");
        }
        let e = analyse(
            &record,
            &Options {
                seat: Some(3),
                playouts: 50,
            },
            &mut |_, _| true,
        );
        assert!(matches!(
            e,
            Err(AnalysisError::Seat {
                seat: 3,
                players: 3
            })
        ));
    }

    /// Issue 47: a verdict that prefers a high-card five to a full house
    /// stands only when it is sure (two standard errors) and has a reason;
    /// the same doubt leaves any other mistake standing.
    #[test]
    fn a_verdict_against_the_ranking_of_fives_stands_only_sure_and_explained() {
        let rules = Rules::preset(Preset::Pagat);
        let five = |cards: &str| Action::Choose(cards.parse().expect("cards"));
        let verdict = |played: Action, best: Action, cost: f64, std_error: f64| Verdict {
            played,
            best,
            cost,
            std_error,
            worlds: 400,
            played_earned: tripoley_bots::Earned::default(),
            best_earned: tripoley_bots::Earned::default(),
        };
        let (full_house, high_card) = (five("5C 7C 5D 5H 7H"), five("5C 6C 4D 3H 8S"));
        let reason = Why {
            kind: WhyKind::Michigan,
            chips: 3.1,
            back: 0.0,
            best_percent: 40,
            played_percent: 19,
            but: None,
        };
        let faulted = verdict(full_house, high_card, 1.0, 0.6);
        assert!(faulted.prefers_a_weaker_five(&rules));
        assert!(
            !stands(&faulted, &rules, Some(&reason)),
            "not two errors clear"
        );
        let sure = verdict(full_house, high_card, 2.0, 0.6);
        assert!(stands(&sure, &rules, Some(&reason)));
        assert!(!stands(&sure, &rules, None), "no reason to give");
        // A weaker five called a mistake for a stronger one needs no more.
        let other = verdict(high_card, full_house, 1.0, 0.6);
        assert!(!other.prefers_a_weaker_five(&rules));
        assert!(stands(&other, &rules, None));
        assert!(!stands(
            &verdict(high_card, full_house, -0.1, 0.6),
            &rules,
            None
        ));
    }
}
