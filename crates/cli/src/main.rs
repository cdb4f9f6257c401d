//! `tripoley`: the command-line front door to the game, its tools and benchmarks.

mod allocator;
mod cmd;
mod napalm;
mod play;
mod plots;
mod setup;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tripoley (Michigan Rummy, Rummoli, Three in One): play, analyse and benchmark.
#[derive(Parser)]
#[command(name = "tripoley", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against bots in a full-screen terminal table.
    Play(play::Args),
    /// Serve the multiplayer web table: create a table, share the link, play in the browser.
    Serve(cmd::serve::ServeArgs),
    /// Write the web app as static files: play with no server, install it as an app, work offline.
    Site(cmd::site::Args),
    /// Load the web server with tables of client bots and report latency and throughput.
    Loadtest(cmd::serve::LoadArgs),
    /// Evaluate a poker hand: the best five of 5 to 52 cards and its name.
    Eval(cmd::eval::Args),
    /// Measure how fast the hot paths run (build with --release).
    Bench(cmd::bench::Args),
    /// Print the rules of a preset in plain words, check a house-rule file, or print TOML.
    Rules(cmd::rules::Args),
    /// Replay a recorded game and print each deal's ledger and the standings.
    Replay(cmd::replay::Args),
    /// The expert's verdict on every decision of a recorded game, the biggest mistakes first.
    Analyse(cmd::analyse::Args),
    /// Self-play between bots on all cores: chips per seat and stage, layout, poker and Michigan figures.
    Sim(cmd::sim::Args),
    /// Duplicate matches between bots: chips per deal per bot and stage, with 95% intervals.
    Arena(cmd::arena::Args),
}

/// A failure worth telling the user about, with the exit code it deserves.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, in words a player understands.
    pub message: String,
    /// 2 for bad usage or input, 1 for anything else.
    pub code: u8,
}

impl Failure {
    /// Bad input from the user: exit code 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

/// A reader that stops early (`tripoley sim --json | head`) closes the pipe:
/// end quietly, as command-line tools do, instead of reporting a panic.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Clap's refusals in the style of every other error: one line saying
/// what is wrong (with clap's tip when it has one), then the usage. Help
/// and the version print as clap prints them.
fn refused_arguments(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let what = lines
        .next()
        .map_or("bad arguments", |l| l.strip_prefix("error: ").unwrap_or(l));
    let rest: Vec<&str> = lines.collect();
    let tip = rest
        .iter()
        .find_map(|l| l.strip_prefix("tip: "))
        .map_or_else(String::new, |t| format!(" ({t})"));
    eprintln!("tripoley: {what}{tip}");
    if let Some(usage) = rest.iter().find(|l| l.starts_with("Usage: ")) {
        eprintln!("{usage} (more: --help)");
    }
    ExitCode::from(2)
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused_arguments(&e),
    };
    let result = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => cmd::serve::serve(&args),
        Command::Site(args) => cmd::site::run(&args),
        Command::Loadtest(args) => cmd::serve::loadtest(&args),
        Command::Eval(args) => cmd::eval::run(&args),
        Command::Bench(args) => {
            cmd::bench::run(&args);
            Ok(())
        }
        Command::Rules(args) => cmd::rules::run(&args),
        Command::Replay(args) => cmd::replay::run(&args),
        Command::Analyse(args) => cmd::analyse::run(&args),
        Command::Sim(args) => cmd::sim::run(&args),
        Command::Arena(args) => cmd::arena::run(&args),
    };
    // Whatever an outside bot started ends with tripoley, even if a bot
    // was not dropped (a panicking worker thread).
    tripoley_bots::kill_outside_bots();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("tripoley: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
