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
use tripoley_i18n::words::hand_rank;
use tripoley_i18n::{Lang, Value};

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

/// The message `id` in the game's language (`terminal.ftl`, `words.ftl`).
fn say(app: &App, id: &str, args: &[(&str, Value<'_>)]) -> String {
    app.words.lang.t(id, args)
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = say(
            app,
            "term-too-small",
            &[
                ("w", MIN_SIZE.0.into()),
                ("h", MIN_SIZE.1.into()),
                ("width", area.width.into()),
                ("height", area.height.into()),
            ],
        );
        f.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let theme = Theme { color: app.color };
    let head = header_lines(app, area.width);
    let [header, body] =
        Layout::vertical([Constraint::Length(head.len() as u16), Constraint::Min(0)]).areas(area);
    let head: Vec<Line> = head
        .into_iter()
        .map(|l| Line::styled(l, theme.accent()))
        .collect();
    f.render_widget(Paragraph::new(head), header);
    match app.screen {
        Screen::Table => draw_table(f, body, app, &theme),
        Screen::DealOver => draw_deal_over(f, body, app, &theme),
        Screen::Standings => draw_standings(f, body, app, &theme),
    }
}

/// The header: the game's name and the deal's facts, on one line of
/// `width` when they fit, else on two (a long preset's name in Spanish),
/// so neither is cut; the stage follows where there is room.
fn header_lines(app: &App, width: u16) -> Vec<String> {
    let v = &app.shown;
    let mut parts = vec![format!("Tripoley · {}", app.label)];
    if v.deal_number > 0 {
        parts.push(say(
            app,
            "term-head-deal",
            &[("n", v.deal_number.into()), ("total", v.deals_total.into())],
        ));
        parts.push(say(
            app,
            "term-head-dealer",
            &[
                ("who", app.words.name(v.dealer).into()),
                ("you", app.words.you(v.dealer)),
            ],
        ));
    }
    if let Some(s) = v.pay_suit {
        parts.push(say(
            app,
            "term-head-pay",
            &[("symbol", s.symbol().to_string().into())],
        ));
    }
    if let Some(r) = v.sequence {
        parts.push(say(
            app,
            "board-sequence",
            &[("run", text::sequence(r).into())],
        ));
    }
    let width = usize::from(width);
    let fits = |line: &str| tripoley_i18n::names::width(line) <= width;
    let mut lines = vec![String::new()];
    for part in parts {
        let last = lines.last_mut().expect("a line");
        let longer = if last.is_empty() {
            format!(" {part}")
        } else {
            format!("{last} · {part}")
        };
        if fits(&longer) || last.is_empty() {
            *last = longer;
        } else {
            lines.push(format!(" {part}"));
        }
    }
    let stage = stage_name(app.shown.stage, app.words.lang);
    let last = lines.last_mut().expect("a line");
    if fits(&format!("{last} · {stage}")) {
        *last = format!("{last} · {stage}");
    }
    lines
}

/// The stage in a few words (the header has room for a short name only).
fn stage_name(stage: Stage, lang: Lang) -> String {
    let key = match stage {
        Stage::DrawForDealer => "draw_for_dealer",
        Stage::Dealing => "dealing",
        Stage::Spare => "spare",
        Stage::Auction => "auction",
        Stage::PaySuit => "pay_suit",
        Stage::ChooseFive => "choose_five",
        Stage::Betting => "betting",
        Stage::Michigan => "michigan",
        Stage::FinalPot => "final_pot",
        Stage::GameOver => "game_over",
    };
    lang.t("term-stage", &[("stage", key.into())])
}

fn draw_table(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let n = u16::from(app.shown.players);
    let top_h = (n + 2).max(10);
    // The prompt, keys and hint or message wrap: nothing a player needs is cut.
    let decision_lines = decision_block(app, theme, area.width);
    let [top, log, hand, decision, footer] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Min(2),
        Constraint::Length(3),
        Constraint::Length(decision_lines.len() as u16),
        Constraint::Length(1),
    ])
    .areas(area);
    let [players, layout] =
        Layout::horizontal([Constraint::Length(44), Constraint::Min(34)]).areas(top);
    draw_players(f, players, app, theme);
    draw_layout(f, layout, app, theme);
    draw_panel(f, log, app);
    draw_hand(f, hand, app, theme);
    f.render_widget(Paragraph::new(decision_lines), decision);
    draw_footer(f, footer, app, theme);
}

fn draw_players(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let v = &app.shown;
    let mut lines = Vec::new();
    // Names in full (16 columns at most): the column is as wide as the
    // longest, and the units are said once, in the title.
    // The title's word fits before the chips column, in any language.
    let players = say(app, "table-players", &[]);
    let width = name_width(app).max(players.chars().count().saturating_sub(2));
    let (chips_head, cards_head) = (
        say(app, "term-col-chips", &[]),
        say(app, "term-col-cards", &[]),
    );
    let cw = chips_head.chars().count().max(5);
    let kw = cards_head.chars().count().max(5);
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
            say(app, "dealer-mark", &[])
        } else {
            " ".to_owned()
        };
        let name = text::clip(&app.words.name(s), width);
        let chips = v.stacks.get(i).copied().unwrap_or(0);
        let cards = v.hand_sizes.get(i).copied().unwrap_or(0);
        let status = seat_status(app, s);
        let style = if s == HUMAN {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        // Padded by columns, not characters: a wide name keeps the columns.
        let name = text::pad(&name, width);
        let chips = app.words.number(chips);
        let row = format!("{turn}{dealer} {name} {chips:>cw$} {cards:>kw$} {status}");
        let style = if v.out.get(i).copied().unwrap_or(false) {
            theme.dim()
        } else if turn == "▶" {
            style.patch(theme.accent())
        } else {
            style
        };
        lines.push(Line::styled(row, style));
    }
    // "chips" and "cards" right above their columns.
    let title = format!(
        "{:<lead$}{chips_head:>cw$} {cards_head:>kw$} ",
        format!(" {players}"),
        lead = width + 4
    );
    let block = Block::bordered().title(title);
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// The longest name shown in full (what `--name` allows).
const NAME_WIDTH: usize = 16;

/// A column of names as wide as the longest (6 to [`NAME_WIDTH`]).
fn name_width(app: &App) -> usize {
    (0..app.shown.players)
        .map(|s| tripoley_i18n::names::width(&app.words.name(s)))
        .max()
        .unwrap_or(0)
        .clamp(6, NAME_WIDTH)
}

/// A seat's bet, fold or bid, in a few letters.
fn seat_status(app: &App, s: u8) -> String {
    let v = &app.shown;
    let i = usize::from(s);
    if v.out.get(i).copied().unwrap_or(false) {
        return say(app, "tag-out", &[]);
    }
    if let Some(b) = &v.betting {
        if b.folded.get(i).copied().unwrap_or(false) {
            return say(app, "seat-folded", &[]);
        }
        let put = b.contributed.get(i).copied().unwrap_or(0);
        if put > 0 {
            let all_in = v.stacks.get(i) == Some(&0);
            let allin = if all_in { "yes" } else { "no" };
            return say(
                app,
                "term-seat-bet",
                &[("n", put.into()), ("allin", allin.into())],
            );
        }
    }
    if let Some(a) = &v.auction {
        if let Some((h, x)) = a.high {
            if h == s {
                return say(app, "term-seat-bid", &[("n", x.into())]);
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
                Space::Sequence => say(app, "term-seq-short", &[]),
                other => text::space_label(other, v.pay_suit, app.words.lang),
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
    // The grid marks cards known to be in the spare with `x`: say so.
    let title = say(
        app,
        "term-layout",
        &[
            ("suit", v.pay_suit.map_or("none", Suit::name).into()),
            (
                "symbol",
                v.pay_suit
                    .map_or(String::new(), |s| s.symbol().to_string())
                    .into(),
            ),
            (
                "spare",
                if v.spare_known.is_empty() {
                    "no"
                } else {
                    "yes"
                }
                .into(),
            ),
        ],
    );
    let title = format!(" {title} ");
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
        let lang = app.words.lang;
        return format!(
            "{} {}",
            lang.t("term-stopped", &[]),
            text::stop_reason(next, reason, &app.context(), lang)
        );
    }
    if let Some((s, c)) = v.last_played {
        return say(
            app,
            "term-last",
            &[
                ("who", text::clip(&app.words.who(s), NAME_WIDTH).into()),
                ("you", app.words.you(s)),
                ("card", text::card(c).into()),
            ],
        );
    }
    if let Some(b) = &v.betting {
        let pot = v
            .layout
            .iter()
            .find(|l| l.0 == Space::Pot)
            .map_or(0, |l| l.1);
        return say(
            app,
            "term-betting-status",
            &[
                ("pot", pot.into()),
                ("high", b.current.into()),
                ("raises", b.raises.into()),
            ],
        );
    }
    if let Some(a) = &v.auction {
        let what = match a.item {
            Some(AuctionItem::Spare) => "spare",
            Some(AuctionItem::DealersOldHand) => "hand",
            None => "pay_suit",
        };
        let (who, you, high) = match a.high {
            Some((s, x)) => (
                text::clip(&app.words.who(s), NAME_WIDTH),
                app.words.you(s),
                x,
            ),
            None => (String::new(), "no".into(), 0),
        };
        return say(
            app,
            "term-auction-status",
            &[
                ("what", what.into()),
                ("bid", if a.high.is_some() { "yes" } else { "no" }.into()),
                ("n", high.into()),
                ("who", who.into()),
                ("you", you),
            ],
        );
    }
    String::new()
}

fn draw_panel(f: &mut Frame, area: Rect, app: &App) {
    let (title, lines): (String, Vec<String>) = match app.panel {
        Panel::Log => (say(app, "term-panel-log", &[]), app.log.clone()),
        Panel::Ledger => (
            say(
                app,
                "term-panel-ledger-now",
                &[("n", app.shown.deal_number.into())],
            ),
            ledger_lines(app, &app.ledger_now, app.shown.pay_suit),
        ),
        Panel::LastLedger => match &app.ledger_last {
            Some(l) => (
                say(app, "term-panel-ledger-last", &[("n", l.number.into())]),
                ledger_lines(app, &l.transfers, l.pay_suit),
            ),
            None => (say(app, "term-panel-ledger", &[]), Vec::new()),
        },
    };
    let title = format!(" {title} ");
    let lines: Vec<String> = lines
        .iter()
        .flat_map(|l| text::wrap(l, usize::from(area.width.saturating_sub(2))))
        .collect();
    let height = usize::from(area.height.saturating_sub(1));
    let visible = tail(&lines, height, app.scroll);
    // Scrolled back, the newest lines are hidden: the title says so loudly.
    let hidden = app.scroll.min(lines.len().saturating_sub(height));
    let title = if hidden > 0 {
        Line::from(vec![
            Span::raw(title),
            Span::styled(
                format!(" {} ", say(app, "term-hidden", &[("n", hidden.into())])),
                Style::new().add_modifier(Modifier::REVERSED),
            ),
        ])
    } else {
        Line::raw(title)
    };
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
        vec![say(app, "term-no-chips", &[])]
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
        // The cursor never hides a card's mark: a chosen card under it
        // shows both ("▲•").
        let mark = match (cursor == Some(i), marked.contains(c)) {
            (true, true) => "▲•",
            (true, false) => "▲ ",
            (false, true) => "• ",
            (false, false) => "  ",
        };
        marks.push(Span::styled(format!(" {mark} "), theme.accent()));
    }
    let title = format!(
        " {} ",
        say(app, "term-hand-title", &[("n", hand.len().into())])
    );
    f.render_widget(
        Paragraph::new(vec![Line::from(cards), Line::from(marks)])
            .block(Block::new().borders(Borders::TOP).title(title)),
        area,
    );
}

/// A key and what it does: `[k] keep`.
/// A key and what it does, `[Intro] seguir`: the keys with a name
/// (Space, Enter, PgUp/PgDn) are named as the player's keyboard names them.
pub(super) fn key_span<'a>(theme: &Theme, lang: Lang, key: &str, what: &str) -> Vec<Span<'a>> {
    let named = match key {
        "Space" => Some("space"),
        "Enter" => Some("enter"),
        "PgUp/PgDn" => Some("pages"),
        _ => None,
    };
    let key = named.map_or_else(
        || key.to_owned(),
        |k| lang.t("term-keycap", &[("key", k.into())]),
    );
    vec![
        Span::styled(format!("[{key}]"), theme.key()),
        Span::raw(format!(" {what}  ")),
    ]
}

/// The decision's lines for a panel `width` columns wide: the prompt, the
/// keys and the message (else the hint), each wrapped, so no word is cut;
/// three lines at least, so the panels above do not jump.
fn decision_block(app: &App, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let (prompt, choices) = match app.my_decision() {
        Some(d) => decision_lines(app, d, theme),
        None if app.busy() => (
            match app.shown.to_act.filter(|&s| s != HUMAN) {
                Some(s) if app.actor.is_none() => {
                    say(app, "term-to-play", &[("who", app.words.name(s).into())])
                }
                _ => say(app, "term-bots-playing", &[]),
            },
            Line::from(key_span(
                theme,
                app.words.lang,
                "Space",
                &say(app, "term-key-skip-turn", &[]),
            )),
        ),
        None => (String::new(), Line::raw("")),
    };
    let (note, style) = match (&app.message, &app.hint) {
        (Some(m), _) => (m.as_str(), theme.red()),
        (None, Some(h)) => (h.as_str(), theme.good()),
        (None, None) => ("", Style::new()),
    };
    let width = usize::from(width).saturating_sub(2);
    let said = |text: &str, style: Style| -> Vec<Line<'static>> {
        text::wrap(text, width)
            .into_iter()
            .map(|l| Line::styled(format!(" {l}"), style))
            .collect()
    };
    let mut choice_line = vec![Span::raw(" ")];
    choice_line.extend(choices.spans);
    let mut lines = said(&prompt, theme.accent());
    lines.extend(wrap_spans(choice_line, width + 2));
    if !note.is_empty() {
        lines.extend(said(note, style));
    }
    while lines.len() < 3 {
        lines.push(Line::raw(""));
    }
    lines
}

/// Spans on lines of at most `width` columns, broken at spaces (never
/// between a key and its first word), each piece in its span's style;
/// lines after the first indented under the first's text, as the prompt's
/// and the hint's are (a margin and [`text::wrap`]'s two).
fn wrap_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
    let mut used = 0;
    let mut after_key = false;
    for span in spans {
        for piece in span.content.split_inclusive(' ') {
            let word = piece.trim_end();
            let w = tripoley_i18n::names::width(word);
            if !word.is_empty() {
                if used > 3 && used + w > width && !after_key {
                    lines.push(vec![Span::raw("   ")]);
                    used = 3;
                }
                after_key = word.starts_with('[') && word.ends_with(']');
            }
            lines
                .last_mut()
                .expect("a line")
                .push(Span::styled(piece.to_owned(), span.style));
            used += tripoley_i18n::names::width(piece);
        }
    }
    lines.into_iter().map(Line::from).collect()
}

/// The amount being typed, between arrows.
fn amount<'a>(app: &App, theme: &Theme, min: u32, max: u32) -> Vec<Span<'a>> {
    vec![
        Span::styled(format!("◀ {} ▶", app.input.amount), theme.accent()),
        Span::raw(format!(" ({min}-{max})  ")),
    ]
}

/// The keys of a bid: pass, bid and the amount; or, with nothing to bid (a
/// bonus card in hand, or no chips: `stack`), pass alone and why. The
/// player passes by themselves like everyone, so nobody can tell why.
fn bid_keys<'a>(app: &App, theme: &Theme, stack: u32, min: u32, max: u32) -> Vec<Span<'a>> {
    let mut spans = key_span(theme, app.words.lang, "p", &say(app, "term-key-pass", &[]));
    if min > max {
        let why = if stack < min { "chips" } else { "bonus" };
        spans.push(Span::styled(
            say(app, "bid-none", &[("why", why.into())]),
            theme.dim(),
        ));
    } else {
        spans.extend(key_span(
            theme,
            app.words.lang,
            "b",
            &say(app, "term-key-bid", &[]),
        ));
        spans.extend(amount(app, theme, min, max));
        spans.push(Span::styled("←/→ ↑/↓ 0-9", theme.dim()));
    }
    spans
}

/// The prompt and the keys of a decision.
#[allow(clippy::too_many_lines)] // one arm per decision
fn decision_lines<'a>(app: &App, d: Decision, theme: &Theme) -> (String, Line<'a>) {
    let mut spans: Vec<Span<'a>> = Vec::new();
    // A key and its label, the label from the catalogue (`term-key-...`).
    let key = |k: &'a str, id: &str| key_span(theme, app.words.lang, k, &say(app, id, &[]));
    let me = usize::from(HUMAN);
    let stack = app.shown.stacks.get(me).copied().unwrap_or(0);
    let prompt = match d {
        Decision::SpareOption {
            can_swap,
            can_auction,
            can_swap_and_auction,
        } => {
            spans.extend(key("k", "term-key-keep"));
            if can_swap {
                spans.extend(key("s", "term-key-swap"));
            }
            if can_auction {
                spans.extend(key("a", "term-key-auction"));
            }
            if can_swap_and_auction {
                spans.extend(key("w", "term-key-swap-auction"));
            }
            // D5: a dealer not offered the swap hears why instead.
            match app.bonus_words(app.shown.hand).filter(|_| !can_swap) {
                Some(args) => say(app, "term-bonus-no-swap", &args),
                None => say(app, "term-prompt-spare", &[]),
            }
        }
        Decision::AuctionBid { item, min, max } => {
            spans.extend(bid_keys(app, theme, stack, min, max));
            let what = match item {
                AuctionItem::Spare => "spare",
                AuctionItem::DealersOldHand => "old",
            };
            say(
                app,
                "term-prompt-auction",
                &[("item", what.into()), ("high", high_bid(app).into())],
            )
        }
        Decision::PaySuitBid { min, max } => {
            spans.extend(bid_keys(app, theme, stack, min, max));
            say(
                app,
                "term-prompt-pay-suit-bid",
                &[("high", high_bid(app).into())],
            )
        }
        Decision::NamePaySuit => {
            for (k, s) in [
                ("c", Suit::Clubs),
                ("d", Suit::Diamonds),
                ("h", Suit::Hearts),
                ("s", Suit::Spades),
            ] {
                spans.push(Span::styled(format!("[{k}]"), theme.key()));
                let name = say(app, "words-suit", &[("suit", s.name().into())]);
                spans.push(Span::raw(format!(" {name} {}  ", s.symbol())));
            }
            say(app, "term-prompt-name-suit", &[])
        }
        Decision::Open { max_bet } => {
            spans.extend(key("c", "term-key-check"));
            if max_bet > 0 {
                spans.extend(key("b", "term-key-bet"));
                spans.extend(amount(app, theme, 1, max_bet));
                spans.push(Span::styled("←/→ ↑/↓ 0-9", theme.dim()));
            }
            say(
                app,
                "term-prompt-open",
                &[("pot", pot(app).into()), ("hand", poker_hand(app).into())],
            )
        }
        Decision::Respond { to_call, max_raise } => {
            spans.extend(key("f", "term-key-fold"));
            let allin = if to_call >= stack { "yes" } else { "no" };
            let call = say(
                app,
                "term-key-call",
                &[("n", to_call.min(stack).into()), ("allin", allin.into())],
            );
            spans.push(Span::styled("[c]", theme.key()));
            spans.push(Span::raw(format!(" {call}  ")));
            if max_raise > 0 {
                spans.extend(key("r", "term-key-raise"));
                spans.extend(amount(app, theme, 1, max_raise));
            }
            say(
                app,
                "term-prompt-respond",
                &[
                    ("n", to_call.into()),
                    ("pot", pot(app).into()),
                    ("hand", poker_hand(app).into()),
                ],
            )
        }
        Decision::ChooseFive { .. } => {
            spans.extend(key("←/→", "term-key-move"));
            spans.extend(key("Space", "term-key-take"));
            spans.extend(key("b", "term-key-best"));
            spans.extend(key("Enter", "term-key-set-apart"));
            let five = app.input.five;
            if five.len() == 5 {
                let rank = app.game.rules().evaluator().best(five);
                say(
                    app,
                    "term-prompt-five",
                    &[
                        ("cards", text::cards(five).into()),
                        ("hand", hand_rank(rank, app.words.lang).into()),
                    ],
                )
            } else {
                say(app, "term-prompt-five-count", &[("n", five.len().into())])
            }
        }
        Decision::Lead { cards } => {
            // One card (asked all the same, M10): nothing to choose.
            if cards.len() > 1 {
                spans.extend(key("←/→", "term-key-choose"));
                spans.extend(key("c/d/h/s", "term-key-suit"));
            }
            spans.extend(key("Enter", "term-key-lead"));
            let hand = text::sorted_hand(app.shown.hand);
            match hand.get(app.input.cursor) {
                Some(&c) if cards.len() == 1 && cards.contains(c) => say(
                    app,
                    "term-prompt-lead-only",
                    &[("card", text::card(c).into())],
                ),
                Some(&c) if cards.contains(c) && app.is_misplay(c) => {
                    // A misplayed lead pays a chip to each other player still in.
                    let others = (0..app.shown.players)
                        .filter(|&s| Some(s) != app.shown.seat && !app.shown.out[usize::from(s)])
                        .count();
                    say(
                        app,
                        "term-prompt-misplay",
                        &[
                            ("card", text::card(c).into()),
                            ("suit", c.suit().name().into()),
                            ("n", others.into()),
                        ],
                    )
                }
                Some(&c) if cards.contains(c) => {
                    say(app, "term-prompt-lead", &[("card", text::card(c).into())])
                }
                _ => say(app, "term-prompt-lead-choose", &[]),
            }
        }
        Decision::Follow { card } => {
            spans.extend(key("p", "term-key-play"));
            spans.extend(key("w", "term-key-withhold"));
            say(
                app,
                "term-prompt-follow",
                &[("card", text::card(card).into())],
            )
        }
    };
    (prompt, Line::from(spans))
}

fn high_bid(app: &App) -> String {
    match app.shown.auction.as_ref().and_then(|a| a.high) {
        Some((s, x)) => say(
            app,
            "term-high-bid",
            &[
                ("n", x.into()),
                ("who", app.words.who(s).into()),
                ("you", app.words.you(s)),
            ],
        ),
        None => say(app, "term-no-bid", &[]),
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
        Some(five) => say(
            app,
            "term-your-five",
            &[
                ("cards", text::cards(five).into()),
                (
                    "hand",
                    hand_rank(app.game.rules().evaluator().best(five), app.words.lang).into(),
                ),
            ],
        ),
        None => String::new(),
    }
}

fn draw_footer(f: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let key = |k: &'static str, id: &str| key_span(theme, app.words.lang, k, &say(app, id, &[]));
    let spans = if app.confirm_quit {
        confirm_quit(app, theme)
    } else {
        let mut s = vec![Span::raw(" ")];
        s.extend(key("?", "term-key-hint"));
        s.extend(key("l", "term-key-log"));
        s.extend(key("PgUp/PgDn", "term-key-scroll"));
        s.extend(key("Space", "term-key-skip"));
        s.extend(key("q", "term-key-quit"));
        fit_keys(s, area.width)
    };
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The keys on one line of `width`: when the usual two spaces between
/// them do not fit (Spanish at 80 columns), one space and no margin, so
/// that no key is cut.
fn fit_keys(spans: Vec<Span<'static>>, width: u16) -> Vec<Span<'static>> {
    if Line::from(spans.clone()).width() <= usize::from(width) {
        return spans;
    }
    spans
        .into_iter()
        .filter(|s| s.content != " ")
        .map(|s| {
            let text = s.content.trim_end().to_owned();
            let gap = if text.starts_with('[') { "" } else { " " };
            Span::styled(format!("{text}{gap}"), s.style)
        })
        .collect()
}

/// "Save and quit? \[y\] yes  any other key: no".
fn confirm_quit(app: &App, theme: &Theme) -> Vec<Span<'static>> {
    vec![
        Span::styled(
            format!(" {} ", say(app, "term-quit-question", &[])),
            theme.accent(),
        ),
        Span::styled("[y]", theme.key()),
        Span::raw(format!(" {}", say(app, "term-quit-answers", &[]))),
    ]
}

/// A net count of chips with its sign, as the language writes numbers:
/// "+20.000", "-3", "+0".
fn signed(d: i64, lang: tripoley_i18n::Lang) -> String {
    let sign = if d < 0 { '-' } else { '+' };
    format!("{sign}{}", lang.integer(d.unsigned_abs()))
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
    let width = name_width(app);
    let [left, right] =
        Layout::horizontal([Constraint::Min(40), Constraint::Length(width as u16 + 16)])
            .areas(main);
    let Some(ledger) = &app.ledger_last else {
        return;
    };
    let mut lines: Vec<String> = ledger.notes.clone();
    lines.extend(ledger_lines(app, &ledger.transfers, ledger.pay_suit));
    let lines: Vec<String> = lines
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
            " {} ",
            say(
                app,
                "term-deal-over",
                &[
                    ("n", ledger.number.into()),
                    ("total", app.shown.deals_total.into()),
                ],
            )
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
            let name = text::clip(&app.words.name(i as u8), width);
            let style = match d.cmp(&0) {
                std::cmp::Ordering::Greater => theme.good(),
                std::cmp::Ordering::Less => theme.red(),
                std::cmp::Ordering::Equal => Style::new(),
            };
            Line::from(vec![
                Span::raw(format!(
                    "{} {:>5} ",
                    text::pad(&name, width),
                    app.words.number(*chips)
                )),
                Span::styled(format!("{:>5}", signed(d, app.words.lang)), style),
            ])
        })
        .collect();
    f.render_widget(
        Paragraph::new(rows)
            .block(Block::bordered().title(format!(" {} ", say(app, "term-chips-title", &[])))),
        right,
    );
    let key = |k: &'static str, id: &str| key_span(theme, app.words.lang, k, &say(app, id, &[]));
    let mut s = vec![Span::raw(" ")];
    s.extend(key("Enter", "term-key-continue"));
    s.extend(key("↑/↓", "term-key-scroll"));
    s.extend(key("q", "term-key-quit"));
    if app.confirm_quit {
        s = confirm_quit(app, theme);
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
        let mark = if chips == best {
            format!("  ★ {}", say(app, "tag-winner", &[]))
        } else {
            String::new()
        };
        let kind = app
            .kinds
            .get(usize::from(s))
            .copied()
            .flatten()
            .map_or(String::new(), |k| {
                format!(
                    " ({})",
                    say(app, "term-bot-level", &[("level", k.name().into())])
                )
            });
        let style = if chips == best {
            theme.accent()
        } else {
            Style::new()
        };
        lines.push(Line::styled(
            format!(
                "  {place}. {} {:>11}{mark}",
                text::pad(&format!("{}{kind}", app.words.name(s)), 22),
                say(app, "chips-n", &[("n", chips.into())])
            ),
            style,
        ));
    }
    lines.push(Line::raw(""));
    if !app.ledger_now.is_empty() || !app.notes.is_empty() {
        lines.push(Line::raw(format!("  {}", say(app, "term-after-last", &[]))));
        let ledger = ledger_lines(app, &app.ledger_now, app.shown.pay_suit);
        for l in app.notes.iter().chain(&ledger) {
            for piece in text::wrap(l, usize::from(main.width.saturating_sub(6))) {
                lines.push(Line::raw(format!("  {piece}")));
            }
        }
        lines.push(Line::raw(""));
    }
    // Chips nobody won stay on the layout (cosmo has no final pot): say so,
    // or the standings do not add up to what was played for.
    let left: u32 = app.shown.layout.iter().map(|l| l.1).sum();
    if left > 0 {
        lines.push(Line::raw(format!(
            "  {}",
            say(app, "term-left-on-layout", &[("n", left.into())])
        )));
        lines.push(Line::raw(""));
    }
    if let Some(path) = &app.save_path {
        for id in ["term-saved-to", "term-replay-hint"] {
            let line = say(app, id, &[("path", path.as_str().into())]);
            lines.push(Line::raw(format!("  {line}")));
        }
    }
    let height = usize::from(main.height.saturating_sub(2));
    let start = app.scroll.min(lines.len().saturating_sub(height));
    // Lines below the frame are announced on its bottom edge.
    let hidden = lines.len().saturating_sub(start + height);
    let shown: Vec<Line> = lines.into_iter().skip(start).take(height).collect();
    let mut block = Block::bordered().title(format!(" {} ", say(app, "standings-label", &[])));
    if hidden > 0 {
        let more = say(app, "term-more-below", &[("n", hidden.into())]);
        block = block.title_bottom(Line::from(format!(" {more} ")).right_aligned());
    }
    f.render_widget(Paragraph::new(shown).block(block), main);
    let mut s = vec![Span::raw(" ")];
    s.extend(key_span(
        theme,
        app.words.lang,
        "q",
        &say(app, "term-key-quit-only", &[]),
    ));
    s.extend(key_span(
        theme,
        app.words.lang,
        "↑/↓",
        &say(app, "term-key-scroll", &[]),
    ));
    f.render_widget(Paragraph::new(Line::from(s)), footer);
}
