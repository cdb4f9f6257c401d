//! Napalm poker on the command line: self-play (`sim --game napalm`), its
//! records replayed (`replay`), and telling its records from Tripoley's.
//!
//! Self-play plays exactly the hands asked for: game `g` is seeded from the
//! run's seed and `g` alone, games are played on the thread pool in batches
//! and counted in order of `g`, and the last game counted is cut after the
//! hand that completes the count. So the figures depend on the seed and the
//! count, never on the threads.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_cards::seeded_rng;
use tripoley_game::stats::{Estimate, Moments};
use tripoley_game::{Bot, Dice};
use tripoley_i18n::Lang;
use tripoley_napalm::{
    Account, Event, HeuristicNapalmBot, NapalmGame, NapalmRecord, NapalmRules, RandomNapalmBot,
    Reason, Seat, Transfer,
};

use crate::Failure;
use crate::setup::{TableArgs, bots_for_seats, run_with_progress};

/// A Napalm bot of the kind named on the command line (Napalm's bots are
/// random and heuristic; the commands refuse other kinds).
pub(crate) fn napalm_bot(kind: BotKind) -> Box<dyn Bot<NapalmGame>> {
    if kind == BotKind::Random {
        Box::new(RandomNapalmBot)
    } else {
        Box::new(HeuristicNapalmBot)
    }
}

/// Refuses bot kinds Napalm does not have.
pub(crate) fn napalm_bots_only(bots: &[BotKind]) -> Result<(), Failure> {
    if bots
        .iter()
        .all(|b| matches!(b, BotKind::Random | BotKind::Heuristic))
    {
        Ok(())
    } else {
        Err(Failure::usage(
            "Napalm's bots are random and heuristic: --bots names one of those per seat, or one for all",
        ))
    }
}

/// Refuses `--preset` and `--house-rules`, which are Tripoley's.
pub(crate) fn one_rule_set(table: &TableArgs) -> Result<(), Failure> {
    if table.preset.is_some() || table.house_rules.is_some() {
        return Err(Failure::usage(
            "Napalm has one rule set: --game napalm takes no --preset or --house-rules",
        ));
    }
    Ok(())
}

/// What `tripoley sim --game napalm` was asked for.
pub struct SimOptions<'a> {
    /// The seats (`--preset` and `--house-rules` are refused).
    pub table: &'a TableArgs,
    /// `--bots`.
    pub bots: &'a str,
    /// Hands to play (`--deals`).
    pub hands: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--out`: where the CSV file goes.
    pub out: Option<&'a Path>,
    /// `--json`.
    pub json: bool,
    /// `--save-records DIR` and `--save-limit`.
    pub save_records: Option<(&'a Path, usize)>,
}

/// One seat's results.
#[derive(Serialize)]
struct SeatReport {
    seat: u8,
    bot: BotKind,
    chips_per_hand: Estimate,
    games_won: f64,
}

/// The result of `tripoley sim --game napalm`.
#[derive(Serialize)]
struct NapalmSummary {
    game: &'static str,
    players: usize,
    /// Exactly the hands asked for.
    hands: u64,
    /// Games played to the end.
    games: u64,
    /// Whether the last game was cut short to play exactly `hands`.
    last_game_cut: bool,
    /// Chips left in the pot of the game cut short (every game played to
    /// its end pays its pot out, N8).
    unclaimed_chips: u64,
    seed: u64,
    seats: Vec<SeatReport>,
}

/// One game as self-play saw it.
struct Played {
    /// Each hand's chips won (or lost) per seat, the pot at the end in the last.
    hands: Vec<Vec<i64>>,
    /// Who took the pot, when the game ended within the hands allowed.
    winners: Option<Vec<Seat>>,
    /// Its record, when asked for.
    record: Option<NapalmRecord>,
}

/// The running totals, fed games in order.
struct Tally {
    left: u64,
    games: u64,
    cut: bool,
    unclaimed: u64,
    per_hand: Vec<Moments>,
    wins: Vec<f64>,
}

impl Tally {
    /// Counts a game's hands while any are still wanted; returns whether it
    /// was counted whole.
    fn add(&mut self, game: &Played) -> bool {
        let take = game
            .hands
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        for hand in &game.hands[..take] {
            for (m, &w) in self.per_hand.iter_mut().zip(hand) {
                m.push(w as f64);
            }
        }
        self.left -= take as u64;
        match &game.winners {
            Some(winners) if take == game.hands.len() => {
                self.games += 1;
                for &w in winners {
                    self.wins[usize::from(w)] += 1.0 / winners.len() as f64;
                }
                true
            }
            _ => {
                // Cut short: every chip won so far is counted, so the pot
                // at the cut is what nobody took.
                let pot: i64 = game.hands[..take].iter().flatten().sum();
                self.unclaimed += pot.unsigned_abs();
                self.cut = true;
                false
            }
        }
    }
}

/// Plays Napalm games until exactly `hands` hands were played; prints the
/// summary, writes the CSV file and the records asked for.
pub fn simulate(o: &SimOptions) -> Result<(), Failure> {
    one_rule_set(o.table)?;
    let players = o.table.players;
    let rules = NapalmRules::default();
    rules
        .check_players(players)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let bots = bots_for_seats::<BotKind>(o.bots, players)?;
    napalm_bots_only(&bots)?;
    if o.hands == 0 {
        return Err(Failure::usage("--deals must be at least 1"));
    }
    let (tally, secs) = run_with_progress(o.hands, "hands", o.threads, |progress| {
        play_hands(&rules, &bots, o, progress).map_err(|e| Failure {
            message: format!("cannot write a game record: {e}"),
            code: 1,
        })
    })?;
    let summary = NapalmSummary {
        game: "napalm",
        players,
        hands: o.hands,
        games: tally.games,
        last_game_cut: tally.cut,
        unclaimed_chips: tally.unclaimed,
        seed: o.seed,
        seats: (0..players)
            .map(|s| SeatReport {
                seat: s as u8,
                bot: bots[s],
                chips_per_hand: tally.per_hand[s].estimate(),
                games_won: tally.wins[s] / tally.games.max(1) as f64,
            })
            .collect(),
    };
    if o.json {
        let mut v = serde_json::to_value(&summary).expect("plain data serialises");
        v["elapsed_secs"] = secs.into();
        println!("{v}");
    } else {
        print!("{}", summary_text(&summary, secs));
    }
    if let Some(dir) = o.out {
        write_csv(dir, &summary).map_err(|e| Failure {
            message: format!("writing {}: {e}", dir.display()),
            code: 1,
        })?;
        if !o.json {
            println!(
                "CSV file written to {}",
                dir.join("napalm-seats.csv").display()
            );
        }
    }
    Ok(())
}

/// The seed of game `g` of a run.
fn game_seed(seed: u64, g: u64) -> u64 {
    seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Plays games in batches on the current pool, counting them in order.
fn play_hands(
    rules: &NapalmRules,
    bots: &[BotKind],
    o: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, std::io::Error> {
    let mut tally = Tally {
        left: o.hands,
        games: 0,
        cut: false,
        unclaimed: 0,
        per_hand: vec![Moments::default(); bots.len()],
        wins: vec![0.0; bots.len()],
    };
    let mut next = 0u64;
    // Hands and games played so far (a guess of 8 hands a game to start).
    let (mut hands_seen, mut games_seen) = (8u64, 1u64);
    while tally.left > 0 {
        // Enough games for the hands left, by the mean so far, a few more
        // for luck; at most a few thousand at once to bound the memory.
        let batch = (tally.left.saturating_mul(games_seen) / hands_seen * 11 / 10).clamp(1, 4096);
        let cap = tally.left;
        let save = o.save_records.map_or(0, |(_, limit)| limit as u64);
        let games: Vec<Played> = (next..next + batch)
            .into_par_iter()
            .map(|g| play_one(rules, bots, game_seed(o.seed, g), cap, g < save))
            .collect();
        let played: usize = games.iter().map(|p| p.hands.len()).sum();
        for (g, game) in (next..).zip(&games) {
            if tally.left == 0 {
                break;
            }
            let whole = tally.add(game);
            if let (true, Some(record), Some((dir, _))) = (whole, &game.record, o.save_records) {
                let json = serde_json::to_string_pretty(record).expect("records serialise");
                std::fs::write(dir.join(format!("napalm-game-{g:06}.json")), json + "\n")?;
            }
        }
        hands_seen += played as u64;
        games_seen += batch;
        next += batch;
        progress(o.hands - tally.left);
    }
    Ok(tally)
}

/// Plays game `seed` for at most `cap` hands, tallying each hand's chips.
fn play_one(rules: &NapalmRules, kinds: &[BotKind], seed: u64, cap: u64, keep: bool) -> Played {
    let n = kinds.len();
    let mut bots: Vec<Box<dyn Bot<NapalmGame>>> = kinds.iter().map(|&k| napalm_bot(k)).collect();
    let mut first = Vec::new();
    let mut game = NapalmGame::start(rules.clone(), n, &mut first).expect("checked table");
    let mut record = keep.then(|| {
        let names = (0..).zip(kinds).map(|(s, k)| format!("{k} {s}"));
        NapalmRecord::new(rules.clone(), names.collect())
    });
    let mut played = Played {
        hands: Vec::new(),
        winners: None,
        record: None,
    };
    // Tallies a step's events; breaks once the hand after the last one
    // wanted has begun (and drops it).
    let tally = |played: &mut Played, events: &[Event]| {
        for e in events {
            match e {
                Event::HandStarted { .. } => played.hands.push(vec![0; n]),
                Event::Transfer(t) => {
                    let hand = played.hands.last_mut().expect("chips move in a hand");
                    for (acc, sign) in [(t.from, -1), (t.to, 1)] {
                        if let Account::Stack(s) = acc {
                            hand[usize::from(s)] += sign * i64::from(t.amount);
                        }
                    }
                }
                Event::GameOver { winners } => played.winners = Some(winners.clone()),
                _ => {}
            }
        }
        if played.hands.len() as u64 > cap {
            played
                .hands
                .truncate(usize::try_from(cap).unwrap_or(usize::MAX));
            played.winners = None;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    if tally(&mut played, &first).is_continue() {
        let mut rng = seeded_rng(seed);
        tripoley_game::play(
            &mut game,
            &mut bots,
            Dice::shared(&mut rng),
            |_, step, events| {
                if let Some(r) = &mut record {
                    r.steps.push(step.clone());
                }
                tally(&mut played, events)
            },
        )
        .expect("bots answer legally");
    }
    played.record = record;
    played
}

/// The summary as a text table.
fn summary_text(s: &NapalmSummary, secs: f64) -> String {
    let mut o = String::new();
    let cut = if s.last_game_cut {
        " (and the first hands of one more, cut short)"
    } else {
        ""
    };
    let _ = writeln!(
        o,
        "Napalm: {} hands in {} games{cut}, {secs:.1} s\n",
        s.hands, s.games
    );
    let _ = writeln!(
        o,
        "{:<16} {:>20} {:>10}",
        "seat", "chips per hand", "games won"
    );
    for seat in &s.seats {
        let label = format!("{} ({})", seat.seat, seat.bot);
        let est = format!(
            "{:+.3} ± {:.3}",
            seat.chips_per_hand.mean, seat.chips_per_hand.ci95
        );
        let _ = writeln!(o, "{label:<16} {est:>20} {:>10.4}", seat.games_won);
    }
    if s.unclaimed_chips > 0 {
        let _ = writeln!(
            o,
            "\n{} chips were left in the pot of the game cut short.",
            s.unclaimed_chips
        );
    }
    o
}

/// `DIR/napalm-seats.csv`: one row per seat.
fn write_csv(dir: &Path, s: &NapalmSummary) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut csv =
        String::from("seat,bot,chips_per_hand_mean,chips_per_hand_ci95,hands,games_won_share\n");
    for seat in &s.seats {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{}",
            seat.seat,
            seat.bot,
            seat.chips_per_hand.mean,
            seat.chips_per_hand.ci95,
            seat.chips_per_hand.samples,
            seat.games_won
        );
    }
    std::fs::write(dir.join("napalm-seats.csv"), csv)
}

// ----- records -----

/// Whether `text` is a Napalm record (`"game": "napalm"`) rather than a
/// Tripoley one (which has a `"version"`); neither is a clear error.
pub fn is_napalm_record(text: &str, file: &str) -> Result<bool, Failure> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Failure::usage(format!("{file} is not a game record (not JSON: {e})")))?;
    match (value.get("game"), value.get("version")) {
        (Some(g), _) if g == "napalm" => Ok(true),
        (None, Some(_)) => Ok(false),
        _ => Err(Failure::usage(format!(
            "{file} is not a game record: it is neither a Tripoley record \
             (it has no \"version\") nor a Napalm one (it has no \"game\": \"napalm\")"
        ))),
    }
}

/// Reads a Napalm record: its JSON, and names fit to print.
pub(crate) fn read_record(text: &str, file: &str) -> Result<NapalmRecord, Failure> {
    let record: NapalmRecord = serde_json::from_str(text)
        .map_err(|e| Failure::usage(format!("{file} is not a Napalm game record: {e}")))?;
    crate::setup::check_names(&record.names)
        .map_err(|why| Failure::usage(format!("{file}: {why}")))?;
    Ok(record)
}

/// One hand's ledger, or the end of the game.
#[derive(Serialize, Default)]
struct HandLedger {
    /// The hand's number; `None` for what follows the last hand.
    hand: Option<u32>,
    dealer: Option<Seat>,
    transfers: Vec<Transfer>,
    /// Players who went out before this hand (or at the end), with their chips.
    out: Vec<(Seat, u32)>,
    tokens_won: Vec<Seat>,
    stacks: Vec<u32>,
    tokens: Vec<u32>,
    pot: u32,
    /// Who took the pot, at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    winners: Option<Vec<Seat>>,
}

/// `tripoley replay FILE` for a Napalm record: each hand's ledger, then the
/// end, the text in `lang`.
pub fn replay(text: &str, file: &str, json: bool, lang: Lang) -> Result<(), Failure> {
    let record = read_record(text, file)?;
    let (game, events) = record
        .replay()
        .map_err(|e| Failure::usage(format!("{file}: the Napalm record does not replay: {e}")))?;
    let n = record.names.len();
    let mut stacks = vec![record.rules.starting_chips; n];
    let mut tokens = vec![0; n];
    let mut pot = 0u32;
    let mut ledgers = vec![HandLedger::default()];
    for e in &events {
        let cur = ledgers.last_mut().expect("one at least");
        match e {
            Event::HandStarted { number, dealer } => {
                if cur.hand.is_some() {
                    ledgers.push(HandLedger::default());
                }
                let cur = ledgers.last_mut().expect("just pushed");
                cur.hand = Some(*number);
                cur.dealer = Some(*dealer);
            }
            Event::PlayerOut { seat, chips } => {
                if cur.hand.is_some() {
                    ledgers.push(HandLedger::default());
                }
                let cur = ledgers.last_mut().expect("one at least");
                cur.out.push((*seat, *chips));
            }
            Event::Transfer(t) => {
                for (acc, sign) in [(t.from, false), (t.to, true)] {
                    let chips = match acc {
                        Account::Stack(s) => &mut stacks[usize::from(s)],
                        Account::Pot => &mut pot,
                    };
                    *chips = if sign {
                        *chips + t.amount
                    } else {
                        *chips - t.amount
                    };
                }
                cur.transfers.push(*t);
            }
            Event::Token { seat, tokens: now } => {
                tokens[usize::from(*seat)] = *now;
                cur.tokens_won.push(*seat);
            }
            Event::GameOver { winners } => cur.winners = Some(winners.clone()),
            _ => {}
        }
        let cur = ledgers.last_mut().expect("one at least");
        cur.stacks.clone_from(&stacks);
        cur.tokens.clone_from(&tokens);
        cur.pot = pot;
    }
    debug_assert_eq!(stacks, game.stacks());
    if json {
        for l in &ledgers {
            println!(
                "{}",
                serde_json::to_string(l).expect("plain data serialises")
            );
        }
    } else {
        print!("{}", ledger_text(&record, &ledgers, game.is_over(), lang));
    }
    Ok(())
}

/// The ledgers in words, in `lang`.
fn ledger_text(record: &NapalmRecord, ledgers: &[HandLedger], over: bool, lang: Lang) -> String {
    // "seat 1 (Ann)", as Tripoley's replay says it: no verb agrees with a
    // name ("You takes"), whatever the names are.
    let name = |s: Seat| match record.names[usize::from(s)].as_str() {
        "" => lang.t("rp-seat", &[("seat", s.into())]),
        n => lang.t("rp-seat-named", &[("seat", s.into()), ("name", n.into())]),
    };
    let mut o = String::new();
    let header = lang.t(
        "rpn-header",
        &[
            ("players", record.names.len().into()),
            ("tokens", record.rules.tokens_to_win.into()),
            ("hands", record.rules.max_hands.into()),
        ],
    );
    let _ = writeln!(o, "{header}");
    for l in ledgers {
        let title = match (l.hand, l.dealer) {
            (Some(h), Some(d)) => {
                lang.t("rpn-hand", &[("n", h.into()), ("player", name(d).into())])
            }
            _ => lang.t("rpn-after-last", &[]),
        };
        let _ = writeln!(o, "\n{title}");
        for &(s, chips) in &l.out {
            let out = lang.t(
                "rpn-out",
                &[("player", name(s).into()), ("n", chips.into())],
            );
            let _ = writeln!(o, "  {out}");
        }
        for t in &l.transfers {
            let account = |a: Account| match a {
                Account::Stack(s) => name(s),
                Account::Pot => lang.t("rpn-pot", &[]),
            };
            let line = lang.t(
                "rpn-transfer",
                &[
                    ("payer", account(t.from).into()),
                    ("payee", account(t.to).into()),
                    ("reason", reason_key(t.reason).into()),
                ],
            );
            let _ = writeln!(o, "  {:>6}  {line}", t.amount);
        }
        for &s in &l.tokens_won {
            let _ = writeln!(
                o,
                "  {}",
                lang.t("rpn-token", &[("player", name(s).into())])
            );
        }
        let chips: Vec<String> = (0..record.names.len())
            .map(|s| {
                lang.t(
                    "rpn-stack",
                    &[
                        ("name", record.names[s].as_str().into()),
                        ("chips", l.stacks[s].into()),
                        ("tokens", l.tokens[s].into()),
                    ],
                )
            })
            .collect();
        let chips = lang.t(
            "rpn-chips",
            &[("list", chips.join(", ").into()), ("pot", l.pot.into())],
        );
        let _ = writeln!(o, "  {chips}");
        if let Some(w) = &l.winners {
            let names: Vec<String> = w.iter().map(|&s| name(s)).collect();
            let players = match names.as_slice() {
                [init @ .., last] if !init.is_empty() => lang.t(
                    "names-and",
                    &[
                        ("first", init.join(", ").into()),
                        ("last", last.as_str().into()),
                    ],
                ),
                _ => names.concat(),
            };
            let _ = writeln!(
                o,
                "{}",
                lang.t("rpn-game-over", &[("players", players.into())])
            );
        }
    }
    if !over {
        let _ = writeln!(o, "\n{}", lang.t("rpn-unfinished", &[]));
    }
    o
}

/// Why chips moved: the reason's key in records (`side_bet`), which the
/// catalogue's `rpn-transfer` puts into words.
fn reason_key(r: Reason) -> &'static str {
    match r {
        Reason::Ante => "ante",
        Reason::SideBet => "side_bet",
        Reason::PotWon => "pot_won",
    }
}
