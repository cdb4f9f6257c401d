//! [`Rules`]: every option of RULES.md as data, the five presets, validation.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use tripoley_cards::{Evaluator, Rank, Suit};

use crate::layout::Space;

/// The named rule sets of RULES.md section 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// John `McLeod`'s description: the dealer's spare-hand options, betting
    /// poker opened left of the dealer, the poker winner leads Michigan.
    Pagat,
    /// The boxed game: spare unused, dealer opens the poker and leads Michigan.
    Tripoley,
    /// The casino tray game: double dealer ante, money cards collected in
    /// play, poker pool without betting, alternating colours, penalties.
    MichiganCasino,
    /// Pay cards collected in play, otherwise as `pagat`.
    Rummoli,
    /// No poker; pay suit and Sequence drawn every deal; strict colours.
    Cosmo,
}

impl Preset {
    /// All presets.
    pub const ALL: [Preset; 5] = [
        Preset::Pagat,
        Preset::Tripoley,
        Preset::MichiganCasino,
        Preset::Rummoli,
        Preset::Cosmo,
    ];

    /// The name used on the command line: `michigan-casino`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Pagat => "pagat",
            Preset::Tripoley => "tripoley",
            Preset::MichiganCasino => "michigan-casino",
            Preset::Rummoli => "rummoli",
            Preset::Cosmo => "cosmo",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Preset, RulesError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| RulesError::UnknownPreset(s.to_owned()))
    }
}

/// How the first dealer is chosen (T3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstDealer {
    /// Everyone draws a card; highest rank deals; ties draw again.
    HighCard,
    /// This seat deals first.
    Seat(u8),
}

/// What happens to the spare hand (D2, D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpareRule {
    /// Face down all deal, never seen (D2).
    Unused,
    /// The dealer keeps, swaps, auctions, or swaps and auctions (D3).
    DealerSwapOrAuction,
}

/// Where an auction's price goes (D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuctionPays {
    /// To the dealer's stack.
    Dealer,
    /// Into the Kitty.
    Kitty,
}

/// When pay cards are collected (section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PayCards {
    /// Stage 1: holders show and collect before the poker (H1-H4).
    Stage1,
    /// In stage 3, as the cards are played (H5, H6).
    InPlay,
}

/// How the pay suit is fixed (H8, H9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaySuitRule {
    /// Always this suit (hearts by default).
    Fixed(Suit),
    /// Auctioned after the spare hand (H8); hearts if everybody passes.
    Auction,
    /// Drawn at random before each deal and shown to all (H9, `cosmo`).
    RandomEachDeal,
}

/// Which three ranks make the Sequence (H7, H9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SequenceRule {
    /// Three consecutive ranks starting at this one (8 for 8-9-10).
    From(Rank),
    /// Drawn at random before each deal (H9, `cosmo`).
    RandomEachDeal,
}

/// How stage 2 is played (P3-P9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PokerRule {
    /// A betting round, then showdown (P3-P8).
    Betting,
    /// No betting: after stage 3 the best hand of the cards held when stage 3
    /// began takes the Pot space, the "Poker Pool" (P9).
    PoolAfterMichigan,
    /// No poker and no Pot space (`cosmo`).
    None,
}

/// Who opens the betting (P3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PokerOpener {
    /// The player left of the dealer.
    LeftOfDealer,
    /// The dealer.
    Dealer,
}

/// Who leads first in Michigan (M2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MichiganLeader {
    /// The winner of the (main) poker pot.
    PokerWinner,
    /// The dealer.
    Dealer,
    /// The player left of the dealer.
    LeftOfDealer,
}

/// The first lead of a deal (M3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstLead {
    /// Like every other lead.
    Any,
    /// The lowest card in the hand.
    LowestOverall,
    /// The leader's lowest black card.
    LowestBlack,
}

/// Which suits a lead after a stop may use (M5, M6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadColors {
    /// Any suit but the one just stopped (M5).
    OtherSuit,
    /// The other colour; if nobody holds it, the stop player leads any suit (M6, casino).
    Alternate,
    /// The other colour, lowest card; if nobody holds it, play ends blocked (M6, pagat variation).
    StrictAlternate,
}

/// Whether misplays are legal at a price (M9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Misplays {
    /// Leads are always the lowest card; following is automatic.
    Forbidden,
    /// Leading high and withholding are allowed and penalised (M9).
    Penalised,
}

/// What happens to chips left on the layout at the end (E2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalPot {
    /// Five cards each and a betting round; the winner takes the layout.
    ExtraPoker,
    /// Five cards each face up, no betting; the best takes the layout.
    ShowdownPoker,
    /// The chips stay and count for nobody.
    Keep,
}

/// Every rule of a table: a preset fills them, any can be changed on its own.
///
/// Serialises to TOML (house-rule files) and JSON (records); missing fields
/// take the `pagat` values, or those of `preset` when the file names one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Fewest players the rules allow (T2).
    pub min_players: u8,
    /// Most players the rules allow (T2).
    pub max_players: u8,
    /// Each player's chips at the start (T2).
    pub starting_chips: u32,
    /// T3.
    pub first_dealer: FirstDealer,
    /// Chips each player puts on each space before a deal (T5).
    pub ante: u32,
    /// Chips the dealer puts on each space instead (T5; 2 under `michigan-casino`).
    pub dealer_ante: u32,
    /// Chips each player puts on the spaces named, instead of `ante` (T5's
    /// house rule, the boxed game's chips of different values); the dealer
    /// puts `dealer_ante - ante` more. Empty (absent from a file or a
    /// record): `ante` on every space.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub space_antes: BTreeMap<Space, u32>,
    /// D2, D3.
    pub spare: SpareRule,
    /// D5: a hand with a bonus card may not swap or bid.
    pub bonus_card_limits: bool,
    /// D4.
    pub auction_pays: AuctionPays,
    /// Section 3.
    pub pay_cards: PayCards,
    /// H8, H9.
    pub pay_suit: PaySuitRule,
    /// H7, H9.
    pub sequence: SequenceRule,
    /// Section 4.
    pub poker: PokerRule,
    /// P3.
    pub poker_opener: PokerOpener,
    /// Largest bet or raise (P4).
    pub bet_limit: u32,
    /// Most raises in a betting round, none if unlimited (P4).
    pub max_raises: Option<u32>,
    /// No A-2-3-4-5 straight (P2).
    pub ace_always_high: bool,
    /// M2.
    pub michigan_leader: MichiganLeader,
    /// M3.
    pub first_lead: FirstLead,
    /// M5, M6.
    pub lead_colors: LeadColors,
    /// M9.
    pub misplays: Misplays,
    /// E2.
    pub final_pot: FinalPot,
    /// The layout is split into this many final pots, played one after another (E2).
    pub final_pot_rounds: u32,
    /// Deals in a game; none means one round, a deal per starting player (E1).
    pub deals: Option<u32>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Pagat)
    }
}

/// What is wrong with a set of rules or a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Not one of the five preset names.
    #[error("unknown preset {0:?}: choose pagat, tripoley, michigan-casino, rummoli or cosmo")]
    UnknownPreset(String),
    /// A combination or value that cannot be played.
    #[error("{0}")]
    Invalid(String),
    /// The number of players is outside what the rules allow.
    #[error("these rules are for {min} to {max} players, not {given}")]
    Players {
        /// Fewest allowed.
        min: u8,
        /// Most allowed.
        max: u8,
        /// Asked for.
        given: usize,
    },
    /// A house-rule file that does not parse.
    #[error("house rules: {0}")]
    Parse(String),
}

impl Rules {
    /// The rules of a preset (RULES.md section 8).
    pub fn preset(preset: Preset) -> Rules {
        let pagat = Rules {
            min_players: 2,
            max_players: 9,
            starting_chips: 100,
            first_dealer: FirstDealer::HighCard,
            ante: 1,
            dealer_ante: 1,
            space_antes: BTreeMap::new(),
            spare: SpareRule::DealerSwapOrAuction,
            bonus_card_limits: false,
            auction_pays: AuctionPays::Dealer,
            pay_cards: PayCards::Stage1,
            pay_suit: PaySuitRule::Fixed(Suit::Hearts),
            sequence: SequenceRule::From(Rank::Eight),
            poker: PokerRule::Betting,
            poker_opener: PokerOpener::LeftOfDealer,
            bet_limit: 10,
            max_raises: None,
            ace_always_high: false,
            michigan_leader: MichiganLeader::PokerWinner,
            first_lead: FirstLead::Any,
            lead_colors: LeadColors::OtherSuit,
            misplays: Misplays::Forbidden,
            final_pot: FinalPot::ExtraPoker,
            final_pot_rounds: 1,
            deals: None,
        };
        match preset {
            Preset::Pagat => pagat,
            Preset::Tripoley => Rules {
                spare: SpareRule::Unused,
                poker_opener: PokerOpener::Dealer,
                michigan_leader: MichiganLeader::Dealer,
                first_lead: FirstLead::LowestOverall,
                final_pot: FinalPot::ShowdownPoker,
                ..pagat
            },
            Preset::MichiganCasino => Rules {
                min_players: 3,
                max_players: 8,
                dealer_ante: 2,
                bonus_card_limits: true,
                pay_cards: PayCards::InPlay,
                sequence: SequenceRule::From(Rank::Seven),
                poker: PokerRule::PoolAfterMichigan,
                ace_always_high: true,
                michigan_leader: MichiganLeader::LeftOfDealer,
                lead_colors: LeadColors::Alternate,
                misplays: Misplays::Penalised,
                final_pot: FinalPot::ShowdownPoker,
                ..pagat
            },
            Preset::Rummoli => Rules {
                pay_cards: PayCards::InPlay,
                ..pagat
            },
            Preset::Cosmo => Rules {
                spare: SpareRule::Unused,
                pay_cards: PayCards::InPlay,
                pay_suit: PaySuitRule::RandomEachDeal,
                sequence: SequenceRule::RandomEachDeal,
                poker: PokerRule::None,
                michigan_leader: MichiganLeader::LeftOfDealer,
                first_lead: FirstLead::LowestBlack,
                lead_colors: LeadColors::StrictAlternate,
                final_pot: FinalPot::Keep,
                ..pagat
            },
        }
    }

    /// The poker evaluator these rules call for (P2).
    pub fn evaluator(&self) -> Evaluator {
        Evaluator {
            ace_always_high: self.ace_always_high,
        }
    }

    /// Why nobody can pay the first ante (T5), if so: a player who cannot is
    /// out (T6), so with every stack short the game would end before its
    /// first deal. The dealer's ante counts too: a dealer who cannot pay it is
    /// out and the next player deals, and pays it, in turn. `None`: playable.
    pub fn first_ante_shortfall(&self) -> Option<String> {
        let spaces = self.spaces().len();
        let dealer = self.dealer_ante > self.ante;
        let who = if dealer { "the dealer" } else { "each player" };
        let needed = self.full_ante(dealer);
        let puts = if self.space_antes.is_empty() {
            format!(
                "{} on each of the {spaces} spaces",
                self.ante_on(Space::Ace, dealer)
            )
        } else {
            format!("chips on the {spaces} spaces as space_antes says")
        };
        (u64::from(self.starting_chips) < needed).then(|| {
            format!(
                "nobody can pay the first ante: {who} puts {puts}, {needed} chips, but players \
                 start with {}",
                self.starting_chips
            )
        })
    }

    /// The layout's spaces in T4's order (no Pot without poker).
    pub fn spaces(&self) -> &'static [Space] {
        if self.has_pot() {
            &Space::ALL
        } else {
            &Space::ALL[..Space::ALL.len() - 1]
        }
    }

    /// T5: the chips a player puts on `space` before a deal: `space_antes`
    /// or `ante`, and for the dealer `dealer_ante - ante` more.
    pub fn ante_on(&self, space: Space, dealer: bool) -> u32 {
        let own = self.space_antes.get(&space).copied().unwrap_or(self.ante);
        if dealer {
            (own + self.dealer_ante).saturating_sub(self.ante)
        } else {
            own
        }
    }

    /// T5, T6: the whole ante, over all the spaces of the layout (what a
    /// player must hold to stay in the game).
    pub fn full_ante(&self, dealer: bool) -> u64 {
        self.spaces()
            .iter()
            .map(|&s| u64::from(self.ante_on(s, dealer)))
            .sum()
    }

    /// Whether the layout has a Pot space (T4: not without poker).
    pub fn has_pot(&self) -> bool {
        self.poker != PokerRule::None
    }

    /// The most chips a player may start with. With at most nine players the
    /// game then holds at most 9,000,000 chips: every sum of stacks, pots and
    /// bets fits a `u32` (4,294,967,295) with room to spare.
    pub const MAX_STARTING_CHIPS: u32 = 1_000_000;
    /// The most chips a bet may raise by, the same bound as a stack.
    pub const MAX_BET_LIMIT: u32 = Rules::MAX_STARTING_CHIPS;
    /// The longest game in deals: a game must end in a time people wait for.
    pub const MAX_DEALS: u32 = 1_000;
    /// The most pots the final poker is split into: each round is a deal of
    /// its own that may need no decision at all, so it must be few.
    pub const MAX_FINAL_POT_ROUNDS: u32 = 10;
    /// The most raises a betting round may allow when it caps them.
    pub const MAX_RAISES: u32 = 100;

    /// Says what is wrong with a combination of options, if anything. Every
    /// number is bounded (the `MAX_` constants): no game these rules allow
    /// can overflow a chip count, loop without decisions or run unboundedly
    /// long, so rules from a stranger (a server's house-rules box) are safe
    /// once they pass.
    pub fn validate(&self) -> Result<(), RulesError> {
        let bad = |m: &str| Err(RulesError::Invalid(m.to_owned()));
        if self.min_players < 2 || self.max_players > 9 || self.min_players > self.max_players {
            return bad("players must be between 2 and 9, with min_players <= max_players (T2)");
        }
        if self.starting_chips == 0 {
            return bad("starting_chips must be at least 1 (T2)");
        }
        if let FirstDealer::Seat(s) = self.first_dealer
            && s >= self.max_players
        {
            return bad("first_dealer names a seat beyond max_players (T3)");
        }
        if self.ante == 0 || self.dealer_ante == 0 {
            return bad("ante and dealer_ante must be at least 1 (T5)");
        }
        self.validate_space_antes()?;
        if let SequenceRule::From(r) = self.sequence
            && r > Rank::Queen
        {
            return bad(
                "the Sequence is three consecutive ranks: it can start at Q (Q-K-A) at the highest (H7)",
            );
        }
        if self.poker == PokerRule::Betting && self.bet_limit == 0 {
            return bad("bet_limit must be at least 1 when the poker has betting (P4)");
        }
        if self.pay_suit == PaySuitRule::Auction && self.pay_cards != PayCards::InPlay {
            return bad(
                "a paying-suit auction implies pay cards collected in play: set pay_cards = \"in_play\" (H8)",
            );
        }
        if self.poker != PokerRule::Betting && self.michigan_leader == MichiganLeader::PokerWinner {
            return bad(
                "michigan_leader = poker_winner needs poker with betting before Michigan (M2)",
            );
        }
        if self.poker == PokerRule::None && self.final_pot != FinalPot::Keep {
            return bad("without poker there is no final poker: set final_pot = \"keep\" (E2)");
        }
        if self.lead_colors == LeadColors::StrictAlternate
            && self.first_lead != FirstLead::LowestBlack
        {
            return bad(
                "strictly alternating colours start with the lowest black card: set first_lead = \"lowest_black\" (M3, M6)",
            );
        }
        if self.final_pot_rounds == 0 {
            return bad("final_pot_rounds must be at least 1 (E2)");
        }
        if self.deals == Some(0) {
            return bad("a game has at least one deal (E1)");
        }
        self.validate_bounds()
    }

    /// T5's `space_antes`: only spaces of this layout, each with at least
    /// one chip from every player, the dealer included, and at most a
    /// starting stack (so no sum of antes can overflow).
    fn validate_space_antes(&self) -> Result<(), RulesError> {
        for (&space, &chips) in &self.space_antes {
            if !self.spaces().contains(&space) {
                return Err(RulesError::Invalid(format!(
                    "space_antes names the {} space, but without poker the layout has no Pot (T4)",
                    space.key()
                )));
            }
            if chips == 0 || chips > self.starting_chips {
                return Err(RulesError::Invalid(format!(
                    "space_antes: the chips on {} must be between 1 and starting_chips ({}) (T5)",
                    space.key(),
                    self.starting_chips
                )));
            }
            if self.ante_on(space, true) == 0 {
                return Err(RulesError::Invalid(format!(
                    "space_antes: the dealer would put nothing on {} (it takes {chips}, and the \
                     dealer puts dealer_ante - ante = -{} more) (T5)",
                    space.key(),
                    self.ante - self.dealer_ante
                )));
            }
        }
        Ok(())
    }

    /// The bounds on numbers: each error names the option and its range.
    fn validate_bounds(&self) -> Result<(), RulesError> {
        let out_of = |name: &str, max: u32| {
            Err(RulesError::Invalid(format!(
                "{name} must be between 1 and {max}"
            )))
        };
        if self.starting_chips > Rules::MAX_STARTING_CHIPS {
            return out_of("starting_chips", Rules::MAX_STARTING_CHIPS);
        }
        // A bound on the antes (no arithmetic on them can overflow); the
        // full check is `first_ante_shortfall`, which the commands apply.
        if self.ante > self.starting_chips || self.dealer_ante > self.starting_chips {
            return Err(RulesError::Invalid(
                self.first_ante_shortfall()
                    .expect("an ante above the stack is short"),
            ));
        }
        if self.bet_limit > Rules::MAX_BET_LIMIT {
            return out_of("bet_limit", Rules::MAX_BET_LIMIT);
        }
        if self.max_raises.is_some_and(|m| m > Rules::MAX_RAISES) {
            return Err(RulesError::Invalid(format!(
                "max_raises must be between 0 and {} (or unset for no cap)",
                Rules::MAX_RAISES
            )));
        }
        if self.final_pot_rounds > Rules::MAX_FINAL_POT_ROUNDS {
            return out_of("final_pot_rounds", Rules::MAX_FINAL_POT_ROUNDS);
        }
        if self.deals.is_some_and(|d| d > Rules::MAX_DEALS) {
            return out_of("deals", Rules::MAX_DEALS);
        }
        Ok(())
    }

    /// Checks that `players` may sit at a table with these rules.
    pub fn check_players(&self, players: usize) -> Result<(), RulesError> {
        self.validate()?;
        if players < usize::from(self.min_players) || players > usize::from(self.max_players) {
            return Err(RulesError::Players {
                min: self.min_players,
                max: self.max_players,
                given: players,
            });
        }
        if let FirstDealer::Seat(s) = self.first_dealer
            && usize::from(s) >= players
        {
            return Err(RulesError::Invalid(format!(
                "first_dealer is seat {s}, but the seats of {players} players are 0 to {} (T3)",
                players - 1
            )));
        }
        Ok(())
    }

    /// Reads a house-rule file (TOML). An optional top-level `preset = "..."`
    /// names the starting point; every other key overrides one option.
    pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
        let mut table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| RulesError::Parse(one_line(&e, Some(text))))?;
        let base = match table.remove("preset") {
            Some(toml::Value::String(name)) => name.parse()?,
            Some(_) => {
                return Err(RulesError::Parse(
                    "preset must be a string such as \"pagat\"".into(),
                ));
            }
            None => Preset::Pagat,
        };
        let mut merged = toml::Table::try_from(Rules::preset(base))
            .map_err(|e| RulesError::Parse(e.to_string()))?;
        for (k, v) in table {
            merged.insert(k, v);
        }
        let rules: Rules = merged
            .try_into()
            .map_err(|e: toml::de::Error| RulesError::Parse(one_line(&e, None)))?;
        rules.validate()?;
        Ok(rules)
    }

    /// The rules as TOML, the form of a house-rule file.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("rules serialise")
    }
}

/// A TOML error in one line, as every error is said: where in `text` (the
/// file it was read from, when it was) and what, without the multi-line
/// excerpt `toml` draws.
fn one_line(e: &toml::de::Error, text: Option<&str>) -> String {
    match text.zip(e.span()).filter(|(t, s)| s.start <= t.len()) {
        Some((text, span)) => {
            let before = &text[..span.start];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let what = e.message().trim().replace('\n', " ");
            format!("line {line}, column {column}: {what}")
        }
        // No place in the file (an option's value, checked after the
        // preset's were merged in): the message names the option on a
        // line of its own.
        None => e
            .to_string()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t5_space_antes_read_from_toml_and_json_and_bounded() {
        let rules =
            Rules::from_toml("preset = \"tripoley\"\n[space_antes]\npot = 2\nkitty = 2\n").unwrap();
        let two: BTreeMap<Space, u32> = [(Space::Pot, 2), (Space::Kitty, 2)].into();
        assert_eq!(rules.space_antes, two);
        assert_eq!(Rules::from_toml(&rules.to_toml()).unwrap(), rules);
        let json = serde_json::to_string(&rules).unwrap();
        assert!(
            json.contains("\"space_antes\":{\"kitty\":2,\"pot\":2}"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
        // Absent: plain `ante`, and nothing written.
        assert!(Rules::default().space_antes.is_empty());
        assert!(!Rules::default().to_toml().contains("space_antes"));
        for (toml, why) in [
            (
                "[space_antes]\npott = 2",
                "expected one of `ace`, `king`, `queen`, `jack`, `ten`, `king_queen`, `sequence`, `kitty`, `pot`",
            ),
            (
                "[space_antes]\npot = 0",
                "between 1 and starting_chips (100)",
            ),
            (
                "[space_antes]\npot = 101",
                "between 1 and starting_chips (100)",
            ),
            ("[space_antes]\npot = -1", "space_antes"),
            ("preset = \"cosmo\"\n[space_antes]\npot = 2", "no Pot"),
            (
                "ante = 3\ndealer_ante = 1\n[space_antes]\npot = 2",
                "the dealer would put nothing on pot",
            ),
            ("space_antes = 2", "space_antes"),
        ] {
            let err = Rules::from_toml(toml).unwrap_err().to_string();
            assert!(err.contains(why), "{toml}: {err}");
        }
        // The first ante must be payable: 7 + 2 x 50 = 107 chips.
        let big = Rules::from_toml("[space_antes]\npot = 50\nkitty = 50").unwrap();
        let why = big.first_ante_shortfall().expect("short");
        assert!(
            why.contains("107 chips, but players start with 100"),
            "{why}"
        );
    }

    #[test]
    fn t2_casino_is_for_three_to_eight_players() {
        let casino = Rules::preset(Preset::MichiganCasino);
        let err = casino.check_players(9).unwrap_err();
        assert_eq!(err.to_string(), "these rules are for 3 to 8 players, not 9");
        assert!(casino.check_players(2).is_err());
        assert!(casino.check_players(8).is_ok());
        assert!(Rules::preset(Preset::Pagat).check_players(9).is_ok());
        let seat_five = Rules {
            first_dealer: FirstDealer::Seat(5),
            ..Rules::preset(Preset::Pagat)
        };
        assert!(
            seat_five
                .check_players(4)
                .unwrap_err()
                .to_string()
                .contains("T3")
        );
        assert!(seat_five.check_players(6).is_ok());
    }

    #[test]
    fn every_preset_is_valid_and_round_trips_as_toml_and_json() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            rules.validate().unwrap();
            let toml = rules.to_toml();
            assert_eq!(Rules::from_toml(&toml).unwrap(), rules, "{preset}:\n{toml}");
            let json = serde_json::to_string(&rules).unwrap();
            assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
            assert_eq!(preset.name().parse::<Preset>().unwrap(), preset);
        }
    }

    #[test]
    fn house_rules_start_from_a_preset_and_override_options() {
        let rules = Rules::from_toml(
            r#"
            preset = "tripoley"
            bet_limit = 5
            max_raises = 3
            pay_suit = { fixed = "spades" }
            sequence = { from = "6" }
            "#,
        )
        .unwrap();
        assert_eq!(rules.bet_limit, 5);
        assert_eq!(rules.max_raises, Some(3));
        assert_eq!(rules.pay_suit, PaySuitRule::Fixed(Suit::Spades));
        assert_eq!(rules.sequence, SequenceRule::From(Rank::Six));
        assert_eq!(
            rules.spare,
            SpareRule::Unused,
            "the rest comes from the preset"
        );
        assert_eq!(Rules::from_toml("").unwrap(), Rules::preset(Preset::Pagat));
    }

    #[test]
    fn bad_house_rules_say_what_is_wrong() {
        let cases = [
            ("preset = \"poker\"", "unknown preset"),
            ("bet_limt = 3", "bet_limt"),
            ("bet_limit = \"ten\"", "bet_limit"),
            ("spare = \"sometimes\"", "sometimes"),
            ("poker = \"none\"", "M2"),
            (
                "poker = \"none\"\nmichigan_leader = \"dealer\"",
                "final_pot",
            ),
            ("pay_suit = \"auction\"", "H8"),
            ("min_players = 1", "T2"),
            ("deals = 0", "E1"),
            ("bet_limit = 0", "P4"),
            ("= broken", "house rules"),
        ];
        for (text, want) in cases {
            let err = Rules::from_toml(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn e2_keep_without_poker_is_the_only_final_pot() {
        let mut cosmo = Rules::preset(Preset::Cosmo);
        assert!(!cosmo.has_pot());
        cosmo.final_pot = FinalPot::ExtraPoker;
        assert!(cosmo.validate().is_err());
    }

    /// A change to a set of rules.
    type Change = fn(&mut Rules);

    #[test]
    fn every_number_is_bounded_so_no_game_overflows_or_runs_forever() {
        let pagat = Rules::preset(Preset::Pagat);
        let at_most = Rules {
            starting_chips: Rules::MAX_STARTING_CHIPS,
            ante: Rules::MAX_STARTING_CHIPS,
            dealer_ante: Rules::MAX_STARTING_CHIPS,
            bet_limit: Rules::MAX_BET_LIMIT,
            max_raises: Some(Rules::MAX_RAISES),
            final_pot_rounds: Rules::MAX_FINAL_POT_ROUNDS,
            deals: Some(Rules::MAX_DEALS),
            ..pagat.clone()
        };
        at_most.check_players(9).unwrap();
        // Every chip of the largest game, counted twice over, fits a u32.
        let total = u64::from(Rules::MAX_STARTING_CHIPS) * 9;
        assert!(total * 2 < u64::from(u32::MAX));
        let cases: [(&str, Change); 7] = [
            ("starting_chips", |r| r.starting_chips = u32::MAX),
            ("ante", |r| r.ante = u32::MAX),
            ("the dealer puts", |r| r.dealer_ante = r.starting_chips + 1),
            ("bet_limit", |r| r.bet_limit = u32::MAX),
            ("max_raises", |r| r.max_raises = Some(u32::MAX)),
            ("final_pot_rounds", |r| r.final_pot_rounds = u32::MAX),
            ("deals", |r| r.deals = Some(1_000_000_000)),
        ];
        for (name, change) in cases {
            let mut r = at_most.clone();
            change(&mut r);
            let err = r.validate().unwrap_err().to_string();
            assert!(err.contains(name), "{name}: {err}");
        }
        // The same limits hold for house rules read from TOML.
        let err = Rules::from_toml("final_pot_rounds = 4294967295")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("final_pot_rounds must be between 1 and 10"),
            "{err}"
        );
    }
}
