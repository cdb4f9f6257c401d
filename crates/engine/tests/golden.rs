//! Golden records: one complete short game per preset, stored as JSON in
//! `tests/golden/`. Each is replayed and its whole event log snapshotted
//! (insta), so any change of behaviour shows as a diff. To record them anew
//! after an intended change: `UPDATE_GOLDEN=1 INSTA_UPDATE=always cargo test
//! -p tripoley-engine --test golden`, then review the diff.

mod common;

use std::path::PathBuf;

use tripoley_engine::{Preset, Record, Rules};

fn golden(preset: Preset, players: usize, seed: u64) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{preset}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() || !path.exists() {
        let rules = Rules {
            deals: Some(1),
            ..Rules::preset(preset)
        };
        let (record, _, _) = common::play_random(&rules, players, seed, |_, _| {});
        std::fs::write(&path, record.to_json()).expect("write the golden record");
    }
    let text = std::fs::read_to_string(&path).expect("read the golden record");
    let record = Record::from_json(&text).expect("a valid record");
    let (game, events) = record.replay().expect("the golden record replays");
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
