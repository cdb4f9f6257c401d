// @ts-check
// The offline table's worker: the Rust engine, bots, hint and analysis in
// WebAssembly (crates/web), off the page's thread, so the page never freezes
// while the expert thinks.
//
// It speaks to the page as a server speaks to a websocket: the page posts
// the protocol's client messages (`hello`, `act`, `hint`) and receives the
// protocol's frames, written by the same Rust code as the server's
// (`tripoley-table`). Besides them: `{start}` or `{resume}` opens a game,
// `{analyse}` and `{replay}` answer a finished game's record, and after
// every step the game goes back to the page as a saved game (`{saved}`),
// which the page keeps: a closed tab loses nothing.

import init, { Offline, analyse, presets, replay, warm } from "./pkg/tripoley_web.js";

const ready = init();
// The bots' tables are built once per worker, before anyone waits on a bot.
let warmed = false;
/** The table, the seat the page shows, and the pause before a bot's move.
 * @type {Offline | null} */
let table = null;
let seat = 0;
let pause = 700;
/** The pending bot move or held part: at most one at a time.
 * @type {ReturnType<typeof setTimeout> | null} */
let timer = null;

const post = (/** @type {string} */ frame) => self.postMessage({ frame });

function save() {
  self.postMessage({ saved: table.saved(), over: JSON.parse(table.next()).due === "over" });
}

/** Whoever must act next: a bot after its pause, a held part of a step after
 * one too (as long as a bot's decision, so a withhold is not told apart),
 * or a person of this device, whom the page is told about. */
function drive() {
  if (timer != null) return;
  const next = JSON.parse(table.next());
  if (next.due === "bot" || next.due === "held") {
    timer = setTimeout(() => {
      timer = null;
      const moved = next.due === "bot" ? table.bot_acts() : table.release();
      if (!moved) return;
      post(table.update(seat));
      save();
      drive();
    }, pause);
  } else self.postMessage({ due: next });
}

/** A client message of the protocol, from the page. @param {{ type: string, action?: unknown, n?: number }} m */
function onClientMessage(m) {
  switch (m.type) {
    case "hello":
      post(table.welcome(seat));
      post(table.state(seat));
      drive();
      break;
    case "act": {
      const error = table.act(seat, JSON.stringify(m.action), m.n ?? undefined);
      if (error) {
        post(error);
        break;
      }
      post(table.update(seat));
      save();
      drive();
      break;
    }
    case "hint":
      post(table.hint(seat));
      break;
    default:
      break;
  }
}

self.onmessage = async (e) => {
  await ready;
  const d = e.data;
  try {
    if (d.warm) {
      if (!warmed) warm();
      warmed = true;
      self.postMessage({ warmed: true });
    } else if (d.presets) self.postMessage({ presets: JSON.parse(presets()) });
    else if (d.start) {
      const s = d.start;
      table = new Offline(JSON.stringify(s.create), JSON.stringify(s.names), JSON.stringify(s.bots), String(s.seed), s.lang);
      seat = s.seat ?? 0;
      pause = s.pause ?? pause;
      save();
      self.postMessage({ open: true });
    } else if (d.again && table) {
      // The next game at the same table (a rematch).
      if (timer != null) clearTimeout(timer);
      timer = null;
      table = table.again(String(d.again.seed));
      save();
    } else if (d.resume) {
      table = Offline.resume(d.resume.saved);
      seat = d.resume.seat ?? 0;
      pause = d.resume.pause ?? pause;
      self.postMessage({ open: true });
    } else if (d.analyse) self.postMessage({ analysis: JSON.parse(analyse(d.analyse.record, d.analyse.seat ?? undefined)) });
    else if (d.replay) self.postMessage({ replayed: JSON.parse(replay(d.replay.record, d.replay.seat ?? undefined)) });
    else if (d.show != null && table) {
      // Another person of this device takes it: their seat, as a hello.
      seat = d.show;
      onClientMessage({ type: "hello" });
    } else if (d.msg && table) onClientMessage(d.msg);
  } catch (error) {
    // The Rust side throws the protocol's `error` frame.
    self.postMessage({ error: String(error) });
  }
};
