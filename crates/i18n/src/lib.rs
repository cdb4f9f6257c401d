//! The players' words in English and Spanish.
//!
//! One Fluent catalogue per language lives in `locales/<lang>/*.ftl` at the
//! repository's root (one file per area: `web.ftl`, `rules.ftl`,
//! `terminal.ftl`, `words.ftl` ...). Every `.ftl` file of a language's
//! directory is embedded at build time (`build.rs`), so adding a file is no
//! change here. The Rust front ends format messages through
//! [`Lang::t`]; the server hands the browser its part of a language's
//! catalogue ([`Lang::browser_source`]), which `web/i18n.js` formats with
//! the same Fluent rules; [`rules`] says a table's rules in either language.
//!
//! Placeables are not wrapped in Unicode isolation marks: the text goes to
//! terminals and plain strings, and names are refused server-side when
//! they hold bidi controls.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

pub use fluent_bundle::FluentValue as Value;

pub mod glyphs;
pub mod names;
pub mod rules;
pub mod words;

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// Files of the catalogue that only the Rust front ends read: the rules
/// text (the server says it), the terminal's words and the analysis's
/// verdicts (`tripoley analyse`). The browser does not load them, which
/// keeps its first load small.
pub const RUST_ONLY: [&str; 3] = ["analysis.ftl", "rules.ftl", "terminal.ftl"];

/// A language the catalogue speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    /// English, the default.
    #[default]
    En,
    /// Spanish.
    Es,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// The language's code and the name of its `locales/` directory.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The language of a tag such as `es`, `es-MX`, `es_ES.UTF-8` or `EN`
    /// (only the primary language counts); `None` for one we do not have.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_', '.', '@']).next()?.to_ascii_lowercase();
        Self::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The language the environment asks for, as POSIX decides it: the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty;
    /// English when that names a language we do not have (`C`, `de_DE`).
    pub fn from_env() -> Lang {
        Self::from_vars(|key| std::env::var(key).ok())
    }

    fn from_vars(get: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(get)
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::parse(&v))
            .unwrap_or_default()
    }

    /// The message `id` with its arguments, in this language (for example
    /// `Lang::Es.t("ev-bid", &[("who", "Ana".into()), ("amount", 3.into())])`,
    /// "Ana puja 3.").
    ///
    /// An id missing from the catalogue (which `tests/catalogue.rs` rules
    /// out for every id in the code) fails a debug assertion and shows as
    /// the id itself otherwise, so a player sees something searchable.
    pub fn t(self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        self.catalogue().format(id, args)
    }

    /// A whole number as this language writes it, as the browser's
    /// `Intl.NumberFormat` does too: `3,000` and `20,000` in English;
    /// `3000` and `20.000` in Spanish, whose four-digit numbers stand
    /// together (the RAE's rule, CLDR's minimum grouping digits of 2).
    pub fn integer(self, n: u64) -> String {
        let digits = n.to_string();
        if digits.len() < self.grouped_from() {
            return digits;
        }
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(self.marks().0);
            }
            out.push(c);
        }
        out
    }

    /// The fewest digits a number has for its thousands to be grouped.
    fn grouped_from(self) -> usize {
        match self {
            Lang::En => 4,
            Lang::Es => 5,
        }
    }

    /// A number with `places` decimals as this language writes it:
    /// `-12,345.5` in English, `-12.345,5` in Spanish.
    pub fn decimal(self, x: f64, places: usize) -> String {
        let fixed = format!("{:.places$}", x.abs());
        let (whole, fraction) = fixed.split_once('.').unwrap_or((&fixed, ""));
        let mut out = String::new();
        if x.is_sign_negative() && fixed.chars().any(|c| c.is_ascii_digit() && c != '0') {
            out.push('-');
        }
        out.push_str(&self.integer(whole.parse().unwrap_or(0)));
        if !fraction.is_empty() {
            out.push(self.marks().1);
            out.push_str(fraction);
        }
        out
    }

    /// The thousands separator and the decimal mark.
    fn marks(self) -> (char, char) {
        match self {
            Lang::En => (',', '.'),
            Lang::Es => ('.', ','),
        }
    }

    /// The browser's part of this language's catalogue joined into one
    /// text (what `GET /locales/<code>.ftl` serves): every `.ftl` file but
    /// the ones only Rust reads ([`RUST_ONLY`]), so a new area's file
    /// reaches the page with no change here.
    pub fn browser_source(self) -> &'static str {
        static JOINED: OnceLock<[String; 2]> = OnceLock::new();
        let all = JOINED.get_or_init(|| Lang::ALL.map(|l| joined(&l.browser_files())));
        &all[self as usize]
    }

    /// The files the browser loads: all but [`RUST_ONLY`].
    pub fn browser_files(self) -> Vec<(&'static str, &'static str)> {
        self.files()
            .iter()
            .filter(|(name, _)| !RUST_ONLY.contains(name))
            .copied()
            .collect()
    }

    /// This language's files: (file name, text), in name order.
    pub fn files(self) -> &'static [(&'static str, &'static str)] {
        SOURCES
            .iter()
            .find(|(code, _)| *code == self.code())
            .map_or(&[], |(_, files)| files)
    }

    fn catalogue(self) -> &'static Catalogue {
        static ALL: OnceLock<[Catalogue; 2]> = OnceLock::new();
        &ALL.get_or_init(|| Lang::ALL.map(Catalogue::new))[self as usize]
    }
}

fn joined(files: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, text) in files {
        out.push_str("### ");
        out.push_str(name);
        out.push('\n');
        // Comments are for translators: every phone would download them.
        // A line starting with `#` is always a comment in Fluent (a
        // pattern's continuation lines are indented).
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A whole number given to a message as a number (`("n", 20000.into())`),
/// written as [`Lang::integer`] writes it, like the browser's Fluent, which
/// formats numbers with `Intl.NumberFormat`; fluent-rs alone would write
/// the bare digits. Anything else is left to Fluent (`None`).
fn whole_number(lang: Lang, value: &Value<'_>) -> Option<String> {
    let Value::Number(n) = value else {
        return None;
    };
    let whole = n.options.minimum_fraction_digits.is_none()
        && n.value.fract() == 0.0
        && n.value.abs() < 1e15;
    whole.then(|| {
        #[allow(clippy::cast_sign_loss)] // an absolute value, whole and below 1e15
        let digits = lang.integer(n.value.abs() as u64);
        if n.value < 0.0 {
            format!("-{digits}")
        } else {
            digits
        }
    })
}

/// One language's messages, ready to format.
struct Catalogue {
    bundle: FluentBundle<FluentResource>,
}

impl Catalogue {
    /// Parses the embedded files. A file that does not parse, or a message
    /// defined twice, is a bug of the build (the catalogue's tests catch
    /// it), so it panics with the file and the errors.
    fn new(lang: Lang) -> Catalogue {
        let id = lang.code().parse().expect("a valid language code");
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        bundle.set_use_isolating(false);
        // A formatter is a plain `fn` (it can hold no language): one per language.
        bundle.set_formatter(Some(match lang {
            Lang::En => |v, _| whole_number(Lang::En, v),
            Lang::Es => |v, _| whole_number(Lang::Es, v),
        }));
        for (name, text) in lang.files() {
            let resource = FluentResource::try_new((*text).to_owned())
                .unwrap_or_else(|(_, errors)| panic!("locales/{}/{name}: {errors:?}", lang.code()));
            bundle
                .add_resource(resource)
                .unwrap_or_else(|errors| panic!("locales/{}/{name}: {errors:?}", lang.code()));
        }
        Catalogue { bundle }
    }

    fn format(&self, id: &str, args: &[(&str, Value<'_>)]) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            debug_assert!(false, "no message {id}");
            return id.to_owned();
        };
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (key, value) in args {
            fluent_args.set(*key, value.clone());
        }
        let mut errors = Vec::new();
        let text = self
            .bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors);
        debug_assert!(errors.is_empty(), "{id}: {errors:?}");
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::{Lang, RUST_ONLY};

    #[test]
    fn tags_name_their_primary_language() {
        assert_eq!(Lang::parse("es"), Some(Lang::Es));
        assert_eq!(Lang::parse("es-MX"), Some(Lang::Es));
        assert_eq!(Lang::parse("es_ES.UTF-8"), Some(Lang::Es));
        assert_eq!(Lang::parse("EN_gb"), Some(Lang::En));
        assert_eq!(Lang::parse("de_DE.UTF-8"), None);
        assert_eq!(Lang::parse(""), None);
    }

    #[test]
    fn the_environment_decides_in_posix_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(Lang::from_vars(env(&[("LANG", "es_ES.UTF-8")])), Lang::Es);
        assert_eq!(
            Lang::from_vars(env(&[("LC_ALL", "C"), ("LANG", "es_ES.UTF-8")])),
            Lang::En
        );
        assert_eq!(
            Lang::from_vars(env(&[("LC_ALL", ""), ("LC_MESSAGES", "es_AR")])),
            Lang::Es
        );
        assert_eq!(Lang::from_vars(env(&[])), Lang::En);
    }

    #[test]
    fn messages_format_with_plurals_per_language() {
        let chips = |lang: Lang, n: u32| lang.t("words-chips", &[("n", n.into())]);
        assert_eq!(chips(Lang::En, 1), "1 chip");
        assert_eq!(chips(Lang::En, 3), "3 chips");
        assert_eq!(chips(Lang::Es, 1), "1 ficha");
        assert_eq!(chips(Lang::Es, 3), "3 fichas");
    }

    #[test]
    fn numbers_group_and_mark_decimals_per_language() {
        assert_eq!(Lang::En.integer(3000), "3,000");
        // Four digits stand together in Spanish (RAE; `Intl.NumberFormat("es")`).
        assert_eq!(Lang::Es.integer(3000), "3000");
        assert_eq!(Lang::Es.integer(14_459), "14.459");
        assert_eq!(Lang::Es.integer(1_234_567), "1.234.567");
        assert_eq!(Lang::Es.integer(999), "999");
        assert_eq!(Lang::En.decimal(98.46, 1), "98.5");
        assert_eq!(Lang::Es.decimal(98.46, 1), "98,5");
        assert_eq!(Lang::Es.decimal(-1234.5, 1), "-1234,5");
        assert_eq!(Lang::Es.decimal(-12_345.5, 1), "-12.345,5");
        assert_eq!(Lang::En.decimal(-0.01, 1), "0.0");
        assert_eq!(Lang::Es.decimal(42.0, 0), "42");
    }

    /// Issue 50: a number given to a message as a number is written as the
    /// language writes numbers (as the browser's `Intl.NumberFormat` does),
    /// not as the digits alone: "20,000 chips", "20.000 fichas", "3000 fichas".
    #[test]
    fn numbers_in_messages_are_grouped_per_language() {
        let chips = |lang: Lang, n: u32| lang.t("words-chips", &[("n", n.into())]);
        assert_eq!(chips(Lang::En, 20_000), "20,000 chips");
        assert_eq!(chips(Lang::Es, 20_000), "20.000 fichas");
        assert_eq!(chips(Lang::En, 3000), "3,000 chips");
        assert_eq!(chips(Lang::Es, 3000), "3000 fichas");
        assert_eq!(chips(Lang::Es, 1), "1 ficha");
        assert_eq!(
            Lang::Es.t("seat-n", &[("n", (-12_345_i64).into())]),
            "Asiento -12.345"
        );
    }

    #[test]
    fn the_browser_gets_every_file_but_the_rust_only_ones() {
        for lang in Lang::ALL {
            let files = lang.files();
            assert!(files.iter().any(|(n, _)| *n == "web.ftl"), "{lang:?}");
            for (name, _) in files {
                let served = lang.browser_source().contains(&format!("### {name}\n"));
                assert_eq!(served, !RUST_ONLY.contains(name), "{lang:?} {name}");
            }
        }
        assert!(Lang::Es.browser_source().contains("corazones"));
        assert!(!Lang::Es.browser_source().contains("rules-t1"));
        // Translators' comments stay home (only the file headers remain).
        for lang in Lang::ALL {
            let comments: Vec<_> = lang
                .browser_source()
                .lines()
                .filter(|l| l.starts_with('#') && !l.starts_with("### "))
                .collect();
            assert!(comments.is_empty(), "{lang:?}: {comments:?}");
        }
    }
}
