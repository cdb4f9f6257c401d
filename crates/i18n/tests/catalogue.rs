//! The catalogue is whole, in every language: each `.ftl` file parses; each
//! message of one language is in every other, with the same attributes;
//! every id the code asks for (the browser's `t("id", {...})` in `web/`,
//! and the message ids written in the Rust sources) exists in every
//! language; at each call whose arguments are written out, every variable
//! the message uses in any language is supplied; and every message is used
//! somewhere, so the catalogue holds no dead words.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use tripoley_i18n::Lang;

/// A message's variables and the messages it refers to.
#[derive(Default)]
struct Uses {
    vars: BTreeSet<String>,
    /// The variables written out in the text (not only chosen by).
    printed: BTreeSet<String>,
    refs: BTreeSet<String>,
    attributes: BTreeSet<String>,
}

fn walk_inline(e: &InlineExpression<&str>, uses: &mut Uses) {
    match e {
        InlineExpression::VariableReference { id } => {
            uses.vars.insert(id.name.to_owned());
            uses.printed.insert(id.name.to_owned());
        }
        InlineExpression::MessageReference { id, .. } => {
            uses.refs.insert(id.name.to_owned());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                walk_inline(a, uses);
            }
            for a in &arguments.named {
                walk_inline(&a.value, uses);
            }
        }
        InlineExpression::Placeable { expression } => walk_expression(expression, uses),
        InlineExpression::StringLiteral { .. }
        | InlineExpression::NumberLiteral { .. }
        | InlineExpression::TermReference { .. } => {}
    }
}

fn walk_expression(e: &Expression<&str>, uses: &mut Uses) {
    match e {
        Expression::Select { selector, variants } => {
            match selector {
                InlineExpression::VariableReference { id } => {
                    uses.vars.insert(id.name.to_owned());
                }
                other => walk_inline(other, uses),
            }
            for v in variants {
                walk_pattern(&v.value, uses);
            }
        }
        Expression::Inline(inline) => walk_inline(inline, uses),
    }
}

fn walk_pattern(p: &Pattern<&str>, uses: &mut Uses) {
    for element in &p.elements {
        if let PatternElement::Placeable { expression } = element {
            walk_expression(expression, uses);
        }
    }
}

/// A language's messages by id (every file of its directory).
fn messages(lang: Lang) -> BTreeMap<String, Uses> {
    parse(lang, lang.files())
}

/// The messages of some of a language's files.
fn parse(lang: Lang, files: &[(&str, &str)]) -> BTreeMap<String, Uses> {
    let mut out = BTreeMap::new();
    for (name, text) in files {
        let resource = fluent_syntax::parser::parse(*text).unwrap_or_else(|(_, errors)| {
            panic!("locales/{}/{name} does not parse: {errors:?}", lang.code())
        });
        for entry in &resource.body {
            if let Entry::Junk { content } = entry {
                panic!("locales/{}/{name}: junk {content:?}", lang.code());
            }
            let Entry::Message(m) = entry else { continue };
            let mut uses = Uses::default();
            if let Some(value) = &m.value {
                walk_pattern(value, &mut uses);
            }
            for a in &m.attributes {
                uses.attributes.insert(a.id.name.to_owned());
                walk_pattern(&a.value, &mut uses);
            }
            let id = m.id.name.to_owned();
            assert!(
                out.insert(id.clone(), uses).is_none(),
                "locales/{}: {id} is defined twice",
                lang.code()
            );
        }
    }
    out
}

/// The variables of `id` in one language, through the messages it refers
/// to (a referenced message is formatted with the caller's arguments).
fn variables(
    all: &BTreeMap<String, Uses>,
    id: &str,
    seen: &mut BTreeSet<String>,
) -> BTreeSet<String> {
    gathered(all, id, seen, |uses| &uses.vars)
}

/// One set of each message `id` reaches (itself and those it refers to),
/// joined.
fn gathered(
    all: &BTreeMap<String, Uses>,
    id: &str,
    seen: &mut BTreeSet<String>,
    set: fn(&Uses) -> &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    if !seen.insert(id.to_owned()) {
        return vars;
    }
    if let Some(uses) = all.get(id) {
        vars.extend(set(uses).iter().cloned());
        for r in &uses.refs {
            vars.extend(gathered(all, r, seen, set));
        }
    }
    vars
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            // Vendored code is not ours, targets are built output, and
            // tests name ids to check them, not to show them.
            if !["vendor", "target", "snapshots", "tests"].contains(&name.as_ref()) {
                files_under(&path, ext, out);
            }
        } else if path.extension().is_some_and(|x| x == ext) && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// One place the code asks for a message: the id and, when the arguments
/// are written out at the call, their names.
struct Call {
    at: String,
    id: String,
    args: Option<BTreeSet<String>>,
}

/// The text from `open` (a bracket) to its matching close, strings skipped.
fn balanced(s: &str, open: char, close: char) -> Option<&str> {
    if !s.starts_with(open) {
        return None;
    }
    let mut depth = 0;
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            c if c == open || "([{".contains(c) => depth += 1,
            c if c == close || ")]}".contains(c) => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits on commas outside brackets and strings.
fn top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, 0, None);
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

fn is_id(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The browser's calls: `t("id")` and `t("id", { a, b: x })`.
fn js_calls(path: &Path, text: &str, out: &mut Vec<Call>) {
    let mut from = 0;
    while let Some(found) = text[from..].find("t(\"") {
        let at = from + found;
        from = at + 3;
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let rest = &text[at + 3..];
        let Some(end) = rest.find('"') else { continue };
        let id = &rest[..end];
        if !is_id(id) {
            continue;
        }
        let after = rest[end + 1..].trim_start();
        let args = if let Some(obj) = after.strip_prefix(',') {
            let obj = obj.trim_start();
            balanced(obj, '{', '}').map(|inside| {
                top_level(inside)
                    .into_iter()
                    .map(|part| part.split(':').next().unwrap().trim().to_owned())
                    .collect()
            })
        } else {
            Some(BTreeSet::new())
        };
        let line = text[..at].lines().count();
        out.push(Call {
            at: format!("{}:{line}", path.display()),
            id: id.to_owned(),
            args,
        });
    }
}

/// The Rust sources' ids: every string literal that is a message id of the
/// catalogue's families (`"rules-t5"`), with the arguments when the call
/// writes them out as `"id", &[("a", ..), ("b", ..)]`.
fn rust_calls(path: &Path, text: &str, families: &BTreeSet<String>, out: &mut Vec<Call>) {
    let mut rest = text;
    let mut offset = 0;
    while let Some(q) = rest.find('"') {
        let after = &rest[q + 1..];
        let Some(end) = after.find('"') else { break };
        let literal = &after[..end];
        let consumed = q + 1 + end + 1;
        if is_id(literal)
            && literal.contains('-')
            && families.contains(literal.split('-').next().unwrap())
        {
            let tail = after[end + 1..].trim_start();
            let args = tail
                .strip_prefix(',')
                .map(str::trim_start)
                .and_then(|t| t.strip_prefix('&'))
                .and_then(|t| balanced(t, '[', ']'))
                .map(|inside| {
                    top_level(inside)
                        .into_iter()
                        .filter_map(|pair| {
                            let pair = pair.trim().strip_prefix('(')?;
                            let name = pair.trim_start().strip_prefix('"')?;
                            Some(name[..name.find('"')?].to_owned())
                        })
                        .collect()
                });
            let line = text[..offset + q].lines().count();
            out.push(Call {
                at: format!("{}:{line}", path.display()),
                id: literal.to_owned(),
                args,
            });
        }
        offset += consumed;
        rest = &rest[consumed..];
    }
}

/// Every `t("id", ...)` of the browser's code.
fn web_calls() -> Vec<Call> {
    let mut calls = Vec::new();
    let mut js = Vec::new();
    files_under(&root().join("web"), "js", &mut js);
    for path in &js {
        js_calls(path, &fs::read_to_string(path).unwrap(), &mut calls);
    }
    assert!(
        calls.len() > 200,
        "only {} calls found in web/",
        calls.len()
    );
    calls
}

#[test]
fn the_page_has_every_message_it_asks_for_in_its_part_of_the_catalogue() {
    let calls = web_calls();
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let page = parse(lang, &lang.browser_files());
        for call in &calls {
            let Some(uses) = page.get(&call.id) else {
                problems.push(format!(
                    "{}: {} is not in the browser's {lang:?}",
                    call.at, call.id
                ));
                continue;
            };
            for r in uses.refs.iter().filter(|r| !page.contains_key(*r)) {
                problems.push(format!(
                    "{}: {} needs {r}, not in the browser's {lang:?}",
                    call.at, call.id
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_language_has_every_message_and_the_code_asks_for_none_missing() {
    let all: BTreeMap<Lang, BTreeMap<String, Uses>> =
        Lang::ALL.into_iter().map(|l| (l, messages(l))).collect();
    let english = &all[&Lang::En];
    assert!(english.len() > 300, "{} messages", english.len());
    for (lang, msgs) in &all {
        let missing: Vec<_> = english
            .keys()
            .filter(|id| !msgs.contains_key(*id))
            .collect();
        let extra: Vec<_> = msgs
            .keys()
            .filter(|id| !english.contains_key(*id))
            .collect();
        assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{lang:?} has messages English lacks: {extra:?}"
        );
        for (id, uses) in msgs {
            assert_eq!(uses.attributes, english[id].attributes, "{lang:?} {id}");
            for r in &uses.refs {
                assert!(
                    msgs.contains_key(r),
                    "{lang:?} {id} refers to {r}, which is missing"
                );
            }
        }
    }

    let root = root();
    let mut calls = web_calls();
    let js_count = calls.len();
    let mut problems = Vec::new();
    let families: BTreeSet<String> = english
        .keys()
        .map(|id| id.split('-').next().unwrap().to_owned())
        .collect();
    let mut rs = Vec::new();
    files_under(&root.join("crates"), "rs", &mut rs);
    for path in &rs {
        rust_calls(
            path,
            &fs::read_to_string(path).unwrap(),
            &families,
            &mut calls,
        );
    }
    assert!(
        calls.len() > js_count + 80,
        "only {} calls found in the Rust sources",
        calls.len() - js_count
    );

    let mut used: BTreeSet<String> = BTreeSet::new();
    for call in &calls {
        used.insert(call.id.clone());
        for (lang, msgs) in &all {
            if !msgs.contains_key(&call.id) {
                problems.push(format!("{}: {} is missing in {lang:?}", call.at, call.id));
                continue;
            }
            let Some(args) = &call.args else { continue };
            for var in variables(msgs, &call.id, &mut BTreeSet::new()) {
                if !args.contains(&var) {
                    problems.push(format!("{}: {} needs ${var} ({lang:?})", call.at, call.id));
                }
            }
        }
    }
    for msgs in all.values() {
        for uses in msgs.values() {
            used.extend(uses.refs.iter().cloned());
        }
    }
    for id in english.keys() {
        if !used.contains(id) {
            problems.push(format!("{id} is in the catalogue but nothing uses it"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_missing_variable_or_id_is_seen_by_the_scanners() {
    // The scanners themselves, on hostile snippets: a test that passes
    // because it finds nothing proves nothing.
    let mut calls = Vec::new();
    js_calls(
        Path::new("x.js"),
        r#"el("p", {}, t("ev-bid", { who: n(e.seat), amount }), at("no"))"#,
        &mut calls,
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id, "ev-bid");
    let args = calls[0].args.as_ref().unwrap();
    assert_eq!(
        args.iter().map(String::as_str).collect::<Vec<_>>(),
        ["amount", "who"]
    );
    let families = BTreeSet::from(["rules".to_owned()]);
    let mut calls = Vec::new();
    rust_calls(
        Path::new("x.rs"),
        r#"t.rule("rules-t2", &[("min", a.into()), ("max", b.into())], "T2"); let x = "michigan-casino";"#,
        &families,
        &mut calls,
    );
    assert_eq!(calls.len(), 1);
    let args = calls[0].args.as_ref().unwrap();
    assert_eq!(
        args.iter().map(String::as_str).collect::<Vec<_>>(),
        ["max", "min"]
    );
    let en = messages(Lang::En);
    let vars = variables(&en, "rules-t2", &mut BTreeSet::new());
    assert!(vars.contains("chips"), "{vars:?}");
    // Through a referenced message: `ev-deal-started` uses `words-suit`'s $suit.
    assert!(variables(&en, "ev-deal-started", &mut BTreeSet::new()).contains("suit"));
}

/// The terminal's messages that name a player but never the human: the
/// player to act while the bots play, the lone Yes the human may challenge,
/// the hands compared out of the human's sight, and the lists of names.
const NEVER_THE_HUMAN: [&str; 5] = [
    "term-to-play",
    "tn-prompt-challenge",
    "tn-compared-unseen",
    "tn-compared",
    "tn-result",
];

/// Every terminal message that names a player (`$who`, the subject, or
/// `$to`, the one paid), formatted in both languages with the human there:
/// the second person is said by the message's own verb forms and pronouns
/// ("Cerraste", "para ti", "You went out"), chosen by `$you` / `$to_you`,
/// never by putting the word for "you" in a third person's sentence ("Tú
/// cerró", "para Tú"). With someone else there, the name is said.
#[test]
fn terminal_messages_agree_with_a_second_and_a_third_person() {
    const NAME: &str = "Zoé";
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let terminal: Vec<_> = lang
            .files()
            .iter()
            .filter(|(n, _)| *n == "terminal.ftl")
            .copied()
            .collect();
        let all = messages(lang);
        for id in parse(lang, &terminal).keys() {
            if NEVER_THE_HUMAN.contains(&id.as_str()) {
                continue;
            }
            let vars = variables(&all, id, &mut BTreeSet::new());
            for (person, selector) in [("who", "you"), ("to", "to_you")] {
                if !vars.contains(person) {
                    continue;
                }
                for human in [true, false] {
                    let mut args: Vec<(&str, tripoley_i18n::Value)> = vars
                        .iter()
                        .map(|v| (v.as_str(), tripoley_i18n::Value::from("yes")))
                        .filter(|(v, _)| !["who", "to", "you", "to_you"].contains(v))
                        .collect();
                    // The other person is someone else (no one pays themselves).
                    args.push(("who", "Bot".into()));
                    args.push(("to", "Bot".into()));
                    args.push(("you", "no".into()));
                    args.push(("to_you", "no".into()));
                    args.retain(|(v, _)| *v != person && *v != selector);
                    args.push((person, NAME.into()));
                    args.push((selector, if human { "yes" } else { "no" }.into()));
                    let text = lang.t(id, &args);
                    if human == text.contains(NAME) {
                        problems.push(format!(
                            "{lang:?} {id} (${person} the human: {human}): {text}"
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each message writes out the same variables in every language (through
/// the messages it refers to): a name, a number or a card one language
/// says and another leaves out is a word lost in translation. Variables
/// that only choose a form may differ (Spanish agrees with `$count` where
/// English needs nothing; it translates the server's `$code` where English
/// shows the server's words), and a poker hand's top rank is said in the
/// form each language needs ("ace-high" is `$high`, "carta alta: as"
/// `$card`).
#[test]
fn every_language_writes_out_the_same_variables() {
    let english = messages(Lang::En);
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let msgs = messages(lang);
        for id in english.keys().filter(|id| *id != "poker-hand") {
            let printed = |all| gathered(all, id, &mut BTreeSet::new(), |u| &u.printed);
            let (want, got) = (printed(&english), printed(&msgs));
            if got != want {
                problems.push(format!("{lang:?} {id}: {got:?}, English {want:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
