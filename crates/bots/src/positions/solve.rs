//! The exact answer to a small Michigan endgame: every deal of the cards
//! hidden from the deciding seat that is consistent with what it has seen,
//! each answer played out in each, the rest of the deal searched whole.
//!
//! A world is an assignment of the hidden cards (the others' unknown cards
//! and the spare's) to the places that may hold them, each seat's count
//! kept and its public deductions (`cannot_hold`) obeyed; it counts only if
//! the position's script, replayed from the deck that deals it, is legal
//! and ends in exactly the seat's view (so every earlier lead and stop
//! would have happened alike). In each world every answer is played and the
//! rest of the deal searched to its end: the seat's worth there (its chips
//! plus its share of the layout, the search's measure, `worth`)
//! is bounded below by the others choosing what is worst for it and the
//! seat itself always taking its first legal answer (a strategy it can
//! follow without seeing the world), and above by everyone choosing what
//! is best for it. An answer is excluded when its upper bound, averaged
//! over the worlds (each as likely as another: the deal is uniform), is
//! below another answer's lower bound: no play of the others and no later
//! play of the seat could make it as good. One move of the others is left
//! out: withholding one's last card when one could follow with it and go
//! out, a gift to everyone else that no player would make (`going_out`). Positions are chosen so little
//! is left to choose after the decision, where the bounds meet.

use tripoley_cards::{Card, CardSet, Rank};
use tripoley_engine::{
    Action, ChanceKind, DealChance, Decision, Game, InfoSet, Misplays, PayCards, Pending,
    PokerRule, Seat, Space,
};

use super::{Position, deck_of, show, worth};

/// One answer's value, averaged over the worlds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// The answer.
    pub action: Action,
    /// Its worth to the seat with the others playing worst for it.
    pub lo: f64,
    /// Its worth with everyone playing best for it.
    pub hi: f64,
}

/// An endgame solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The consistent worlds.
    pub worlds: usize,
    /// Every legal answer's value.
    pub values: Vec<Value>,
    /// The answers not excluded: the right ones.
    pub right: Vec<Action>,
    /// Whether a right answer is at least as good as every excluded one
    /// in every world, not only on average (then no belief about how the
    /// hidden cards lie could change the answer).
    pub every_world: bool,
}

impl Solution {
    /// The values in words, for reasons and failures.
    pub fn describe(&self) -> String {
        let vals: Vec<String> = self
            .values
            .iter()
            .map(|v| format!("{} {:.2}..{:.2}", show(v.action), v.lo, v.hi))
            .collect();
        format!("{} worlds: {}", self.worlds, vals.join(", "))
    }
}

/// Worlds searched at most: positions are built small.
const MAX_WORLDS: usize = 20_000;

/// Every world consistent with the seat's view at `position`'s decision:
/// the game there, dealt each assignment of the hidden cards that replays
/// the script to the same view. The real deal must be one of them.
pub fn worlds(position: &Position) -> Result<Vec<Game>, String> {
    let built = position.build()?;
    let seat = position.seat;
    let me = usize::from(seat);
    let view = built.game.view(Some(seat));
    let n = position.players;
    // Each seat's cards as dealt, where the seat can tell; nobody swapped.
    let mut fixed = vec![CardSet::EMPTY; n];
    let mut need = vec![0usize; n + 1];
    for s in 0..n {
        let played = view.played[s];
        if s == me {
            fixed[s] = view.hand | played;
        } else {
            fixed[s] = view.known_cards[s] | played;
            need[s] = (view.hand_sizes[s] - view.known_cards[s].len()) as usize;
        }
    }
    let spare_fixed = view.spare_known;
    need[n] = (view.spare_size - spare_fixed.len()) as usize;
    let placed = fixed.iter().fold(spare_fixed, |a, &h| a | h);
    let hidden: Vec<_> = (CardSet::FULL - placed).iter().collect();
    if hidden.len() != need.iter().sum::<usize>() {
        return Err(format!(
            "{} hidden cards for {} places (a swap?)",
            hidden.len(),
            need.iter().sum::<usize>()
        ));
    }
    let cannot: Vec<CardSet> = (0..n).map(|s| view.cannot_hold[s]).collect();
    let mut out = Vec::new();
    let mut found_true = false;
    let mut place = vec![CardSet::EMPTY; n + 1];
    let mut count = vec![0usize; n + 1];
    let mut error = None;
    let rules = position.rules();
    enumerate(
        &hidden,
        0,
        &need,
        &cannot,
        &mut place,
        &mut count,
        me,
        &mut |place| {
            if error.is_some() {
                return;
            }
            let hands: Vec<CardSet> = (0..n).map(|s| fixed[s] | place[s]).collect();
            let deck = match deck_of(position.dealer, &hands, spare_fixed | place[n], false) {
                Ok(d) => d,
                Err(e) => {
                    error = Some(e);
                    return;
                }
            };
            let Some(game) = replay(&rules, n, &deck, &built.steps) else {
                return;
            };
            if game.view(Some(seat)) != view {
                return;
            }
            found_true |= deck == built.deck;
            if out.len() == MAX_WORLDS {
                error = Some(format!("more than {MAX_WORLDS} worlds"));
                return;
            }
            out.push(game);
        },
    );
    if let Some(e) = error {
        return Err(e);
    }
    if !found_true {
        return Err("the real deal is not among the consistent worlds".into());
    }
    Ok(out)
}

/// Solves `position` exactly (see the module docs).
pub fn solve(position: &Position) -> Result<Solution, String> {
    let seat = position.seat;
    let worlds_list = worlds(position)?;
    let decision = *InfoSet::new(&worlds_list[0], seat)
        .decision()
        .ok_or("no decision")?;
    let actions = decision.actions();
    let mut lo_sum = vec![0.0; actions.len()];
    let mut hi_sum = vec![0.0; actions.len()];
    let mut per_world: Vec<Vec<(f64, f64)>> = Vec::with_capacity(worlds_list.len());
    for game in &worlds_list {
        let mut row = Vec::with_capacity(actions.len());
        for (i, &a) in actions.iter().enumerate() {
            let mut g = game.clone();
            g.apply(seat, a).map_err(|e| format!("{}: {e}", show(a)))?;
            let mut budget = NODES;
            let (lo, hi) = bounds(&g, seat, &mut budget)?;
            lo_sum[i] += lo;
            hi_sum[i] += hi;
            row.push((lo, hi));
        }
        per_world.push(row);
    }
    let worlds = worlds_list.len();
    let w = worlds as f64;
    let values: Vec<Value> = actions
        .iter()
        .enumerate()
        .map(|(i, &action)| Value {
            action,
            lo: lo_sum[i] / w,
            hi: hi_sum[i] / w,
        })
        .collect();
    let floor = values
        .iter()
        .map(|v| v.lo)
        .fold(f64::NEG_INFINITY, f64::max);
    let is_right: Vec<bool> = values.iter().map(|v| v.hi >= floor - 1e-9).collect();
    let right: Vec<Action> = values
        .iter()
        .zip(&is_right)
        .filter(|(_, r)| **r)
        .map(|(v, _)| v.action)
        .collect();
    let every_world = (0..actions.len()).filter(|&i| is_right[i]).any(|i| {
        per_world.iter().all(|row| {
            (0..actions.len())
                .filter(|&j| !is_right[j])
                .all(|j| row[i].0 >= row[j].1 - 1e-9)
        })
    });
    Ok(Solution {
        worlds,
        values,
        right,
        every_world,
    })
}

/// Every assignment of `hidden[i..]` to the places with room left
/// (`need`), obeying `cannot`; the seat `me` gets none.
#[allow(clippy::too_many_arguments)]
fn enumerate(
    hidden: &[tripoley_cards::Card],
    i: usize,
    need: &[usize],
    cannot: &[CardSet],
    place: &mut Vec<CardSet>,
    count: &mut Vec<usize>,
    me: usize,
    visit: &mut dyn FnMut(&[CardSet]),
) {
    let Some(&card) = hidden.get(i) else {
        visit(place);
        return;
    };
    for p in 0..need.len() {
        if p == me || count[p] >= need[p] || cannot.get(p).is_some_and(|c| c.contains(card)) {
            continue;
        }
        place[p].insert(card);
        count[p] += 1;
        enumerate(hidden, i + 1, need, cannot, place, count, me, visit);
        place[p].remove(card);
        count[p] -= 1;
    }
}

/// The game dealt `deck` with the script's steps replayed, if every one is
/// legal there.
fn replay(
    rules: &tripoley_engine::Rules,
    players: usize,
    deck: &tripoley_cards::Deck,
    steps: &[(Seat, Action)],
) -> Option<Game> {
    let mut game = Game::new(rules.clone(), players).ok()?;
    game.chance(DealChance::deck(deck.clone())).ok()?;
    for &(s, a) in steps {
        game.apply(s, a).ok()?;
    }
    Some(game)
}

/// Nodes one answer's search may visit in one world; past them, the
/// unsearched rest is bounded by [`ceiling`] above and 0 below.
const NODES: u32 = 4000;

/// What the seat can be worth at most at the end of the deal from here:
/// its chips, every chip it could still take off the layout (the Kitty;
/// pay spaces collected in play; the Poker Pool), its share of the rest,
/// a chip for every card the others hold (going out, M7; their misplays,
/// M9a; blocked play, M5, pays less) and, under penalised misplays, every
/// pay space once from each other seat (withholding, M9b).
fn ceiling(game: &Game, seat: Seat) -> f64 {
    let rules = game.rules();
    let layout = game.layout();
    let movable: u32 = Space::ALL
        .into_iter()
        .filter(|&sp| match sp {
            Space::Kitty => true,
            Space::Pot => rules.poker == PokerRule::PoolAfterMichigan,
            _ => rules.pay_cards == PayCards::InPlay,
        })
        .map(|sp| layout.get(sp))
        .sum();
    let active = (0..game.players() as Seat)
        .filter(|&s| !game.is_out(s))
        .count()
        .max(1) as f64;
    let (hands, _, _) = game.card_locations();
    let others: u32 = hands
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(seat))
        .map(|(_, h)| h.len())
        .sum();
    let withheld = if rules.misplays == Misplays::Penalised {
        let pay: u32 = [
            Space::Ace,
            Space::King,
            Space::Queen,
            Space::Jack,
            Space::Ten,
        ]
        .into_iter()
        .map(|sp| layout.get(sp))
        .sum();
        f64::from(pay) * (active - 1.0)
    } else {
        0.0
    };
    f64::from(game.stacks()[usize::from(seat)])
        + f64::from(movable)
        + f64::from(layout.total() - movable) / active
        + f64::from(others)
        + withheld
}

/// The seat's worth at the end of the deal: (lower, upper) bounds over
/// every later choice (see the module docs), searching at most `budget`
/// more nodes.
fn bounds(game: &Game, seat: Seat, budget: &mut u32) -> Result<(f64, f64), String> {
    let cap = ceiling(game, seat);
    let (lo, hi) = search(game, seat, budget)?;
    Ok((lo.min(cap), hi.min(cap)))
}

/// Another seat following with its last card (M9b) plays it: going out
/// takes the Kitty and a chip for every card the others hold (M7), more
/// than it could ever take later with fewer cards out against it, and a
/// withholder collects no pay space anyway. So a follower never withholds
/// its last card, and the bounds do not count a gift nobody would make.
fn going_out(game: &Game, s: Seat, decision: &Decision) -> Option<Action> {
    let Decision::Follow { .. } = decision else {
        return None;
    };
    let (hands, _, _) = game.card_locations();
    (hands[usize::from(s)].len() == 1).then_some(Action::Play)
}

/// The seat's own later choice for the lower bound: a strategy it can
/// follow without seeing the world (it reads only its view): lead an ace,
/// or a card whose next card up was played or is known to be in the spare
/// (a sure stop, which keeps the lead), else its first answer.
fn own_choice(game: &Game, seat: Seat, actions: &[Action]) -> usize {
    let view = game.view(Some(seat));
    let gone = view.played.iter().fold(view.spare_known, |a, &p| a | p);
    actions
        .iter()
        .position(|a| match *a {
            Action::Lead(c) => {
                c.rank() == Rank::Ace
                    || gone.contains(Card::new(Rank::from_index(c.rank().index() + 1), c.suit()))
            }
            _ => false,
        })
        .unwrap_or(0)
}

fn search(game: &Game, seat: Seat, budget: &mut u32) -> Result<(f64, f64), String> {
    match game.pending() {
        Pending::GameOver | Pending::Chance(ChanceKind::Deal) => {
            let w = worth(game, seat);
            Ok((w, w))
        }
        Pending::Chance(_) => Err("chance before the deal ends: not exact".into()),
        Pending::Decide { seat: s, decision } => {
            if *budget == 0 {
                return Ok((0.0, ceiling(game, seat)));
            }
            *budget -= 1;
            if let Some(only) = decision.only().or_else(|| going_out(game, s, &decision)) {
                let mut g = game.clone();
                g.apply(s, only).map_err(|e| e.to_string())?;
                return search(&g, seat, budget);
            }
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            let actions = decision.actions();
            let mine = if s == seat {
                own_choice(game, seat, &actions)
            } else {
                0
            };
            for (k, a) in actions.into_iter().enumerate() {
                let mut g = game.clone();
                g.apply(s, a).map_err(|e| e.to_string())?;
                let (l, h) = search(&g, seat, budget)?;
                hi = hi.max(h);
                if s != seat {
                    lo = lo.min(l);
                } else if k == mine {
                    lo = l;
                }
            }
            Ok((lo, hi))
        }
    }
}
