//! [`NapalmRules`]: the options of Napalm poker (RULES.md section 7), and
//! the bounds that keep every table playable.

use serde::{Deserialize, Serialize};

/// The options of a Napalm table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NapalmRules {
    /// Fewest players (2).
    pub min_players: u8,
    /// Most players: seven cards each from one deck makes 7.
    pub max_players: u8,
    /// Each player's chips at the start.
    pub starting_chips: u32,
    /// Chips each player puts into the pot at the start of each hand (N1).
    pub ante: u32,
    /// Tokens that win the game and the pot (N1).
    pub tokens_to_win: u32,
    /// The hand limit of N8: after this many hands the player still in with
    /// the most tokens takes the pot (equal counts share it), so that a
    /// table where nobody ever declares still ends.
    pub max_hands: u32,
}

impl Default for NapalmRules {
    fn default() -> NapalmRules {
        NapalmRules {
            min_players: 2,
            max_players: 7,
            starting_chips: 100,
            ante: 1,
            tokens_to_win: 5,
            max_hands: 100,
        }
    }
}

/// What is wrong with a Napalm table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NapalmRulesError(pub String);

impl NapalmRules {
    /// Most chips a player may start with: seven stacks and the pot stay far
    /// inside `u32`, and a side bet (at most the pot) can never overflow.
    pub const MAX_STARTING_CHIPS: u32 = 1_000_000;
    /// Most hands a game may last (N8's limit, always set): with a few
    /// dozen steps a hand, a game stays a few hundred thousand steps long.
    pub const MAX_HANDS: u32 = 10_000;
    /// Most tokens a game may ask for: at most three a hand are given, so
    /// this many take at least 34 hands.
    pub const MAX_TOKENS_TO_WIN: u32 = 100;

    /// Says what is wrong with these rules, if anything: every number is
    /// bounded so that no chip count can overflow, every game ends within
    /// `max_hands` hands, and the first ante can be paid.
    pub fn validate(&self) -> Result<(), NapalmRulesError> {
        let bad = |m: String| Err(NapalmRulesError(m));
        if self.min_players < 2 || self.max_players > 7 || self.min_players > self.max_players {
            return bad(
                "Napalm is for 2 to 7 players (seven cards each from one deck): \
                 min_players and max_players must be within 2 to 7, the fewest first"
                    .into(),
            );
        }
        for (name, value, most) in [
            (
                "starting_chips",
                self.starting_chips,
                Self::MAX_STARTING_CHIPS,
            ),
            ("ante", self.ante, self.starting_chips),
            ("max_hands", self.max_hands, Self::MAX_HANDS),
            ("tokens_to_win", self.tokens_to_win, Self::MAX_TOKENS_TO_WIN),
        ] {
            if value == 0 {
                return bad(format!("{name} must be at least 1"));
            }
            if value > most {
                let why = if name == "ante" {
                    format!(
                        "nobody could pay the first ante: ante must be at most starting_chips ({most})"
                    )
                } else {
                    format!("{name} must be at most {most}")
                };
                return bad(why);
            }
        }
        if self.tokens_to_win > self.max_hands.saturating_mul(3) {
            return bad(format!(
                "tokens_to_win {} can never be reached in {} hands (at most three tokens a hand)",
                self.tokens_to_win, self.max_hands
            ));
        }
        Ok(())
    }

    /// Says what is wrong with these rules for `players`, if anything
    /// ([`NapalmRules::validate`], then the number of players).
    pub fn check_players(&self, players: usize) -> Result<(), NapalmRulesError> {
        self.validate()?;
        if players < usize::from(self.min_players) || players > usize::from(self.max_players) {
            return Err(NapalmRulesError(format!(
                "these rules are for {} to {} players, not {players}",
                self.min_players, self.max_players
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::NapalmRules;

    /// The rules are refused with an error that says `want`.
    fn refused(rules: &NapalmRules, want: &str) {
        let err = rules.validate().expect_err(want).to_string();
        assert!(err.contains(want), "{err:?} should say {want:?}");
        assert!(rules.check_players(4).is_err());
    }

    #[test]
    fn n8_every_number_is_bounded_with_a_clear_error() {
        let d = NapalmRules::default;
        assert!(d().validate().is_ok());
        for (tokens_to_win, max_hands, want) in [
            (1_000_000, 100, "tokens_to_win must be at most 100"),
            (0, 100, "tokens_to_win must be at least 1"),
            (31, 10, "can never be reached in 10 hands"),
            (5, u32::MAX, "max_hands must be at most 10000"),
            (5, 0, "max_hands must be at least 1"),
        ] {
            let r = NapalmRules {
                tokens_to_win,
                max_hands,
                ..d()
            };
            refused(&r, want);
        }
        for (starting_chips, ante, want) in [
            (u32::MAX, 1, "starting_chips must be at most 1000000"),
            (0, 1, "starting_chips must be at least 1"),
            (10, 50, "nobody could pay the first ante"),
            (10, 0, "ante must be at least 1"),
        ] {
            refused(
                &NapalmRules {
                    starting_chips,
                    ante,
                    ..d()
                },
                want,
            );
        }
        for (min_players, max_players) in [(2, 8), (1, 7), (5, 4)] {
            let r = NapalmRules {
                min_players,
                max_players,
                ..d()
            };
            refused(&r, "2 to 7 players");
        }
        assert!(d().check_players(1).is_err());
        assert!(d().check_players(8).is_err());
    }

    #[test]
    fn n8_the_largest_table_fits_its_chips() {
        let big = NapalmRules {
            starting_chips: NapalmRules::MAX_STARTING_CHIPS,
            ante: NapalmRules::MAX_STARTING_CHIPS,
            max_hands: NapalmRules::MAX_HANDS,
            tokens_to_win: NapalmRules::MAX_TOKENS_TO_WIN,
            ..NapalmRules::default()
        };
        assert!(big.check_players(7).is_ok());
        // Every chip of seven stacks, and as much again, fits in a u32.
        assert!(u64::from(big.starting_chips) * 7 * 2 < u64::from(u32::MAX));
    }
}
