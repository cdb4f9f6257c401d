//! `tripoley rules`: the rules of a preset or a house-rule file in plain
//! words, a house-rule file checked, or a preset as TOML to start one from.

use std::path::PathBuf;

use tripoley_engine::{Preset, Rules};

use crate::Failure;
use crate::setup::{load_house_rules, parse_preset};

/// Arguments of `tripoley rules`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: tripoley (the default) or napalm.
    #[arg(long, value_enum, default_value_t)]
    game: crate::napalm::GameKind,
    /// The preset to describe: pagat (the default), tripoley, michigan-casino, rummoli or cosmo.
    #[arg(long, value_name = "NAME", value_parser = parse_preset, conflicts_with = "check")]
    preset: Option<Preset>,
    /// Check a house-rule file (TOML) and describe the rules it sets.
    #[arg(long, value_name = "FILE.toml")]
    check: Option<PathBuf>,
    /// Print the rules as TOML instead of words: the start of a house-rule file.
    #[arg(long)]
    toml: bool,
}

/// Prints the rules chosen by `args`.
pub fn run(args: &Args) -> Result<(), Failure> {
    if args.game == crate::napalm::GameKind::Napalm {
        if args.preset.is_some() || args.check.is_some() || args.toml {
            return Err(Failure::usage(
                "Napalm has one rule set: --game napalm takes no --preset, --check or --toml",
            ));
        }
        print!("{}", tripoley_napalm::NapalmRules::default().describe());
        return Ok(());
    }
    let Some(path) = &args.check else {
        let rules = Rules::preset(args.preset.unwrap_or(Preset::Pagat));
        print(&rules, args.toml);
        return Ok(());
    };
    let shown = path.display();
    let rules = load_house_rules(path)?;
    if args.toml {
        // Stdout stays pure TOML, ready to be saved as a complete house-rule file.
        eprintln!("ok: {shown} is valid");
    } else {
        println!("ok: {shown} is valid\n");
    }
    print(&rules, args.toml);
    Ok(())
}

fn print(rules: &Rules, toml: bool) {
    if toml {
        print!("{}", with_hints(rules));
    } else {
        print!("{}", rules.describe());
    }
}

/// The rules as TOML: a header naming the preset, then the keys, then the
/// options left unset as comments (before the first `[table]`, so that
/// uncommenting one sets a top-level key), then the tables.
fn with_hints(rules: &Rules) -> String {
    let text = rules.to_toml();
    let mut out = String::new();
    if let Some(p) = Preset::ALL
        .into_iter()
        .find(|&p| Rules::preset(p) == *rules)
    {
        out.push_str("# Tripoley house rules, starting from the ");
        out.push_str(p.name());
        out.push_str(" preset.\n# Check a file with `tripoley rules --check FILE.toml`.\n");
    }
    let split = text.find("\n[").map_or(text.len(), |i| i + 1);
    let (keys, tables) = text.split_at(split);
    out.push_str(keys);
    if rules.max_raises.is_none() {
        out.push_str("# max_raises = 3  # most raises in a betting round (P4); unset: no limit\n");
    }
    if rules.deals.is_none() {
        out.push_str(
            "# deals = 4  # deals in a game (E1); unset: one round, a deal per starting player\n",
        );
    }
    out.push_str(tables);
    out
}
