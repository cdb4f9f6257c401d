//! [`NapalmRules`]: the options of Napalm poker (RULES.md section 7).

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
    /// A safety limit the sources do not have: after this many hands the
    /// player with the most tokens takes the pot (equal counts share it), so
    /// that a table where nobody ever declares still ends.
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
    /// Says what is wrong with these rules for `players`, if anything.
    pub fn check_players(&self, players: usize) -> Result<(), NapalmRulesError> {
        let bad = |m: String| Err(NapalmRulesError(m));
        if self.min_players < 2 || self.max_players > 7 || self.min_players > self.max_players {
            return bad("Napalm is for 2 to 7 players (seven cards each from one deck)".into());
        }
        if self.ante == 0
            || self.tokens_to_win == 0
            || self.max_hands == 0
            || self.starting_chips == 0
        {
            return bad(
                "ante, tokens_to_win, max_hands and starting_chips must be at least 1 (N1)".into(),
            );
        }
        if players < usize::from(self.min_players) || players > usize::from(self.max_players) {
            return bad(format!(
                "these rules are for {} to {} players, not {players}",
                self.min_players, self.max_players
            ));
        }
        Ok(())
    }

    /// The rules in plain words, generated from the values.
    pub fn describe(&self) -> String {
        format!(
            "Napalm poker\n\
             \x20 Players: {} to {}. Each starts with {} chips and no tokens.\n\
             \x20 Every player puts {} chip(s) into the pot at the start of each hand; the deal then passes left. The first player to hold {} tokens wins the game and takes the pot. (N1)\n\
             \x20 After {} hands the player with the most tokens takes the pot (equal counts share it). (a limit of this implementation)\n\
             \x20 Round 1: two cards each. In turn from the dealer's left, the dealer last, each player says Yes (I hold the best two cards) or No. If all said No and the dealer says Yes, each other player in turn may change their No to Yes. (N2)\n\
             \x20 Two cards: a pair beats any two different cards; otherwise the higher card decides, then the lower. (N3)\n\
             \x20 Round 2: three more cards each. Declarations as in round 1, for the lowest five-card hand; straights and flushes count, and the ace is high. (N4)\n\
             \x20 Round 3: two more cards each. Declarations as in round 1, for the best five cards of seven; the ace is high only. (N5)\n\
             \x20 After each round: a single Yes takes a token. Two or more Yes compare their hands privately; the single best takes from each other Yes a side bet equal to the pot. If the best hands tie, nobody pays, except that each Yes below the tied hands pays each of them the pot. No Yes: nothing happens. (N6)\n\
             \x20 Hands compared privately are seen only by the players in that comparison. (N7)\n",
            self.min_players,
            self.max_players,
            self.starting_chips,
            self.ante,
            self.tokens_to_win,
            self.max_hands
        )
    }
}
