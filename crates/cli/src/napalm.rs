//! Napalm poker on the command line: self-play (`sim --game napalm`, the
//! simulator of `tripoley_napalm::sim` printed), its records replayed
//! (`replay`), and telling its records from Tripoley's.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use tripoley_bots::BotKind;
use tripoley_game::Bot;
use tripoley_game::stats::Estimate;
use tripoley_i18n::Lang;
use tripoley_napalm::sim::SimConfig;
use tripoley_napalm::{
    Account, Event, NapalmBotKind, NapalmGame, NapalmRecord, NapalmRules, Reason, Seat, Transfer,
};

use crate::Failure;
use crate::setup::{TableArgs, bots_for_seats, run_with_progress};

/// A Napalm bot of the kind named on the command line (Napalm's bots are
/// random and heuristic; the commands refuse other kinds).
pub(crate) fn napalm_bot(kind: BotKind) -> Box<dyn Bot<NapalmGame>> {
    napalm_kind(kind).make()
}

/// Napalm's bot of the kind named on the command line.
pub(crate) fn napalm_kind(kind: BotKind) -> NapalmBotKind {
    if kind == BotKind::Random {
        NapalmBotKind::Random
    } else {
        NapalmBotKind::Heuristic
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

/// Napalm's one rule set, for the seats asked: refuses `--preset` and
/// `--house-rules`, which are Tripoley's, and a number of players it cannot seat.
pub(crate) fn one_rule_set(table: &TableArgs) -> Result<NapalmRules, Failure> {
    if table.preset.is_some() || table.house_rules.is_some() {
        return Err(Failure::usage(
            "Napalm has one rule set: --game napalm takes no --preset or --house-rules",
        ));
    }
    let rules = NapalmRules::default();
    rules
        .check_players(table.players)
        .map_err(|e| Failure::usage(e.to_string()))?;
    Ok(rules)
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

/// Plays Napalm games until exactly `hands` hands were played; prints the
/// summary, writes the CSV file and the records asked for.
pub fn simulate(o: &SimOptions) -> Result<(), Failure> {
    let rules = one_rule_set(o.table)?;
    let players = o.table.players;
    let bots = bots_for_seats::<BotKind>(o.bots, players)?;
    napalm_bots_only(&bots)?;
    if o.hands == 0 {
        return Err(Failure::usage("--deals must be at least 1"));
    }
    let config = SimConfig {
        rules,
        bots: bots.iter().map(|&k| napalm_kind(k)).collect(),
        hands: o.hands,
        seed: o.seed,
        keep_records: o.save_records.map_or(0, |(_, limit)| limit),
    };
    // Records of the games counted whole, as the simulator hands them over.
    let save = |g: u64, record: &NapalmRecord| -> Result<(), Failure> {
        let Some((dir, _)) = o.save_records else {
            return Ok(());
        };
        let json = serde_json::to_string_pretty(record).expect("records serialise");
        std::fs::write(dir.join(format!("napalm-game-{g:06}.json")), json + "\n").map_err(|e| {
            Failure {
                message: format!("cannot write a game record: {e}"),
                code: 1,
            }
        })
    };
    let (sim, secs) = run_with_progress(o.hands, "hands", o.threads, |progress| {
        tripoley_napalm::sim::simulate(&config, progress, save)
    })?;
    let summary = NapalmSummary {
        game: "napalm",
        players,
        hands: o.hands,
        games: sim.games,
        last_game_cut: sim.last_game_cut,
        unclaimed_chips: sim.unclaimed_chips,
        seed: o.seed,
        seats: (0..players)
            .map(|s| SeatReport {
                seat: s as u8,
                bot: bots[s],
                chips_per_hand: sim.chips_per_hand[s],
                games_won: sim.games_won[s],
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
