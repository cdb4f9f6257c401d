//! Golden records: one complete short game per preset, stored as JSON in
//! `tests/golden/`. Each is replayed and its whole event log snapshotted
//! (insta), so any change of behaviour shows as a diff. To record them anew
//! after an intended change: `UPDATE_GOLDEN=1 INSTA_UPDATE=always cargo test
//! -p tripoley-engine --test golden`, then review the diff.

mod common;

use std::path::PathBuf;

use tripoley_engine::{Preset, RECORD_VERSION, Record, Rules};

fn golden(preset: Preset, players: usize, seed: u64) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{preset}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() || !path.exists() {
        let rules = Rules {
            deals: Some(1),
            ..Rules::preset(preset)
        };
        let (record, _, _) = tripoley_testkit::play_random(&rules, players, seed, |_, _| {});
        std::fs::write(&path, record.to_json()).expect("write the golden record");
    }
    let text = std::fs::read_to_string(&path).expect("read the golden record");
    let record = Record::from_json(&text).expect("a valid record");
    let (game, events) = record.replay().expect("the golden record replays");
    // Read as the current version (older ones get the steps of the leads
    // with one card the engine made then): written again, the same game.
    assert_eq!(record.version, RECORD_VERSION);
    let stored: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let added = record.steps.len() - stored["steps"].as_array().expect("steps").len();
    assert!(
        added > 0,
        "{preset}: every golden game has a lead with one card, a step of its own now"
    );
    let again = Record::from_json(&record.to_json()).expect("reads back");
    assert_eq!(again, record);
    assert_eq!(again.replay().expect("replays").1, events);
    let mut log: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).expect("events serialise"))
        .collect();
    log.push(format!(
        "standings: {}",
        serde_json::to_string(&game.standings()).expect("serialise")
    ));
    insta::assert_snapshot!(format!("golden_{preset}"), log.join("\n"));
}

#[test]
fn golden_pagat() {
    golden(Preset::Pagat, 3, 1);
}

#[test]
fn golden_tripoley() {
    golden(Preset::Tripoley, 4, 2);
}

#[test]
fn golden_michigan_casino() {
    golden(Preset::MichiganCasino, 3, 3);
}

#[test]
fn golden_rummoli() {
    golden(Preset::Rummoli, 3, 4);
}

#[test]
fn golden_cosmo() {
    golden(Preset::Cosmo, 4, 5);
}
