//! [`ExecBot`]: an outside program that plays through a line protocol on
//! its standard input and output (`docs/bot-protocol.md`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde::Serialize;
use tripoley_cards::GameRng;
use tripoley_engine::{Action, Decision, Rules, View};

use crate::{Bot, HeuristicBot};

/// The protocol's version, sent with every request.
pub const PROTOCOL_VERSION: u32 = 1;

/// One request: a decision to answer.
#[derive(Serialize)]
struct Request<'a> {
    protocol: u32,
    seat: u8,
    decision: Decision,
    /// Every legal answer, except for `choose_five` (too many to list).
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Vec<Action>>,
    view: &'a View,
}

/// The running program.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An outside program in a seat. It is started (with `sh -c CMD`) at its
/// first decision and kept for every later one; each decision is one JSON
/// line on its standard input, answered by one line with the action. A bad
/// answer, an illegal one, a crash or no answer within the timeout is
/// reported on standard error with the seat and the reason, the program is
/// stopped, and a [`HeuristicBot`] plays in its place from then on.
pub struct ExecBot {
    command: String,
    timeout: Duration,
    fallback: HeuristicBot,
    process: Option<Process>,
    failure: Option<String>,
}

impl ExecBot {
    /// A bot that runs `command` (a shell command line) for a table with
    /// these rules (the fallback bot needs them), waiting at most `timeout`
    /// for each answer.
    pub fn new(command: &str, rules: &Rules, timeout: Duration) -> ExecBot {
        ExecBot {
            command: command.to_owned(),
            timeout,
            fallback: HeuristicBot::for_rules(rules),
            process: None,
            failure: None,
        }
    }

    /// Why the program was replaced by the fallback bot, if it was.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    fn start(&self) -> Result<Process, String> {
        let mut child = shell(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start it: {e}"))?;
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
        })
    }

    /// Asks the program; `Err` says why its answer cannot be used.
    fn ask(&mut self, view: &View, decision: Decision) -> Result<Action, String> {
        if self.process.is_none() {
            self.process = Some(self.start()?);
        }
        let request = Request {
            protocol: PROTOCOL_VERSION,
            seat: view.seat.unwrap_or(0),
            decision,
            legal: (!matches!(decision, Decision::ChooseFive { .. })).then(|| decision.actions()),
            view,
        };
        let mut line = serde_json::to_string(&request).expect("requests serialise");
        line.push('\n');
        let timeout = self.timeout;
        let p = self.process.as_mut().expect("started above");
        if let Err(e) = p
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| p.stdin.flush())
        {
            return Err(format!("cannot write to it ({e}){}", exit_status(p)));
        }
        let answer = match p.lines.recv_timeout(timeout) {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => return Err(format!("cannot read its answer: {e}")),
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("no answer within {} ms", timeout.as_millis()));
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
        decision
            .check(action)
            .map_err(|e| format!("its answer {} is illegal: {e}", shorten(answer.trim())))?;
        Ok(action)
    }
}

impl Bot for ExecBot {
    fn name(&self) -> &'static str {
        "exec"
    }

    fn act(&mut self, view: &View, rng: &mut GameRng) -> Action {
        if self.failure.is_none() {
            let decision = view.decision.expect("the bot is asked only on its turn");
            match self.ask(view, decision) {
                Ok(action) => return action,
                Err(reason) => {
                    eprintln!(
                        "tripoley: warning: outside bot `{}` in seat {}: {reason}; the heuristic bot plays for it from now on",
                        self.command,
                        view.seat.unwrap_or(0),
                    );
                    self.failure = Some(reason);
                    self.process = None;
                }
            }
        }
        self.fallback.act(view, rng)
    }
}

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
            return format!(": it exited ({status})");
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
