//! The search: sampled worlds, every surviving candidate played out in each
//! with the same chance, successive halving.

use web_time::Instant;

use arrayvec::ArrayVec;
use rand_core::Rng;
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{
    Action, AuctionItem, ChanceKind, DealChance, Decision, EventSink, Game, InfoSet, MAX_SEATS,
    NoEvents, Pending, Seat, View,
};

use super::Budget;
use super::candidates::MAX_CANDIDATES;
use super::earned::{Earned, tally};
use tripoley_game::Bot as _;

use crate::HeuristicBot;

/// What a search found.
pub(crate) struct Outcome {
    /// The candidate with the best mean.
    pub best: Action,
    /// Playouts run.
    pub playouts: u32,
    /// Each candidate that was played out, with what the seat was worth on
    /// average at the end of its playouts (chips, its share of the layout
    /// counted): why the best is best.
    pub means: ArrayVec<(Action, f64), MAX_CANDIDATES>,
    /// What each candidate brought, part by part, on average over the
    /// worlds it was played in (by index in the candidates; a verdict's
    /// reasons).
    pub earned: [Earned; MAX_CANDIDATES],
    /// With a candidate kept to the end: the first candidate's lead over
    /// it, world by world (a verdict measures its best against the move
    /// made).
    pub edge: Option<Edge>,
}

/// How far the first candidate is ahead of the kept one, measured in the
/// worlds both were played in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// The mean difference of their worths.
    pub mean: f64,
    /// Its standard error (the differences' spread over the square root of
    /// their number).
    pub std_error: f64,
    /// Worlds both were played in.
    pub worlds: u32,
}

/// Searches `cands` (two or more, all legal, the default first) at `info`'s
/// decision. `keep`, an index into `cands`, is never dropped by the halving,
/// and the outcome's `edge` measures the first candidate against it (give
/// only the two: the first may be dropped otherwise).
pub(crate) fn search(
    info: &InfoSet<'_>,
    cands: &[Action],
    keep: Option<usize>,
    rollout: Players,
    rollout_bet_limit: u32,
    budget: Budget,
    rng: &mut GameRng,
) -> Outcome {
    let seat = info.seat();
    let k = cands.len();
    debug_assert!((2..=MAX_CANDIDATES).contains(&k));
    let mut sum = [0f64; MAX_CANDIDATES];
    let mut worlds_seen = [0u32; MAX_CANDIDATES];
    let mut earned = [Earned::default(); MAX_CANDIDATES];
    let mut events = Vec::new();
    // Each candidate's lead over the kept one: sums of the differences and
    // of their squares, world by world.
    let mut lead = [(0f64, 0f64); MAX_CANDIDATES];
    let mut alive: ArrayVec<usize, MAX_CANDIDATES> = (0..k).collect();
    // ceil(log2 k) rounds, each ending by dropping the worse half.
    let rounds = (usize::BITS - (k - 1).leading_zeros()).max(1);
    let total = budget.playouts.max(k as u32);
    let start = Instant::now();
    let mut playouts = 0u32;
    let belief = Belief::of(&info.view(), rollout_bet_limit);
    'rounds: for round in 0..rounds {
        // A round plays at least one world, so a budget smaller than the
        // candidates is overdrawn by the later rounds: what is left is then 0.
        let round_budget = total.saturating_sub(playouts) / (rounds - round);
        let worlds = (round_budget / alive.len() as u32).max(1);
        for _ in 0..worlds {
            if budget
                .time
                .is_some_and(|cap| playouts > 0 && start.elapsed() >= cap)
            {
                break 'rounds;
            }
            let world = sample(info, &belief, rollout, rng);
            let seed = rng.next_u64();
            // A verdict follows the seat's chips from what it is worth here.
            let before = keep.map_or(0.0, |_| worth(&world, seat));
            // A world counts only once every survivor has been played in it.
            let mut got = [(0f64, Earned::default()); MAX_CANDIDATES];
            for (n, &i) in alive.iter().enumerate() {
                if n > 0 && budget.time.is_some_and(|cap| start.elapsed() >= cap) {
                    break 'rounds;
                }
                got[i] = if keep.is_some() {
                    // A verdict says why: the seat's chips are followed
                    // part by part.
                    events.clear();
                    let w = playout(world.clone(), seat, cands[i], rollout, seed, &mut events);
                    (w, tally(&events, seat, before, w))
                } else {
                    // Nobody reads a playout's events: the engine builds none.
                    let w = playout(world.clone(), seat, cands[i], rollout, seed, &mut NoEvents);
                    (w, Earned::default())
                };
            }
            for &i in &alive {
                sum[i] += got[i].0;
                earned[i].add(&got[i].1);
                worlds_seen[i] += 1;
                if let Some(kept) = keep {
                    let d = got[i].0 - got[kept].0;
                    lead[i].0 += d;
                    lead[i].1 += d * d;
                }
            }
            playouts += alive.len() as u32;
        }
        if round + 1 < rounds {
            // Every survivor saw the same worlds: sums compare directly.
            alive.sort_by(|&a, &b| sum[b].total_cmp(&sum[a]).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            if let Some(kept) = keep
                && !alive.contains(&kept)
            {
                *alive.last_mut().expect("a survivor") = kept;
            }
        }
    }
    let best = alive
        .iter()
        .copied()
        .max_by(|&a, &b| sum[a].total_cmp(&sum[b]).then(b.cmp(&a)))
        .expect("a candidate survives");
    let means = (0..k)
        .filter(|&i| worlds_seen[i] > 0)
        .map(|i| (cands[i], sum[i] / f64::from(worlds_seen[i])))
        .collect();
    let edge = keep.map(|_| {
        let n = f64::from(worlds_seen[0].max(1));
        let (s, s2) = lead[0];
        let mean = s / n;
        let var = if n > 1.0 {
            ((s2 - s * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Edge {
            mean,
            std_error: (var / n).sqrt(),
            worlds: worlds_seen[0],
        }
    });
    for (e, &n) in earned.iter_mut().zip(&worlds_seen) {
        *e = e.scaled(1.0 / f64::from(n.max(1)));
    }
    Outcome {
        best: cands[best],
        playouts,
        means,
        earned,
        edge,
    }
}

/// What the others' public choices say about the hidden cards, beyond the
/// deductions every sample keeps: worlds are weighed by how likely those
/// choices were in them (the heuristic standing for the player).
struct Belief {
    /// Opponents whose chips in the betting round say something about their
    /// hands, with how strongly: a world is kept with chance `p^alpha` for
    /// each, `p` being the opponent's chance to win the showdown with its
    /// sampled hand (as the heuristic reckons it). Without this, cards are
    /// dealt without regard to bets, and a searcher would call every raise
    /// as if it were a bluff.
    bettors: ArrayVec<(Seat, f32), MAX_SEATS>,
    /// The dealer whose old hand is for sale (D3d): they gave it up for an
    /// unseen one, so only worlds where they would have are kept. Without
    /// this the old hand is as good as any, and the searcher bids for a
    /// hand its dealer threw away (issue 47's check: such bids cost 3.2
    /// chips more than the verdicts said).
    gave_up: Option<Seat>,
}

impl Belief {
    fn of(view: &View, bet_limit: u32) -> Belief {
        Belief {
            bettors: bettors(view, bet_limit),
            gave_up: match view.decision {
                Some(Decision::AuctionBid {
                    item: AuctionItem::DealersOldHand,
                    ..
                }) => Some(view.dealer),
                _ => None,
            },
        }
    }

    fn is_empty(&self) -> bool {
        self.bettors.is_empty() && self.gave_up.is_none()
    }

    /// How likely the others' choices are in `world`, relative to others.
    fn weight(&self, world: &Game, bot: HeuristicBot) -> f32 {
        let given_up = self.gave_up.is_none_or(|dealer| {
            // The dealer knows the old hand (D6), which is the spare now.
            let mut then = world.view(Some(dealer));
            then.hand = then.spare_known;
            bot.would_swap(&then)
        });
        if !given_up {
            return 0.0;
        }
        self.bettors
            .iter()
            .map(|&(s, alpha)| bot.win_chance(&world.view(Some(s))).powf(alpha))
            .product()
    }
}

/// The bettors of [`Belief`].
fn bettors(view: &View, bet_limit: u32) -> ArrayVec<(Seat, f32), MAX_SEATS> {
    let mut out = ArrayVec::new();
    let Some(b) = &view.betting else {
        return out;
    };
    if !matches!(
        view.decision,
        Some(Decision::Open { .. } | Decision::Respond { .. })
    ) {
        return out;
    }
    let scale = (bet_limit as f32 / 3.0).max(1.0);
    for (s, (&c, &folded)) in b.contributed.iter().zip(&b.folded).enumerate() {
        if Some(s as Seat) != view.seat && !folded && c > 0 {
            out.push((s as Seat, (c as f32 / scale).min(4.0)));
        }
    }
    out
}

/// Tries at most this many worlds to find one the belief makes likely.
const BELIEF_TRIES: u32 = 16;

/// A world sampled from the information set, weighed by `belief` (by
/// rejection: the likeliest of the tries when none is accepted).
fn sample(info: &InfoSet<'_>, belief: &Belief, players: Players, rng: &mut GameRng) -> Game {
    let draw = |rng: &mut GameRng| {
        if players.stops_in_spare {
            info.sample_likely(rng)
        } else {
            info.sample(rng)
        }
    };
    if belief.is_empty() {
        return draw(rng);
    }
    let mut best: Option<(f32, Game)> = None;
    for _ in 0..BELIEF_TRIES {
        let g = draw(rng);
        let w = belief.weight(&g, players.bot);
        let u = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        if u < w {
            return g;
        }
        if best.as_ref().is_none_or(|(bw, _)| w > *bw) {
            best = Some((w, g));
        }
    }
    best.expect("at least one try").1
}

/// Who makes a playout's later decisions, and what they are believed to
/// have done unseen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Players {
    /// The heuristic bot (the searching seat's reads bets, see [`playout`]).
    pub bot: HeuristicBot,
    /// Whether worlds are drawn believing that nobody withheld (M9b) a card
    /// a run stopped below ([`InfoSet::sample_likely`]); the anchor expert
    /// draws them as it did until 2026-12, uniformly.
    pub stops_in_spare: bool,
    /// When above 0, every seat's later Michigan decisions with a choice
    /// (leads, follows) are made by a search of this many playouts, as an
    /// expert makes them, instead of by the heuristic: see
    /// `verdict::MICHIGAN_SEARCH`.
    pub michigan_search: u32,
}

impl Players {
    /// Heuristic bots in every seat.
    pub fn heuristic(bot: HeuristicBot) -> Players {
        Players {
            bot,
            stops_in_spare: true,
            michigan_search: 0,
        }
    }
}

/// Plays `action` in `game`, then heuristic bots to the end of the deal (or
/// of the game, when it is the last deal), telling `events` what happens;
/// returns what the seat is worth then.
///
/// The searching seat's own later decisions are made by `bot` as it is
/// (reading the opponents' bets, unless it is the anchor), the opponents'
/// by a bot that does not read bets. Issue 47: with a heuristic that
/// called bettors by its hand's odds against random hands, a strong five
/// lost more in the playouts' betting than a weak one that folds at once,
/// so the expert called full houses mistakes. Opponents that read bets, on
/// the other hand, fold to the searcher's bets in the playouts, so the
/// searcher bets into real opponents that call: against the anchor expert
/// that lost 9.4 chips a deal in pagat (600 duplicate deals).
pub(crate) fn playout(
    mut game: Game,
    seat: Seat,
    action: Action,
    players: Players,
    seed: u64,
    events: &mut impl EventSink,
) -> f64 {
    let bot = players.bot;
    let (mut own, mut others) = (bot, bot.reading_bets(false));
    game.apply_into(seat, action, events)
        .expect("candidates are legal in every sampled world");
    let mut rng = seeded_rng(seed);
    loop {
        match game.pending() {
            Pending::GameOver | Pending::Chance(ChanceKind::Deal) => break,
            Pending::Chance(_) => {
                let chance = DealChance::random(game.rules(), &mut rng);
                game.chance_into(&chance, events)
                    .expect("random chance fits the rules");
            }
            Pending::Decide { seat: s, decision } => {
                let a = match decision.only() {
                    Some(only) => only,
                    None if players.michigan_search > 0
                        && matches!(decision, Decision::Lead { .. } | Decision::Follow { .. }) =>
                    {
                        searched(&game, s, decision, players, &mut rng)
                    }
                    None if s == seat => own.act_in(&InfoSet::new(&game, s), &mut rng),
                    None => others.act_in(&InfoSet::new(&game, s), &mut rng),
                };
                game.apply_into(s, a, events)
                    .expect("the heuristic bot plays legal moves");
            }
        }
    }
    worth(&game, seat)
}

/// A seat's decision in a playout, made by a small search from what the
/// seat knows there (its own playouts heuristic throughout).
fn searched(
    game: &Game,
    seat: Seat,
    decision: Decision,
    players: Players,
    rng: &mut GameRng,
) -> Action {
    let info = InfoSet::new(game, seat);
    let view = info.view();
    let mut bot = players.bot;
    let first = bot.act(&view, rng);
    let cands = super::candidates::candidates(&view, decision, first, game.rules());
    if cands.len() < 2 {
        return first;
    }
    let inner = Players {
        michigan_search: 0,
        ..players
    };
    let budget = Budget::playouts(players.michigan_search);
    search(
        &info,
        &cands,
        None,
        inner,
        game.rules().bet_limit,
        budget,
        rng,
    )
    .best
}

/// The seat's chips, plus its share of the layout while the game goes on
/// (the chips on it will be won in later deals).
pub(crate) fn worth(game: &Game, seat: Seat) -> f64 {
    let stack = f64::from(game.stacks()[usize::from(seat)]);
    if matches!(game.pending(), Pending::GameOver) {
        return stack;
    }
    let active = (0..game.players() as Seat)
        .filter(|&s| !game.is_out(s))
        .count()
        .max(1);
    stack + f64::from(game.layout().total()) / active as f64
}
