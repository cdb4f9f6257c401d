//! `tripoley eval CARDS...`: the best five cards of a hand and its name.

use serde::Serialize;
use tripoley_cards::{Card, CardSet, Evaluator};

use crate::Failure;

/// Arguments of `tripoley eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Cards, such as `AH KH 10C` (also `TC`, `A♥`, and `1H` for the ace; commas allowed): 5 to 52
    /// of them.
    #[arg(required = true, num_args = 1..)]
    cards: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The ace ranks high only: A-2-3-4-5 is no straight.
    #[arg(long)]
    ace_high: bool,
}

/// What `--json` prints.
#[derive(Serialize)]
struct Output {
    cards: Vec<Card>,
    category: &'static str,
    name: String,
    /// 1 (weakest) to 7,462 (royal flush): a larger rank is a better hand.
    rank: u32,
}

/// Parses the cards, evaluates them and prints the result.
pub fn run(args: &Args) -> Result<(), Failure> {
    let hand: CardSet = args
        .cards
        .join(" ")
        .parse()
        .map_err(|e| Failure::usage(format!("{e}")))?;
    if hand.len() < 5 {
        return Err(Failure::usage(format!(
            "a poker hand needs at least five cards, {} given",
            hand.len()
        )));
    }
    let eval = Evaluator {
        ace_always_high: args.ace_high,
    };
    let (rank, five) = eval.best_five(hand);
    let cards = rank.arrange(five);
    if args.json {
        let out = Output {
            cards,
            category: rank.category().key(),
            name: rank.name(),
            rank: eval.ordinal(rank),
        };
        println!(
            "{}",
            serde_json::to_string(&out).expect("plain data serialises")
        );
    } else {
        let shown: Vec<String> = cards.iter().map(|c| format!("{c:#}")).collect();
        println!("{}: {}", shown.join(" "), rank.name());
    }
    Ok(())
}
