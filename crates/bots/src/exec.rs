//! [`ExecBot`]: an outside program that plays through a line protocol on
//! its standard input and output (`docs/bot-protocol.md`).
//!
//! An outside program is not ours to trust: it may hang, never end a line,
//! close its output or start programs of its own. So each copy runs in its
//! own process group, and the whole group is killed when its answer cannot
//! be used, when the bot is dropped (the game or the match is over), and
//! when tripoley ends ([`kill_outside_bots`], which the command line calls
//! at exit and on Ctrl-C). Copies of one bot in a run share an
//! [`ExecShared`]: after one copy failed, no copy starts the program again,
//! the failure is reported once, and the decisions the fallback bot made in
//! its place are counted, so results can say how much of them are the
//! program's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::Serialize;
use tripoley_cards::{GameRng, seeded_rng};
use tripoley_engine::{Action, DealChance, Decision, Game, IllegalAction, Pending, Rules, View};

use crate::{Bot, HeuristicBot};

/// The protocol's version, sent with every request.
pub const PROTOCOL_VERSION: u32 = 1;

/// Time a copy gets to start, on top of the timeout of its first answer:
/// an interpreter's start-up under load should not count as a slow answer.
pub const START_GRACE: Duration = Duration::from_secs(5);

/// One request: a decision to answer.
#[derive(Serialize)]
struct Request<'a> {
    protocol: u32,
    /// Counts the games this copy of the program has played, 1 first: a new
    /// number means a new game.
    game: u64,
    seat: u8,
    decision: Decision,
    /// Every legal answer, except for `choose_five` (too many to list).
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Vec<Action>>,
    view: &'a View,
}

/// The process groups of the outside programs now running (their leaders'
/// ids), so that [`kill_outside_bots`] can end them all.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<u32>> {
    RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills every outside program still running, with whatever it started.
/// For the end of the process (normal exit, Ctrl-C), where destructors of
/// bots held by other threads would not run.
pub fn kill_outside_bots() {
    for pid in running().drain(..) {
        kill_group(pid);
    }
}

/// How many outside programs are running now (for tests and reports).
pub fn outside_bots_running() -> usize {
    running().len()
}

/// SIGKILL to the process group led by `pid`.
#[cfg(unix)]
fn kill_group(pid: u32) {
    use rustix::process::{Pid, Signal, kill_process_group};
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        // It may have ended already: nothing to do then.
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// Windows has no process groups to kill; the child itself is killed.
#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// The running program.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    /// It has answered once (it is started).
    answered: bool,
}

impl Drop for Process {
    fn drop(&mut self) {
        let pid = self.child.id();
        running().retain(|&p| p != pid);
        kill_group(pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every copy of one outside bot in a run shares: the command, the
/// timeout, whether (and why) it failed, and decision counts.
#[derive(Debug)]
pub struct ExecShared {
    command: String,
    timeout: Duration,
    failure: OnceLock<String>,
    decisions: AtomicU64,
    fallback_decisions: AtomicU64,
}

/// How an outside bot did in a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OutsideReport {
    /// Decisions its seats had to make.
    pub decisions: u64,
    /// Those the heuristic bot made in its place after it failed.
    pub fallback_decisions: u64,
    /// Why it failed, if it did.
    pub failure: Option<String>,
}

impl ExecShared {
    /// The state of a new outside bot running `command` (a shell command
    /// line), waiting at most `timeout` for each answer.
    pub fn new(command: &str, timeout: Duration) -> Arc<ExecShared> {
        Arc::new(ExecShared {
            command: command.to_owned(),
            timeout,
            failure: OnceLock::new(),
            decisions: AtomicU64::new(0),
            fallback_decisions: AtomicU64::new(0),
        })
    }

    /// What happened so far.
    pub fn report(&self) -> OutsideReport {
        OutsideReport {
            decisions: self.decisions.load(Ordering::Relaxed),
            fallback_decisions: self.fallback_decisions.load(Ordering::Relaxed),
            failure: self.failure.get().cloned(),
        }
    }

    /// Records the first failure and warns about it; later ones (other
    /// copies failing at the same time) are not news.
    fn fail(&self, seat: u8, reason: &str) {
        let command = &self.command;
        if self.failure.set(reason.to_owned()).is_ok() {
            eprintln!(
                "tripoley: warning: outside bot `{command}` in seat {seat}: {reason}; \
                 the heuristic bot plays for it from now on"
            );
        }
    }

    /// Starts the program and asks it the first decision of a game with
    /// these rules and seats: `Err` says why it cannot play at all (it
    /// cannot be started, answers badly or not in time). Its process is
    /// killed before this returns. For refusing a command before a run.
    pub fn probe(self: &Arc<Self>, rules: &Rules, players: usize) -> Result<(), String> {
        let mut game = Game::new(rules.clone(), players).map_err(|e| e.to_string())?;
        let mut rng = seeded_rng(0);
        let (seat, decision) = loop {
            match game.pending() {
                Pending::Chance(_) => game
                    .chance(DealChance::random(rules, &mut rng))
                    .map_err(|e| e.to_string())?,
                Pending::Decide { seat, decision } => break (seat, decision),
                Pending::GameOver => return Ok(()),
            };
        };
        let mut bot = ExecBot::sharing(Arc::clone(self), rules);
        bot.game = 1;
        bot.ask(&game.view(Some(seat)), decision).map(|_| ())
    }
}

/// An outside program in a seat. It is started (with `sh -c CMD`, in a
/// process group of its own) at its first decision and kept for every later
/// one, across games; each decision is one JSON line on its standard input,
/// answered by one line with the action. A bad answer, an illegal one, a
/// crash or no answer within the timeout is reported once on standard
/// error with the seat and the reason, the program and everything it
/// started are killed, and a [`HeuristicBot`] plays in its place from then
/// on, in this copy and in every copy sharing its [`ExecShared`].
pub struct ExecBot {
    shared: Arc<ExecShared>,
    fallback: HeuristicBot,
    process: Option<Process>,
    /// The game being played, counted from 1 (0: none begun yet).
    game: u64,
}

impl ExecBot {
    /// A bot that runs `command` (a shell command line) for a table with
    /// these rules (the fallback bot needs them), waiting at most `timeout`
    /// for each answer. It shares its failure with no other copy.
    pub fn new(command: &str, rules: &Rules, timeout: Duration) -> ExecBot {
        ExecBot::sharing(ExecShared::new(command, timeout), rules)
    }

    /// A copy of an outside bot of a run, sharing `shared` with the others.
    pub fn sharing(shared: Arc<ExecShared>, rules: &Rules) -> ExecBot {
        ExecBot {
            shared,
            fallback: HeuristicBot::for_rules(rules),
            process: None,
            game: 0,
        }
    }

    /// Why the program was replaced by the fallback bot, if it was.
    pub fn failure(&self) -> Option<&str> {
        self.shared.failure.get().map(String::as_str)
    }

    fn start(&self) -> Result<Process, String> {
        let mut command = shell(&self.shared.command);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start it: {e}"))?;
        running().push(child.id());
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    break;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
            answered: false,
        })
    }

    /// Asks the program; `Err` says why its answer cannot be used.
    fn ask(&mut self, view: &View, decision: Decision) -> Result<Action, String> {
        if self.process.is_none() {
            self.process = Some(self.start()?);
        }
        let request = Request {
            protocol: PROTOCOL_VERSION,
            game: self.game.max(1),
            seat: view.seat.unwrap_or(0),
            decision,
            legal: (!matches!(decision, Decision::ChooseFive { .. })).then(|| decision.actions()),
            view,
        };
        let mut line = serde_json::to_string(&request).expect("requests serialise");
        line.push('\n');
        let p = self.process.as_mut().expect("started above");
        let (timeout, grace) = if p.answered {
            (self.shared.timeout, "")
        } else {
            (self.shared.timeout + START_GRACE, " (and 5 s to start)")
        };
        if let Err(e) = p
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| p.stdin.flush())
        {
            return Err(format!("cannot write to it ({e}){}", exit_status(p)));
        }
        let answer = match p.lines.recv_timeout(timeout) {
            Ok(Ok(answer)) => {
                p.answered = true;
                answer
            }
            Ok(Err(e)) => return Err(format!("cannot read its answer: {e}")),
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "no answer within {} ms{grace}",
                    self.shared.timeout.as_millis()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("it closed its output{}", exit_status(p)));
            }
        };
        let action: Action = serde_json::from_str(answer.trim()).map_err(|e| {
            format!(
                "its answer {:?} is not an action ({e})",
                shorten(answer.trim())
            )
        })?;
        decision.check(action).map_err(|e| {
            // The action as the protocol writes it, not as Rust debugs it.
            let written = serde_json::to_string(&action).expect("actions serialise");
            match e {
                IllegalAction::NotLegal { why, .. } => {
                    format!("its answer {written} is illegal: {why}")
                }
                other => format!("its answer {written} is illegal: {other}"),
            }
        })?;
        Ok(action)
    }
}

impl tripoley_game::Bot<Game> for ExecBot {
    fn name(&self) -> &'static str {
        "exec"
    }

    fn new_game(&mut self) {
        self.game += 1;
    }

    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action {
        self.shared.decisions.fetch_add(1, Ordering::Relaxed);
        if self.shared.failure.get().is_none() {
            let decision = view.decision.expect("the bot is asked only on its turn");
            match self.ask(view, decision) {
                Ok(action) => return action,
                Err(reason) => self.shared.fail(view.seat.unwrap_or(0), &reason),
            }
        }
        // Failed here or in another copy: stop this copy's program too.
        self.process = None;
        self.shared
            .fallback_decisions
            .fetch_add(1, Ordering::Relaxed);
        self.fallback.act(view, rng)
    }
}

impl Bot for ExecBot {}

/// `sh -c command` (`cmd /C` on Windows).
fn shell(command: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", command]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", command]);
        c
    }
}

/// ": it exited with status N" once the program has ended, else nothing.
fn exit_status(p: &mut Process) -> String {
    // Give a dying process a moment to be reaped.
    for _ in 0..20 {
        if let Ok(Some(status)) = p.child.try_wait() {
            // The shell's way of saying the command does not exist.
            let hint = if status.code() == Some(127) {
                ", the shell found no such command"
            } else {
                ""
            };
            return format!(": it exited ({status}{hint})");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    String::new()
}

/// At most 80 characters of an answer, for messages.
fn shorten(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_owned()
    } else {
        format!("{}...", s.chars().take(80).collect::<String>())
    }
}
