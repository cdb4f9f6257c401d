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

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use serde::ser::SerializeMap;
use tripoley_cards::{Rank, Suit};
use tripoley_engine::{
    Account, Event, Game, Preset, Reason, Record, ReplayError, Rules, Seat, Space, Standing,
    Transfer,
};

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
        ReplayError::Format(_) => format!("{file}: {e}"),
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
    fn run(record: Record, file: &str) -> Result<Replay, Failure> {
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
            spaces,
            sections,
            standings,
        })
    }

    /// A seat and its player's name.
    fn who(&self, seat: Seat) -> String {
        match self.record.names.get(usize::from(seat)) {
            Some(name) if !name.is_empty() => format!("seat {seat} ({name})"),
            _ => format!("seat {seat}"),
        }
    }

    fn title(&self, section: &Section) -> String {
        let mut title = match (section.part, section.deal) {
            (Part::Deal, Some((n, _))) => format!("Deal {n}"),
            (Part::UnfinishedDeal, Some((n, _))) => {
                format!("Deal {n} (unfinished: the record stops here)")
            }
            (Part::BeforeFirstDeal, _) => "Before the first deal".to_owned(),
            (Part::FinalPot, _) => "Final pot".to_owned(),
            (Part::AfterLastDeal, _) => "After the last deal (the record stops here)".to_owned(),
            (Part::Deal | Part::UnfinishedDeal, None) => "Deal".to_owned(),
        };
        if let Some((_, dealer)) = section.deal {
            let _ = write!(title, ": dealer {}", self.who(dealer));
            if let Some(suit) = section.pay_suit {
                let _ = write!(title, ", pay suit {}", suit.name());
            }
            if let Some(low) = section.sequence {
                let _ = write!(title, ", Sequence {}", run_from(low));
            }
        }
        title
    }

    fn print_out(&self, seat: Seat, chips: u32) {
        println!(
            "  {} cannot pay the ante and is out of the game with {}",
            self.who(seat),
            crate::play::text::count(chips as usize, "chip")
        );
    }

    fn print_text(&self) {
        let preset = Preset::ALL
            .into_iter()
            .find(|&p| Rules::preset(p) == self.record.rules)
            .map_or_else(|| "house rules".to_owned(), |p| format!("preset {p}"));
        let players: Vec<String> = (0..self.record.names.len())
            .map(|s| self.who(s as Seat))
            .collect();
        println!(
            "{} players, {}: {}",
            players.len(),
            preset,
            players.join(", ")
        );
        for section in &self.sections {
            println!();
            println!("{}", self.title(section));
            if section.transfers.is_empty() && section.out.is_empty() {
                println!("  no chips moved");
            }
            let mut out = section.out.iter().peekable();
            for (i, t) in section.transfers.iter().enumerate() {
                while let Some((seat, chips, _)) = out.next_if(|o| o.2 <= i) {
                    self.print_out(*seat, *chips);
                }
                let why = reason(t.reason);
                println!("  {} -> {}: {} ({why})", t.from, t.to, t.amount);
            }
            for (seat, chips, _) in out {
                self.print_out(*seat, *chips);
            }
            println!("  Stacks:");
            for (seat, chips) in section.stacks.iter().enumerate() {
                println!("    {}: {chips}", self.who(seat as Seat));
            }
            let layout: Vec<String> = self
                .spaces
                .iter()
                .map(|&s| format!("{s} {}", section.layout.get(s)))
                .collect();
            println!("  Layout: {}", layout.join(", "));
        }
        println!();
        match &self.standings {
            Some(standings) => {
                println!("Standings");
                let mut order: Vec<&Standing> = standings.iter().collect();
                order.sort_by_key(|s| (std::cmp::Reverse(s.chips), s.seat));
                for s in order {
                    println!(
                        "  {}: {}{}",
                        self.who(s.seat),
                        crate::play::text::count(s.chips as usize, "chip"),
                        if s.winner { ", winner" } else { "" }
                    );
                }
            }
            None => println!("The record stops before the end of the game: no standings yet."),
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
        _ => format!("from {low}"),
    }
}

/// Why chips moved, in words.
fn reason(r: Reason) -> &'static str {
    match r {
        Reason::Ante => "ante",
        Reason::PayCard => "pay card",
        Reason::KingQueen => "King-Queen",
        Reason::Sequence => "Sequence",
        Reason::AuctionPrice => "price of the auctioned hand",
        Reason::PaySuitBid => "bid for the pay suit",
        Reason::Bet => "bet",
        Reason::PotWon => "pot won",
        Reason::Unmatched => "returned: not matched",
        Reason::Blocked => "blocked play, 1 per card held",
        Reason::WentOut => "went out: the Kitty",
        Reason::CardsLeft => "went out: 1 per card left",
        Reason::Misled => "misplayed lead",
        Reason::Withheld => "withheld card",
        Reason::PokerPool => "Poker Pool",
        Reason::FinalPotGathered => "gathered for the final pot",
        Reason::FinalPot => "final pot won",
    }
}

/// Reads, replays and prints the record named in `args`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| Failure::usage(format!("cannot read the game record {file}: {e}")))?;
    if crate::napalm::is_napalm_record(&text, &file)? {
        return crate::napalm::replay(&text, &file, args.json);
    }
    let record = Record::from_json(&text).map_err(|e| replay_failure(&file, 0, &e))?;
    crate::setup::check_names(&record.names)
        .map_err(|why| Failure::usage(format!("{file}: {why}")))?;
    let replay = Replay::run(record, &file)?;
    if args.json {
        replay.print_json()
    } else {
        replay.print_text();
        Ok(())
    }
}
