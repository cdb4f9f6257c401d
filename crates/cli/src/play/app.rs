//! [`App`]: a game against bots as a state machine that takes keys and
//! timer ticks, apart from any terminal, so tests can drive it.
//!
//! The engine runs ahead: a step (a bot's move, the human's move, a deck)
//! returns all its events at once, the Michigan plays that follow included. The
//! screen shows them one at a time: `shown` is the human's view as it was
//! before the step, patched event by event as each is revealed, and replaced
//! by the engine's own view once the last event is out. [`App::tick`]
//! reveals the next event worth a line of the log (the terminal loop calls
//! it at the chosen pace); [`App::skip`] reveals everything up to the
//! human's next decision or the end of the deal.

use std::collections::VecDeque;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tripoley_bots::{Bot, BotKind, Budget, HeuristicBot};
use tripoley_cards::{Card, CardSet, Suit};
use tripoley_engine::{
    Account, Action, AuctionView, BettingView, DealChance, Decision, Event, Game, InfoSet,
    Misplays, Pending, PokerRule, Record, Seat, Stage, Step, StopReason, Transfer, View,
};

use super::text::{self, Context, Words};
use tripoley_game::Bot as _;
use tripoley_i18n::{Lang, Value};

/// The seat of the human (bots fill the others).
pub const HUMAN: Seat = 0;

/// Playouts the hint key spends on the expert bot's search.
const HINT_PLAYOUTS: u32 = 3000;

pub use tripoley_table::local::step_rng;

/// A table to sit down at: the record so far (empty for a new game), the
/// bot of each seat, and the seed of chance.
pub struct Table {
    /// The game so far; its names are the players' names.
    pub record: Record,
    /// The bot in each seat; `None` for the human's seat.
    pub bots: Vec<Option<BotKind>>,
    /// Seeds chance and the bots.
    pub seed: u64,
    /// How the rules are called on screen: a preset's name or "house rules".
    pub label: String,
    /// The language of the words on screen (a resumed game's history is
    /// told in the language chosen now).
    pub lang: Lang,
}

/// What fills the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The table, with the log and the human's decisions.
    Table,
    /// The summary of the deal just over: its ledger and the chips.
    DealOver,
    /// The final standings.
    Standings,
}

/// What the panel under the table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The events in plain words.
    Log,
    /// The ledger of the deal being played.
    Ledger,
    /// The ledger of the last deal finished.
    LastLedger,
}

/// The ledger of a finished deal.
#[derive(Clone, Debug)]
pub struct DealLedger {
    /// The deal's number.
    pub number: u32,
    /// Every chip movement of the deal, its antes first.
    pub transfers: Vec<Transfer>,
    /// The deal's pay suit.
    pub pay_suit: Option<Suit>,
    /// Each seat's chips after it.
    pub stacks: Vec<u32>,
    /// How the deal ended, in words: who went out on which card, or the
    /// block.
    pub notes: Vec<String>,
}

/// The state of the human's answer being built.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The decision it is for (the record's length then).
    pub step: Option<usize>,
    /// The highlighted card: an index into the sorted hand.
    pub cursor: usize,
    /// A bid, bet or raise.
    pub amount: u32,
    /// Whether digits typed now append to the amount.
    pub typing: bool,
    /// The five poker cards chosen so far.
    pub five: CardSet,
    /// The expert's five, once a hint advised it without replacing a five
    /// the player chose (a second hint then picks it).
    pub hinted_five: Option<CardSet>,
}

/// A game of Tripoley with one human against bots, driven by keys.
#[allow(clippy::struct_excessive_bools)] // independent flags of the screen
pub struct App {
    pub(super) game: Game,
    pub(super) record: Record,
    pub(super) label: String,
    pub(super) seed: u64,
    pub(super) kinds: Vec<Option<BotKind>>,
    bots: Vec<Option<Box<dyn Bot>>>,
    hint_bot: HeuristicBot,
    pub(super) words: Words,
    /// The human's view as the screen shows it (behind the engine while
    /// events are being revealed).
    pub(super) shown: View,
    queue: VecDeque<Event>,
    pub(super) log: Vec<String>,
    /// Lines scrolled back from the end of the log (or the ledger).
    pub(super) scroll: usize,
    pub(super) ledger_now: Vec<Transfer>,
    pub(super) ledger_last: Option<DealLedger>,
    /// How the deal being shown ended so far (see [`DealLedger::notes`]);
    /// after the last deal, the final pot's hands.
    pub(super) notes: Vec<String>,
    /// A final pot is being played (its hands go into the notes).
    final_pot: bool,
    /// The seat whose move was shown last, while moves are being revealed.
    pub(super) actor: Option<Seat>,
    /// Why the last Michigan run stopped, until the next lead.
    pub(super) stop: Option<(Option<Card>, StopReason)>,
    /// An auctioned hand was just sold (the buyer's swap needs no line).
    sold: bool,
    /// Whether the human was asked anything since the deal began: a deal that
    /// asked nothing (all plays forced, no poker) says so when it ends.
    asked_this_deal: bool,
    pub(super) screen: Screen,
    pub(super) panel: Panel,
    pub(super) confirm_quit: bool,
    /// `w` was pressed once on a card to follow: withholding it is a misplay
    /// that costs the deal's pay spaces, so a second `w` confirms it (as the
    /// browser asks) and any other key cancels it.
    confirm_withhold: bool,
    quit: bool,
    pub(super) input: Input,
    pub(super) hint: Option<String>,
    pub(super) message: Option<String>,
    save_wanted: bool,
    /// Where the record is saved, to tell the player.
    pub(super) save_path: Option<String>,
    /// Whether the screen may use colours (`NO_COLOR` unset).
    pub(super) color: bool,
}

impl App {
    /// Sits down at `table`: replays its record and waits for the next step.
    pub fn new(table: Table) -> Result<App, String> {
        let Table {
            record,
            bots: kinds,
            seed,
            label,
            lang,
        } = table;
        let (game, events) = record.replay().map_err(|e| e.to_string())?;
        let rules = game.rules().clone();
        let bots = kinds.iter().map(|k| k.map(|k| k.make(&rules))).collect();
        let words = Words {
            names: record.names.clone(),
            me: HUMAN,
            lang,
        };
        let shown = game.view(Some(HUMAN));
        let mut app = App {
            hint_bot: HeuristicBot::for_rules(&rules),
            game,
            record,
            label,
            seed,
            kinds,
            bots,
            words,
            shown,
            queue: VecDeque::new(),
            log: Vec::new(),
            scroll: 0,
            ledger_now: Vec::new(),
            ledger_last: None,
            notes: Vec::new(),
            final_pot: false,
            actor: None,
            stop: None,
            sold: false,
            screen: Screen::Table,
            panel: Panel::Log,
            confirm_quit: false,
            confirm_withhold: false,
            // A resumed deal's past questions are not known: claim none.
            asked_this_deal: true,
            quit: false,
            input: Input::default(),
            hint: None,
            message: None,
            save_wanted: false,
            save_path: None,
            color: true,
        };
        for ev in events.iter().filter(|e| e.audience().includes(Some(HUMAN))) {
            app.reveal(ev, false);
        }
        if !app.record.steps.is_empty() {
            let resumed = app.say("term-resumed", &[("n", app.record.steps.len().into())]);
            app.log.push(resumed);
        }
        app.sync();
        if app.game.pending() == Pending::GameOver {
            app.screen = Screen::Standings;
        }
        Ok(app)
    }

    /// Where the record is saved, shown on the final screen.
    pub fn set_save_path(&mut self, path: String) {
        self.save_path = Some(path);
    }

    /// Colours on or off (`NO_COLOR`).
    pub fn set_color(&mut self, color: bool) {
        self.color = color;
    }

    /// The message `id` in the game's language.
    fn say(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.words.lang.t(id, args)
    }

    /// The game's record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The seed of chance and the bots.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot of each seat (`None`: the human).
    pub fn bot_kinds(&self) -> &[Option<BotKind>] {
        &self.kinds
    }

    /// Whether the player asked to quit.
    pub fn wants_quit(&self) -> bool {
        self.quit
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.pending() == Pending::GameOver
    }

    /// What fills the screen now.
    #[cfg_attr(not(test), allow(dead_code))] // the tests drive by screens
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// Whether a deal just ended or the game did: time to save the record.
    /// Asking clears it.
    pub fn take_save_request(&mut self) -> bool {
        std::mem::take(&mut self.save_wanted)
    }

    /// A message for the player (a failed save, say).
    pub fn tell(&mut self, message: String) {
        self.message = Some(message);
    }

    /// Whether the game is moving on by itself: events to reveal, or bots or
    /// chance to play. The terminal loop calls [`App::tick`] at its pace then.
    pub fn busy(&self) -> bool {
        self.screen == Screen::Table
            && !self.quit
            && (!self.queue.is_empty()
                || !matches!(
                    self.game.pending(),
                    Pending::GameOver | Pending::Decide { seat: HUMAN, .. }
                ))
    }

    /// The human's pending decision, once everything before it is shown.
    pub fn my_decision(&self) -> Option<Decision> {
        match self.game.pending() {
            Pending::Decide { seat, decision } if seat == HUMAN && self.queue.is_empty() => {
                Some(decision)
            }
            _ => None,
        }
    }

    // ----- moving on -----

    /// Reveals the next event worth a line (with any silent ones before
    /// it), playing chance's and the bots' next step when none is left.
    /// Returns whether anything changed.
    pub fn tick(&mut self) -> bool {
        if self.screen != Screen::Table || self.quit {
            return false;
        }
        let mut changed = false;
        // A bound, in case a step revealed nothing: a game has far fewer steps.
        for _ in 0..100_000 {
            if let Some(ev) = self.queue.pop_front() {
                let notable = self.reveal(&ev, true);
                changed = true;
                if self.queue.is_empty() {
                    self.sync();
                }
                if self.screen != Screen::Table {
                    return true;
                }
                if notable {
                    // What goes with it silently (the hand dealt after the
                    // deal's line, the chips after a bet) shows with it.
                    while self.queue.front().is_some_and(|e| self.line(e).is_none()) {
                        if let Some(ev) = self.queue.pop_front() {
                            self.reveal(&ev, true);
                        }
                    }
                    if self.queue.is_empty() {
                        self.sync();
                    }
                    return true;
                }
                continue;
            }
            match self.game.pending() {
                Pending::GameOver => {
                    self.sync();
                    self.screen = Screen::Standings;
                    return true;
                }
                Pending::Decide { seat, .. } if seat == HUMAN => {
                    self.sync();
                    return changed;
                }
                Pending::Chance(_) => {
                    let mut rng = step_rng(self.seed, self.record.steps.len());
                    let chance = DealChance::random(self.game.rules(), &mut rng);
                    self.step(Step::Chance(chance));
                }
                Pending::Decide { seat, .. } => {
                    let action = self.bot_action(seat);
                    self.step(Step::Act { seat, action });
                }
            }
        }
        changed
    }

    /// Reveals everything up to the human's next decision (each lead of
    /// theirs is one, even with one card), the end of the deal or the end
    /// of the game.
    pub fn skip(&mut self) {
        while self.busy() {
            if !self.tick() {
                break;
            }
        }
    }

    /// What the bot in `seat` does now.
    fn bot_action(&mut self, seat: Seat) -> Action {
        let info = InfoSet::new(&self.game, seat);
        let mut rng = step_rng(self.seed, self.record.steps.len());
        let bot = self
            .bots
            .get_mut(usize::from(seat))
            .and_then(Option::as_mut);
        let action = match bot {
            Some(bot) => bot.act_in(&info, &mut rng),
            None => self.hint_bot.act_in(&info, &mut rng),
        };
        if self.game.check(seat, action).is_ok() {
            action
        } else {
            // A bot's bug must not stop the human's game: the first legal move.
            let action_said = action_words(action, self.words.lang);
            self.log.push(self.words.says(
                "term-bot-illegal",
                seat,
                &[("action", action_said.into())],
            ));
            self.game
                .legal(seat)
                .first()
                .copied()
                .unwrap_or(Action::Pass)
        }
    }

    /// Applies a step to the engine and queues its events for the screen.
    fn step(&mut self, step: Step) {
        let mut events = Vec::new();
        match self.game.step(&step, &mut events) {
            Ok(()) => {
                self.record.steps.push(step);
                self.queue.extend(
                    events
                        .into_iter()
                        .filter(|e| e.audience().includes(Some(HUMAN))),
                );
            }
            Err(e) => {
                self.message = Some(self.say("term-refused", &[("why", e.to_string().into())]));
            }
        }
    }

    /// The screen catches up with the engine; a new decision of the human's
    /// gets its input prepared.
    fn sync(&mut self) {
        self.shown = self.game.view(Some(HUMAN));
        self.actor = None;
        if let Some(decision) = self.my_decision() {
            if self.input.step != Some(self.record.steps.len()) {
                self.prepare(decision);
            }
        }
    }

    /// Fresh input for `decision`: the amount at its minimum, the best five
    /// chosen, the cursor on the first card that may be led.
    fn prepare(&mut self, decision: Decision) {
        self.asked_this_deal = true;
        // A decision is taken on the newest moves: a scrolled log jumps back.
        if self.panel == Panel::Log {
            self.scroll = 0;
        }
        let hand = text::sorted_hand(self.shown.hand);
        self.input = Input {
            step: Some(self.record.steps.len()),
            ..Input::default()
        };
        self.hint = None;
        match decision {
            Decision::AuctionBid { min, .. } | Decision::PaySuitBid { min, .. } => {
                self.input.amount = min;
            }
            Decision::Open { max_bet } => self.input.amount = max_bet.min(1),
            Decision::Respond { max_raise, .. } => self.input.amount = max_raise.min(1),
            Decision::ChooseFive { from } => {
                self.input.five = self.game.rules().evaluator().best_five(from).1;
            }
            Decision::Lead { cards } => {
                // The lowest of a suit first: a card that is not the lowest is a misplay.
                let proper = hand
                    .iter()
                    .position(|&c| cards.contains(c) && !self.is_misplay(c));
                let any = hand.iter().position(|&c| cards.contains(c));
                self.input.cursor = proper.or(any).unwrap_or(0);
            }
            _ => {}
        }
    }

    /// M9a: leading `c` would be a misplay (it is not the lowest of its suit).
    pub(super) fn is_misplay(&self, c: Card) -> bool {
        self.shown.hand.lowest_of(c.suit()) != Some(c)
    }

    /// What the words need to know now.
    pub(super) fn context(&self) -> Context {
        let live = self.game.view(Some(HUMAN));
        Context {
            pay_suit: self.shown.pay_suit.or(live.pay_suit),
            deals_total: self.shown.deals_total,
            spare_known: live.spare_known | self.shown.spare_known,
            misplays: self.game.rules().misplays == Misplays::Penalised,
        }
    }

    /// Shows one event: the log line, the ledger, and the table as it is
    /// after it. Returns whether it made a line of the log. `live` is off
    /// while a resumed game's past is rebuilt (no summaries then).
    fn reveal(&mut self, ev: &Event, live: bool) -> bool {
        let line = self.line(ev);
        let not_asked = match ev {
            Event::AuctionUnsold => self.why_not_asked_to_bid(),
            Event::DealStarted { .. } if live => {
                self.asked_this_deal = false;
                None
            }
            Event::DealEnded { .. } if live && !self.asked_this_deal => {
                let poker = match self.game.rules().poker {
                    PokerRule::None => "no",
                    _ => "yes",
                };
                let why = self.say("term-nothing-to-decide", &[("poker", poker.into())]);
                self.notes.push(why.clone());
                Some(why)
            }
            _ => None,
        };
        match ev {
            Event::AuctionSold { .. } => self.sold = true,
            Event::Swapped { .. } => self.sold = false,
            _ => {}
        }
        self.patch(ev, live);
        match line {
            Some(line) => {
                self.log.push(line);
                self.log.extend(not_asked);
                if self.log.len() > 2000 {
                    self.log.drain(..500);
                }
                true
            }
            None => false,
        }
    }

    /// D5: an auction that closes unsold before the human was asked closed
    /// because nobody might bid; the human hears why they could not (a bonus
    /// card in their hand), since no question ever told them.
    fn why_not_asked_to_bid(&self) -> Option<String> {
        let auction = self.shown.auction.as_ref()?;
        let asked = !auction.bidding.get(usize::from(HUMAN)).copied()? || auction.high.is_some();
        if asked || self.shown.dealer == HUMAN || !self.game.rules().bonus_card_limits {
            return None;
        }
        self.bonus_words(self.shown.hand)
            .map(|cards| self.say("term-bonus-no-bid", &cards))
    }

    /// D5: the arguments of a "you hold a bonus card" line, if `hand` has one.
    pub(super) fn bonus_words(&self, hand: CardSet) -> Option<[(&'static str, Value<'static>); 2]> {
        let bonus = self.game.bonus_cards(hand);
        (!bonus.is_empty()).then(|| {
            [
                ("cards", text::cards(bonus).into()),
                ("n", bonus.len().into()),
            ]
        })
    }

    /// The event's line in the log, if it has one.
    fn line(&self, ev: &Event) -> Option<String> {
        match ev {
            // The buyer's swap goes without saying after "buys the hand".
            Event::Swapped { .. } if self.sold => None,
            _ => self.words.event(ev, &self.context()),
        }
    }

    /// Keeps what a deal's end screen says besides the chips: how Michigan
    /// ended, and the hands of a final pot.
    fn note(&mut self, ev: &Event) {
        let note = match ev {
            Event::WentOut { seat } => {
                let card = self
                    .shown
                    .last_played
                    .filter(|(s, _)| s == seat)
                    .map_or("none".to_owned(), |(_, c)| text::card(c));
                self.words
                    .says("term-note-went-out", *seat, &[("card", card.into())])
            }
            Event::PlayBlocked => self.say("term-note-blocked", &[]),
            Event::FinalPotRound { .. } => {
                self.final_pot = true;
                return;
            }
            Event::DealStarted { .. } => {
                self.final_pot = false;
                return;
            }
            Event::FaceUp { .. } | Event::Showed { .. } if self.final_pot => match self.line(ev) {
                Some(line) => self.say("term-note-final-pot", &[("line", line.into())]),
                None => return,
            },
            _ => return,
        };
        self.notes.push(note);
    }

    /// The table as it is after `ev`.
    #[allow(clippy::too_many_lines)] // one arm per event, each short
    fn patch(&mut self, ev: &Event, live: bool) {
        self.note(ev);
        let n = usize::from(self.shown.players);
        let v = &mut self.shown;
        match ev {
            Event::Transfer(t) => {
                for (account, add) in [(t.from, false), (t.to, true)] {
                    let chips = match account {
                        Account::Stack(s) => v.stacks.get_mut(usize::from(s)),
                        Account::Space(sp) => v
                            .layout
                            .iter_mut()
                            .find(|(space, _)| *space == sp)
                            .map(|(_, c)| c),
                    };
                    if let Some(c) = chips {
                        *c = if add {
                            c.saturating_add(t.amount)
                        } else {
                            c.saturating_sub(t.amount)
                        };
                    }
                }
                self.ledger_now.push(*t);
            }
            Event::DealStarted {
                number,
                dealer,
                pay_suit,
                sequence,
            } => {
                v.deal_number = *number;
                v.dealer = *dealer;
                v.pay_suit = *pay_suit;
                v.sequence = Some(*sequence);
                v.stage = Stage::Spare;
                v.hand = CardSet::EMPTY;
                v.played.iter_mut().for_each(|p| *p = CardSet::EMPTY);
                v.known_cards.iter_mut().for_each(|p| *p = CardSet::EMPTY);
                v.spare_known = CardSet::EMPTY;
                v.last_played = None;
                v.betting = None;
                v.auction = None;
                v.my_five = None;
                v.chose_five.iter_mut().for_each(|c| *c = false);
                self.stop = None;
                // Hand sizes follow from the deal (D1). Not from the live
                // game: it may be well ahead of what is shown (after a
                // resume, or when forced plays went on in the same step).
                let (sizes, spare) = dealt_sizes(*dealer, &v.out[..n]);
                v.hand_sizes.clone_from_slice(&sizes);
                v.spare_size = spare;
            }
            Event::Dealt { seat, cards }
            | Event::NewHand { seat, cards }
            | Event::FaceUp { seat, cards } => {
                if *seat == HUMAN {
                    v.hand = *cards;
                }
                if let Some(size) = v.hand_sizes.get_mut(usize::from(*seat)) {
                    *size = cards.len();
                }
            }
            Event::PaySuitNamed { suit, .. } => v.pay_suit = Some(*suit),
            Event::AuctionOpened { item } => {
                v.stage = Stage::Auction;
                v.auction = Some(AuctionView {
                    item: Some(*item),
                    high: None,
                    bidding: (0..n).map(|s| s != usize::from(v.dealer)).collect(),
                });
            }
            Event::Bid { seat, amount } => {
                if let Some(a) = &mut v.auction {
                    a.high = Some((*seat, *amount));
                }
                self.actor = Some(*seat);
            }
            Event::Passed { seat } => {
                if let Some(b) = v
                    .auction
                    .as_mut()
                    .and_then(|a| a.bidding.get_mut(usize::from(*seat)))
                {
                    *b = false;
                }
                self.actor = Some(*seat);
            }
            Event::AuctionSold { seat, .. } => {
                v.auction = None;
                self.actor = Some(*seat);
            }
            Event::AuctionUnsold => v.auction = None,
            Event::Checked { seat } | Event::Folded { seat } => {
                let b = betting(v, n);
                if matches!(ev, Event::Folded { .. }) {
                    if let Some(f) = b.folded.get_mut(usize::from(*seat)) {
                        *f = true;
                    }
                }
                self.actor = Some(*seat);
            }
            Event::Bet { seat, amount }
            | Event::Called { seat, amount, .. }
            | Event::Raised { seat, amount, .. } => {
                let b = betting(v, n);
                if let Some(c) = b.contributed.get_mut(usize::from(*seat)) {
                    *c += amount;
                    b.current = b.current.max(*c);
                }
                if matches!(ev, Event::Raised { .. }) {
                    b.raises += 1;
                }
                self.actor = Some(*seat);
            }
            Event::ChoseFive { seat, cards } if *seat == HUMAN => v.my_five = Some(*cards),
            Event::SetFiveApart { seat } => {
                v.stage = Stage::ChooseFive;
                if let Some(c) = v.chose_five.get_mut(usize::from(*seat)) {
                    *c = true;
                }
                self.actor = Some(*seat);
            }
            Event::Showed { seat, cards, .. } => {
                if let Some(k) = v.known_cards.get_mut(usize::from(*seat)) {
                    *k |= *cards;
                }
                self.actor = Some(*seat);
            }
            Event::Led { seat, card, .. } | Event::Played { seat, card } => {
                if matches!(ev, Event::Led { .. }) {
                    self.stop = None;
                    v.betting = None;
                }
                v.stage = Stage::Michigan;
                let s = usize::from(*seat);
                if let Some(p) = v.played.get_mut(s) {
                    p.insert(*card);
                }
                if let Some(size) = v.hand_sizes.get_mut(s) {
                    *size = size.saturating_sub(1);
                }
                if *seat == HUMAN {
                    v.hand.remove(*card);
                }
                v.last_played = Some((*seat, *card));
                self.actor = Some(*seat);
            }
            Event::RunStopped { next, reason } => self.stop = Some((*next, *reason)),
            Event::DealerKept { seat }
            | Event::Swapped { seat }
            | Event::PayCardsShown { seat, .. }
            | Event::CannotLead { seat }
            | Event::WentOut { seat } => self.actor = Some(*seat),
            Event::PlayerOut { seat, .. } => {
                if let Some(o) = v.out.get_mut(usize::from(*seat)) {
                    *o = true;
                }
            }
            Event::FinalPotRound { .. } => {
                v.stage = Stage::FinalPot;
                v.betting = None;
                v.played.iter_mut().for_each(|p| *p = CardSet::EMPTY);
                self.stop = None;
            }
            Event::DealEnded { number } => {
                v.stage = Stage::Dealing;
                self.ledger_last = Some(DealLedger {
                    number: *number,
                    transfers: std::mem::take(&mut self.ledger_now),
                    pay_suit: v.pay_suit,
                    stacks: v.stacks.to_vec(),
                    notes: std::mem::take(&mut self.notes),
                });
                if live {
                    self.screen = Screen::DealOver;
                    self.scroll = 0;
                    self.save_wanted = true;
                }
            }
            Event::GameOver { .. } => {
                v.stage = Stage::GameOver;
                if live {
                    self.screen = Screen::Standings;
                    self.scroll = 0;
                    self.save_wanted = true;
                }
            }
            _ => {}
        }
    }

    // ----- keys -----

    /// One key press.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        // Any key but the confirming `w` keeps the card (and its question goes).
        let withhold_armed = std::mem::take(&mut self.confirm_withhold);
        if withhold_armed {
            self.message = None;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c' | 'd'))
        {
            self.quit = true;
            return;
        }
        if self.screen == Screen::Standings {
            match key.code {
                KeyCode::Char('q' | 'Q') | KeyCode::Esc | KeyCode::Enter => self.quit = true,
                code => self.page_key(code),
            }
            return;
        }
        if self.confirm_quit {
            self.confirm_quit = false;
            if matches!(key.code, KeyCode::Char('y' | 'Y' | 'q') | KeyCode::Enter) {
                self.quit = true;
            }
            return;
        }
        if matches!(key.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc) {
            self.confirm_quit = true;
            return;
        }
        match self.screen {
            Screen::DealOver => match key.code {
                KeyCode::Enter | KeyCode::Char(' ' | 'n') => {
                    self.screen = Screen::Table;
                    self.scroll = 0;
                }
                code => self.page_key(code),
            },
            Screen::Standings => self.page_key(key.code),
            Screen::Table => self.table_key(key, withhold_armed),
        }
    }

    /// Up and down move a page of text read from the top.
    fn page_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::PageDown => self.scroll += 5,
            KeyCode::Down => self.scroll += 1,
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(5),
            KeyCode::Up => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Home => self.scroll = 0,
            _ => {}
        }
    }

    fn table_key(&mut self, key: KeyEvent, withhold_armed: bool) {
        match key.code {
            KeyCode::Char('l' | 'L') => {
                self.panel = match self.panel {
                    Panel::Log => Panel::Ledger,
                    Panel::Ledger if self.ledger_last.is_some() => Panel::LastLedger,
                    _ => Panel::Log,
                };
                self.scroll = 0;
                return;
            }
            KeyCode::PageUp | KeyCode::PageDown => {
                scroll_back(&mut self.scroll, key.code);
                return;
            }
            _ => {}
        }
        if self.busy() {
            if matches!(key.code, KeyCode::Char(' ') | KeyCode::Enter) {
                self.skip();
            }
            return;
        }
        let Some(decision) = self.my_decision() else {
            return;
        };
        if key.code == KeyCode::Char('?') {
            self.hint();
            return;
        }
        self.message = None;
        if let Decision::Follow { card } = decision
            && !withhold_armed
            && matches!(key.code, KeyCode::Char('w' | 'W'))
        {
            self.confirm_withhold = true;
            let card = text::card(card);
            self.message = Some(self.say("term-withhold-confirm", &[("card", card.into())]));
            return;
        }
        if let Some(action) = self.decision_key(decision, key.code) {
            self.act(action);
        }
    }

    /// The key's answer to `decision`, if it completes one.
    fn decision_key(&mut self, decision: Decision, code: KeyCode) -> Option<Action> {
        let ch = match code {
            KeyCode::Char(c) => Some(c.to_ascii_lowercase()),
            _ => None,
        };
        match decision {
            Decision::SpareOption {
                can_swap,
                can_auction,
                can_swap_and_auction,
            } => match ch {
                Some('k') => Some(Action::Keep),
                Some('s') if can_swap => Some(Action::Swap),
                Some('a') if can_auction => Some(Action::AuctionSpare),
                Some('w') if can_swap_and_auction => Some(Action::SwapAndAuction),
                Some('s' | 'a' | 'w') => {
                    self.message = Some(self.say("term-not-allowed", &[]));
                    None
                }
                _ => None,
            },
            Decision::AuctionBid { min, max, .. } | Decision::PaySuitBid { min, max } => {
                match (ch, code) {
                    (Some('p'), _) => Some(Action::Pass),
                    // Nothing to bid: Enter passes, the only answer.
                    (_, KeyCode::Enter) if min > max => Some(Action::Pass),
                    (Some('b'), _) | (_, KeyCode::Enter) => {
                        self.amount_action(min, max, Action::Bid)
                    }
                    _ => {
                        self.amount_key(code, min, max);
                        None
                    }
                }
            }
            Decision::NamePaySuit => match ch {
                Some('c') => Some(Action::NameSuit(Suit::Clubs)),
                Some('d') => Some(Action::NameSuit(Suit::Diamonds)),
                Some('h') => Some(Action::NameSuit(Suit::Hearts)),
                Some('s') => Some(Action::NameSuit(Suit::Spades)),
                _ => None,
            },
            Decision::Open { max_bet } => match (ch, code) {
                (Some('c' | 'k'), _) => Some(Action::Check),
                (Some('b'), _) if max_bet > 0 => self.amount_action(1, max_bet, Action::Bet),
                _ => {
                    self.amount_key(code, 1, max_bet);
                    None
                }
            },
            Decision::Respond { max_raise, .. } => match (ch, code) {
                (Some('f'), _) => Some(Action::Fold),
                (Some('c'), _) => Some(Action::Call),
                (Some('r'), _) if max_raise > 0 => self.amount_action(1, max_raise, Action::Raise),
                _ => {
                    self.amount_key(code, 1, max_raise);
                    None
                }
            },
            Decision::ChooseFive { from } => self.choose_five_key(from, ch, code),
            Decision::Lead { cards } => self.lead_key(cards, ch, code),
            Decision::Follow { .. } => match (ch, code) {
                (Some('p'), _) | (_, KeyCode::Enter) => Some(Action::Play),
                (Some('w'), _) => Some(Action::Withhold),
                _ => None,
            },
        }
    }

    /// The amount typed, if it is in range.
    fn amount_action(&mut self, min: u32, max: u32, make: fn(u32) -> Action) -> Option<Action> {
        let x = self.input.amount;
        if (min..=max).contains(&x) {
            Some(make(x))
        } else {
            self.message = Some(self.say(
                "term-amount-range",
                &[("min", min.into()), ("max", max.into())],
            ));
            None
        }
    }

    /// Arrows, +/-, digits and backspace change the amount.
    fn amount_key(&mut self, code: KeyCode, min: u32, max: u32) {
        if max < min {
            return;
        }
        let a = &mut self.input.amount;
        match code {
            KeyCode::Left | KeyCode::Char('-') => *a = a.saturating_sub(1).max(min),
            KeyCode::Right | KeyCode::Char('+' | '=') => *a = (*a + 1).clamp(min, max),
            KeyCode::Down => *a = a.saturating_sub(5).max(min),
            KeyCode::Up => *a = a.saturating_add(5).clamp(min, max),
            KeyCode::Home => *a = min,
            KeyCode::End => *a = max,
            KeyCode::Backspace => {
                *a /= 10;
                self.input.typing = true;
            }
            KeyCode::Char(d) if d.is_ascii_digit() => {
                let digit = u32::from(d as u8 - b'0');
                let longer = a.saturating_mul(10).saturating_add(digit);
                *a = if self.input.typing && longer <= max {
                    longer
                } else {
                    digit
                };
                self.input.typing = true;
            }
            _ => {}
        }
    }

    fn choose_five_key(
        &mut self,
        from: CardSet,
        ch: Option<char>,
        code: KeyCode,
    ) -> Option<Action> {
        let hand = text::sorted_hand(from);
        let len = hand.len();
        match (ch, code) {
            (_, KeyCode::Left) => self.input.cursor = (self.input.cursor + len - 1) % len.max(1),
            (_, KeyCode::Right) => self.input.cursor = (self.input.cursor + 1) % len.max(1),
            (Some(' ' | 't' | 'x'), _) | (_, KeyCode::Up | KeyCode::Down) => {
                if let Some(&c) = hand.get(self.input.cursor) {
                    if self.input.five.contains(c) {
                        self.input.five.remove(c);
                    } else if self.input.five.len() < 5 {
                        self.input.five.insert(c);
                    } else {
                        self.message = Some(self.say("term-five-full", &[]));
                    }
                }
            }
            (Some('b'), _) => self.input.five = self.game.rules().evaluator().best_five(from).1,
            (_, KeyCode::Enter) => {
                if self.input.five.len() == 5 {
                    return Some(Action::Choose(self.input.five));
                }
                self.message =
                    Some(self.say("term-five-exactly", &[("n", self.input.five.len().into())]));
            }
            _ => {}
        }
        None
    }

    fn lead_key(&mut self, cards: CardSet, ch: Option<char>, code: KeyCode) -> Option<Action> {
        let hand = text::sorted_hand(self.shown.hand);
        let legal: Vec<usize> = (0..hand.len())
            .filter(|&i| cards.contains(hand[i]))
            .collect();
        if legal.is_empty() {
            return None;
        }
        let at = legal.iter().position(|&i| i == self.input.cursor);
        match (ch, code) {
            (_, KeyCode::Left) => {
                let k = at.map_or(0, |k| (k + legal.len() - 1) % legal.len());
                self.input.cursor = legal[k];
            }
            (_, KeyCode::Right) => {
                let k = at.map_or(0, |k| (k + 1) % legal.len());
                self.input.cursor = legal[k];
            }
            (Some(c @ ('c' | 'd' | 'h' | 's')), _) => {
                let suit = match c {
                    'c' => Suit::Clubs,
                    'd' => Suit::Diamonds,
                    'h' => Suit::Hearts,
                    _ => Suit::Spades,
                };
                match legal.iter().find(|&&i| hand[i].suit() == suit) {
                    Some(&i) => self.input.cursor = i,
                    None => {
                        self.message = Some(
                            self.say("term-may-not-lead-suit", &[("suit", suit.name().into())]),
                        );
                    }
                }
            }
            (_, KeyCode::Enter) => {
                return match hand.get(self.input.cursor) {
                    Some(&c) if cards.contains(c) => Some(Action::Lead(c)),
                    _ => {
                        self.message = Some(self.say("term-may-not-lead", &[]));
                        None
                    }
                };
            }
            _ => {}
        }
        None
    }

    /// Plays the human's action, then shows its first event.
    fn act(&mut self, action: Action) {
        if let Err(e) = self.game.check(HUMAN, action) {
            self.message = Some(e.to_string());
            return;
        }
        self.hint = None;
        self.step(Step::Act {
            seat: HUMAN,
            action,
        });
        self.tick();
    }

    /// What the expert bot would do in the human's place; the input is set
    /// to it, so Enter (or the action's key) takes the advice.
    fn hint(&mut self) {
        let view = self.game.view(Some(HUMAN));
        if view.decision.is_none() {
            return;
        }
        // The expert bot's advice: a fixed number of playouts, so the same
        // position always gets the same hint, in a few milliseconds.
        let info = InfoSet::new(&self.game, HUMAN);
        let advice =
            tripoley_bots::advise(&info, self.game.rules(), Budget::playouts(HINT_PLAYOUTS));
        let action = advice.best;
        let mut moved = String::new();
        match action {
            Action::Bid(x) | Action::Bet(x) | Action::Raise(x) => {
                self.input.amount = x;
                self.input.typing = false;
            }
            Action::Choose(five) => moved = self.hint_five(five, &view),
            Action::Lead(c) => {
                if let Some(i) = text::sorted_hand(self.shown.hand)
                    .iter()
                    .position(|&h| h == c)
                {
                    // The cursor jumps to the advised card: say so, or the
                    // player wonders why it moved.
                    if i != self.input.cursor {
                        moved = format!(
                            " {}",
                            self.say("term-hint-cursor", &[("card", text::card(c).into())])
                        );
                    }
                    self.input.cursor = i;
                }
            }
            _ => {}
        }
        // Whose advice it is, and on what it rests: the expert's search
        // plays each candidate out in deals consistent with what you saw.
        // Why: what you would be worth at the deal's end, this and the next
        // best answer, over the sample deals.
        let mut means = advice.means;
        means.sort_by(|a, b| b.1.total_cmp(&a.1));
        let lang = self.words.lang;
        let why = match (means.first(), means.get(1)) {
            (Some(&(_, best)), Some(&(next, worth))) => format!(
                " ({})",
                self.say(
                    "term-hint-why",
                    &[
                        ("best", lang.decimal(best, 1).into()),
                        ("next", action_words(next, lang).into()),
                        ("worth", lang.decimal(worth, 1).into()),
                    ],
                )
            ),
            _ => String::new(),
        };
        let hint = self.say(
            "term-hint",
            &[
                ("n", lang.integer(u64::from(HINT_PLAYOUTS)).into()),
                ("action", action_words(action, lang).into()),
                ("why", why.into()),
            ],
        );
        self.hint = Some(hint + &moved);
    }

    /// The expert's five, advised: it replaces the five picked for the
    /// player (or none), never one they chose themselves unless they ask
    /// again; either way the hint says what became of their five.
    fn hint_five(&mut self, five: CardSet, view: &View) -> String {
        let Some(Decision::ChooseFive { from }) = view.decision else {
            return String::new();
        };
        if self.input.five == five {
            return String::new();
        }
        let preselected = self.game.rules().evaluator().best_five(from).1;
        let untouched = self.input.five == preselected || self.input.five.is_empty();
        if untouched || self.input.hinted_five == Some(five) {
            self.input.five = five;
            self.input.hinted_five = None;
            format!(" {}", self.say("term-hint-five-picked", &[]))
        } else {
            self.input.hinted_five = Some(five);
            format!(" {}", self.say("term-hint-five-kept", &[]))
        }
    }
}

/// The cards each seat holds as a deal starts, and the spare's (D1): the
/// deck is dealt one at a time from the dealer's left among the players
/// still in, the spare last, the first `52 % hands` hands one card more.
fn dealt_sizes(dealer: Seat, out: &[bool]) -> (Vec<u32>, u32) {
    let n = out.len();
    let order: Vec<usize> = (1..=n)
        .map(|k| (usize::from(dealer) + k) % n)
        .filter(|&s| !out[s])
        .collect();
    let hands = order.len() as u32 + 1;
    let size = |i: usize| 52 / hands + u32::from((i as u32) < 52 % hands);
    let mut sizes = vec![0; n];
    for (i, &s) in order.iter().enumerate() {
        sizes[s] = size(i);
    }
    (sizes, size(order.len()))
}

/// The betting round on screen, started if it was not.
fn betting(v: &mut View, n: usize) -> &mut BettingView {
    v.stage = Stage::Betting;
    v.betting.get_or_insert_with(|| BettingView {
        contributed: std::iter::repeat_n(0, n).collect(),
        folded: std::iter::repeat_n(false, n).collect(),
        current: 0,
        raises: 0,
    })
}

/// An action's parts as the catalogues name them: its kind (the
/// selector's key), its amount, its suit and its cards in text.
fn action_parts(action: Action) -> (&'static str, u32, &'static str, String) {
    match action {
        Action::Keep => ("keep", 0, "", String::new()),
        Action::Swap => ("swap", 0, "", String::new()),
        Action::AuctionSpare => ("auction_spare", 0, "", String::new()),
        Action::SwapAndAuction => ("swap_and_auction", 0, "", String::new()),
        Action::Bid(x) => ("bid", x, "", String::new()),
        Action::Pass => ("pass", 0, "", String::new()),
        Action::NameSuit(s) => ("name_suit", 0, s.name(), String::new()),
        Action::Check => ("check", 0, "", String::new()),
        Action::Bet(x) => ("bet", x, "", String::new()),
        Action::Call => ("call", 0, "", String::new()),
        Action::Raise(x) => ("raise", x, "", String::new()),
        Action::Fold => ("fold", 0, "", String::new()),
        Action::Choose(five) => ("choose", 0, "", text::cards(five)),
        Action::Lead(c) => ("lead", 0, "", text::card(c)),
        Action::Play => ("play", 0, "", String::new()),
        Action::Withhold => ("withhold", 0, "", String::new()),
    }
}

/// An action in words, as the hint advises it ("keep the hand", "bid 3").
fn action_words(action: Action, lang: Lang) -> String {
    let (what, n, suit, cards) = action_parts(action);
    lang.t(
        "term-action",
        &[
            ("action", what.into()),
            ("n", n.into()),
            ("suit", suit.into()),
            ("cards", cards.into()),
        ],
    )
}

/// A move as it was made, by whoever made it, in the words the browser's
/// analysis uses (`move` in words.ftl): the hint's words speak to the
/// player (Spanish "retirarte", "quedarte tu mano"), which is wrong of
/// another player's move, and of the expert's in an analysis.
pub fn move_words(action: Action, lang: Lang) -> String {
    let (what, n, suit, cards) = action_parts(action);
    match action {
        Action::Bid(_) | Action::Bet(_) | Action::Raise(_) => lang.t(
            "move-amount",
            &[("action", what.into()), ("amount", n.into())],
        ),
        Action::NameSuit(_) => lang.t("move-name-suit", &[("suit", suit.into())]),
        Action::Choose(_) => lang.t("move-pick", &[("cards", cards.into())]),
        Action::Lead(_) => lang.t("move-lead", &[("card", cards.into())]),
        _ => lang.t("move", &[("action", what.into())]),
    }
}

/// Up and down scroll a log (or ledger) read back from its end: `scroll` is
/// how many lines above the end the view stands. Both games' tables use it.
pub(super) fn scroll_back(scroll: &mut usize, code: KeyCode) {
    match code {
        KeyCode::PageUp => *scroll += 5,
        KeyCode::Up => *scroll += 1,
        KeyCode::PageDown => *scroll = scroll.saturating_sub(5),
        KeyCode::Down => *scroll = scroll.saturating_sub(1),
        KeyCode::End => *scroll = 0,
        _ => {}
    }
}
