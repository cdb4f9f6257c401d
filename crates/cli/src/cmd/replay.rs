//! `tripoley replay FILE`: a recorded game replayed step by step, with the
//! ledger of every deal: each chip movement, then the stacks and the layout.
//!
//! The events are cut into sections at each `DealEnded`. A deal's section
//! holds everything from the end of the previous deal: the antes for it
//! (the engine collects them before it announces the deal, T5), the deal
//! itself, and the players who went out instead of paying (T6). What comes
//! after the last deal is the "final pot" section (E2). A section that ends
//! no deal and has none after it is "before the first deal" when no deal
//! was played, or the unfinished end of a record that stops mid-game.

use std::path::PathBuf;

use serde::Serialize;
use serde::ser::SerializeMap;
use tripoley_cards::{Rank, Suit};
use tripoley_engine::{
    Account, Event, Game, Preset, Reason, Record, ReplayError, Rules, Seat, Space, Standing,
    Transfer,
};

use tripoley_i18n::{Lang, Value};

use crate::Failure;

/// Arguments of `tripoley replay`.
#[derive(clap::Args)]
pub struct Args {
    /// A game record (JSON), as saved by a game.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// One JSON object per line: one per deal, then the standings.
    #[arg(long)]
    json: bool,
    /// The language of the ledger: en or es (default: the language the game
    /// was played in, if saved by `tripoley play`, else the environment's).
    #[arg(long, value_name = "LANG", value_parser = crate::setup::parse_lang)]
    lang: Option<Lang>,
}

/// What part of the game a section of the ledger covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Part {
    /// A whole deal, its antes included.
    Deal,
    /// A deal the record stops in the middle of.
    UnfinishedDeal,
    /// Before any deal started: the game ended at once (T6) or the record stops.
    BeforeFirstDeal,
    /// After the last deal: the final pot (E2) and players out at the end (T6).
    FinalPot,
    /// Between deals, where the record stops.
    AfterLastDeal,
}

/// Chips on each layout space, in layout order (T4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chips([u32; Space::ALL.len()]);

impl Chips {
    fn get(&self, space: Space) -> u32 {
        self.0[space as usize]
    }

    fn get_mut(&mut self, space: Space) -> &mut u32 {
        &mut self.0[space as usize]
    }
}

/// The layout as JSON: `{"ace": 3, ..., "pot": 12}` in layout order, with
/// only the spaces the table has (no Pot without poker).
struct LayoutJson<'a> {
    chips: &'a Chips,
    spaces: &'a [Space],
}

impl Serialize for LayoutJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.spaces.len()))?;
        for &space in self.spaces {
            map.serialize_entry(space.key(), &self.chips.get(space))?;
        }
        map.end()
    }
}

/// One section of the ledger.
#[derive(Clone, Debug)]
struct Section {
    part: Part,
    /// The deal's number and dealer, for deals.
    deal: Option<(u32, Seat)>,
    /// The deal's pay suit and the Sequence's lowest rank, once known.
    pay_suit: Option<Suit>,
    sequence: Option<Rank>,
    transfers: Vec<Transfer>,
    /// Players who went out (T6), with the chips they kept and the number
    /// of transfers before it (to print them in order).
    out: Vec<(Seat, u32, usize)>,
    /// Each seat's stack at the end of the section.
    stacks: Vec<u32>,
    /// The layout at the end of the section.
    layout: Chips,
}

impl Section {
    fn new() -> Section {
        Section {
            part: Part::Deal,
            deal: None,
            pay_suit: None,
            sequence: None,
            transfers: Vec::new(),
            out: Vec::new(),
            stacks: Vec::new(),
            layout: Chips::default(),
        }
    }

    fn is_empty(&self) -> bool {
        self.deal.is_none() && self.transfers.is_empty() && self.out.is_empty()
    }
}

/// A replayed game: its ledger, section by section, and the end.
struct Replay {
    record: Record,
    /// The language of the text ledger.
    lang: Lang,
    spaces: Vec<Space>,
    sections: Vec<Section>,
    standings: Option<Vec<Standing>>,
}

/// The running ledger: every stack and space, moved by each transfer.
struct Ledger {
    stacks: Vec<u32>,
    layout: Chips,
    /// The section being filled.
    current: Section,
    done: Vec<Section>,
}

impl Ledger {
    fn account(&mut self, a: Account) -> Option<&mut u32> {
        match a {
            Account::Stack(s) => self.stacks.get_mut(usize::from(s)),
            Account::Space(sp) => Some(self.layout.get_mut(sp)),
        }
    }

    /// Applies one event; an error when the events contradict themselves.
    fn record(&mut self, event: &Event) -> Result<(), String> {
        match event {
            Event::Transfer(t) => {
                let from = self.account(t.from).ok_or_else(|| {
                    format!("a transfer from {}, a seat not at the table", t.from)
                })?;
                *from = from.checked_sub(t.amount).ok_or_else(|| {
                    format!("{} pays {} but holds only {}", t.from, t.amount, *from)
                })?;
                let to = self
                    .account(t.to)
                    .ok_or_else(|| format!("a transfer to {}, a seat not at the table", t.to))?;
                *to += t.amount;
                self.current.transfers.push(*t);
            }
            Event::DealStarted {
                number,
                dealer,
                pay_suit,
                sequence,
            } => {
                self.current.deal = Some((*number, *dealer));
                self.current.pay_suit = *pay_suit;
                self.current.sequence = Some(*sequence);
            }
            Event::PaySuitNamed { suit, .. } => self.current.pay_suit = Some(*suit),
            Event::PlayerOut { seat, chips } => {
                let at = self.current.transfers.len();
                self.current.out.push((*seat, *chips, at));
            }
            Event::DealEnded { .. } => {
                let mut section = std::mem::replace(&mut self.current, Section::new());
                section.stacks.clone_from(&self.stacks);
                section.layout = self.layout;
                self.done.push(section);
            }
            _ => {}
        }
        Ok(())
    }
}

/// Why a replay failed, with the exit code it deserves.
fn replay_failure(file: &str, steps: usize, e: &ReplayError) -> Failure {
    Failure::usage(match e {
        ReplayError::Step { index, error } => format!(
            "{file}: step {index} of {steps} (counting from 0) is refused by the engine: {error}"
        ),
        ReplayError::Rules(e) => format!("{file}: the recorded table cannot be played: {e}"),
        ReplayError::Format(_) | ReplayError::Seat { .. } => format!("{file}: {e}"),
    })
}

/// A failure of the engine's own bookkeeping, not of the record.
fn ledger_failure(file: &str, step: Option<usize>, why: &str) -> Failure {
    let when = step.map_or_else(|| "at the start".to_owned(), |i| format!("after step {i}"));
    Failure {
        message: format!(
            "{file}: {when} the events do not account for the chips ({why}); \
             this is a bug in the engine"
        ),
        code: 1,
    }
}

impl Replay {
    /// Replays `record` step by step, cutting its events into sections.
    fn run(record: Record, lang: Lang, file: &str) -> Result<Replay, Failure> {
        let steps = record.steps.len();
        let mut events = Vec::new();
        let mut game: Game = record
            .start(&mut events)
            .map_err(|e| replay_failure(file, steps, &e))?;
        let spaces: Vec<Space> = Space::ALL
            .into_iter()
            .filter(|&s| record.rules.has_pot() || s != Space::Pot)
            .collect();
        let mut ledger = Ledger {
            stacks: vec![record.rules.starting_chips; game.players()],
            layout: Chips::default(),
            current: Section::new(),
            done: Vec::new(),
        };
        let check = |ledger: &Ledger, game: &Game, step: Option<usize>| {
            let layout_agrees = Space::ALL
                .iter()
                .all(|&s| ledger.layout.get(s) == game.layout().get(s));
            if ledger.stacks != game.stacks() || !layout_agrees {
                return Err(ledger_failure(
                    file,
                    step,
                    "the stacks and layout differ from the game's",
                ));
            }
            Ok(())
        };
        for e in &events {
            ledger
                .record(e)
                .map_err(|why| ledger_failure(file, None, &why))?;
        }
        check(&ledger, &game, None)?;
        for (index, step) in record.steps.iter().enumerate() {
            events.clear();
            game.step(step, &mut events).map_err(|error| {
                replay_failure(file, steps, &ReplayError::Step { index, error })
            })?;
            for e in &events {
                ledger
                    .record(e)
                    .map_err(|why| ledger_failure(file, Some(index), &why))?;
            }
            check(&ledger, &game, Some(index))?;
        }
        let standings = game.standings();
        let Ledger {
            stacks,
            layout,
            mut current,
            done: mut sections,
        } = ledger;
        current.part = if current.deal.is_some() {
            Part::UnfinishedDeal
        } else if sections.is_empty() {
            Part::BeforeFirstDeal
        } else if standings.is_some() {
            Part::FinalPot
        } else {
            Part::AfterLastDeal
        };
        if !current.is_empty() {
            current.stacks = stacks;
            current.layout = layout;
            sections.push(current);
        }
        Ok(Replay {
            record,
            lang,
            spaces,
            sections,
            standings,
        })
    }

    fn t(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.lang.t(id, args)
    }

    /// A seat and its player's name.
    fn who(&self, seat: Seat) -> String {
        match self.record.names.get(usize::from(seat)) {
            Some(name) if !name.is_empty() => self.t(
                "rp-seat-named",
                &[("seat", seat.into()), ("name", name.as_str().into())],
            ),
            _ => self.t("rp-seat", &[("seat", seat.into())]),
        }
    }

    /// A stack ("seat 2") or a layout space ("the Ace") in a ledger line.
    fn account(&self, a: Account) -> String {
        match a {
            Account::Stack(seat) => self.t("rp-seat", &[("seat", seat.into())]),
            Account::Space(space) => self.t("account-space", &[("space", space.key().into())]),
        }
    }

    fn title(&self, section: &Section) -> String {
        let mut title = match (section.part, section.deal) {
            (Part::Deal, Some((n, _))) => self.t("rp-deal", &[("n", n.into())]),
            (Part::UnfinishedDeal, Some((n, _))) => {
                self.t("rp-deal-unfinished", &[("n", n.into())])
            }
            (Part::BeforeFirstDeal, _) => self.t("rp-before-first", &[]),
            (Part::FinalPot, _) => self.t("rp-final-pot", &[]),
            (Part::AfterLastDeal, _) => self.t("rp-after-last", &[]),
            (Part::Deal | Part::UnfinishedDeal, None) => self.t("rp-deal-bare", &[]),
        };
        if let Some((_, dealer)) = section.deal {
            title += &self.t("rp-dealer", &[("player", self.who(dealer).into())]);
            if let Some(suit) = section.pay_suit {
                title += &self.t("rp-pay-suit", &[("suit", suit.name().into())]);
            }
            if let Some(low) = section.sequence {
                title += &self.t("rp-sequence", &[("run", run_from(low).into())]);
            }
        }
        title
    }

    fn print_out(&self, seat: Seat, chips: u32) {
        let line = self.t(
            "rp-out",
            &[("player", self.who(seat).into()), ("n", chips.into())],
        );
        println!("  {line}");
    }

    /// The rules' name: a preset's, with the deals when they differ from
    /// the preset's ("preset pagat, 2 deals"), else "house rules".
    fn rules_name(&self) -> String {
        let rules = &self.record.rules;
        let preset = Preset::ALL.into_iter().find(|&p| {
            let mut r = Rules::preset(p);
            r.deals = rules.deals;
            &r == rules
        });
        match (preset, rules.deals) {
            (Some(p), deals) if deals == Rules::preset(p).deals => {
                self.t("rp-preset", &[("name", p.name().into())])
            }
            (Some(p), Some(deals)) => self.t(
                "rp-preset-deals",
                &[("name", p.name().into()), ("deals", deals.into())],
            ),
            _ => self.t("rp-house-rules", &[]),
        }
    }

    fn print_text(&self) {
        let players: Vec<String> = (0..self.record.names.len())
            .map(|s| self.who(s as Seat))
            .collect();
        println!(
            "{}",
            self.t(
                "rp-header",
                &[
                    ("players", players.len().into()),
                    ("rules", self.rules_name().into()),
                    ("names", players.join(", ").into()),
                ],
            )
        );
        for section in &self.sections {
            println!();
            println!("{}", self.title(section));
            if section.transfers.is_empty() && section.out.is_empty() {
                println!("  {}", self.t("rp-no-chips", &[]));
            }
            let mut out = section.out.iter().peekable();
            for (i, t) in section.transfers.iter().enumerate() {
                while let Some((seat, chips, _)) = out.next_if(|o| o.2 <= i) {
                    self.print_out(*seat, *chips);
                }
                let line = self.t(
                    "rp-transfer",
                    &[
                        ("payer", self.account(t.from).into()),
                        ("payee", self.account(t.to).into()),
                        ("amount", t.amount.into()),
                        ("reason", reason(t.reason).into()),
                    ],
                );
                println!("  {line}");
            }
            for (seat, chips, _) in out {
                self.print_out(*seat, *chips);
            }
            println!("  {}", self.t("rp-stacks", &[]));
            for (seat, chips) in section.stacks.iter().enumerate() {
                println!("    {}: {chips}", self.who(seat as Seat));
            }
            let layout: Vec<String> = self
                .spaces
                .iter()
                .map(|&s| {
                    let name = self.t("space", &[("space", s.key().into())]);
                    format!("{name} {}", section.layout.get(s))
                })
                .collect();
            let layout = self.t("rp-layout", &[("list", layout.join(", ").into())]);
            println!("  {layout}");
        }
        println!();
        match &self.standings {
            Some(standings) => {
                println!("{}", self.t("rp-standings", &[]));
                let mut order: Vec<&Standing> = standings.iter().collect();
                order.sort_by_key(|s| (std::cmp::Reverse(s.chips), s.seat));
                for s in order {
                    let line = self.t(
                        "rp-standing",
                        &[
                            ("player", self.who(s.seat).into()),
                            ("n", s.chips.into()),
                            ("winner", if s.winner { "yes" } else { "no" }.into()),
                        ],
                    );
                    println!("  {line}");
                }
            }
            None => println!("{}", self.t("rp-no-standings", &[])),
        }
    }

    fn print_json(&self) -> Result<(), Failure> {
        #[derive(Serialize)]
        struct Line<'a> {
            section: Part,
            deal: Option<u32>,
            dealer: Option<Seat>,
            transfers: &'a [Transfer],
            players_out: Vec<Out>,
            stacks: &'a [u32],
            layout: LayoutJson<'a>,
        }
        #[derive(Serialize)]
        struct Out {
            seat: Seat,
            chips: u32,
        }
        #[derive(Serialize)]
        struct End<'a> {
            standings: Option<&'a [Standing]>,
        }
        for section in &self.sections {
            let line = Line {
                section: section.part,
                deal: section.deal.map(|d| d.0),
                dealer: section.deal.map(|d| d.1),
                transfers: &section.transfers,
                players_out: section
                    .out
                    .iter()
                    .map(|&(seat, chips, _)| Out { seat, chips })
                    .collect(),
                stacks: &section.stacks,
                layout: LayoutJson {
                    chips: &section.layout,
                    spaces: &self.spaces,
                },
            };
            println!("{}", to_json(&line)?);
        }
        let end = End {
            standings: self.standings.as_deref(),
        };
        println!("{}", to_json(&end)?);
        Ok(())
    }
}

fn to_json(value: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(|e| Failure {
        message: format!("cannot write JSON: {e}"),
        code: 1,
    })
}

/// The three ranks of a Sequence starting at `low`: "8-9-10".
fn run_from(low: Rank) -> String {
    let mid = low.next();
    let high = mid.and_then(Rank::next);
    match (mid, high) {
        (Some(mid), Some(high)) => format!("{low}-{mid}-{high}"),
        _ => format!("{low}"),
    }
}

/// Why chips moved: the reason's key in records and JSON (`pot_won`), which
/// the catalogue's `rp-reason` puts into words.
fn reason(r: Reason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The language a game was played in, as `tripoley play` saves it (both
/// games save it in `"play"`).
fn saved_lang(text: &str) -> Option<Lang> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value["play"]["lang"].as_str().and_then(Lang::parse)
}

/// Reads, replays and prints the record named in `args`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = args.file.display().to_string();
    let text = crate::setup::read_text(&args.file)
        .map_err(|e| Failure::usage(format!("cannot read the game record {file}: {e}")))?;
    let lang = args
        .lang
        .or_else(|| saved_lang(&text))
        .unwrap_or_else(Lang::from_env);
    if crate::napalm::is_napalm_record(&text, &file)? {
        return crate::napalm::replay(&text, &file, args.json, lang);
    }
    let record = Record::from_json(&text).map_err(|e| replay_failure(&file, 0, &e))?;
    crate::setup::check_names(&record.names)
        .map_err(|why| Failure::usage(format!("{file}: {why}")))?;
    let replay = Replay::run(record, lang, &file)?;
    if args.json {
        replay.print_json()
    } else {
        replay.print_text();
        Ok(())
    }
}
