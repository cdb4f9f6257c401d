//! `tripoley analyse FILE`: the expert's verdict on every decision of a
//! recorded game (`tripoley-analysis`), the costliest first, in players'
//! words ("“fold” cost about 4 chips (± 0.6)"), then each player's chips over
//! the game; `--json` prints the whole analysis as one object.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::time::Instant;

use tripoley_analysis::{
    Analysis, AnalysisError, DEFAULT_PLAYOUTS, MAX_RECORD_BYTES, Options, Why,
};
use tripoley_engine::Seat;
use tripoley_i18n::{Lang, Value};

use crate::Failure;
use crate::play::move_words;

/// Moves that cost less than this many chips are not listed as mistakes.
const MISTAKE_CHIPS: f64 = 1.0;

/// Arguments of `tripoley analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// A game record (JSON): `tripoley play --save`, `sim --save-records`, or a web table's.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Judge only this seat's decisions (0 for the first player); everyone's by default.
    #[arg(long, value_name = "N")]
    seat: Option<Seat>,
    /// Sample games per decision (the web table's hint uses 2000).
    #[arg(long, value_name = "PLAYOUTS", default_value_t = DEFAULT_PLAYOUTS)]
    budget: u32,
    /// How many of the biggest mistakes to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// The whole analysis as one JSON object.
    #[arg(long)]
    json: bool,
    /// The language of the words: en or es (default: the environment's).
    #[arg(long, value_name = "LANG", value_parser = crate::setup::parse_lang)]
    lang: Option<Lang>,
}

/// Runs `tripoley analyse`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = args.file.display().to_string();
    let text = read_bounded(&args.file, &file)?;
    let record = tripoley_analysis::read(&text).map_err(|e| refused(&file, &e))?;
    let you = player(&text);
    let options = Options {
        seat: args.seat,
        playouts: args.budget,
    };
    // Progress on a terminal only: a pipe gets the result alone.
    let tty = std::io::stderr().is_terminal() && !args.json;
    let start = Instant::now();
    let analysis = tripoley_analysis::analyse(&record, &options, &mut |done, total| {
        if tty {
            eprint!("\r{done}/{total}");
            let _ = std::io::stderr().flush();
        }
        true
    })
    .map_err(|e| refused(&file, &e))?;
    if tty {
        eprintln!("\r{} s", start.elapsed().as_secs());
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&analysis).expect("an analysis serialises")
        );
    } else {
        print!(
            "{}",
            words(
                &analysis,
                you,
                args.top,
                args.lang.unwrap_or_else(Lang::from_env)
            )
        );
    }
    Ok(())
}

/// The file's text, refused before reading when it is too large to be a record.
fn read_bounded(path: &std::path::Path, file: &str) -> Result<String, Failure> {
    let cannot = |e: std::io::Error| Failure::usage(format!("{file}: cannot be read: {e}"));
    let len = std::fs::metadata(path).map_err(cannot)?.len();
    if len > MAX_RECORD_BYTES as u64 {
        return Err(refused(file, &AnalysisError::TooBig(len as usize)));
    }
    crate::setup::read_text(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            Failure::usage(format!("{file} is not a game record (not UTF-8 text)"))
        }
        _ => cannot(e),
    })
}

/// The seat of the person who played a saved game on this device (the
/// `"play"` field of `tripoley play` and of the browser's offline game),
/// who is reading its analysis: their moves are said as theirs ("your
/// moves"). `None` for a record from elsewhere (`sim`, a web table).
fn player(text: &str) -> Option<Seat> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let human = value.get("play")?.get("human")?.as_u64()?;
    Seat::try_from(human).ok()
}

fn refused(file: &str, e: &AnalysisError) -> Failure {
    Failure::usage(format!("{file}: {e}"))
}

/// What the expert would have done next after a mistake, in words: its
/// answer, then the table's (none when the verdict has no line).
fn line_words(
    line: &[tripoley_analysis::LineMove],
    lang: Lang,
    name: &dyn Fn(Seat) -> String,
) -> Option<String> {
    if line.is_empty() {
        return None;
    }
    let moves: Vec<String> = line
        .iter()
        .map(|m| {
            lang.t(
                "analysis-line-move",
                &[
                    ("who", name(m.seat).into()),
                    ("move", move_words(m.action, lang).into()),
                ],
            )
        })
        .collect();
    Some(lang.t("analysis-line", &[("moves", moves.join(" · ").into())]))
}

/// Why the expert's choice is better, in words: the reason, then the
/// trade-off when the move made did better somewhere.
fn why_words(why: &Why, lang: Lang, chips: &dyn Fn(f64) -> String) -> String {
    let reason = lang.t(
        "why",
        &[
            ("kind", why.kind.name().into()),
            ("chips", chips(why.chips).into()),
            ("back", chips(why.back).into()),
            ("best", why.best_percent.into()),
            ("played", why.played_percent.into()),
        ],
    );
    match why.but {
        None => reason,
        Some(but) => {
            let trade = lang.t(
                "why-but",
                &[
                    ("chips", chips(but.chips).into()),
                    ("part", but.part.name().into()),
                ],
            );
            format!("{reason} {trade}")
        }
    }
}

/// A verdict's margin, as chips are written but to a hundredth under
/// 0.05, where a tenth would print "± 0" for a margin that is not nothing.
fn margin(x: f64, lang: Lang) -> String {
    let places = if x < 0.05 { 2 } else { usize::from(x < 10.0) };
    lang.decimal(x, places)
}

/// Whether a verdict's cost was the same in every sample game: its margin
/// would print as 0, and "about 10 chips (± 0)" says less than that.
fn exact(margin: f64) -> &'static str {
    if margin < 0.005 { "yes" } else { "no" }
}

/// How the analysis names the players, for a reader who may be one of
/// them (`you`: the seat whose moves are "your moves").
struct Naming<'a> {
    names: &'a [String],
    you: Option<Seat>,
    lang: Lang,
}

impl Naming<'_> {
    /// The seat's name, or "Seat 2" for one that cannot be shown.
    fn name(&self, seat: Seat) -> String {
        let n = self.names[usize::from(seat)].trim();
        if tripoley_i18n::names::problem(n).is_none() {
            n.to_owned()
        } else {
            self.lang
                .t("analysis-seat", &[("seat", u64::from(seat).into())])
        }
    }

    /// The seat's name inside a sentence, where the reader who gave no
    /// name is "tú", not "Tú".
    fn in_sentence(&self, seat: Seat) -> String {
        let n = self.name(seat);
        if self.you == Some(seat) && tripoley_i18n::names::is_you_word(&n) {
            self.lang.t("you", &[("at", "within".into())])
        } else {
            n
        }
    }

    /// A message's `$you`: "yes" for the reader's own seat.
    fn yours(&self, seat: Seat) -> Value<'static> {
        Value::from(if self.you == Some(seat) { "yes" } else { "no" })
    }
}

/// The analysis in players' words, addressed to `you` (the seat whose
/// moves are "your moves"), if one of the players reads it.
fn words(a: &Analysis, you: Option<Seat>, top: usize, lang: Lang) -> String {
    let naming = Naming {
        names: &a.names,
        you,
        lang,
    };
    let name = |seat: Seat| naming.name(seat);
    // A decimal below 10 chips, where a tenth still says something.
    let chips = |x: f64| lang.decimal(x, usize::from(x < 10.0));
    let mut out = Vec::new();
    out.push(lang.t(
        "analysis-heading",
        &[
            ("decisions", a.decisions.len().into()),
            ("playouts", lang.integer(u64::from(a.playouts)).into()),
        ],
    ));
    if !a.finished {
        out.push(lang.t("analysis-unfinished", &[]));
    }
    let mistakes: Vec<_> = a
        .decisions
        .iter()
        .filter(|d| d.cost >= MISTAKE_CHIPS)
        .collect();
    if mistakes.is_empty() {
        out.push(lang.t("analysis-none", &[]));
    } else {
        out.push(String::new());
        out.push(lang.t("analysis-mistakes", &[]));
        for d in mistakes.iter().take(top) {
            out.push(format!(
                "  {}",
                lang.t(
                    "analysis-mistake",
                    &[
                        ("deal", d.deal.into()),
                        ("who", name(d.seat).into()),
                        ("you", naming.yours(d.seat)),
                        ("played", move_words(d.played, lang).into()),
                        ("cost", chips(d.cost).into()),
                        ("error", margin(d.std_error, lang).into()),
                        ("exact", exact(d.std_error).into()),
                        ("best", move_words(d.best, lang).into()),
                    ],
                )
            ));
            if let Some(why) = &d.why {
                out.push(format!("    {}", why_words(why, lang, &chips)));
            }
            if let Some(line) = line_words(&d.line, lang, &|s| naming.in_sentence(s)) {
                out.push(format!("    {line}"));
            }
        }
        if mistakes.len() > top {
            out.push(format!(
                "  {}",
                lang.t("analysis-more", &[("count", (mistakes.len() - top).into())])
            ));
        }
    }
    out.push(String::new());
    out.push(lang.t("analysis-chips", &[]));
    let (first, last) = (a.chips.first(), a.chips.last());
    for seat in 0..a.names.len() {
        let at = |c: Option<&tripoley_analysis::ChipsAt>| c.map_or(0, |c| c.stacks[seat]);
        let judged = a.seat.is_none_or(|s| usize::from(s) == seat);
        let cost = if judged {
            chips(a.cost_by_seat[seat])
        } else {
            "–".into()
        };
        out.push(format!(
            "  {}",
            lang.t(
                "analysis-player",
                &[
                    ("who", name(seat as Seat).into()),
                    ("you", naming.yours(seat as Seat)),
                    ("start", at(first).into()),
                    ("end", at(last).into()),
                    ("cost", cost.into()),
                ],
            )
        ));
        if judged && let Some(by) = a.cost_by_part.get(seat) {
            out.push(format!(
                "    {}",
                lang.t(
                    "analysis-parts",
                    &[
                        ("spare", chips(by.spare).into()),
                        ("poker", chips(by.poker).into()),
                        ("michigan", chips(by.michigan).into()),
                    ],
                )
            ));
        }
    }
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::margin;
    use tripoley_i18n::Lang;

    #[test]
    fn a_small_margin_is_never_written_as_nothing() {
        assert_eq!(margin(0.04, Lang::En), "0.04");
        assert_eq!(margin(0.04, Lang::Es), "0,04");
        assert_eq!(margin(0.6, Lang::En), "0.6");
        assert_eq!(margin(12.4, Lang::En), "12");
    }
}
