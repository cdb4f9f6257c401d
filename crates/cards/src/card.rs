//! A single playing card: its [`Suit`], its [`Rank`], and their text forms.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four suits. Suits never rank against each other in poker (P2);
/// the order here (clubs, diamonds, hearts, spades) only fixes bit positions
/// and display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥, the default pay suit of Tripoley.
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All suits, clubs first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0 = clubs .. 3 = spades), taken modulo 4.
    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    /// 0 = clubs .. 3 = spades.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The ASCII letter: C, D, H or S.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit symbol: ♣, ♦, ♥ or ♠.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// Diamonds and hearts are red; Michigan's alternating colours (M6) use it.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// The plural English name ("hearts").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    fn parse_char(c: char) -> Option<Suit> {
        Some(match c {
            'C' | 'c' | '♣' | '♧' => Suit::Clubs,
            'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
            'H' | 'h' | '♥' | '♡' => Suit::Hearts,
            'S' | 's' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank from two (lowest) to ace (highest), as in T1. The discriminant is
/// the rank's bit position inside a suit's 13 bits of a
/// [`CardSet`](crate::CardSet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, two first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = two .. 12 = ace).
    ///
    /// # Panics
    /// If `i > 12`.
    pub const fn from_index(i: u8) -> Rank {
        Rank::ALL[i as usize]
    }

    /// 0 = two .. 12 = ace.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The rank as players say it: 2..10, then 11 for a jack up to 14 for an ace.
    pub const fn pips(self) -> u8 {
        self as u8 + 2
    }

    /// Short text: "2".."10", "J", "Q", "K", "A".
    pub const fn short(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ][self as usize]
    }

    /// English name ("queen").
    pub const fn name(self) -> &'static str {
        [
            "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king", "ace",
        ][self as usize]
    }

    /// English plural ("sixes").
    pub const fn plural(self) -> &'static str {
        [
            "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces",
        ][self as usize]
    }

    /// The next higher rank, `None` above the ace (a Michigan run stops there, M5).
    pub const fn next(self) -> Option<Rank> {
        if (self as u8) < 12 {
            Some(Rank::from_index(self as u8 + 1))
        } else {
            None
        }
    }

    fn parse(text: &str) -> Option<Rank> {
        Some(match text.to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" | "1" => Rank::Ace,
            _ => return None,
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

/// A card. Internally the index of its bit in a [`CardSet`](crate::CardSet):
/// `16 * suit + rank`, so each suit's ranks sit in one 16-bit lane.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 16 + rank as u8)
    }

    /// The card at bit position `bit` of a [`CardSet`](crate::CardSet), if
    /// that position holds a card.
    pub const fn from_bit(bit: u8) -> Option<Card> {
        if bit < 64 && bit % 16 < 13 {
            Some(Card(bit))
        } else {
            None
        }
    }

    /// The card's bit position in a [`CardSet`](crate::CardSet).
    pub const fn bit(self) -> u8 {
        self.0
    }

    /// The card one rank higher in the same suit, `None` for an ace: the
    /// next card of a Michigan run (M4), one step along the suit's lane.
    #[inline]
    pub const fn next_in_suit(self) -> Option<Card> {
        if self.0 % 16 < 12 {
            Some(Card(self.0 + 1))
        } else {
            None
        }
    }

    /// The card one rank below in the same suit, `None` for a two: the card
    /// a Michigan sequence must pass through to reach this one.
    #[inline]
    pub const fn previous_in_suit(self) -> Option<Card> {
        if self.0 % 16 > 0 {
            Some(Card(self.0 - 1))
        } else {
            None
        }
    }

    /// A dense index 0..52 (`13 * suit + rank`), for arrays indexed by card.
    pub const fn index(self) -> usize {
        (self.0 / 16) as usize * 13 + (self.0 % 16) as usize
    }

    /// The card with dense index `i` (0..52), the inverse of [`Card::index`].
    ///
    /// # Panics
    /// If `i >= 52`.
    pub const fn from_index(i: usize) -> Card {
        assert!(i < 52, "card index out of range");
        Card((i / 13 * 16 + i % 13) as u8)
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank::from_index(self.0 % 16)
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 / 16)
    }

    /// The card with a suit symbol, for people: "10♥".
    pub fn symbol(self) -> String {
        format!("{}{}", self.rank().short(), self.suit().symbol())
    }
}

/// Every card's ASCII form by dense index (clubs, diamonds, hearts, spades).
const ASCII: [&str; 52] = [
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", //
    "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD", //
    "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", //
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS",
];

impl Card {
    /// The ASCII form, "10H", "AS": what records and the web protocol hold.
    /// A table, not formatting: the server writes several cards into every
    /// frame it sends.
    pub const fn ascii(self) -> &'static str {
        ASCII[self.index()]
    }
}

impl fmt::Display for Card {
    /// The ASCII form, "10H", "AS". The alternate form (`{:#}`) uses the suit
    /// symbol: "10♥".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{}{}", self.rank().short(), self.suit().symbol())
        } else {
            f.write_str(self.ascii())
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a card: {reason} (write a rank 2-10, J, Q, K or A, then a suit C, D, H, S or ♣ ♦ ♥ ♠, as in \"10H\", \"TH\" or \"A♠\")"
)]
pub struct ParseCardError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads "AH", "ah", "10H", "TH", "A♥" (suit last, any case).
    fn from_str(text: &str) -> Result<Card, ParseCardError> {
        let err = |reason| ParseCardError {
            text: text.to_owned(),
            reason,
        };
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let suit_char = chars.next_back().ok_or_else(|| err("it is empty"))?;
        let rank_text = chars.as_str();
        if rank_text.is_empty() {
            return Err(err("it has no rank"));
        }
        let suit =
            Suit::parse_char(suit_char).ok_or_else(|| err("the last character is not a suit"))?;
        let rank =
            Rank::parse(rank_text).ok_or_else(|| err("the rank is not one of 2-10, J, Q, K, A"))?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Suit {
    /// The plural name: `"hearts"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Suit {
    /// Reads `"hearts"`, `"heart"`, `"H"` or `"♥"`, any case.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for Suit {
    type Err = String;
    fn from_str(text: &str) -> Result<Suit, String> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && let Some(s) = Suit::parse_char(c)
        {
            return Ok(s);
        }
        Suit::ALL
            .into_iter()
            .find(|s| t == s.name() || t == s.name().trim_end_matches('s'))
            .ok_or_else(|| {
                format!("{text:?} is not a suit: write clubs, diamonds, hearts or spades")
            })
    }
}

impl Serialize for Rank {
    /// The short text: `"10"`, `"Q"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.short())
    }
}

impl<'de> Deserialize<'de> for Rank {
    /// Reads `"2"`..`"10"`, `"T"`, `"J"`, `"Q"`, `"K"`, `"A"`, or a number 2-14.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Text<'a> {
            Number(u8),
            #[serde(borrow)]
            Str(std::borrow::Cow<'a, str>),
        }
        let rank = match Text::deserialize(d)? {
            Text::Number(n) if (2..=14).contains(&n) => Some(Rank::from_index(n - 2)),
            Text::Number(_) => None,
            Text::Str(s) => Rank::parse(&s),
        };
        rank.ok_or_else(|| serde::de::Error::custom("a rank is 2-10, J, Q, K or A"))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.ascii())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t1_thirteen_ranks_two_low_ace_high() {
        assert_eq!(Rank::ALL.len(), 13);
        assert!(Rank::Two < Rank::Ten && Rank::King < Rank::Ace);
        assert_eq!(Rank::Ace.next(), None);
        assert_eq!(Rank::Ten.next(), Some(Rank::Jack));
    }

    #[test]
    fn ascii_table_matches_rank_and_suit() {
        for i in 0..52 {
            let card = Card::from_index(i);
            let expected = format!("{}{}", card.rank().short(), card.suit().letter());
            assert_eq!(card.ascii(), expected);
            assert_eq!(card.to_string(), expected);
            assert_eq!(
                serde_json::to_string(&card).unwrap(),
                format!("\"{expected}\"")
            );
        }
    }

    #[test]
    fn previous_in_suit_undoes_next_in_suit() {
        for suit in Suit::ALL {
            assert_eq!(Card::new(Rank::Two, suit).previous_in_suit(), None);
            for rank in Rank::ALL {
                let card = Card::new(rank, suit);
                if let Some(next) = card.next_in_suit() {
                    assert_eq!(next.previous_in_suit(), Some(card));
                }
            }
        }
    }

    #[test]
    fn next_in_suit_is_the_next_rank_of_the_same_suit() {
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                let next = Card::new(rank, suit).next_in_suit();
                assert_eq!(next, rank.next().map(|r| Card::new(r, suit)));
            }
        }
    }

    #[test]
    fn parses_every_text_form() {
        let ten_hearts = Card::new(Rank::Ten, Suit::Hearts);
        for text in ["10H", "10h", "TH", "th", "10♥", "T♡", " 10H "] {
            assert_eq!(text.parse::<Card>(), Ok(ten_hearts), "{text}");
        }
        assert_eq!(
            "A♠".parse::<Card>().unwrap(),
            Card::new(Rank::Ace, Suit::Spades)
        );
        assert_eq!(
            "2c".parse::<Card>().unwrap(),
            Card::new(Rank::Two, Suit::Clubs)
        );
    }

    #[test]
    fn refuses_bad_text_with_a_reason() {
        for (text, reason) in [
            ("", "it is empty"),
            ("H", "it has no rank"),
            ("1X", "the last character is not a suit"),
            ("11H", "the rank is not one of 2-10, J, Q, K, A"),
            ("AHH", "the rank is not one of 2-10, J, Q, K, A"),
        ] {
            let e = text.parse::<Card>().unwrap_err();
            assert_eq!(e.reason, reason, "{text}");
            assert!(e.to_string().contains("is not a card"));
        }
    }

    #[test]
    fn display_round_trips_for_all_52() {
        for i in 0..52 {
            let c = Card::from_index(i);
            assert_eq!(c.index(), i);
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            assert_eq!(format!("{c:#}").parse::<Card>(), Ok(c));
            assert_eq!(Card::from_bit(c.bit()), Some(c));
        }
        assert_eq!(format!("{:#}", Card::new(Rank::Ten, Suit::Hearts)), "10♥");
        assert_eq!(Card::from_bit(13), None);
    }

    #[test]
    fn suits_and_ranks_read_and_write_as_words() {
        assert_eq!(serde_json::to_string(&Suit::Hearts).unwrap(), "\"hearts\"");
        for text in ["\"hearts\"", "\"Heart\"", "\"H\"", "\"♥\""] {
            assert_eq!(
                serde_json::from_str::<Suit>(text).unwrap(),
                Suit::Hearts,
                "{text}"
            );
        }
        assert!(serde_json::from_str::<Suit>("\"stars\"").is_err());
        assert_eq!(serde_json::to_string(&Rank::Ten).unwrap(), "\"10\"");
        assert_eq!(serde_json::from_str::<Rank>("\"10\"").unwrap(), Rank::Ten);
        assert_eq!(serde_json::from_str::<Rank>("8").unwrap(), Rank::Eight);
        assert!(serde_json::from_str::<Rank>("15").is_err());
        assert!(serde_json::from_str::<Rank>("\"Z\"").is_err());
    }

    #[test]
    fn serde_uses_the_text_form() {
        let c = Card::new(Rank::Queen, Suit::Diamonds);
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"QD\"");
        assert_eq!(serde_json::from_str::<Card>("\"QD\"").unwrap(), c);
        assert!(serde_json::from_str::<Card>("\"ZZ\"").is_err());
    }
}
