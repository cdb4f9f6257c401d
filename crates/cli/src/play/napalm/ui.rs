//! Drawing the [`NapalmApp`] with ratatui: the table and the final result,
//! laid out for 80x24 and growing with the terminal.

use std::fmt::Write as _;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use tripoley_napalm::Decision;

use super::super::text;
use super::super::ui::{MIN_SIZE, Theme, key_span, tail};
use super::app::{HUMAN, NapalmApp, hand_words, round_key, round_number};

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &NapalmApp) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = app.say(
            "term-too-small",
            &[
                ("w", MIN_SIZE.0.into()),
                ("h", MIN_SIZE.1.into()),
                ("width", area.width.into()),
                ("height", area.height.into()),
            ],
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let theme = Theme { color: app.color };
    let n = u16::try_from(app.words.names.len()).unwrap_or(7);
    let [header, players, body, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(n + 2),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(f, header, app, &theme);
    draw_players(f, players, app, &theme);
    if app.is_over() {
        draw_result(f, body, app, &theme);
    } else {
        let [log, hand, decision] = Layout::vertical([
            Constraint::Min(2),
            Constraint::Length(2),
            Constraint::Length(3),
        ])
        .areas(body);
        draw_log(f, log, app);
        draw_hand(f, hand, app, &theme);
        draw_decision(f, decision, app, &theme);
    }
    draw_footer(f, footer, app, &theme);
}

fn draw_header(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let v = &app.shown;
    let mut first = format!(" {}", app.say("home-game-napalm", &[]));
    if v.hand_number > 0 {
        let _ = write!(
            first,
            " · {}",
            app.say(
                "tn-head-hand",
                &[
                    ("n", v.hand_number.into()),
                    ("who", app.words.name(v.dealer).into()),
                    ("you", app.words.you(v.dealer)),
                ],
            )
        );
    }
    let _ = write!(
        first,
        " · {}",
        app.say(
            "tn-head-pot",
            &[
                ("pot", v.pot.into()),
                ("tokens", app.tokens_to_win().into())
            ],
        )
    );
    let second = match v.round {
        _ if app.is_over() => app.say("game-over", &[]),
        Some(r) => app.say(
            "tn-head-round",
            &[
                ("n", round_number(r).into()),
                ("round", round_key(r).into()),
            ],
        ),
        None => app.say("tn-between-hands", &[]),
    };
    let second = format!(" {second}");
    let width = usize::from(area.width);
    f.render_widget(
        Paragraph::new(vec![
            Line::styled(text::clip(&first, width), theme.accent()),
            Line::raw(text::clip(&second, width)),
        ]),
        area,
    );
}

fn draw_players(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let v = &app.shown;
    let to_act = app.to_act();
    let mut lines = vec![Line::styled(
        format!(
            "   {:<26} {:>5} {:>6}  {:<7} {}",
            app.say("tn-col-player", &[]),
            app.say("term-col-chips", &[]),
            app.say("tn-col-tokens", &[]),
            app.say("tn-col-says", &[]),
            app.say("tn-col-seen", &[])
        ),
        theme.dim(),
    )];
    for (i, name) in app.words.names.iter().enumerate() {
        let s = u8::try_from(i).unwrap_or(0);
        let marker = if to_act == Some(s) { "▶" } else { " " };
        let dealer = if v.dealer == s && v.hand_number > 0 {
            app.say("dealer-mark", &[])
        } else {
            " ".to_owned()
        };
        let who = match app.kinds[i] {
            Some(k) => format!(
                "{name} ({})",
                app.say("term-bot-level", &[("level", k.name().into())])
            ),
            None => app.words.own_name(),
        };
        let says = if v.out[i] {
            app.say("tag-out", &[])
        } else {
            let said = match (v.declared[i], app.challenged[i]) {
                (_, Some(true)) => "challenged",
                (Some(true), _) => "yes",
                (Some(false), _) => "no",
                (None, _) => "nothing",
            };
            app.say("tn-says", &[("said", said.into())])
        };
        let mut spans = vec![
            Span::styled(format!("{marker}{dealer} "), theme.accent()),
            Span::raw(format!(
                "{} {:>5} {:>6}  {:<7} ",
                text::pad(&text::clip(&who, 26), 26),
                app.words.number(v.stacks[i]),
                format!("{}/{}", v.tokens[i], app.tokens_to_win()),
                says
            )),
        ];
        for c in text::sorted_hand(v.seen[i]) {
            spans.push(Span::styled(text::card(c), theme.card(c)));
            spans.push(Span::raw(" "));
        }
        let line = Line::from(spans);
        lines.push(if s == HUMAN {
            line.style(ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::BOLD))
        } else {
            line
        });
    }
    f.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::TOP)
                .title(format!(" {} ", app.say("tn-table", &[]))),
        ),
        area,
    );
}

fn log_lines(app: &NapalmApp, width: u16) -> Vec<String> {
    app.log
        .iter()
        .flat_map(|l| text::wrap(l, usize::from(width.saturating_sub(2))))
        .collect()
}

fn draw_log(f: &mut Frame, area: Rect, app: &NapalmApp) {
    let lines = log_lines(app, area.width);
    let height = usize::from(area.height.saturating_sub(1));
    let visible = tail(&lines, height, app.scroll);
    f.render_widget(
        Paragraph::new(
            visible
                .iter()
                .map(|l| Line::raw(format!(" {l}")))
                .collect::<Vec<_>>(),
        )
        .block(
            Block::new()
                .borders(Borders::TOP)
                .title(format!(" {} ", app.say("tn-log", &[]))),
        ),
        area,
    );
}

fn draw_hand(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let v = &app.shown;
    let mut spans = vec![Span::raw(" ")];
    for c in text::sorted_hand(v.cards) {
        spans.push(Span::styled(format!("{:<3}", text::card(c)), theme.card(c)));
        spans.push(Span::raw(" "));
    }
    if let Some(r) = v.round.filter(|_| !v.cards.is_empty()) {
        spans.push(Span::styled(
            format!("  {}", hand_words(r, v.cards, app.words.lang)),
            theme.dim(),
        ));
    }
    let title = format!(
        " {} ",
        app.say("tn-your-cards", &[("n", v.cards.len().into())])
    );
    f.render_widget(
        Paragraph::new(Line::from(spans)).block(Block::new().borders(Borders::TOP).title(title)),
        area,
    );
}

fn draw_decision(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let key = |k: &'static str, id: &str| key_span(theme, app.words.lang, k, &app.say(id, &[]));
    let (prompt, keys) = match app.my_decision() {
        Some(Decision::Declare { round }) => (
            app.say("tn-prompt-declare", &[("round", round_key(round).into())]),
            [key("y", "napalm-yes"), key("n", "napalm-no")].concat(),
        ),
        Some(Decision::Challenge { round }) => (
            app.say(
                "tn-prompt-challenge",
                &[
                    ("who", app.words.name(app.shown.dealer).into()),
                    ("round", round_key(round).into()),
                ],
            ),
            [key("c", "tn-key-challenge"), key("d", "tn-key-decline")].concat(),
        ),
        None => (
            match app.to_act() {
                Some(s) if s != HUMAN => {
                    app.say("term-to-play", &[("who", app.words.name(s).into())])
                }
                _ => app.say("term-bots-playing", &[]),
            },
            key("Space", "term-key-skip-turn"),
        ),
    };
    let mut choice = vec![Span::raw(" ")];
    choice.extend(keys);
    let hint = app.hint.as_ref().map_or_else(
        || Line::raw(""),
        |h| Line::styled(format!(" {h}"), theme.good()),
    );
    f.render_widget(
        Paragraph::new(vec![
            Line::styled(format!(" {prompt}"), theme.accent()),
            Line::from(choice),
            hint,
        ]),
        area,
    );
}

fn draw_result(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let width = area.width.saturating_sub(2);
    let mut lines = vec![Line::styled(
        format!(" {}", app.result_words().unwrap_or_default()),
        theme.accent(),
    )];
    let hands = app.shown.hand_number;
    lines.push(Line::raw(format!(
        " {}",
        app.say("tn-hands-played", &[("n", hands.into())])
    )));
    let log = log_lines(app, width);
    let height = usize::from(area.height.saturating_sub(3));
    for l in tail(&log, height, app.scroll) {
        lines.push(Line::raw(format!(" {l}")));
    }
    f.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::TOP)
                .title(format!(" {} ", app.say("tn-result-title", &[]))),
        ),
        area,
    );
}

fn draw_footer(f: &mut Frame, area: Rect, app: &NapalmApp, theme: &Theme) {
    let key = |k: &'static str, id: &str| key_span(theme, app.words.lang, k, &app.say(id, &[]));
    let spans = if app.confirm_quit {
        vec![
            Span::styled(
                format!(" {} ", app.say("term-quit-question", &[])),
                theme.accent(),
            ),
            Span::styled("[y]", theme.key()),
            Span::raw(format!(" {}", app.say("term-quit-answers", &[]))),
        ]
    } else if app.is_over() {
        let mut s = vec![Span::raw(" ")];
        s.extend(key("↑/↓", "term-key-scroll"));
        s.extend(key("q", "tn-key-leave"));
        s
    } else {
        let mut s = vec![Span::raw(" ")];
        s.extend(key("?", "term-key-hint"));
        s.extend(key("↑/↓", "tn-key-scroll-log"));
        s.extend(key("Space", "term-key-skip"));
        // Quitting saves the game, as at the Tripoley table.
        s.extend(key("q", "term-key-quit"));
        s
    };
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}
