//! Issue 31, point 1: pairs of games that differ only in a hidden fact reach
//! every viewer who may not know it (the spectator, and each seat until it
//! may know it) as the same frames: the same events,
//! grouped into the same updates, in the same order, after the same pauses,
//! until the fact is shown.
//!
//! Each game is prepared offline (deterministic seeds): game `a` is played
//! out by random bots, and its twin `b` has two cards swapped in the deck of
//! the deal, taking `a`'s decisions while they fit. The pair's deals are
//! written into the tables' storage while the server is down; after a
//! restart scripted people play both games, and every frame is compared
//! with the two cards masked.
//!
//! Kinds of hidden fact: under penalised misplays (M9b) a card withheld
//! against the same card where nobody holds it (the case issue 31 found);
//! a card in a seat's hand against the same card in the spare; a card in
//! one seat's hand against the same card in another's; a lead the leader
//! chose among two cards against the same card as their only lead (M10: the
//! leader is asked either way); under Napalm, a card of the hand's last deal
//! against one never dealt. The search is
//! bounded: a fixed number of candidates per kind; when a kind yields no
//! pair that stays hidden long enough, the next kind is tried.
//! `TRIPOLEY_PAIRS_HEAVY=1` tries more games and candidates and compares a
//! pair of every kind.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use rand_core::Rng;
use serde_json::{Value, json};
use tripoley_bots::BotKind;
use tripoley_cards::{Card, CardSet, Deck, seeded_rng};
use tripoley_engine::{
    Action, Audience, DealChance, Decision, Event, Game, Misplays, Pending, Preset, Record, Step,
};
use tripoley_game::Bot as _;
use tripoley_loadtest::client::{self, Socket};
use tripoley_napalm::{
    Audience as NapalmAudience, Event as NapalmEvent, NapalmGame, NapalmRecord, NapalmStep,
    Pending as NapalmPending, RandomNapalmBot,
};
use tripoley_server::ServerConfig;
use tripoley_server::protocol::{CreateTable, GameKind};

use super::common::{self, join};
use super::{log, revealed};

#[path = "bots.rs"]
mod bots;

/// The server's bot pause.
const PAUSE: Duration = Duration::from_millis(100);

/// The server's window at a card a person might hold (M9b): every seat of
/// these tables is a person's, so a stop, withheld or at a card in the
/// spare, comes this long after the waiting update (issue 49, defect 1).
const WINDOW: Duration = Duration::from_secs(1);

/// How long a scripted person thinks before their `k`th withhold: varied,
/// from at once to most of the window, and never as long as a bot's pause
/// (`PAUSE` to twice it), so a server that shows a withhold when it is
/// decided tells it from a stop at a card nobody holds.
fn withhold_delay(k: usize) -> Duration {
    [0, 250, 500, 750].map(Duration::from_millis)[k % 4]
}

/// How far apart two frames' gaps from the game frame before may be in the
/// two games of a pair (timers and the loopback's jitter).
const TOLERANCE: Duration = Duration::from_millis(50);

/// How long a viewer waits for the next frame before its game counts as
/// stopped.
const QUIET: Duration = Duration::from_secs(2);

/// Event numbers a pair must stay hidden for after the deal to be kept.
const LEAST_HIDDEN: usize = 6;

/// How much the search may do: games played out per preset, candidate
/// swaps per kind, pairs compared per preset.
struct Budget {
    games: u64,
    candidates: usize,
    pairs: usize,
}

fn budget() -> Budget {
    if std::env::var_os("TRIPOLEY_PAIRS_HEAVY").is_some() {
        Budget {
            games: 12,
            candidates: 60,
            pairs: 3,
        }
    } else {
        Budget {
            games: 4,
            candidates: 12,
            pairs: 2,
        }
    }
}

/// What differs between the two games of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// M9b: `a` withholds a card that `b` has where nobody holds it.
    Withheld,
    /// A card in a seat's hand in `a` is in the spare in `b`.
    HandSpare,
    /// A card in one seat's hand in `a` is in another seat's in `b`.
    HandHand,
    /// A lead `a` chooses between two cards is `b`'s only lead (the same
    /// card): the other card's suit, the leader's only card of it, is
    /// swapped for a higher card of the led suit from elsewhere.
    OnlyLead,
}

/// The kinds to try for `game`'s rules, most wanted first.
fn kinds(game: &Game) -> Vec<Kind> {
    let mut kinds = vec![Kind::OnlyLead, Kind::HandSpare, Kind::HandHand];
    if game.rules().misplays == Misplays::Penalised {
        kinds.insert(0, Kind::Withheld);
    }
    kinds
}

/// The cards withheld in `ev`.
fn withheld(ev: &[Event]) -> Vec<Card> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Withheld { card, .. } => Some(*card),
            _ => None,
        })
        .collect()
}

/// `dealt` (a table's rules and names) played out from its first step by
/// random bots, chance drawn from `seed`; under M9b a card is withheld a
/// third of the times it may be, so that both withholds and stops at cards
/// nobody holds come up.
fn game_a(dealt: &Record, seed: u64) -> Record {
    let mut record = Record {
        steps: Vec::new(),
        ..dealt.clone()
    };
    let mut ev = Vec::new();
    let mut game = record.start(&mut ev).unwrap();
    let mut rng = seeded_rng(seed);
    let mut bots: Vec<_> = (0..record.names.len())
        .map(|_| BotKind::Random.make(game.rules()))
        .collect();
    loop {
        let step = match game.pending() {
            Pending::Chance(_) => Step::Chance(DealChance::random(game.rules(), &mut rng)),
            Pending::Decide { seat, .. }
                if game.check(seat, Action::Withhold).is_ok() && rng.next_u32() % 3 == 0 =>
            {
                Step::Act {
                    seat,
                    action: Action::Withhold,
                }
            }
            Pending::Decide { seat, .. } => Step::Act {
                seat,
                action: bots[usize::from(seat)].act(&game.view(Some(seat)), &mut rng),
            },
            Pending::GameOver => return record,
        };
        game.step(&step, &mut ev).unwrap();
        record.steps.push(step);
    }
}

/// The index of `record`'s last chance step before its first decision (or
/// its last, when nobody had to decide): the deal the pairs differ in.
fn deal_step(record: &Record) -> usize {
    let first_act = record
        .steps
        .iter()
        .position(|s| matches!(s, Step::Act { .. }))
        .unwrap_or(record.steps.len());
    first_act.checked_sub(1).expect("a deal")
}

/// Game `a` with `c1` and `c2` swapped in its deal, taking `a`'s decisions
/// while they fit: `a`'s withhold of `c1` is dropped (in the twin nobody
/// holds it, and its run stops by itself), and where a run waits for `c2`
/// in the twin (where `a` has nobody holding it) its holder withholds it.
/// The twin stops before the first step after which the games part in
/// public: the events everyone sees (the two cards masked), in order, or
/// who decides next. So the pair asks the same decisions (a misplay
/// penalised in one game only tells by the rules themselves), and only the
/// server's framing can tell them apart. An engine that made a lead with
/// one card by itself would have led `a`'s chosen card in the twin's step
/// before, with no turn: the twin then skips `a`'s lead, so that such an
/// engine fails the comparison rather than the search.
fn twin(a: &Record, c1: Card, c2: Card) -> Record {
    let deal = deal_step(a);
    let mut b = a.clone();
    b.steps.truncate(deal + 1);
    let Step::Chance(chance) = &mut b.steps[deal] else {
        panic!("step {deal} deals")
    };
    let mut cards = chance.deck.cards().to_vec();
    let at = |card: Card| cards.iter().position(|&x| x == card).unwrap();
    let (first, second) = (at(c1), at(c2));
    cards.swap(first, second);
    chance.deck = Deck::from_cards(&cards).unwrap();
    let mut ev = Vec::new();
    let mut game = b.start(&mut ev).unwrap();
    let mut game_a = game.clone();
    for (step, step_a) in b.steps.iter().zip(&a.steps) {
        game.step(step, &mut ev).unwrap();
        game_a.step(step_a, &mut ev).unwrap();
    }
    let mask = |ev: &[Event]| -> Vec<String> {
        ev.iter()
            .filter(|e| e.audience() == Audience::Everyone)
            .map(|e| {
                let mut text = serde_json::to_string(e).unwrap();
                for c in [c1, c2] {
                    text = text.replace(&format!("\"{c}\""), "\"??\"");
                }
                text
            })
            .collect()
    };
    let (mut public_a, mut public_b) = (Vec::new(), Vec::new());
    // `a`'s step whose lead the twin's engine made by itself, one before.
    let mut led_by_itself = None;
    for (k, step) in a.steps.iter().enumerate().skip(deal + 1) {
        let mut ev_a = Vec::new();
        game_a.step(step, &mut ev_a).unwrap();
        public_a.extend(mask(&ev_a));
        let all = withheld(&ev_a);
        let wanted: Vec<Card> = all.iter().copied().filter(|&c| c != c1).collect();
        if wanted.is_empty() && all.contains(&c1) {
            continue;
        }
        // The step as it is, or after the twin's holder withholds `c2`.
        let fits = |pre: Option<Step>| {
            let mut next = game.clone();
            let mut ev_b = Vec::new();
            let mut taken = Vec::new();
            for s in pre.iter().chain([step]) {
                next.step(s, &mut ev_b).ok()?;
                taken.push(s.clone());
            }
            let expected: Vec<Card> = pre.map(|_| c2).into_iter().chain(wanted.clone()).collect();
            (withheld(&ev_b) == expected).then_some((next, taken, ev_b))
        };
        let withhold = match game.pending() {
            Pending::Decide { seat, .. } if game.check(seat, Action::Withhold).is_ok() => {
                Some(Step::Act {
                    seat,
                    action: Action::Withhold,
                })
            }
            _ => None,
        };
        let skip = (led_by_itself == Some(k)).then(|| (game.clone(), Vec::new(), Vec::new()));
        let Some((next, taken, ev_b)) = skip
            .or_else(|| fits(None))
            .or_else(|| withhold.and_then(|w| fits(Some(w))))
        else {
            break;
        };
        led_by_itself = lead_made_before(a.steps.get(k + 1), &ev_b).map(|_| k + 1);
        let mut public = public_b.clone();
        public.extend(mask(&ev_b));
        let (short, long) = if public.len() <= public_a.len() {
            (&public, &public_a)
        } else {
            (&public_a, &public)
        };
        // Who decides next, in both games, once `a` has withheld `c1` and
        // the twin's holder of `c2` has withheld it (the next step).
        let a_withholds_c1 = a.steps.get(k + 1).is_some_and(|s| {
            let mut ev = Vec::new();
            game_a.clone().step(s, &mut ev).is_ok() && withheld(&ev) == [c1]
        });
        let b_withholds_c2 = matches!(next.pending(), Pending::Decide { seat, .. }
            if next.check(seat, Action::Withhold).is_ok());
        let decider = |g: &Game| match g.pending() {
            Pending::Decide { seat, .. } => Some(seat),
            _ => None,
        };
        if !long.starts_with(short)
            || !(a_withholds_c1
                || b_withholds_c2
                || led_by_itself.is_some()
                || decider(&next) == decider(&game_a))
        {
            break;
        }
        public_b = public;
        game = next;
        b.steps.extend(taken);
    }
    b
}

/// The card `next` (game `a`'s next step) leads, if the twin's engine
/// already led it by itself among `ev_b`, with no turn.
fn lead_made_before(next: Option<&Step>, ev_b: &[Event]) -> Option<Card> {
    match next {
        Some(Step::Act {
            action: Action::Lead(card),
            ..
        }) if ev_b
            .iter()
            .any(|e| matches!(e, Event::Led { card: c, .. } if c == card)) =>
        {
            Some(*card)
        }
        _ => None,
    }
}

/// The event number of the first entry of `record`'s step `k` (its
/// length if `k` is past the end).
fn entry_of_step(record: &Record, k: usize) -> usize {
    let prefix = Record {
        steps: record.steps[..k.min(record.steps.len())].to_vec(),
        ..record.clone()
    };
    log(&prefix).len()
}

/// The event number where `record`'s next chance after its first deal
/// comes (a final pot's deck), or its log's length.
fn next_deal(record: &Record) -> usize {
    let deal = deal_step(record);
    let next = record.steps[deal + 1..]
        .iter()
        .position(|s| matches!(s, Step::Chance(_)))
        .map_or(record.steps.len(), |k| deal + 1 + k);
    entry_of_step(record, next)
}

/// Where a card's place becomes known: unlike `revealed`, a run's stop
/// names its next card without saying who holds it.
fn placed(e: &Event) -> CardSet {
    match e {
        Event::RunStopped { .. } => CardSet::EMPTY,
        _ => revealed(e),
    }
}

/// For a game's log: the first event number at which `cards`' place is
/// shown, and for each seat the first at which it held one of them (a
/// dealer learns the spare when swapping for it, a buyer when buying it),
/// `usize::MAX` if it did not before then.
fn hidden_until(log: &[(Vec<Event>, Game)], cards: CardSet) -> (usize, Vec<usize>) {
    let mut knew = vec![usize::MAX; log[0].1.players()];
    for (k, (ev, game)) in log.iter().enumerate() {
        if ev.iter().any(|e| !(placed(e) & cards).is_empty()) {
            return (k, knew);
        }
        for (seat, hand) in game.card_locations().0.iter().enumerate() {
            if !(*hand & cards).is_empty() {
                knew[seat] = knew[seat].min(k);
            }
        }
    }
    (log.len(), knew)
}

/// Two games that differ in where two cards lie, compared before event
/// number `cut` by the spectator, and by each seat before it held one of
/// them (`knew`: from which event number it may know).
struct Pair {
    kind: Kind,
    a: Record,
    b: Record,
    cards: (Card, Card),
    cut: usize,
    knew: Vec<usize>,
}

/// A pair ready to play, of either game: what differs (in words), the two
/// cards, where the comparison stops (as in [`Pair`]), each game's steps
/// up to its deal (to store) and each seat's script in each game.
struct Ready {
    what: String,
    cards: (Card, Card),
    cut: usize,
    knew: Vec<usize>,
    stored: [Vec<String>; 2],
    scripts: [Vec<Script>; 2],
}

impl Pair {
    fn ready(&self) -> Ready {
        let stored = |r: &Record| {
            r.steps[..=deal_step(r)]
                .iter()
                .map(|s| serde_json::to_string(s).unwrap())
                .collect()
        };
        Ready {
            what: format!("{:?}", self.kind),
            cards: self.cards,
            cut: self.cut,
            knew: self.knew.clone(),
            stored: [stored(&self.a), stored(&self.b)],
            scripts: [scripts(&self.a, self.cut), scripts(&self.b, self.cut)],
        }
    }
}

/// Each lead in a game's log before event number `cut`, in order: the
/// card, the seat's lead options when it was asked (`None`: the engine led
/// it with no turn), and the game just before.
fn leads(log: &[(Vec<Event>, Game)], cut: usize) -> Vec<(Card, Option<CardSet>, &Game)> {
    let mut out = Vec::new();
    for (j, pair) in log.windows(2).enumerate().take(cut.saturating_sub(1)) {
        let [(_, before), (ev, _)] = pair else {
            unreachable!("windows of two")
        };
        let asked = match before.pending() {
            Pending::Decide {
                decision: Decision::Lead { cards },
                ..
            } => Some(cards),
            _ => None,
        };
        let mut first = true;
        for e in ev {
            if let Event::Led { card, .. } = e {
                let own = asked.filter(|c| first && c.contains(*card));
                out.push((*card, own, &log[j].1));
                first = false;
            }
        }
    }
    out
}

/// Whether the same lead (the `i`-th of both games, before `cut`) is the
/// leader's only lead in one game and chosen in the other.
fn only_in_one(log_a: &[(Vec<Event>, Game)], log_b: &[(Vec<Event>, Game)], cut: usize) -> bool {
    let only = |options: Option<CardSet>| options.is_none_or(|c| c.len() == 1);
    leads(log_a, cut)
        .iter()
        .zip(&leads(log_b, cut))
        .any(|(x, y)| x.0 == y.0 && only(x.1) != only(y.1))
}

/// The candidate swaps of `kind` in `a`'s deal, at most `bound`, chosen by
/// `seed`: (the card that moves in `a`'s twin, the card it swaps with).
fn candidates(a: &Record, kind: Kind, bound: usize, seed: u64) -> Vec<(Card, Card)> {
    let (game, _) = Record {
        steps: a.steps[..=deal_step(a)].to_vec(),
        ..a.clone()
    }
    .replay()
    .unwrap();
    let (hands, spare, _) = game.card_locations();
    let mut all = Vec::new();
    match kind {
        Kind::Withheld => {
            let withheld: CardSet = log(a).iter().flat_map(|(ev, _)| withheld(ev)).collect();
            for c1 in withheld {
                all.extend(spare.into_iter().map(|c2| (c1, c2)));
            }
        }
        Kind::HandSpare => {
            for hand in &hands {
                for c1 in *hand {
                    all.extend(spare.into_iter().map(|c2| (c1, c2)));
                }
            }
        }
        Kind::OnlyLead => {
            // A lead chosen between the led card and one other, the
            // leader's only card of its suit: that card against a higher
            // card of the led suit held by another seat or in the spare.
            for (led, options, before) in leads(&log(a), usize::MAX) {
                let Some(options) = options.filter(|o| o.len() == 2) else {
                    continue;
                };
                let other = (options - CardSet::from(led))
                    .lowest()
                    .expect("two options");
                let (hands, spare, _) = before.card_locations();
                let Some(leader) = hands.iter().position(|h| h.contains(led)) else {
                    continue;
                };
                if hands[leader].count_suit(other.suit()) != 1 {
                    continue;
                }
                let elsewhere = hands
                    .iter()
                    .enumerate()
                    .filter(|&(s, _)| s != leader)
                    .fold(spare, |all, (_, h)| all | *h);
                all.extend(
                    (elsewhere & CardSet::suit(led.suit()))
                        .into_iter()
                        .filter(|c| c.rank() > led.rank())
                        .map(|c2| (other, c2)),
                );
            }
        }
        Kind::HandHand => {
            for (i, x) in hands.iter().enumerate() {
                for y in &hands[i + 1..] {
                    for c1 in *x {
                        all.extend(y.into_iter().map(|c2| (c1, c2)));
                    }
                }
            }
        }
    }
    // A seeded shuffle, then the first `bound`.
    let mut rng = seeded_rng(seed);
    for i in (1..all.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        all.swap(i, j);
    }
    all.truncate(bound);
    all
}

/// The pair of `kind` for game `a` whose cards stay hidden longest, among
/// at most `bound` candidates; none if no candidate stays hidden
/// `LEAST_HIDDEN` event numbers after the deal (or to the end), or ( for `Withheld`, none
/// has `a` withhold its card while hidden).
fn pair(a: &Record, kind: Kind, bound: usize, seed: u64) -> Option<Pair> {
    let log_a = log(a);
    let dealt = Record {
        steps: a.steps[..=deal_step(a)].to_vec(),
        ..a.clone()
    };
    // A game with no decision (possible under `cosmo`) has nothing after
    // its deal: its pair must stay hidden to the end.
    let least = (log(&dealt).len() + LEAST_HIDDEN).min(log_a.len());
    let mut best: Option<Pair> = None;
    for (c1, c2) in candidates(a, kind, bound, seed) {
        let b = twin(a, c1, c2);
        let cards = CardSet::from(c1) | CardSet::from(c2);
        let log_b = log(&b);
        let (cut_a, knew_a) = hidden_until(&log_a, cards);
        let (cut_b, knew_b) = hidden_until(&log_b, cards);
        // Frames are compared while the twin follows `a`, and before the
        // next deal (the server shuffles it).
        let cut = cut_a.min(cut_b).min(log_b.len()).min(next_deal(a));
        let withholds = log_a[..cut]
            .iter()
            .any(|(ev, _)| withheld(ev).contains(&c1));
        if cut < least
            || (kind == Kind::Withheld && !withholds)
            || (kind == Kind::OnlyLead && !only_in_one(&log_a, &log_b, cut))
            || best.as_ref().is_some_and(|p| p.cut >= cut)
        {
            continue;
        }
        let knew = knew_a
            .iter()
            .zip(&knew_b)
            .map(|(x, y)| (*x).min(*y).min(cut))
            .collect();
        best = Some(Pair {
            kind,
            a: a.clone(),
            b,
            cards: (c1, c2),
            cut,
            knew,
        });
    }
    best
}

/// Up to `budget.pairs` pairs for a table whose rules and names `dealt`
/// has, a kind each, trying the kinds in turn and each kind on a few games.
fn pairs_for(dealt: &Record, salt: u64, budget: &Budget) -> Vec<Pair> {
    let (game, _) = Record {
        steps: Vec::new(),
        ..dealt.clone()
    }
    .replay()
    .unwrap();
    let games: Vec<Record> = (0..budget.games)
        .map(|g| game_a(dealt, salt * 1000 + g))
        .collect();
    let mut found = Vec::new();
    for kind in kinds(&game) {
        if found.len() == budget.pairs {
            break;
        }
        let best = games
            .iter()
            .enumerate()
            .filter_map(|(g, a)| pair(a, kind, budget.candidates, salt * 1000 + g as u64))
            .max_by_key(|p| p.cut);
        found.extend(best);
    }
    found
}

/// Each viewer's frames with when they came: seats 0.., then the spectator.
type Seen = Vec<Vec<(Instant, Value)>>;

/// A scripted person's actions, in order, as the protocol writes them,
/// each with whether a pause comes before it (a withhold).
type Script = VecDeque<(Value, bool)>;

/// A viewer's frames until the one numbered `last` (or a silence of
/// `QUIET`), playing `script` when its view holds a decision.
async fn frames_until(
    mut sock: Socket,
    welcome: Value,
    mut script: Script,
    last: u64,
) -> Vec<(Instant, Value)> {
    let mut seen = vec![(Instant::now(), welcome)];
    let mut acted = None;
    let mut withholds = 0;
    // A game that goes quiet before `last` (its numbering is not the
    // test's) ends the viewer's frames: the comparison tells what differs.
    while let Ok(msg) = sock.recv_timeout(QUIET).await {
        seen.push((Instant::now(), msg.clone()));
        if !matches!(msg["type"].as_str(), Some("update" | "state")) {
            continue;
        }
        let n = msg["n"].as_u64().expect("numbered");
        if n >= last {
            break;
        }
        if msg["view"]["decision"].is_null() || acted == Some(n) {
            continue;
        }
        let Some((action, pause)) = script.pop_front() else {
            continue;
        };
        if pause {
            tokio::time::sleep(withhold_delay(withholds)).await;
            withholds += 1;
        }
        acted = Some(n);
        let act =
            json!({"type": "act", "action": action, "id": n, "seat": msg["view"]["seat"], "n": n});
        sock.send_text(&act.to_string()).await.unwrap();
    }
    sock.close().await;
    seen
}

/// Plays `scripts` (each seat's) at the table `t`, with a spectator;
/// returns every viewer's frames up to event number `cut`.
async fn play_scripted(
    addr: SocketAddr,
    t: &common::Table,
    mut scripts: Vec<Script>,
    cut: usize,
) -> Seen {
    let last = cut as u64 - 1;
    // Everyone is there before anyone acts, so everyone's first state has
    // the same number.
    let mut joined = Vec::new();
    for (seat, token) in &t.tokens {
        let script = std::mem::take(&mut scripts[usize::from(*seat)]);
        joined.push((join(addr, &t.invite, Some(token), None).await, script));
    }
    joined.push((join(addr, &t.invite, None, None).await, VecDeque::new()));
    let seats: Vec<_> = joined
        .into_iter()
        .map(|((sock, welcome), script)| tokio::spawn(frames_until(sock, welcome, script, last)))
        .collect();
    let mut all = Vec::new();
    for s in seats {
        all.push(s.await.unwrap());
    }
    all
}

/// Each seat's script: `record`'s actions that come before event number
/// `cut`.
fn scripts(record: &Record, cut: usize) -> Vec<Script> {
    let steps = (0..=record.steps.len())
        .find(|&k| entry_of_step(record, k) >= cut)
        .expect("the cut is within the game");
    let mut scripts = vec![Script::new(); record.names.len()];
    for step in &record.steps[..steps] {
        if let Step::Act { seat, action } = step {
            let json = serde_json::to_value(action).unwrap();
            scripts[usize::from(*seat)].push_back((json, *action == Action::Withhold));
        }
    }
    scripts
}

/// What a viewer's frame says, with the pair's two cards masked (and the
/// milliseconds of its own clock only set or not: the viewer's own window,
/// as long in either game), and its gap from the game frame before (`None`
/// for the first). Frames about who is connected or chatting are no card's
/// business and are left out.
fn shape(
    seen: &[(Instant, Value)],
    cards: (Card, Card),
    cut: usize,
) -> Vec<(String, Option<Duration>)> {
    let mut out = Vec::new();
    // When the frame before came: a frame left out (who is connected, say)
    // is not the game's, and a gap measured from it says nothing.
    let mut before: Option<Instant> = None;
    for (at, msg) in seen {
        if msg["n"].as_u64().is_some_and(|n| n >= cut as u64)
            || matches!(
                msg["type"].as_str(),
                Some("welcome" | "table" | "pong" | "chat" | "chat_history")
            )
        {
            continue;
        }
        // Who is connected is no card's business either.
        let mut msg = msg.clone();
        if let Some(m) = msg.as_object_mut() {
            m.remove("table");
        }
        if let Some(ms) = msg.pointer_mut("/turn/ms")
            && !ms.is_null()
        {
            *ms = json!("set");
        }
        let mut text = msg.to_string();
        for c in [cards.0, cards.1] {
            text = text.replace(&format!("\"{c}\""), "\"??\"");
        }
        let gap = before.map(|b| at.duration_since(b));
        before = Some(*at);
        out.push((text, gap));
    }
    out
}

/// A frame in words: its kind, number and events.
fn words(text: &str) -> String {
    let msg: Value = serde_json::from_str(text).unwrap();
    let events: Vec<&str> = msg["events"]
        .as_array()
        .into_iter()
        .chain(
            msg["log"]
                .as_array()
                .into_iter()
                .flat_map(|l| l.iter().map(|e| &e["events"]))
                .filter_map(Value::as_array),
        )
        .flatten()
        .filter_map(|e| e["event"].as_str())
        .collect();
    format!(
        "{} {} with events [{}]",
        msg["type"],
        msg["n"],
        events.join(", ")
    )
}

/// Where two texts part, with some of what comes before and after.
fn parting(a: &str, b: &str) -> (String, String) {
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let around = |t: &str| {
        let (from, to) = (at.saturating_sub(120), (at + 80).min(t.len()));
        String::from_utf8_lossy(&t.as_bytes()[from..to]).into_owned()
    };
    (around(a), around(b))
}

/// The first difference between what viewer `v` saw of the pair's two
/// games before it may know the hidden fact, in words, and whether it is
/// only in when a frame came (`None` if they look the same); with the
/// number of frames compared.
fn difference(
    p: &Ready,
    v: usize,
    fa: &[(Instant, Value)],
    fb: &[(Instant, Value)],
) -> (Option<(bool, String)>, usize) {
    let viewer = if v == p.knew.len() {
        "the spectator".to_owned()
    } else {
        format!("seat {v}")
    };
    let what = format!(
        "{} ({} in game a where game b has {}, hidden before event {})",
        p.what, p.cards.0, p.cards.1, p.cut
    );
    let cut = p.knew.get(v).copied().unwrap_or(p.cut);
    let (sa, sb) = (shape(fa, p.cards, cut), shape(fb, p.cards, cut));
    (first_difference(&what, &viewer, &sa, &sb), sa.len())
}

/// The first difference between the frames a viewer saw of each game, in
/// words, and whether it is only in timing.
fn first_difference(
    what: &str,
    viewer: &str,
    sa: &[(String, Option<Duration>)],
    sb: &[(String, Option<Duration>)],
) -> Option<(bool, String)> {
    for ((ta, ca), (tb, cb)) in sa.iter().zip(sb) {
        if ta != tb {
            let (pa, pb) = parting(ta, tb);
            return Some((
                false,
                format!(
                    "{what}: {viewer} sees game a's {} but game b's {}\n  a: ...{pa}...\n  b: ...{pb}...",
                    words(ta),
                    words(tb)
                ),
            ));
        }
        if let (Some(ca), Some(cb)) = (ca, cb)
            && ca.abs_diff(*cb) > TOLERANCE
        {
            return Some((
                true,
                // The first line names the difference (the same in another
                // run, where a real tell comes back); the second its size.
                format!(
                    "{what}: {viewer} sees {} after another gap in each game\n  game a: {} ms after the frame before, game b: {} ms",
                    words(ta),
                    ca.as_millis(),
                    cb.as_millis()
                ),
            ));
        }
    }
    (sa.len() != sb.len()).then(|| {
        let text = format!(
            "{what}: {viewer} got {} frames in game a, {} in game b",
            sa.len(),
            sb.len()
        );
        (false, text)
    })
}

/// What a run of the pairs found.
struct Compared {
    /// Each viewer's first difference, and whether it is only in timing.
    differences: Vec<(bool, String)>,
    /// Refusals of scripted actions.
    errors: Vec<String>,
    /// Frames compared.
    frames: usize,
    /// Pairs of the kind `OnlyLead` compared.
    only_leads: usize,
}

/// Writes each table's steps (JSON) into the database `db` of a server
/// that is down, in place of those it stored.
fn store<'a>(db: &Path, tables: impl IntoIterator<Item = (&'a str, &'a [String])>) {
    let conn = rusqlite::Connection::open(db).unwrap();
    for (invite, steps) in tables {
        conn.execute("DELETE FROM steps WHERE invite = ?1", [invite])
            .unwrap();
        for (i, step) in steps.iter().enumerate() {
            conn.execute(
                "INSERT INTO steps (invite, idx, step) VALUES (?1, ?2, ?3)",
                rusqlite::params![invite, i, step],
            )
            .unwrap();
        }
    }
}

/// Prepares every preset's pairs, plays them at a server and compares
/// what each viewer who may not know the hidden fact saw.
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
async fn compare_pairs(budget: &Budget) -> Compared {
    let db = common::temp_db("leak-pairs");
    let config = ServerConfig {
        db: db.clone().into(),
        bot_delay: PAUSE,
        withhold_window: WINDOW,
        grace: Duration::from_secs(120),
        rate_burst: 10_000,
        rate_per_second: 10_000,
        max_connections_per_address: 10_000,
        max_tables_per_address: 10_000,
        ..ServerConfig::ephemeral()
    };
    // Each preset's tables, dealt by the server, then rewritten with the
    // pairs' deals while it is down.
    let server = tripoley_server::start(config.clone()).await.unwrap();
    let addr = server.addr();
    let request = |game, preset| CreateTable {
        game: Some(game),
        preset,
        seats: Some(4),
        deals: preset.map(|_| 1),
        turn_seconds: Some(0),
        ..CreateTable::default()
    };
    let mut tables = Vec::new();
    let games = Preset::ALL
        .map(|p| (p.to_string(), request(GameKind::Tripoley, Some(p))))
        .into_iter()
        .chain([("napalm".to_owned(), request(GameKind::Napalm, None))]);
    for (name, req) in games {
        let mut ts = Vec::new();
        for _ in 0..budget.pairs * 2 {
            let t = common::table_from(addr, &req, &[0, 1, 2, 3]).await;
            client::start_table(addr, &t.invite, &t.host_token)
                .await
                .unwrap();
            ts.push(t);
        }
        tables.push((name, ts));
    }
    let mut games = Vec::new();
    let mut only_leads = 0;
    for (salt, (name, ts)) in tables.into_iter().enumerate() {
        let salt = salt as u64;
        let found: Vec<Ready> = if name == "napalm" {
            let dealt = loop {
                if let Some(r) = server.napalm_record(&ts[0].invite).await
                    && !r.steps.is_empty()
                {
                    break r;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            napalm_pairs(&dealt, salt, budget)
        } else {
            let dealt = loop {
                if let Some(r) = server.record(&ts[0].invite).await
                    && !r.steps.is_empty()
                {
                    break r;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            let found = pairs_for(&dealt, salt, budget);
            if kinds(&dealt.replay().unwrap().0).contains(&Kind::Withheld) {
                assert_eq!(
                    found.first().map(|p| p.kind),
                    Some(Kind::Withheld),
                    "{name}: a withhold pair"
                );
            }
            found.iter().map(Pair::ready).collect()
        };
        assert!(!found.is_empty(), "{name}: no pair within the bound");
        only_leads += found
            .iter()
            .filter(|p| p.what == format!("{:?}", Kind::OnlyLead))
            .count();
        let mut ts = ts.into_iter();
        for p in found {
            games.push((name.clone(), ts.next().unwrap(), ts.next().unwrap(), p));
        }
    }
    server.kill().await;
    store(
        &db,
        games.iter().flat_map(|(_, ta, tb, p)| {
            [ta, tb]
                .into_iter()
                .zip(&p.stored)
                .map(|(t, steps)| (t.invite.as_str(), steps.as_slice()))
        }),
    );
    let server = tripoley_server::start(config).await.unwrap();
    let addr = server.addr();
    let mut runs = Vec::new();
    for (preset, ta, tb, mut p) in games {
        runs.push(tokio::spawn(async move {
            let [sa, sb] = std::mem::take(&mut p.scripts);
            let (seen_a, seen_b) = tokio::join!(
                play_scripted(addr, &ta, sa, p.cut),
                play_scripted(addr, &tb, sb, p.cut)
            );
            (preset, p, seen_a, seen_b)
        }));
    }
    let mut compared = 0;
    let mut differences = Vec::new();
    let mut errors = Vec::new();
    for run in runs {
        let (preset, p, seen_a, seen_b) = run.await.unwrap();
        for (v, (fa, fb)) in seen_a.iter().zip(&seen_b).enumerate() {
            errors.extend(
                fa.iter()
                    .chain(fb)
                    .filter(|f| f.1["type"] == "error")
                    .map(|f| format!("{preset}: {}", f.1)),
            );
            let (told, frames) = difference(&p, v, fa, fb);
            differences.extend(told.map(|(timing, d)| (timing, format!("{preset}: {d}"))));
            compared += frames;
        }
    }
    server.shutdown().await;
    common::remove_db(&db);
    Compared {
        differences,
        errors,
        frames: compared,
        only_leads,
    }
}

/// Issue 31, point 1 (M9b, D6, M10): for every preset, pairs of games that
/// differ only in where a card lies (withheld against held by nobody, in a
/// hand against in the spare, in one hand against another, a lead chosen
/// against the same lead made with no other choice) reach every
/// viewer who may not know it as the same frames (the same events, grouped
/// into the same updates, in the same order, after the same pauses) until
/// the card's place is shown.
///
/// A frame late by a pause under a loaded machine looks like a timing tell:
/// a difference only in timing counts when the same one comes back in two
/// more runs (a real tell does each time; CI's other tests load the machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn m9b_d6_games_that_differ_in_a_hidden_card_look_the_same_to_those_who_may_not_know() {
    let _alone = super::ONE_AT_A_TIME.lock().await;
    let budget = budget();
    let mut run = compare_pairs(&budget).await;
    for _ in 0..2 {
        if run.differences.is_empty() || !run.differences.iter().all(|(timing, _)| *timing) {
            break;
        }
        eprintln!(
            "told apart only by timing, run again: {}",
            run.differences[0].1
        );
        let first_line = |d: &str| d.lines().next().unwrap_or_default().to_owned();
        let earlier: Vec<String> = run.differences.iter().map(|(_, d)| first_line(d)).collect();
        run = compare_pairs(&budget).await;
        run.differences
            .retain(|(timing, d)| !*timing || earlier.contains(&first_line(d)));
    }
    let told: Vec<&str> = run.differences.iter().map(|(_, d)| d.as_str()).collect();
    assert!(
        told.is_empty(),
        "{} viewers told apart; the first:\n{}",
        told.len(),
        told[..told.len().min(3)].join("\n")
    );
    assert!(run.errors.is_empty(), "the scripts fit: {:?}", run.errors);
    assert!(run.frames > 100, "{} frames compared", run.frames);
    assert!(run.only_leads > 0, "a pair parts on an only lead");
}

// Napalm (N7): a card dealt in the hand's last round against one never
// dealt. Nobody knows it before that round's deal, not even the seat it
// goes to; then only that seat, and those it is compared with.

/// A Napalm step applied to `game`: its events.
fn napalm_step(game: &mut NapalmGame, step: &NapalmStep) -> Option<Vec<NapalmEvent>> {
    match step {
        NapalmStep::Deck(d) => game.deal(d),
        NapalmStep::Act { seat, action } => game.apply(*seat, *action),
    }
    .ok()
}

/// The first hand of a game with `dealt`'s rules and names: a deck from
/// `seed`, random bots; it stops before the next hand's deck (the server
/// shuffles that one).
fn napalm_a(dealt: &NapalmRecord, seed: u64) -> NapalmRecord {
    let mut record = NapalmRecord {
        steps: Vec::new(),
        ..dealt.clone()
    };
    let mut game =
        NapalmGame::start(record.rules.clone(), record.names.len(), &mut Vec::new()).unwrap();
    let mut rng = seeded_rng(seed);
    loop {
        let step = match game.pending() {
            NapalmPending::Deck if record.steps.is_empty() => {
                NapalmStep::Deck(Deck::shuffled(&mut rng))
            }
            NapalmPending::Decide { seat, .. } => NapalmStep::Act {
                seat,
                action: RandomNapalmBot.act(&game.view(Some(seat)), &mut rng),
            },
            _ => return record,
        };
        napalm_step(&mut game, &step).unwrap();
        record.steps.push(step);
    }
}

/// Each entry of a Napalm game's log (the start's, then one per step).
fn napalm_log(record: &NapalmRecord) -> Vec<Vec<NapalmEvent>> {
    let mut start = Vec::new();
    let mut game = NapalmGame::start(record.rules.clone(), record.names.len(), &mut start).unwrap();
    let mut log = vec![start];
    for step in &record.steps {
        match napalm_step(&mut game, step) {
            Some(ev) => log.push(ev),
            None => break,
        }
    }
    log
}

/// Up to `budget.pairs` Napalm pairs: a card of the last round's deal
/// swapped with an undealt one, the same declarations made while they fit
/// and the public events stay the same.
fn napalm_pairs(dealt: &NapalmRecord, salt: u64, budget: &Budget) -> Vec<Ready> {
    let mut found = Vec::new();
    for g in 0..budget.games {
        if found.len() == budget.pairs {
            break;
        }
        let a = napalm_a(dealt, salt * 1000 + g);
        let log_a = napalm_log(&a);
        let dealt_in = |log: &[Vec<NapalmEvent>]| -> Vec<(usize, CardSet)> {
            log.iter()
                .enumerate()
                .filter_map(|(k, ev)| {
                    let cards: CardSet = ev
                        .iter()
                        .filter_map(|e| match e {
                            NapalmEvent::Dealt { cards, .. } => Some(*cards),
                            _ => None,
                        })
                        .fold(CardSet::EMPTY, |x, y| x | y);
                    (!cards.is_empty()).then_some((k, cards))
                })
                .collect()
        };
        let deals = dealt_in(&log_a);
        let Some(&(_, last)) = deals.last() else {
            continue;
        };
        let all_dealt = deals.iter().fold(CardSet::EMPTY, |x, (_, c)| x | *c);
        let NapalmStep::Deck(deck) = &a.steps[0] else {
            panic!("a deck first")
        };
        let undealt: Vec<Card> = deck
            .cards()
            .iter()
            .copied()
            .filter(|c| !all_dealt.contains(*c))
            .collect();
        let (Some(c1), Some(&c2)) = (
            last.into_iter().nth(g as usize % 2),
            undealt.get(g as usize),
        ) else {
            continue;
        };
        let mut cards = deck.cards().to_vec();
        let (i, j) = (
            cards.iter().position(|&x| x == c1).unwrap(),
            cards.iter().position(|&x| x == c2).unwrap(),
        );
        cards.swap(i, j);
        let mut b = a.clone();
        b.steps[0] = NapalmStep::Deck(Deck::from_cards(&cards).unwrap());
        let log_b = napalm_log(&b);
        let both = CardSet::from(c1) | CardSet::from(c2);
        let public = |ev: &[NapalmEvent]| -> Vec<String> {
            ev.iter()
                .filter(|e| e.audience() == NapalmAudience::Everyone)
                .map(|e| serde_json::to_string(e).unwrap())
                .collect()
        };
        let cut = log_a
            .iter()
            .zip(&log_b)
            .position(|(x, y)| public(x) != public(y))
            .unwrap_or(log_a.len().min(log_b.len()));
        let knew = napalm_knew([&log_a, &log_b], both, cut, a.names.len());
        let steps = cut.saturating_sub(1).min(a.steps.len());
        let script = |r: &NapalmRecord| {
            let mut scripts = vec![Script::new(); r.names.len()];
            for step in &r.steps[..steps] {
                if let NapalmStep::Act { seat, action } = step {
                    scripts[usize::from(*seat)]
                        .push_back((serde_json::to_value(action).unwrap(), false));
                }
            }
            scripts
        };
        let first = |r: &NapalmRecord| vec![serde_json::to_string(&r.steps[0]).unwrap()];
        if cut > deals[0].0 + LEAST_HIDDEN.min(2) {
            found.push(Ready {
                what: "Undealt".into(),
                cards: (c1, c2),
                cut,
                knew,
                stored: [first(&a), first(&b)],
                scripts: [script(&a), script(&b)],
            });
        }
    }
    found
}

/// From which event number each seat may know where `both` lie, in either
/// game's log (`cut` if not before then): the seat dealt one of them, and
/// those shown it in a comparison (N7).
fn napalm_knew(
    logs: [&[Vec<NapalmEvent>]; 2],
    both: CardSet,
    cut: usize,
    players: usize,
) -> Vec<usize> {
    let mut knew = vec![cut; players];
    for log in logs {
        for (k, ev) in log.iter().enumerate() {
            for e in ev {
                let seats: u16 = match e {
                    NapalmEvent::Dealt { seat, cards } if !(*cards & both).is_empty() => 1 << seat,
                    NapalmEvent::Compared { seats, hands, .. }
                        if hands.iter().any(|(_, h)| !(*h & both).is_empty()) =>
                    {
                        *seats
                    }
                    _ => 0,
                };
                for (s, kn) in knew.iter_mut().enumerate() {
                    if seats >> s & 1 == 1 {
                        *kn = (*kn).min(k);
                    }
                }
            }
        }
    }
    knew
}
