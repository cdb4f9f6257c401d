//! Game records and the record inside a saved game (`tripoley replay`,
//! `play --resume`, `tripoley analyse`): read or refused, and a record read
//! replays step by step or stops at the first bad step, never panics; a
//! short one is analysed too (one playout a decision). A Napalm record too.
//! The same text as the browser's offline game reads it: a saved game
//! resumed (and played on a few steps, its frames written) or refused, and a
//! record's replay frames (the worker's and the server's replay viewer).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tripoley_engine::Record;
use tripoley_napalm::NapalmRecord;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = Record::from_json(text) {
        let _ = record.replay();
    }
    if let Ok(record) = tripoley_analysis::read(text)
        && record.steps.len() <= 64
    {
        let options = tripoley_analysis::Options {
            seat: None,
            playouts: 1,
        };
        let _ = tripoley_analysis::analyse(&record, &options, &mut |_, _| true);
    }
    if let Ok(record) = serde_json::from_str::<NapalmRecord>(text) {
        let _ = record.replay();
    }
    if let Ok(mut table) = tripoley_table::Local::resume(text) {
        for _ in 0..8 {
            if !(table.bot_acts() || table.release()) {
                break;
            }
        }
        let _ = (table.state(Some(0)), table.update(None), table.saved());
    }
    if let Ok(record) = tripoley_table::replay::read_upload(data)
        && text.len() <= 64 * 1024
    {
        let _ = tripoley_table::replay::frames(&record, None, None);
    }
});
