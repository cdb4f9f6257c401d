//! The messages and `docs/protocol.md` say the same: every server message
//! the doc lists exists, every one that exists is listed, and every field a
//! message carries is named in its entry.

use std::collections::BTreeSet;

use serde_json::Value;
use tripoley_bots::BotKind;
use tripoley_engine::Rules;

use super::{ChatLine, Role, ServerMsg};
use crate::Local;
use crate::protocol::{ErrorBody, ErrorCode, GameKind, TableSettings};

/// The doc's "Server messages" section, as `(type, entry)`: an entry starts
/// at a line (a list item's, or one under it) that begins with
/// `` `name`: `` and runs to the next such line or a blank one.
fn documented() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.md"
    ))
    .expect("docs/protocol.md");
    let start = doc.find("### Server messages").expect("the section");
    let section = &doc[start + 3..];
    let section = &section[..section.find("\n### ").unwrap_or(section.len())];
    let mut entries: Vec<(String, String)> = Vec::new();
    let mut open = false;
    for line in section.lines() {
        let item = line.trim_start().trim_start_matches("- ");
        let name = item
            .strip_prefix('`')
            .and_then(|rest| rest.split_once("`: "))
            .map(|(name, _)| name)
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        match name {
            Some(name) if line.starts_with("- ") || line.starts_with("  ") => {
                entries.push((name.to_owned(), item.to_owned()));
                open = true;
            }
            _ if line.trim().is_empty() => open = false,
            _ if open => {
                let last = entries.last_mut().expect("an open entry");
                last.1.push('\n');
                last.1.push_str(line);
            }
            _ => {}
        }
    }
    entries
}

fn table() -> Local {
    let settings = TableSettings {
        rules: Rules::default(),
        seats: 3,
        turn_seconds: 0,
        bot: BotKind::Heuristic,
        seat_bots: std::collections::BTreeMap::default(),
        game: GameKind::Tripoley,
        napalm: None,
        public: false,
    };
    let names = vec!["Ann".into(), "Bob".into(), "Cy".into()];
    Local::new(
        settings,
        names,
        vec![None, Some(BotKind::Heuristic), None],
        1,
        None,
    )
    .unwrap()
}

/// One message of every kind, as sent.
fn examples() -> Vec<Value> {
    let t = table();
    let info = t.info();
    let err = ErrorBody::new(ErrorCode::Illegal, "no");
    let line = ChatLine {
        id: 1,
        seat: 0,
        name: "Ann".into(),
        text: "hi".into(),
    };
    let action = serde_json::json!({"lead": "5C"});
    let msgs = [
        ServerMsg::Welcome {
            role: Role::Player,
            seat: Some(0),
            host: true,
            table: &info,
        },
        ServerMsg::Table { table: &info },
        ServerMsg::Ack { id: Some(7) },
        ServerMsg::error(Some(7), &err),
        ServerMsg::Rematch {
            invite: "K7M2QX9A",
            path: "/t/K7M2QX9A".into(),
            by: Some("Ann"),
        },
        ServerMsg::Hint {
            id: Some(3),
            action: &action,
        },
        ServerMsg::Chat { line: &line },
        ServerMsg::ChatHistory { lines: vec![&line] },
        ServerMsg::Pong { id: Some(2) },
    ];
    let kinds: Vec<&str> = msgs.iter().map(ServerMsg::kind).collect();
    assert_eq!(
        kinds,
        ServerMsg::TYPES,
        "an example of every message, in order"
    );
    let mut all: Vec<Value> = msgs
        .iter()
        .map(|m| serde_json::from_str(&m.text(4)).unwrap())
        .collect();
    all.push(serde_json::from_str(&t.update(Some(0))).unwrap());
    all.push(serde_json::from_str(&t.state(Some(0))).unwrap());
    all
}

#[test]
fn every_server_message_and_field_is_in_the_protocol_doc_and_every_one_there_exists() {
    let doc = documented();
    let listed: BTreeSet<&str> = doc.iter().map(|(n, _)| n.as_str()).collect();
    let examples = examples();
    let sent: BTreeSet<&str> = examples
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    assert_eq!(listed, sent, "the doc lists exactly the messages there are");
    for m in &examples {
        let kind = m["type"].as_str().unwrap();
        assert_eq!(m["v"], 1, "{kind} carries v");
        assert!(m["n"].is_u64(), "{kind} carries n");
        let entry = &doc.iter().find(|(n, _)| n == kind).unwrap().1;
        for field in m.as_object().unwrap().keys() {
            if ["v", "n", "type"].contains(&field.as_str()) {
                continue;
            }
            assert!(
                entry.contains(&format!("\"{field}\"")) || entry.contains(&format!("`{field}`")),
                "{kind}'s field {field} is not in its entry of docs/protocol.md: {entry}"
            );
        }
    }
}
