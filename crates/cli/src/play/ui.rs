//! Drawing the [`App`] with ratatui: the table, the deal summary and the
//! final standings, laid out for 80x24 and growing with the terminal.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use tripoley_cards::{Card, CardSet, Rank, Suit};
use tripoley_engine::{Account, AuctionItem, Decision, Space, Stage, Transfer};

use super::app::{App, HUMAN, Panel, Screen};
use super::text::{self, SUIT_ORDER};

/// The smallest terminal the table is laid out for.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// Styles, plain when `NO_COLOR` is set.
pub(super) struct Theme {
    /// Whether colours are wanted.
    pub(super) color: bool,
}

impl Theme {
    pub(super) fn red(&self) -> Style {
        if self.color {
            Style::new().fg(Color::Red)
        } else {
            Style::new()
        }
    }

    pub(super) fn accent(&self) -> Style {
        if self.color {
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    pub(super) fn key(&self) -> Style {
        if self.color {
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    pub(super) fn good(&self) -> Style {
        if self.color {
            Style::new().fg(Color::Green)
        } else {
            Style::new()
        }
    }

    #[allow(clippy::unused_self)] // dimming is no colour: kept with the others
    pub(super) fn dim(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    pub(super) fn card(&self, c: Card) -> Style {
        if c.suit().is_red() {
            self.red()
        } else {
            Style::new()
        }
    }
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!(
            "The table needs a terminal of at least {}x{}; this one is {}x{}. \
             Make it larger, or press q to save and quit.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        f.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let theme = Theme { color: app.color };
    let [header, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_header(f, header, app, &theme);
    match app.screen {
        Screen::Table => draw_table(f, body, app, &theme),
        Screen::DealOver => draw_deal_over(f, body, app, &theme),
        Screen::Standings => draw_standings(f, body, app, &theme),
    }
}

fn draw_header(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let v = &app.shown;
    let mut parts = vec![format!("Tripoley · {}", app.label)];
    if v.deal_number > 0 {
        parts.push(format!("deal {}/{}", v.deal_number, v.deals_total));
        parts.push(format!("dealer {}", app.words.name(v.dealer)));
    }
    if let Some(s) = v.pay_suit {
        parts.push(format!("pay {}", s.symbol()));
    }
    if let Some(r) = v.sequence {
        parts.push(format!("Sequence {}", text::sequence(r)));
    }
    let mut line = format!(" {}", parts.join(" · "));
    let stage = stage_name(v.stage);
    if line.chars().count() + stage.chars().count() + 3 <= usize::from(area.width) {
        line = format!("{line} · {stage}");
    }
    f.render_widget(Paragraph::new(Span::styled(line, theme.accent())), area);
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::DrawForDealer => "draw for dealer",
        Stage::Dealing => "dealing",
        Stage::Spare => "the spare",
        Stage::Auction => "auction",
        Stage::PaySuit => "pay suit",
        Stage::ChooseFive => "poker: choosing fives",
        Stage::Betting => "poker",
        Stage::Michigan => "Michigan",
        Stage::FinalPot => "final pot",
        Stage::GameOver => "game over",
    }
}

fn draw_table(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let n = u16::from(app.shown.players);
    let top_h = (n + 2).max(10);
    let [top, log, hand, decision, footer] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Min(2),
        Constraint::Length(3),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(area);
    let [players, layout] =
        Layout::horizontal([Constraint::Length(44), Constraint::Min(34)]).areas(top);
    draw_players(f, players, app, theme);
    draw_layout(f, layout, app, theme);
    draw_panel(f, log, app);
    draw_hand(f, hand, app, theme);
    draw_decision(f, decision, app, theme);
    draw_footer(f, footer, app, theme);
}

fn draw_players(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let v = &app.shown;
    let mut lines = Vec::new();
    for s in 0..v.players {
        let i = usize::from(s);
        let turn = if v.to_act == Some(s) && app.actor.is_none() {
            "▶"
        } else if app.actor == Some(s) {
            "›"
        } else {
            " "
        };
        let dealer = if v.dealer == s && v.deal_number > 0 {
            "D"
        } else {
            " "
        };
        let name = text::clip(&app.words.name(s), 10);
        let chips = v.stacks.get(i).copied().unwrap_or(0);
        let cards = v.hand_sizes.get(i).copied().unwrap_or(0);
        let status = seat_status(app, s);
        let style = if s == HUMAN {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        let unit = if cards == 1 { "card " } else { "cards" };
        let row = format!("{turn}{dealer} {name:<10} {chips:>4} chips {cards:>2} {unit} {status}");
        let style = if v.out.get(i).copied().unwrap_or(false) {
            theme.dim()
        } else if turn == "▶" {
            style.patch(theme.accent())
        } else {
            style
        };
        lines.push(Line::styled(row, style));
    }
    let block = Block::bordered().title(" Players ");
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// A seat's bet, fold or bid, in a few letters.
fn seat_status(app: &App, s: u8) -> String {
    let v = &app.shown;
    let i = usize::from(s);
    if v.out.get(i).copied().unwrap_or(false) {
        return "out".to_owned();
    }
    if let Some(b) = &v.betting {
        if b.folded.get(i).copied().unwrap_or(false) {
            return "folded".to_owned();
        }
        let put = b.contributed.get(i).copied().unwrap_or(0);
        if put > 0 {
            let all_in = v.stacks.get(i) == Some(&0);
            return format!("bet {put}{}", if all_in { " all in" } else { "" });
        }
    }
    if let Some(a) = &v.auction {
        if let Some((h, x)) = a.high {
            if h == s {
                return format!("bid {x}");
            }
        }
    }
    String::new()
}

fn draw_layout(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let v = &app.shown;
    let mut lines = Vec::new();
    let cells: Vec<String> = v
        .layout
        .iter()
        .map(|&(space, chips)| {
            let label = match space {
                Space::Sequence => "Seq".to_owned(),
                other => text::space_label(other, v.pay_suit),
            };
            format!("{:<11}", format!("{label} {chips}"))
        })
        .collect();
    for row in cells.chunks(3) {
        lines.push(Line::raw(row.concat()));
    }
    while lines.len() < 3 {
        lines.push(Line::raw(""));
    }
    // Stage 3: each suit's cards played; `x` marks cards known to be in the spare.
    for suit in SUIT_ORDER {
        let played = v.played.iter().fold(CardSet::EMPTY, |a, &p| a | p);
        let mut spans = vec![Span::styled(
            format!("{} ", suit.symbol()),
            if suit.is_red() {
                theme.red()
            } else {
                Style::new()
            },
        )];
        for rank in Rank::ALL {
            let c = Card::new(rank, suit);
            let (t, style) = if played.contains(c) {
                let short = if rank == Rank::Ten { "T" } else { rank.short() };
                let last = v.last_played.is_some_and(|(_, l)| l == c);
                (
                    short.to_owned(),
                    if last { theme.accent() } else { theme.card(c) },
                )
            } else if v.spare_known.contains(c) {
                ("x".to_owned(), theme.dim())
            } else {
                ("·".to_owned(), theme.dim())
            };
            spans.push(Span::styled(format!("{t} "), style));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(table_status(app)));
    let title = match v.pay_suit {
        Some(s) => format!(" Layout ({} {}) ", s.name(), s.symbol()),
        None => " Layout ".to_owned(),
    };
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

/// One line under the played cards: why the run stopped, the betting, or
/// the auction.
fn table_status(app: &App) -> String {
    let v = &app.shown;
    if let Some((next, reason)) = app.stop {
        return format!(
            "Stopped: {}",
            text::stop_reason(next, reason, &app.context())
        );
    }
    if let Some((s, c)) = v.last_played {
        return format!(
            "Last: {} {}",
            text::clip(&app.words.who(s), 10),
            text::card(c)
        );
    }
    if let Some(b) = &v.betting {
        let pot = v
            .layout
            .iter()
            .find(|l| l.0 == Space::Pot)
            .map_or(0, |l| l.1);
        return format!("Pot {pot}, high bet {}, raises {}", b.current, b.raises);
    }
    if let Some(a) = &v.auction {
        let what = match a.item {
            Some(AuctionItem::Spare) => "Spare auction",
            Some(AuctionItem::DealersOldHand) => "Hand auction",
            None => "Pay suit auction",
        };
        return match a.high {
            Some((s, x)) => format!("{what}: {x} by {}", text::clip(&app.words.who(s), 10)),
            None => format!("{what}: no bid yet"),
        };
    }
    String::new()
}

fn draw_panel(f: &mut Frame, area: Rect, app: &App) {
    let (title, lines): (String, Vec<String>) = match app.panel {
        Panel::Log => (" Log (l: ledger) ".to_owned(), app.log.clone()),
        Panel::Ledger => (
            format!(
                " Ledger of deal {} so far (l: next) ",
                app.shown.deal_number
            ),
            ledger_lines(app, &app.ledger_now, app.shown.pay_suit),
        ),
        Panel::LastLedger => match &app.ledger_last {
            Some(l) => (
                format!(" Ledger of deal {} (l: log) ", l.number),
                ledger_lines(app, &l.transfers, l.pay_suit),
            ),
            None => (" Ledger ".to_owned(), Vec::new()),
        },
    };
    let lines: Vec<String> = lines
        .iter()
        .flat_map(|l| text::wrap(l, usize::from(area.width.saturating_sub(2))))
        .collect();
    let height = usize::from(area.height.saturating_sub(1));
    let visible = tail(&lines, height, app.scroll);
    let block = Block::new().borders(Borders::TOP).title(title);
    f.render_widget(
        Paragraph::new(
            visible
                .iter()
                .map(|l| Line::raw(format!(" {l}")))
                .collect::<Vec<_>>(),
        )
        .block(block),
        area,
    );
}

/// The `height` lines ending `scroll` lines before the end.
pub(super) fn tail(lines: &[String], height: usize, scroll: usize) -> &[String] {
    let max_scroll = lines.len().saturating_sub(height);
    let end = lines.len() - scroll.min(max_scroll);
    &lines[end.saturating_sub(height)..end]
}

fn ledger_lines(app: &App, transfers: &[Transfer], pay_suit: Option<Suit>) -> Vec<String> {
    let ctx = text::Context {
        pay_suit,
        ..app.context()
    };
    let lines = app.words.ledger(transfers, &ctx);
    if lines.is_empty() {
        vec!["No chips have moved yet.".to_owned()]
    } else {
        lines
    }
}

fn draw_hand(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let hand = text::sorted_hand(app.shown.hand);
    let decision = app.my_decision();
    // Cards that may be led, or chosen for poker.
    let (marked, cursor) = match decision {
        Some(Decision::Lead { cards }) => (cards, Some(app.input.cursor)),
        Some(Decision::ChooseFive { .. }) => (app.input.five, Some(app.input.cursor)),
        // While betting, the five set apart are the ones that count.
        Some(Decision::Open { .. } | Decision::Respond { .. }) => {
            (app.shown.my_five.unwrap_or_default(), None)
        }
        Some(Decision::Follow { card }) => (CardSet::single(card), None),
        _ => (CardSet::EMPTY, None),
    };
    let leading = matches!(decision, Some(Decision::Lead { .. }));
    let mut cards = vec![Span::raw(" ")];
    let mut marks = vec![Span::raw(" ")];
    let mut last_suit = None;
    for (i, &c) in hand.iter().enumerate() {
        if last_suit.is_some_and(|s| s != c.suit()) {
            cards.push(Span::raw(" "));
            marks.push(Span::raw(" "));
        }
        last_suit = Some(c.suit());
        let mut style = theme.card(c);
        if marked.contains(c) {
            style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        } else if leading {
            style = style.add_modifier(Modifier::DIM);
        }
        if cursor == Some(i) {
            style = style.add_modifier(Modifier::REVERSED);
        }
        cards.push(Span::styled(format!("{:<3}", text::card(c)), style));
        cards.push(Span::raw(" "));
        let mark = if cursor == Some(i) {
            "▲"
        } else if marked.contains(c) {
            "•"
        } else {
            " "
        };
        marks.push(Span::styled(format!(" {mark}  "), theme.accent()));
    }
    let title = format!(" Your hand: {} cards ", hand.len());
    f.render_widget(
        Paragraph::new(vec![Line::from(cards), Line::from(marks)])
            .block(Block::new().borders(Borders::TOP).title(title)),
        area,
    );
}

/// A key and what it does: `[k] keep`.
pub(super) fn key_span<'a>(theme: &Theme, key: &'a str, what: &'a str) -> Vec<Span<'a>> {
    vec![
        Span::styled(format!("[{key}]"), theme.key()),
        Span::raw(format!(" {what}  ")),
    ]
}

fn draw_decision(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let (prompt, choices) = match app.my_decision() {
        Some(d) => decision_lines(app, d, theme),
        None if app.busy() => (
            match app.shown.to_act.filter(|&s| s != HUMAN) {
                Some(s) if app.actor.is_none() => format!("{} to play…", app.words.name(s)),
                _ => "The bots are playing…".to_owned(),
            },
            Line::from(key_span(theme, "Space", "skip to your turn")),
        ),
        None => (String::new(), Line::raw("")),
    };
    let third = match (&app.message, &app.hint) {
        (Some(m), _) => Line::styled(format!(" {m}"), theme.red()),
        (None, Some(h)) => Line::styled(format!(" {h}"), theme.good()),
        (None, None) => Line::raw(""),
    };
    let mut choice_line = vec![Span::raw(" ")];
    choice_line.extend(choices.spans);
    f.render_widget(
        Paragraph::new(vec![
            Line::styled(format!(" {prompt}"), theme.accent()),
            Line::from(choice_line),
            third,
        ]),
        area,
    );
}

/// The amount being typed, between arrows.
fn amount<'a>(app: &App, theme: &Theme, min: u32, max: u32) -> Vec<Span<'a>> {
    vec![
        Span::styled(format!("◀ {} ▶", app.input.amount), theme.accent()),
        Span::raw(format!(" ({min}-{max})  ")),
    ]
}

/// The prompt and the keys of a decision.
#[allow(clippy::too_many_lines)] // one arm per decision
fn decision_lines<'a>(app: &App, d: Decision, theme: &Theme) -> (String, Line<'a>) {
    let mut spans: Vec<Span<'a>> = Vec::new();
    let me = usize::from(HUMAN);
    let stack = app.shown.stacks.get(me).copied().unwrap_or(0);
    let prompt = match d {
        Decision::SpareOption {
            can_swap,
            can_auction,
            can_swap_and_auction,
        } => {
            spans.extend(key_span(theme, "k", "keep"));
            if can_swap {
                spans.extend(key_span(theme, "s", "swap unseen"));
            }
            if can_auction {
                spans.extend(key_span(theme, "a", "auction the spare"));
            }
            if can_swap_and_auction {
                spans.extend(key_span(theme, "w", "swap, auction yours"));
            }
            "You deal: keep your hand, or take the spare?".to_owned()
        }
        Decision::AuctionBid { item, min, max } => {
            spans.extend(key_span(theme, "p", "pass"));
            spans.extend(key_span(theme, "b", "bid"));
            spans.extend(amount(app, theme, min, max));
            spans.push(Span::styled("←/→ ↑/↓ 0-9", theme.dim()));
            let what = match item {
                AuctionItem::Spare => "the spare (unseen)",
                AuctionItem::DealersOldHand => "the dealer's old hand",
            };
            format!("Auction of {what}: {}.", high_bid(app))
        }
        Decision::PaySuitBid { min, max } => {
            spans.extend(key_span(theme, "p", "pass"));
            spans.extend(key_span(theme, "b", "bid"));
            spans.extend(amount(app, theme, min, max));
            spans.push(Span::styled("←/→ ↑/↓ 0-9", theme.dim()));
            format!("Auction to name the pay suit: {}.", high_bid(app))
        }
        Decision::NamePaySuit => {
            for (k, s) in [
                ("c", Suit::Clubs),
                ("d", Suit::Diamonds),
                ("h", Suit::Hearts),
                ("s", Suit::Spades),
            ] {
                spans.push(Span::styled(format!("[{k}]"), theme.key()));
                spans.push(Span::raw(format!(" {} {}  ", s.name(), s.symbol())));
            }
            "You won the auction: name the pay suit.".to_owned()
        }
        Decision::Open { max_bet } => {
            spans.extend(key_span(theme, "c", "check"));
            if max_bet > 0 {
                spans.extend(key_span(theme, "b", "bet"));
                spans.extend(amount(app, theme, 1, max_bet));
                spans.push(Span::styled("←/→ ↑/↓ 0-9", theme.dim()));
            }
            format!("Poker: no bet yet. Pot {}. {}", pot(app), poker_hand(app))
        }
        Decision::Respond { to_call, max_raise } => {
            spans.extend(key_span(theme, "f", "fold"));
            let call = if to_call >= stack {
                format!("call {} (all in)", to_call.min(stack))
            } else {
                format!("call {to_call}")
            };
            spans.push(Span::styled("[c]", theme.key()));
            spans.push(Span::raw(format!(" {call}  ")));
            if max_raise > 0 {
                spans.extend(key_span(theme, "r", "raise by"));
                spans.extend(amount(app, theme, 1, max_raise));
            }
            format!(
                "Poker: {to_call} to call. Pot {}. {}",
                pot(app),
                poker_hand(app)
            )
        }
        Decision::ChooseFive { .. } => {
            spans.extend(key_span(theme, "←/→", "move"));
            spans.extend(key_span(theme, "Space", "take/drop"));
            spans.extend(key_span(theme, "b", "best five"));
            spans.extend(key_span(theme, "Enter", "set them apart"));
            let five = app.input.five;
            if five.len() == 5 {
                let rank = app.game.rules().evaluator().best(five);
                format!("Pick your five: {}, {rank}", text::cards(five))
            } else {
                format!("Pick your five poker cards: {} chosen.", five.len())
            }
        }
        Decision::Lead { cards } => {
            spans.extend(key_span(theme, "←/→", "choose"));
            spans.extend(key_span(theme, "c/d/h/s", "suit"));
            spans.extend(key_span(theme, "Enter", "lead"));
            let hand = text::sorted_hand(app.shown.hand);
            match hand.get(app.input.cursor) {
                Some(&c) if cards.contains(c) && app.is_misplay(c) => format!(
                    "Your lead: {}, not your lowest {}: a misplay (M9a).",
                    text::card(c),
                    c.suit().name().trim_end_matches('s')
                ),
                Some(&c) if cards.contains(c) => format!("Your lead: {}.", text::card(c)),
                _ => "Your lead: choose a marked card.".to_owned(),
            }
        }
        Decision::Follow { card } => {
            spans.extend(key_span(theme, "p", "play it"));
            spans.extend(key_span(theme, "w", "withhold it (a misplay, M9b)"));
            format!("Your {} is next in the run.", text::card(card))
        }
    };
    (prompt, Line::from(spans))
}

fn high_bid(app: &App) -> String {
    match app.shown.auction.as_ref().and_then(|a| a.high) {
        Some((s, x)) => format!("high bid {x} by {}", app.words.who(s)),
        None => "no bid yet".to_owned(),
    }
}

fn pot(app: &App) -> u32 {
    app.shown
        .layout
        .iter()
        .find(|l| l.0 == Space::Pot)
        .map_or(0, |l| l.1)
}

/// The five the player bets on (chosen before the betting, P1) and their name.
fn poker_hand(app: &App) -> String {
    match app.shown.my_five {
        Some(five) => format!(
            "Your five: {}, {}.",
            text::cards(five),
            app.game.rules().evaluator().best(five)
        ),
        None => String::new(),
    }
}

fn draw_footer(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let spans = if app.confirm_quit {
        vec![
            Span::styled(" Save and quit? ", theme.accent()),
            Span::styled("[y]", theme.key()),
            Span::raw(" yes  any other key: no"),
        ]
    } else {
        let mut s = vec![Span::raw(" ")];
        s.extend(key_span(theme, "?", "hint"));
        s.extend(key_span(theme, "l", "log/ledger"));
        s.extend(key_span(theme, "PgUp/PgDn", "scroll"));
        s.extend(key_span(theme, "Space", "skip"));
        s.extend(key_span(theme, "q", "save and quit"));
        s
    };
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Each seat's net chips over `transfers`.
fn net(transfers: &[Transfer], players: usize) -> Vec<i64> {
    let mut net = vec![0i64; players];
    for t in transfers {
        if let Account::Stack(s) = t.from {
            if let Some(x) = net.get_mut(usize::from(s)) {
                *x -= i64::from(t.amount);
            }
        }
        if let Account::Stack(s) = t.to {
            if let Some(x) = net.get_mut(usize::from(s)) {
                *x += i64::from(t.amount);
            }
        }
    }
    net
}

fn draw_deal_over(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let [main, footer] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Min(40), Constraint::Length(26)]).areas(main);
    let Some(ledger) = &app.ledger_last else {
        return;
    };
    let lines: Vec<String> = ledger_lines(app, &ledger.transfers, ledger.pay_suit)
        .iter()
        .flat_map(|l| text::wrap(l, usize::from(left.width.saturating_sub(2))))
        .collect();
    let height = usize::from(left.height.saturating_sub(2));
    let start = app.scroll.min(lines.len().saturating_sub(height));
    let shown: Vec<Line> = lines[start..]
        .iter()
        .take(height)
        .map(|l| Line::raw(l.clone()))
        .collect();
    f.render_widget(
        Paragraph::new(shown).block(Block::bordered().title(format!(
            " Deal {} of {} is over: who paid whom, and why ",
            ledger.number, app.shown.deals_total
        ))),
        left,
    );
    let net = net(&ledger.transfers, ledger.stacks.len());
    let rows: Vec<Line> = ledger
        .stacks
        .iter()
        .enumerate()
        .map(|(i, chips)| {
            let d = net.get(i).copied().unwrap_or(0);
            let name = text::clip(&app.words.name(i as u8), 10);
            let style = match d.cmp(&0) {
                std::cmp::Ordering::Greater => theme.good(),
                std::cmp::Ordering::Less => theme.red(),
                std::cmp::Ordering::Equal => Style::new(),
            };
            Line::from(vec![
                Span::raw(format!("{name:<10} {chips:>5} ")),
                Span::styled(format!("{d:>+5}"), style),
            ])
        })
        .collect();
    f.render_widget(
        Paragraph::new(rows).block(Block::bordered().title(" Chips ")),
        right,
    );
    let mut s = vec![Span::raw(" ")];
    s.extend(key_span(theme, "Enter", "continue"));
    s.extend(key_span(theme, "↑/↓", "scroll"));
    s.extend(key_span(theme, "q", "save and quit"));
    if app.confirm_quit {
        s = vec![
            Span::styled(" Save and quit? ", theme.accent()),
            Span::styled("[y]", theme.key()),
            Span::raw(" yes  any other key: no"),
        ];
    }
    f.render_widget(Paragraph::new(Line::from(s)), footer);
}

fn draw_standings(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let [main, footer] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    let mut order: Vec<(u8, u32)> = app
        .shown
        .stacks
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u8, c))
        .collect();
    order.sort_by_key(|&(s, c)| (std::cmp::Reverse(c), s));
    let best = order.first().map_or(0, |o| o.1);
    let mut lines = vec![Line::raw("")];
    let mut place = 0;
    for (k, &(s, chips)) in order.iter().enumerate() {
        if k == 0 || chips != order[k - 1].1 {
            place = k + 1;
        }
        let mark = if chips == best { "  ★ winner" } else { "" };
        let kind = app
            .kinds
            .get(usize::from(s))
            .copied()
            .flatten()
            .map_or(String::new(), |k| format!(" ({k})"));
        let style = if chips == best {
            theme.accent()
        } else {
            Style::new()
        };
        lines.push(Line::styled(
            format!(
                "  {place}. {:<22} {chips:>5} chips{mark}",
                format!("{}{kind}", app.words.name(s))
            ),
            style,
        ));
    }
    lines.push(Line::raw(""));
    if !app.ledger_now.is_empty() {
        lines.push(Line::raw("  After the last deal (the final pot):"));
        for l in ledger_lines(app, &app.ledger_now, app.shown.pay_suit) {
            for piece in text::wrap(&l, usize::from(main.width.saturating_sub(6))) {
                lines.push(Line::raw(format!("  {piece}")));
            }
        }
        lines.push(Line::raw(""));
    }
    if let Some(path) = &app.save_path {
        lines.push(Line::raw(format!("  The game record is saved to {path}")));
        lines.push(Line::raw(format!(
            "  (tripoley replay {path} prints every deal's ledger)."
        )));
    }
    let height = usize::from(main.height.saturating_sub(2));
    let start = app.scroll.min(lines.len().saturating_sub(height));
    let shown: Vec<Line> = lines.into_iter().skip(start).take(height).collect();
    f.render_widget(
        Paragraph::new(shown).block(Block::bordered().title(" Final standings ")),
        main,
    );
    let mut s = vec![Span::raw(" ")];
    s.extend(key_span(theme, "q", "quit"));
    s.extend(key_span(theme, "↑/↓", "scroll"));
    f.render_widget(Paragraph::new(Line::from(s)), footer);
}
