//! The expert proven against positions with known best answers (issue 47),
//! and its verdicts against what the moves earn when the game is played on:
//! the fast subsets (`tripoley bench positions` and `tripoley bench
//! consistency` run them in full).

use std::collections::BTreeSet;

use tripoley_bots::positions::consistency::{self, Config, Players};
use tripoley_bots::positions::{self, Kind, Position, SUITE_BUDGET, Tally, show, solve};
use tripoley_bots::{Budget, judge};
use tripoley_engine::{InfoSet, Preset};

fn fast() -> impl Iterator<Item = &'static Position> {
    positions::all().iter().filter(|p| p.fast)
}

fn failures(list: impl Iterator<Item = &'static Position>) -> (Tally, Vec<String>) {
    let mut outcomes = Vec::new();
    let mut wrong = Vec::new();
    for p in list {
        let o = positions::ask(p, SUITE_BUDGET).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        if !o.right() {
            wrong.push(format!(
                "{}: hint {} (right: {}), verdict on {}: best {} cost {:.2} ± {:.2}",
                p.name,
                show(o.hint),
                p.answer,
                p.wrong,
                show(o.verdict.best),
                o.verdict.cost,
                o.verdict.std_error
            ));
        }
        outcomes.push(o);
    }
    (Tally::of(&outcomes), wrong)
}

#[test]
fn the_suite_covers_every_kind_and_every_preset_that_asks_decisions() {
    let all = positions::all();
    assert!(all.len() >= 30, "{} positions", all.len());
    for kind in Kind::ALL {
        assert!(all.iter().filter(|p| p.kind == kind).count() >= 5, "{kind}");
    }
    for preset in [
        Preset::Pagat,
        Preset::Tripoley,
        Preset::Rummoli,
        Preset::MichiganCasino,
    ] {
        assert!(all.iter().any(|p| p.preset == preset), "{preset}");
    }
}

/// M1-M10: every Michigan endgame marked exact is solved over every deal of
/// the hidden cards consistent with the seat's view, and the right answers
/// written in the position are exactly those the solver cannot exclude.
#[test]
fn exact_endgames_are_what_the_solver_proves() {
    for p in positions::all().iter().filter(|p| p.exact) {
        let built = p.build().unwrap();
        let decision = *InfoSet::new(&built.game, p.seat).decision().unwrap();
        let solution = solve::solve(p).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let proved: BTreeSet<String> = solution.right.iter().map(|&a| show(a)).collect();
        let written: BTreeSet<String> = decision
            .actions()
            .into_iter()
            .filter(|&a| p.is_right(a, &decision).unwrap())
            .map(show)
            .collect();
        assert_eq!(proved, written, "{}: {}", p.name, solution.describe());
        let wrong = p.wrong_action(&decision).unwrap();
        assert!(!solution.right.contains(&wrong), "{}", p.name);
        assert!(solution.worlds > 1, "{}", p.name);
    }
}

/// The fast positions at the default budget (its playouts, without the
/// clock): the hint is right and the verdict on the wrong answer finds a
/// cost. Issue 47's full house and flush fives are among them.
#[test]
fn the_expert_answers_the_fast_positions_right() {
    let (tally, wrong) = failures(fast());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(tally.total().total >= 25);
}

/// A verdict on a right answer finds no cost worth the name.
#[test]
fn a_right_answer_costs_nothing_much() {
    let p = positions::all()
        .iter()
        .find(|p| p.name == "pagat-bid-31-too-high")
        .unwrap();
    let built = p.build().unwrap();
    let info = InfoSet::new(&built.game, p.seat);
    let decision = *info.decision().unwrap();
    let right = tripoley_bots::positions::parse_action("pass", &decision, &p.rules()).unwrap();
    let v = judge(&info, &p.rules(), right, SUITE_BUDGET, 3);
    assert!(v.cost <= 2.0 * v.std_error + 1e-9, "{v:?}");
}

/// The self-consistency check, small and loose: a few decisions of
/// heuristic games, the verdict's cost against what duplicate
/// continuations by experts earn. Its figures are noisy at this size; the
/// test asks that the machinery finds contrasts, that each figure is sane,
/// and that verdicts and continuations do not disagree wholesale.
#[test]
fn verdicts_roughly_agree_with_continuations() {
    let config = Config {
        preset: Preset::Pagat,
        players: 4,
        decisions: 6,
        rate: 0.3,
        verdict: Budget::playouts(400),
        continuations: 12,
        continued_by: Players::Experts(Budget::playouts(8)),
        seed: 5,
    };
    let report = consistency::check(&config, &|_| {});
    assert_eq!(report.samples.len(), 6);
    for s in &report.samples {
        assert!(s.cost.is_finite() && s.cost_se.is_finite(), "{s:?}");
        assert!(s.earned.is_finite() && s.earned_se.is_finite(), "{s:?}");
        assert_ne!(s.best, s.played);
    }
    let total = report.total();
    assert!(total.direction * 2 >= total.n, "{total:?}");
    assert!(total.agree_world * 2 >= total.n, "{total:?}");
}
