//! Reading a record from outside, bounded, with errors in words.

use tripoley_engine::{Record, ReplayError, Seat};

/// The largest record read (a 10-deal 9-player game is about 200 KB).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// The most steps a record may hold (a 9-player 100-deal game has about
/// 60,000).
pub const MAX_STEPS: usize = 200_000;

/// Why a record cannot be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Larger than [`MAX_RECORD_BYTES`].
    #[error("the file is {0} bytes; a game record is at most {MAX_RECORD_BYTES}")]
    TooBig(usize),
    /// More steps than [`MAX_STEPS`].
    #[error("the record has {0} steps; at most {MAX_STEPS} are analysed")]
    TooLong(usize),
    /// A Napalm game.
    #[error(
        "this is a Napalm game: the expert bot plays only Tripoley, so there is no verdict \
         to give on Napalm moves"
    )]
    Napalm,
    /// Not a record, or one that does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A seat not at the table.
    #[error("there is no seat {seat}: the game had {players} players (seats 0 to {})", players.saturating_sub(1))]
    Seat {
        /// The seat asked for.
        seat: Seat,
        /// Players in the game.
        players: usize,
    },
    /// A budget out of bounds.
    #[error("{0} playouts per decision: the budget is 1 to {max}", max = crate::MAX_PLAYOUTS)]
    Budget(u32),
    /// The caller stopped the work.
    #[error("the analysis was cancelled")]
    Cancelled,
}

/// Reads a Tripoley record from JSON: bounded in size and steps; a Napalm
/// record is named as such.
pub fn read(text: &str) -> Result<Record, AnalysisError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(AnalysisError::TooBig(text.len()));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ReplayError::Format(format!("not JSON: {e}")))?;
    if value.get("game").is_some_and(|g| g == "napalm") {
        return Err(AnalysisError::Napalm);
    }
    let steps = value
        .get("steps")
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len);
    if steps > MAX_STEPS {
        return Err(AnalysisError::TooLong(steps));
    }
    Ok(Record::from_json(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_and_foreign_files_are_refused_in_words() {
        let big = " ".repeat(MAX_RECORD_BYTES + 1);
        assert!(matches!(read(&big), Err(AnalysisError::TooBig(_))));
        let napalm = r#"{"game": "napalm", "names": ["A", "B"]}"#;
        assert!(matches!(read(napalm), Err(AnalysisError::Napalm)));
        let long = format!(
            r#"{{"version": 4, "steps": [{}0]}}"#,
            "0,".repeat(MAX_STEPS)
        );
        assert!(matches!(read(&long), Err(AnalysisError::TooLong(_))));
        for bad in ["", "[", "{}", r#"{"version": 99}"#, "\u{0}"] {
            let e = read(bad).expect_err(bad);
            assert!(matches!(e, AnalysisError::Replay(_)), "{bad:?}: {e:?}");
            assert!(!e.to_string().is_empty());
        }
    }
}
