//! Public tables: `GET /api/tables` lists the tables their hosts marked
//! public while they wait for players, so strangers can find a game.
//!
//! Each table's actor publishes its own entry whenever its seats or status
//! change and withdraws it when it starts or stops (`Directory`), so a
//! request never asks a table anything: it reads a sorted snapshot, rebuilt
//! only after a change. Private tables are never published.
//!
//! With several servers (`crate::cluster`), each change is also sent to
//! the shared list in PostgreSQL, and a request reads that list: every
//! server answers with every server's tables.
//!
//! An entry names the rules as data a browser puts in words (the preset the
//! rules are closest to, and each rule that differs from it), never as
//! text: the words belong to the reader's language.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;
use tripoley_bots::BotKind;
use tripoley_engine::{Preset, Rules};
use tripoley_napalm::NapalmRules;

use crate::App;
use crate::protocol::{ErrorBody, ErrorCode, GameKind, TableSettings};

/// Tables in one page of the list.
pub const PAGE_SIZE: usize = 20;

/// One rule of a table that differs from its preset (or, at a Napalm
/// table, from Napalm's defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HouseRule {
    /// The rule's field in the rules (`bet_limit`).
    pub rule: String,
    /// Its value at this table, as in the rules' JSON.
    pub value: Value,
}

/// A public table as the list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicTable {
    /// The invite code (`/t/<invite>` joins it).
    pub invite: String,
    /// The game.
    pub game: GameKind,
    /// The preset the rules are closest to (Tripoley).
    pub preset: Option<Preset>,
    /// The rules that differ from that preset, besides chips and deals.
    pub house_rules: Vec<HouseRule>,
    /// Each player's starting chips.
    pub starting_chips: u32,
    /// Deals in the game; none for one per player (Tripoley).
    pub deals: Option<u32>,
    /// Tokens that win (Napalm).
    pub tokens_to_win: Option<u32>,
    /// Seconds per decision; 0 for no limit.
    pub turn_seconds: u32,
    /// The bot that plays the seats nobody takes.
    pub bot: BotKind,
    /// Seats at the table.
    pub seats: u8,
    /// Seats people hold.
    pub taken: u8,
}

impl PublicTable {
    /// The entry of a table with these settings, `taken` of its seats held.
    pub(crate) fn new(invite: &str, settings: &TableSettings, taken: u8) -> PublicTable {
        let (preset, house_rules, starting_chips, deals, tokens_to_win) =
            if let (GameKind::Napalm, Some(r)) = (settings.game, &settings.napalm) {
                (
                    None,
                    differences(r, &NapalmRules::default()),
                    r.starting_chips,
                    None,
                    Some(r.tokens_to_win),
                )
            } else {
                let (preset, diff) = closest_preset(&settings.rules);
                let r = &settings.rules;
                (Some(preset), diff, r.starting_chips, r.deals, None)
            };
        PublicTable {
            invite: invite.to_owned(),
            game: settings.game,
            preset,
            house_rules,
            starting_chips,
            deals,
            tokens_to_win,
            turn_seconds: settings.turn_seconds,
            bot: settings.bot,
            seats: settings.seats,
            taken,
        }
    }
}

/// Rules the list shows on their own (chips, deals, tokens to win) or that
/// follow from the seats (the players a preset allows): never house rules.
const SHOWN_APART: [&str; 5] = [
    "starting_chips",
    "deals",
    "tokens_to_win",
    "min_players",
    "max_players",
];

/// The fields of `rules` whose values differ from `base`'s.
fn differences<R: Serialize>(rules: &R, base: &R) -> Vec<HouseRule> {
    let (Ok(Value::Object(mine)), Ok(Value::Object(base))) =
        (serde_json::to_value(rules), serde_json::to_value(base))
    else {
        return Vec::new();
    };
    mine.into_iter()
        .filter(|(k, v)| !SHOWN_APART.contains(&k.as_str()) && base.get(k) != Some(v))
        .map(|(rule, value)| HouseRule { rule, value })
        .collect()
}

/// The preset that `rules` changes least (the first in [`Preset::ALL`] on a
/// tie: pagat with pay cards collected in play is rummoli), and the changes.
fn closest_preset(rules: &Rules) -> (Preset, Vec<HouseRule>) {
    Preset::ALL
        .iter()
        .map(|&p| (p, differences(rules, &Rules::preset(p))))
        .min_by_key(|(_, diff)| diff.len())
        .expect("there are presets")
}

/// The public tables waiting for players, kept by their actors.
#[derive(Default, Debug)]
pub(crate) struct Directory {
    inner: Mutex<Listed>,
    /// Where changes go to be shared with the other servers, in a cluster:
    /// a table's new entry, or `None` once it is off the list.
    shared: Option<UnboundedSender<(String, Option<PublicTable>)>>,
}

#[derive(Default, Debug)]
struct Listed {
    /// Invite -> (order of listing, entry).
    entries: HashMap<String, (u64, PublicTable)>,
    next: u64,
    /// The entries newest first, until the next change.
    sorted: Option<Arc<Vec<PublicTable>>>,
}

impl Directory {
    /// A directory whose changes are also sent to `shared`, in order.
    pub fn shared(shared: UnboundedSender<(String, Option<PublicTable>)>) -> Directory {
        Directory {
            inner: Mutex::default(),
            shared: Some(shared),
        }
    }

    fn share(&self, invite: &str, entry: Option<PublicTable>) {
        if let Some(shared) = &self.shared {
            // Closed only once the server stops, when its list goes anyway.
            let _ = shared.send((invite.to_owned(), entry));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Lists a table, or updates its entry (it keeps its place).
    pub fn publish(&self, entry: PublicTable) {
        let mut guard = self.lock();
        let listed = &mut *guard;
        let order = match listed.entries.get(&entry.invite) {
            Some((_, old)) if *old == entry => return,
            Some((order, _)) => *order,
            None => {
                listed.next += 1;
                listed.next
            }
        };
        self.share(&entry.invite, Some(entry.clone()));
        listed.entries.insert(entry.invite.clone(), (order, entry));
        listed.sorted = None;
    }

    /// Takes a table off the list.
    pub fn withdraw(&self, invite: &str) {
        let mut listed = self.lock();
        if listed.entries.remove(invite).is_some() {
            self.share(invite, None);
            listed.sorted = None;
        }
    }

    /// Every listed table, newest first.
    fn snapshot(&self) -> Arc<Vec<PublicTable>> {
        let mut guard = self.lock();
        let listed = &mut *guard;
        if let Some(sorted) = &listed.sorted {
            return Arc::clone(sorted);
        }
        let mut all: Vec<&(u64, PublicTable)> = listed.entries.values().collect();
        all.sort_unstable_by_key(|(order, _)| std::cmp::Reverse(*order));
        let sorted = Arc::new(all.into_iter().map(|(_, e)| e.clone()).collect::<Vec<_>>());
        listed.sorted = Some(Arc::clone(&sorted));
        sorted
    }
}

/// The query of `GET /api/tables`.
#[derive(Deserialize)]
pub(crate) struct Page {
    /// Page number, from 0.
    #[serde(default)]
    page: usize,
}

/// A page of the list: the answer of `GET /api/tables?page=N`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicPage {
    /// At most [`PAGE_SIZE`] tables, newest first.
    pub tables: Vec<PublicTable>,
    /// Tables listed in all.
    pub total: usize,
    /// This page's number, from 0.
    pub page: usize,
    /// Tables in a full page.
    pub page_size: usize,
}

/// `GET /api/tables?page=N`: a page of the public tables waiting for
/// players, newest first: this server's, or with several servers every
/// server's.
pub(crate) async fn list(State(app): State<Arc<App>>, Query(q): Query<Page>) -> Response {
    if let Some(cluster) = &app.cluster {
        let offset = q.page.saturating_mul(PAGE_SIZE);
        return match cluster.public_page(offset, PAGE_SIZE).await {
            Ok((tables, total)) => page(tables, total, q.page),
            // The beat says once that the database is out of reach; the
            // reader is told to try again.
            Err(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                axum::Json(ErrorBody::new(
                    ErrorCode::Storage,
                    "the list of public tables cannot be read just now: try again",
                )),
            )
                .into_response(),
        };
    }
    let all = app.public.snapshot();
    let tables = all
        .iter()
        .skip(q.page.saturating_mul(PAGE_SIZE))
        .take(PAGE_SIZE)
        .cloned()
        .collect();
    page(tables, all.len(), q.page)
}

fn page(tables: Vec<PublicTable>, total: usize, page: usize) -> Response {
    axum::Json(PublicPage {
        tables,
        total,
        page,
        page_size: PAGE_SIZE,
    })
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::CreateTable;

    fn settings(json: &str) -> TableSettings {
        serde_json::from_str::<CreateTable>(json)
            .unwrap()
            .settings()
            .unwrap()
    }

    #[test]
    fn rules_are_named_by_their_preset_and_changes() {
        let t = PublicTable::new("abcd", &settings(r#"{"preset":"tripoley"}"#), 1);
        assert_eq!((t.preset, t.house_rules.len()), (Some(Preset::Tripoley), 0));
        let t = PublicTable::new(
            "abcd",
            &settings(
                r#"{"preset":"michigan-casino","seats":3,"starting_chips":50,"deals":2,"rules":{"bet_limit":5}}"#,
            ),
            1,
        );
        assert_eq!(t.preset, Some(Preset::MichiganCasino));
        assert_eq!((t.starting_chips, t.deals), (50, Some(2)));
        assert_eq!(
            t.house_rules,
            vec![HouseRule {
                rule: "bet_limit".into(),
                value: 5.into()
            }]
        );
        let t = PublicTable::new(
            "abcd",
            &settings(r#"{"game":"napalm","tokens_to_win":3,"rules":{"ante":2}}"#),
            0,
        );
        assert_eq!((t.preset, t.tokens_to_win), (None, Some(3)));
        assert_eq!(t.house_rules[0].rule, "ante");
    }

    #[test]
    fn the_directory_lists_newest_first_and_forgets_withdrawn_tables() {
        let d = Directory::default();
        let s = settings("{}");
        for invite in ["aaaa", "bbbb", "cccc"] {
            d.publish(PublicTable::new(invite, &s, 1));
        }
        d.publish(PublicTable::new("aaaa", &s, 2));
        d.withdraw("bbbb");
        let listed: Vec<(String, u8)> = d
            .snapshot()
            .iter()
            .map(|t| (t.invite.clone(), t.taken))
            .collect();
        assert_eq!(listed, [("cccc".into(), 1), ("aaaa".into(), 2)]);
    }
}
