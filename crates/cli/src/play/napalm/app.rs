//! [`NapalmApp`]: a game of Napalm against bots as a state machine of keys
//! and timer ticks, apart from any terminal, so tests can drive it.
//!
//! As in the Tripoley game, the engine runs ahead: a step returns all its
//! events at once, and the screen shows them one at a time. `shown` is the
//! human's view patched event by event, replaced by the engine's own view
//! once the last event is out. Events the human may not see (others' cards,
//! comparisons they took no part in, N7) change nothing on the screen; a
//! comparison among others is told without its cards.

use std::collections::VecDeque;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tripoley_bots::BotKind;
use tripoley_cards::{Card, CardSet, Deck, Evaluator};
use tripoley_game::Bot;
use tripoley_napalm::{
    Account, Action, Decision, Event, HeuristicNapalmBot, NapalmGame, NapalmRecord, NapalmRules,
    NapalmStep, NapalmView, Pending, Reason, Round, Seat, beats_share,
};

use super::super::app::{scroll_back, step_rng};
use super::super::text::{self, Words};
use crate::napalm::napalm_bot;
use tripoley_i18n::words::hand_rank;
use tripoley_i18n::{Lang, Value};

/// The seat of the human (bots fill the others).
pub const HUMAN: Seat = 0;

/// A Napalm table to sit down at: the record so far (empty for a new
/// game), the bot of each seat and the seed of chance.
pub struct NapalmTable {
    /// The game so far; its names are the players' names.
    pub record: NapalmRecord,
    /// The bot in each seat; `None` for the human's seat.
    pub bots: Vec<Option<BotKind>>,
    /// Seeds chance and the bots, step by step ([`step_rng`]).
    pub seed: u64,
}

impl NapalmTable {
    /// A new game: the human named `name` in seat 0, `bots` in the others.
    pub fn new_game(rules: NapalmRules, name: String, bots: &[BotKind], seed: u64) -> NapalmTable {
        let mut names = vec![name];
        names.extend((1..=bots.len()).map(|i| format!("Bot {i}")));
        let mut kinds = vec![None];
        kinds.extend(bots.iter().copied().map(Some));
        NapalmTable {
            record: NapalmRecord::new(rules, names),
            bots: kinds,
            seed,
        }
    }
}

/// A game of Napalm with one human against bots, driven by keys.
#[allow(clippy::struct_excessive_bools)] // independent flags of the screen
pub struct NapalmApp {
    game: NapalmGame,
    /// The players' names, the human's first, and how events put them.
    pub(super) words: Words,
    /// The bot of each seat (`None`: the human).
    pub(super) kinds: Vec<Option<BotKind>>,
    bots: Vec<Option<Box<dyn Bot<NapalmGame>>>>,
    seed: u64,
    /// Every step so far (decks and actions): chance and the bots draw from
    /// an RNG seeded from the seed and the number of steps before theirs.
    record: NapalmRecord,
    /// A hand has ended since the game was last saved.
    save_wanted: bool,
    /// The human's view as the screen shows it.
    pub(super) shown: NapalmView,
    queue: VecDeque<Event>,
    /// The events in plain words.
    pub(super) log: Vec<String>,
    /// Lines scrolled back from the end of the log.
    pub(super) scroll: usize,
    /// This round's answers to the dealer's lone Yes.
    pub(super) challenged: Vec<Option<bool>>,
    /// The human's cards dealt last.
    last_dealt: CardSet,
    /// Who took the pot, and how much, once the game is over.
    pub(super) result: Option<(Vec<Seat>, u32)>,
    /// The pot paid out so far at the end.
    pot_paid: u32,
    /// The final screen is up.
    pub(super) over: bool,
    /// `q` was pressed: `y` confirms.
    pub(super) confirm_quit: bool,
    quit: bool,
    /// What the heuristic bot would do, after `?`.
    pub(super) hint: Option<String>,
    /// Whether the screen may use colours (`NO_COLOR` unset).
    pub(super) color: bool,
}

impl NapalmApp {
    /// Sits down at a table: a new game, or a saved one replayed up to
    /// where it stopped (what the human saw is shown at once).
    pub fn new(table: NapalmTable, lang: Lang) -> Result<NapalmApp, String> {
        let NapalmTable { record, bots, seed } = table;
        let (game, events) = record.replay().map_err(|e| e.to_string())?;
        let players = record.names.len();
        if bots.len() != players {
            return Err(format!("{} bots for {players} seats", bots.len()));
        }
        let shown = before_start(&game);
        let mut app = NapalmApp {
            bots: bots.iter().map(|k| k.map(napalm_bot)).collect(),
            game,
            words: Words {
                names: record.names.clone(),
                me: HUMAN,
                lang,
            },
            kinds: bots,
            seed,
            record,
            save_wanted: false,
            shown,
            queue: VecDeque::new(),
            log: Vec::new(),
            scroll: 0,
            challenged: vec![None; players],
            last_dealt: CardSet::EMPTY,
            result: None,
            pot_paid: 0,
            over: false,
            confirm_quit: false,
            quit: false,
            hint: None,
            color: true,
        };
        if app.record.steps.is_empty() {
            app.queue = events.into();
        } else {
            for ev in &events {
                app.reveal(ev);
            }
            let resumed = app.say("term-resumed", &[("n", app.record.steps.len().into())]);
            app.log.push(resumed);
            app.sync();
        }
        Ok(app)
    }

    /// The human's view as the game has it now (what the screen catches up to).
    #[cfg(test)]
    pub fn game_view(&self) -> NapalmView {
        self.game.view(Some(HUMAN))
    }

    /// The record so far.
    pub fn record(&self) -> &NapalmRecord {
        &self.record
    }

    /// The tokens that win the game (N1).
    pub fn tokens_to_win(&self) -> u32 {
        self.game.rules().tokens_to_win
    }

    /// The seed of chance and the bots.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A message for the player, at the end of the log.
    pub fn tell(&mut self, message: String) {
        self.log.push(message);
        self.scroll = 0;
    }

    /// Whether a hand ended since the last call (time to save the game).
    pub fn take_save_request(&mut self) -> bool {
        std::mem::take(&mut self.save_wanted)
    }

    /// Whether the player asked to quit.
    pub fn wants_quit(&self) -> bool {
        self.quit
    }

    /// Whether the game is over (everything shown).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The message `id` in the game's language.
    pub(super) fn say(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.words.lang.t(id, args)
    }

    /// The winners as a message's arguments: `$who` (all of them), `$count`,
    /// and `$you`: "yes" for the human alone, "among" when the human ties
    /// with `$others` (said in the second person, "ganasteis tú y Bot 1",
    /// never as a name in a list), else "no".
    fn winners_args(&self, winners: &[Seat]) -> Vec<(&'static str, Value<'static>)> {
        let others: Vec<Seat> = winners.iter().copied().filter(|&s| s != HUMAN).collect();
        let you = match winners {
            [one] => self.words.you(*one),
            _ if others.len() < winners.len() => "among".into(),
            _ => "no".into(),
        };
        vec![
            ("who", self.list(winners).into()),
            ("others", self.list(&others).into()),
            ("you", you),
            ("count", winners.len().into()),
        ]
    }

    /// Who took the pot, in a sentence, once the game is over.
    pub fn result_words(&self) -> Option<String> {
        let (winners, pot) = self.result.as_ref()?;
        let mut args = self.winners_args(winners);
        args.push(("pot", (*pot).into()));
        Some(self.say("tn-result", &args))
    }

    /// Whether the game moves on by itself: events to show, or bots or
    /// chance to play, or the end to show.
    pub fn busy(&self) -> bool {
        !self.over
            && !self.quit
            && (!self.queue.is_empty()
                || !matches!(self.game.pending(), Pending::Decide { seat: HUMAN, .. }))
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

    /// Whose turn the screen shows (a bot's, while it thinks).
    pub fn to_act(&self) -> Option<Seat> {
        match self.game.pending() {
            Pending::Decide { seat, .. } if self.queue.is_empty() => Some(seat),
            _ => None,
        }
    }

    /// "You, Bot 1 and Bot 2".
    fn list(&self, seats: &[Seat]) -> String {
        let names: Vec<String> = seats.iter().map(|&s| self.words.who(s)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => self.say(
                "names-and",
                &[
                    ("first", init.join(", ").into()),
                    ("last", last.as_str().into()),
                ],
            ),
        }
    }

    // ----- moving on -----

    /// Shows the next event worth a line (with the silent ones around it),
    /// playing chance's and the bots' next step when none is left. Returns
    /// whether anything changed.
    pub fn tick(&mut self) -> bool {
        if self.over || self.quit {
            return false;
        }
        let mut changed = false;
        // A bound, in case steps showed nothing: a game has far fewer steps.
        for _ in 0..100_000 {
            if let Some(ev) = self.queue.pop_front() {
                let notable = self.reveal(&ev);
                changed = true;
                if notable {
                    while self.queue.front().is_some_and(|e| self.line(e).is_none()) {
                        if let Some(ev) = self.queue.pop_front() {
                            self.reveal(&ev);
                        }
                    }
                    if self.queue.is_empty() {
                        self.sync();
                    }
                    return true;
                }
                if self.queue.is_empty() {
                    self.sync();
                }
                continue;
            }
            match self.game.pending() {
                Pending::GameOver => {
                    self.sync();
                    self.over = true;
                    self.scroll = 0;
                    return true;
                }
                Pending::Decide { seat: HUMAN, .. } => {
                    self.sync();
                    return changed;
                }
                Pending::Deck => {
                    let deck = Deck::shuffled(&mut step_rng(self.seed, self.record.steps.len()));
                    let events = self.game.deal(&deck).expect("the game waits for a deck");
                    self.push(NapalmStep::Deck(deck), events);
                }
                Pending::Decide { seat, .. } => {
                    let view = self.game.view(Some(seat));
                    let mut rng = step_rng(self.seed, self.record.steps.len());
                    let action = match self.bots.get_mut(usize::from(seat)) {
                        Some(Some(bot)) => bot.act(&view, &mut rng),
                        _ => HeuristicNapalmBot.act(&view, &mut rng),
                    };
                    let events = self.game.apply(seat, action).expect("bots answer legally");
                    self.push(NapalmStep::Act { seat, action }, events);
                }
            }
        }
        changed
    }

    /// Shows everything up to the human's next decision or the end.
    pub fn skip(&mut self) {
        while self.busy() {
            if !self.tick() {
                break;
            }
        }
    }

    /// A step, recorded, and its events queued to be shown.
    fn push(&mut self, step: NapalmStep, events: Vec<Event>) {
        self.record.steps.push(step);
        self.save_wanted |= events
            .iter()
            .any(|e| matches!(e, Event::HandEnded { .. } | Event::GameOver { .. }));
        self.queue.extend(events);
    }

    /// The screen catches up with the engine.
    fn sync(&mut self) {
        self.shown = self.game.view(Some(HUMAN));
    }

    /// Shows an event: patches the view and logs its line. Returns whether
    /// it had a line.
    fn reveal(&mut self, ev: &Event) -> bool {
        self.patch(ev);
        let line = self.line(ev);
        if let Some(l) = &line {
            self.log.push(l.clone());
            self.scroll = 0;
        }
        line.is_some()
    }

    /// The view as it is after `ev` (only what the human may see).
    fn patch(&mut self, ev: &Event) {
        if !ev.audience().includes(Some(HUMAN)) {
            return;
        }
        let v = &mut self.shown;
        v.to_act = None;
        v.decision = None;
        match ev {
            Event::HandStarted { number, dealer } => {
                v.hand_number = *number;
                v.dealer = *dealer;
                v.round = None;
                v.cards = CardSet::EMPTY;
                v.seen.iter_mut().for_each(|c| *c = CardSet::EMPTY);
                v.card_counts.iter_mut().for_each(|c| *c = 0);
                v.declared.iter_mut().for_each(|d| *d = None);
                self.challenged.iter_mut().for_each(|d| *d = None);
            }
            Event::PlayerOut { seat, .. } => v.out[usize::from(*seat)] = true,
            Event::Transfer(t) => {
                match t.from {
                    Account::Stack(s) => v.stacks[usize::from(s)] -= t.amount,
                    Account::Pot => v.pot -= t.amount,
                }
                match t.to {
                    Account::Stack(s) => v.stacks[usize::from(s)] += t.amount,
                    Account::Pot => v.pot += t.amount,
                }
                if t.reason == Reason::PotWon {
                    self.pot_paid += t.amount;
                }
            }
            Event::Dealt { seat, cards } => {
                if *seat == HUMAN {
                    // A hand's first cards replace the last hand's (the
                    // engine keeps those until the next deck).
                    if v.round.is_none() {
                        v.cards = CardSet::EMPTY;
                        v.seen.iter_mut().for_each(|c| *c = CardSet::EMPTY);
                    }
                    v.cards |= *cards;
                    self.last_dealt = *cards;
                }
            }
            Event::RoundStarted { round } => {
                v.round = Some(*round);
                let dealt = match round {
                    Round::BestTwo => 2,
                    Round::LowestFive => 5,
                    Round::BestOfSeven => 7,
                };
                for (s, c) in v.card_counts.iter_mut().enumerate() {
                    *c = if v.out[s] { 0 } else { dealt };
                }
                v.declared.iter_mut().for_each(|d| *d = None);
                self.challenged.iter_mut().for_each(|d| *d = None);
            }
            Event::Declared { seat, yes } => v.declared[usize::from(*seat)] = Some(*yes),
            Event::Challenged { seat, yes } => {
                self.challenged[usize::from(*seat)] = Some(*yes);
                if *yes {
                    v.declared[usize::from(*seat)] = Some(true);
                }
            }
            Event::Compared { hands, .. } => {
                for &(s, cards) in hands {
                    if s != HUMAN {
                        v.seen[usize::from(s)] = cards;
                    }
                }
            }
            Event::Token { seat, tokens } => v.tokens[usize::from(*seat)] = *tokens,
            Event::HandEnded { .. } => v.round = None,
            Event::GameOver { winners } => {
                self.result = Some((winners.clone(), self.pot_paid));
            }
        }
    }

    /// The event in plain words, if it deserves a line of the log.
    pub(super) fn line(&self, ev: &Event) -> Option<String> {
        let visible = ev.audience().includes(Some(HUMAN));
        Some(match ev {
            Event::HandStarted { number, dealer } => {
                self.words
                    .says("tn-hand-started", *dealer, &[("n", (*number).into())])
            }
            Event::PlayerOut { seat, chips } => {
                self.words
                    .says("tn-player-out", *seat, &[("chips", (*chips).into())])
            }
            Event::Transfer(t) => match (t.reason, t.from, t.to) {
                (Reason::SideBet, Account::Stack(from), Account::Stack(to)) => self.words.says(
                    "tn-side-bet",
                    from,
                    &[
                        ("to", self.words.who(to).into()),
                        ("to_you", self.words.you(to)),
                        ("n", t.amount.into()),
                    ],
                ),
                (Reason::PotWon, _, Account::Stack(to)) => {
                    self.words.says("tn-pot-won", to, &[("n", t.amount.into())])
                }
                _ => return None,
            },
            Event::Dealt { .. } => return None,
            Event::RoundStarted { round } => {
                let held = self.shown.cards;
                let (got, dealt) = if held.is_empty() {
                    ("none", String::new())
                } else if held == self.last_dealt {
                    ("all", String::new())
                } else {
                    ("more", text::cards(self.last_dealt))
                };
                self.say(
                    "tn-round-started",
                    &[
                        ("n", round_number(*round).into()),
                        ("round", round_key(*round).into()),
                        ("got", got.into()),
                        ("dealt", dealt.into()),
                        ("held", text::cards(held).into()),
                        ("hand", hand_words(*round, held, self.words.lang).into()),
                    ],
                )
            }
            Event::Declared { seat, yes } => self.words.says(
                "tn-declared",
                *seat,
                &[("yes", if *yes { "yes" } else { "no" }.into())],
            ),
            Event::Challenged { seat, yes: true } => self.words.says("tn-challenged", *seat, &[]),
            Event::Challenged { seat, yes: false } => self.words.says("tn-kept-no", *seat, &[]),
            Event::Compared { seats, hands, best } if visible => {
                let round = self.shown.round.unwrap_or(Round::BestTwo);
                let shown: Vec<String> = hands
                    .iter()
                    .map(|&(s, cards)| {
                        format!(
                            "{} {} ({})",
                            self.words.who(s),
                            text::cards(cards),
                            hand_words(round, cards, self.words.lang)
                        )
                    })
                    .collect();
                self.say(
                    "tn-compared",
                    &[
                        ("who", self.list(&bits(*seats)).into()),
                        ("hands", shown.join("; ").into()),
                        ("best", self.list(&bits(*best)).into()),
                    ],
                )
            }
            Event::Compared { seats, .. } => self.say(
                "tn-compared-unseen",
                &[("who", self.list(&bits(*seats)).into())],
            ),
            Event::Token { seat, tokens } => {
                self.words
                    .says("tn-token", *seat, &[("tokens", (*tokens).into())])
            }
            Event::HandEnded { number } => self.say("tn-hand-ended", &[("n", (*number).into())]),
            Event::GameOver { winners } => self.say("tn-game-over", &self.winners_args(winners)),
        })
    }

    // ----- keys -----

    /// One key press.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c' | 'd'))
        {
            self.quit = true;
            return;
        }
        if self.over {
            match key.code {
                KeyCode::Char('q' | 'Q') | KeyCode::Esc | KeyCode::Enter => self.quit = true,
                code => scroll_back(&mut self.scroll, code),
            }
            return;
        }
        if self.confirm_quit {
            self.confirm_quit = false;
            if matches!(key.code, KeyCode::Char('y' | 'Y' | 'q')) {
                self.quit = true;
            }
            return;
        }
        match key.code {
            KeyCode::Char('q' | 'Q') | KeyCode::Esc => self.confirm_quit = true,
            KeyCode::Char('?') => self.hint(),
            KeyCode::Char(' ') | KeyCode::Enter if self.busy() => self.skip(),
            KeyCode::Char(c) => {
                let action = match (self.my_decision(), c.to_ascii_lowercase()) {
                    (Some(Decision::Declare { .. }), 'y') => Action::Yes,
                    (Some(Decision::Declare { .. }), 'n') => Action::No,
                    (Some(Decision::Challenge { .. }), 'c') => Action::Challenge,
                    (Some(Decision::Challenge { .. }), 'd') => Action::Decline,
                    _ => return,
                };
                self.act(action);
            }
            code => scroll_back(&mut self.scroll, code),
        }
    }

    /// The human's answer, shown at once.
    fn act(&mut self, action: Action) {
        let events = self
            .game
            .apply(HUMAN, action)
            .expect("keys answer the decision pending");
        self.hint = None;
        self.push(
            NapalmStep::Act {
                seat: HUMAN,
                action,
            },
            events,
        );
        self.tick();
    }

    /// What the heuristic bot would do in the human's place.
    fn hint(&mut self) {
        let Some(decision) = self.my_decision() else {
            return;
        };
        let view = self.game.view(Some(HUMAN));
        let round = match decision {
            Decision::Declare { round } | Decision::Challenge { round } => round,
        };
        let rng = &mut step_rng(self.seed, self.record.steps.len());
        let action = HeuristicNapalmBot.act(&view, rng);
        let share = beats_share(round, view.cards) * 100.0;
        let answer = match action {
            Action::Yes => "yes",
            Action::No => "no",
            Action::Challenge => "challenge",
            Action::Decline => "decline",
        };
        self.hint = Some(self.say(
            "tn-hint",
            &[
                ("answer", answer.into()),
                ("share", self.words.lang.decimal(share, 0).into()),
            ],
        ));
    }
}

/// The human's view before the game's first event (every event since is
/// patched into it exactly once): starting stacks, an empty pot, no tokens,
/// no cards, nobody out.
fn before_start(game: &NapalmGame) -> NapalmView {
    let mut v = game.view(Some(HUMAN));
    v.stacks.fill(game.rules().starting_chips);
    v.tokens.fill(0);
    v.out.fill(false);
    v.card_counts.fill(0);
    v.seen.fill(CardSet::EMPTY);
    v.declared.fill(None);
    v.pot = 0;
    v.hand_number = 0;
    v.dealer = 0;
    v.round = None;
    v.cards = CardSet::EMPTY;
    v.to_act = None;
    v.decision = None;
    v
}

/// 1, 2 or 3.
pub fn round_number(round: Round) -> usize {
    round as usize + 1
}

/// The round's name in the catalogue (`napalm-claim`, shared with the browser).
pub fn round_key(round: Round) -> &'static str {
    match round {
        Round::BestTwo => "best_two",
        Round::LowestFive => "lowest_five",
        Round::BestOfSeven => "best_of_seven",
    }
}

/// The seats of a bit set, in order.
fn bits(set: u16) -> Vec<Seat> {
    (0..16u8).filter(|&s| set >> s & 1 == 1).collect()
}

/// A hand in words for a round's comparison: "pair of sevens", "king and
/// nine", "lowest five: high card, nine high".
pub fn hand_words(round: Round, cards: CardSet, lang: Lang) -> String {
    let rank = |id: &str, r: tripoley_cards::Rank| lang.t(id, &[("rank", r.name().into())]);
    match round {
        Round::BestTwo => {
            let mut ranks: Vec<_> = cards.iter().map(Card::rank).collect();
            ranks.sort_unstable();
            match ranks.as_slice() {
                [a, b] if a == b => lang.t("tn-pair", &[("a", rank("rank-plural", *a).into())]),
                [lo, hi] => lang.t(
                    "tn-two-cards",
                    &[
                        ("hi", rank("rank-name", *hi).into()),
                        ("lo", rank("rank-name", *lo).into()),
                    ],
                ),
                _ => text::cards(cards),
            }
        }
        Round::LowestFive if cards.len() >= 5 => {
            let (low, five) = Evaluator::ACE_HIGH.lowest_five(cards);
            lang.t(
                "tn-lowest-five",
                &[
                    ("cards", text::cards(five).into()),
                    ("hand", hand_rank(low, lang).into()),
                ],
            )
        }
        Round::BestOfSeven if cards.len() >= 5 => {
            let best = hand_rank(Evaluator::ACE_HIGH.best(cards), lang);
            lang.t("tn-best-five", &[("hand", best.into())])
        }
        _ => text::cards(cards),
    }
}
