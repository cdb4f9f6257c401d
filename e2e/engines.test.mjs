// Beyond Chromium (issue 46): a family's phones are often iPhones, whose
// browsers all run WebKit, and some play in Firefox. A smoke subset of the
// browser tests in WebKit (WebKitGTK's WebKitWebDriver, the engine under
// Safari) and Firefox ESR (geckodriver), driven over W3C WebDriver by
// webdriver.mjs (which downloads no browser), on a laptop's window
// (1280x800) and a phone's (390x844):
// - a solo game online (`tripoley serve`) against a bot, played to its end;
// - the offline app from `tripoley site`'s folder served by Python's static
//   server: its service worker keeps it, a solo game "Play here with bots"
//   to its end; then the static server stopped (WebDriver has no offline
//   switch: with no server at all, nothing answers but the service worker),
//   the app opened again and another game played to its end.
// No page error in any: a recorder of uncaught errors and unhandled
// rejections is put into each page as it loads (WebDriver has no script to
// run before the page's own: an error before it would leave the page
// undrawn, which each step waits for) and read before each navigation.
// Touch can't be emulated over WebDriver: the phone is a window of its size,
// clicked with a mouse (Chromium's tests tap, in offline.test.mjs).
//
// Needs the tripoley binary (TRIPOLEY_BIN), geckodriver with firefox-esr,
// and WebKitWebDriver with Xvfb (or a DISPLAY): an engine missing fails the
// run under CI and is skipped elsewhere, saying what to install.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTIFACTS, TRIPOLEY, pause, startServer, staticServer } from "./harness.mjs";
import { engines, Session } from "./webdriver.mjs";

const SIZES = [["desktop", 1280, 800], ["phone", 390, 844]];
// The shortest game the form allows: two seats (you and a bot), one deal.
const SHORT = { name: "Ann", seats: "2", deals: "1" };

const running = []; // what to stop after the file: servers, drivers
after(async () => {
  for (const r of running.reverse()) await r.stop();
});

let online = null;
async function onlineServer() {
  if (!online) {
    const { child, base } = await startServer();
    online = base;
    running.push({ stop: () => child.kill() });
  }
  return online;
}

let site = null;
function siteFolder() {
  if (!site) {
    site = join(mkdtempSync(join(tmpdir(), "tripoley-site-")), "site");
    const wrote = spawnSync(TRIPOLEY, ["site", site], { encoding: "utf8" });
    assert.equal(wrote.status, 0, wrote.stderr);
  }
  return site;
}

/** Each engine's driver, started once for the file (a session a test). */
const drivers = new Map();
async function driver(engine) {
  if (!drivers.has(engine.name)) {
    const d = await engine.start();
    drivers.set(engine.name, d);
    running.push(d);
  }
  return drivers.get(engine.name);
}

/** Installs the recorder of page errors in the page as it is now (once a
 * document); returns whether the document is drawn (the app's main has
 * content). */
function record() {
  if (!window.__errors) {
    window.__errors = [];
    addEventListener("error", (e) => window.__errors.push(String(e.message || e.error)));
    addEventListener("unhandledrejection", (e) => window.__errors.push("unhandled rejection: " + String(e.reason && (e.reason.stack || e.reason))));
  }
  return document.readyState === "complete" && !!document.querySelector("main")?.children.length;
}

/** The page's errors recorded so far, moved into `errors`. */
async function collect(s, errors) {
  const found = await s.exec(() => {
    const e = window.__errors || [];
    window.__errors = [];
    return e;
  }).catch(() => []);
  errors.push(...found);
}

/** Goes to `url` (after reading the errors of the page left) and waits for
 * the app to be drawn, its recorder in, and its style sheet applied: each
 * engine decides for itself whether to take a file as CSS (WebKit refused
 * one whose answer named two types, and drew the page unstyled). */
async function open(s, url, errors) {
  await collect(s, errors);
  await s.goto(url);
  await s.waitFor(record, 20000, `the app at ${url}`);
  const sheets = await s.exec(() => [...document.styleSheets].map((x) => [x.href, x.cssRules.length]));
  assert.ok(sheets.length > 0 && sheets.every(([, rules]) => rules > 0), `the style sheets apply at ${url}: ${JSON.stringify(sheets)}`);
}

// The home page's game form, found by its fields, not its words.
const FORM = 'form:has(select[name="preset"])';

/** Fills the home page's game form. */
async function fill(s, fields) {
  for (const [name, value] of Object.entries(fields)) {
    const input = await s.waitFor((sel) => document.querySelector(sel), 20000, `the form's field ${name}`, `${FORM} input[name="${name}"]`);
    await s.type(input, value);
  }
}

/** Clicks the first element `selector` finds, once there is one (again if
 * the page drew it anew between finding and clicking). */
async function press(s, selector, ms = 20000) {
  const until = Date.now() + ms;
  for (;;) {
    const el = await s.waitFor((sel) => document.querySelector(sel), ms, selector, selector);
    try {
      return await s.click(el);
    } catch (e) {
      if (e.code !== "stale element reference" || Date.now() > until) throw e;
    }
  }
}

/** Presses the first element `selector` finds until it is gone: a press
 * the page never sent on (a WebKit click that landed during a redraw left
 * the lobby waiting for 90 s once, in CI) is pressed again, as a person
 * would. Only once the element has stayed for `patience` ms. */
async function pressUntilGone(s, selector, ms = 20000, patience = 2000) {
  const until = Date.now() + ms;
  for (;;) {
    await press(s, selector, Math.max(until - Date.now(), 1000));
    const gone = Date.now() + patience;
    while (Date.now() < gone) {
      if (!(await s.exec((sel) => !!document.querySelector(sel), selector))) return;
      await pause(100);
    }
    if (Date.now() > until) throw new Error(`${selector} still there ${ms / 1000} s after pressing it`);
  }
}

/** What the person does next at the table, found in the page: read a
 * deal's result, lead a card (the first legal one, never a misplay when
 * there is another), or give the quiet answer; `{over: true}` at the final
 * standings. Keeps the error recorder in (the page may have been loaded
 * anew). */
function next() {
  if (document.querySelector('section[aria-label="Final standings"]')) return { over: true };
  const result = document.querySelector("section.result button.primary");
  if (result) return { el: result, what: "result" };
  const hand = document.querySelector("section.hand.mine");
  const kind = hand && hand.dataset.decision;
  if (!kind) return null;
  if (kind === "lead") {
    const b = hand.querySelector('button[data-key="confirm"]') || hand.querySelector('button[data-key="lead-only"]')
      || hand.querySelector("button.cardface.playable:not(.misplay)") || hand.querySelector("button.cardface.playable");
    return b && { el: b, what: kind };
  }
  for (const key of ["keep", "check", "call", "pass", "play", "choose", "no", "decline", "hearts"]) {
    const b = hand.querySelector(`.controls button[data-key="${key}"], .controls button[data-key="suit-${key}"]`);
    if (b) return { el: b, what: kind };
  }
  return null;
}

const NEXT = `function () { (${record})(); return (${next})(); }`;

/** Plays the person's moves by real clicks until the final standings;
 * returns the decisions made, by kind. */
async function playToEnd(s, tag, ms = 90000) {
  const until = Date.now() + ms;
  const made = {};
  let failed = null;
  while (Date.now() < until) {
    const n = await s.exec(NEXT).catch((e) => ({ failed: e.message }));
    if (n && n.over) {
      await s.screenshot(join(ARTIFACTS, `${tag}-game-over.png`));
      return made;
    }
    if (n && n.el) {
      try {
        await s.click(n.el);
        made[n.what] = (made[n.what] || 0) + 1;
        await pause(30);
        continue;
      } catch (e) {
        // The page moved on under the click (a re-render): look again. A
        // click that never lands shows in the time-out's message.
        failed = e.message;
      }
    } else if (n && n.failed) failed = n.failed;
    await pause(100);
  }
  await s.screenshot(join(ARTIFACTS, `${tag}-stuck.png`)).catch(() => {});
  throw new Error(`${tag}: no final standings in ${ms / 1000} s (moves: ${JSON.stringify(made)}; last failure: ${failed})`);
}

/** A new session of the engine with the page's viewport at this size. */
async function session(engine, width, height) {
  const s = await Session.open(engine, await driver(engine));
  try {
    await s.viewport(width, height);
  } catch (e) {
    await s.close().catch(() => {});
    throw e;
  }
  return s;
}

const moves = (made) => Object.entries(made).map(([k, v]) => `${k} ${v}`).join(", ");

for (const engine of engines()) {
  // Missing: fails under CI (which installs it), skipped elsewhere.
  const skip = engine.missing && !process.env.CI ? engine.missing : false;
  for (const [size, width, height] of SIZES) {
    const tag = `engines-${engine.name}-${size}`;

    test(`${engine.name} at ${width}x${height}: a solo game online against a bot, played to its end with no page error`, { skip, timeout: 150000 }, async () => {
      assert.ok(!engine.missing, engine.missing);
      const base = await onlineServer();
      const s = await session(engine, width, height);
      const errors = [];
      try {
        const t0 = Date.now();
        await open(s, base + "/", errors);
        await fill(s, { ...SHORT, turn: "0" });
        await press(s, `${FORM} button[data-key="create"]`);
        await s.waitFor(() => location.pathname.startsWith("/t/"), 20000, "the table's address");
        await pressUntilGone(s, 'button[data-key="start"]');
        const made = await playToEnd(s, `${tag}-online`);
        assert.ok(made.choose_five > 0, `the person chose a five: ${moves(made)}`);
        await collect(s, errors);
        console.log(`${engine.name} ${size} online: a game in ${((Date.now() - t0) / 1000).toFixed(1)} s (${moves(made)})`);
        assert.deepEqual(errors, [], "no page error");
      } finally {
        await s.close().catch(() => {});
      }
    });

    test(`${engine.name} at ${width}x${height}: the offline app installed from a static folder, a solo game to its end, then reopened with the server stopped and played again`, { skip, timeout: 200000 }, async () => {
      assert.ok(!engine.missing, engine.missing);
      const stat = await staticServer(siteFolder(), { quiet: true });
      const gone = new Promise((resolve) => stat.child.once("exit", resolve));
      const stop = () => {
        stat.child.kill();
        return gone;
      };
      const s = await session(engine, width, height);
      const errors = [];
      try {
        let t0 = Date.now();
        await open(s, stat.base + "/", errors);
        await s.waitFor(() => document.querySelector('button[data-key="play-here"]'), 20000, "Play here with bots");
        // The service worker has kept the app once it controls the page.
        await s.waitFor(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null, 30000, "the service worker to control the page");
        // Bots move quickly in the tests (a person's table waits 700 ms).
        await s.exec(() => localStorage.setItem("tripoley:pause", "60"));
        await fill(s, SHORT);
        await press(s, `${FORM} button[data-key="play-here"]`);
        let made = await playToEnd(s, `${tag}-offline`);
        assert.ok(made.choose_five > 0, `the person chose a five: ${moves(made)}`);
        console.log(`${engine.name} ${size} offline: installed and a game played in ${((Date.now() - t0) / 1000).toFixed(1)} s (${moves(made)})`);

        // The network cut: no server at all answers at that address now.
        await stop();
        await assert.rejects(fetch(stat.base + "/"), "the static server is gone");
        t0 = Date.now();
        await open(s, stat.base + "/", errors);
        await s.waitFor(() => document.querySelector('button[data-key="play-here"]'), 20000, "Play here with bots, with no server");
        assert.ok(await s.exec(() => navigator.serviceWorker.controller !== null), "the service worker opened the app");
        assert.match(await s.exec(() => document.querySelector("main").innerText), /No connection to a Tripoley server/);
        await s.screenshot(join(ARTIFACTS, `${tag}-reopened.png`));
        await fill(s, { ...SHORT, name: "Bea" });
        await press(s, `${FORM} button[data-key="play-here"]`);
        made = await playToEnd(s, `${tag}-reopened`);
        assert.ok(made.choose_five > 0, `the person chose a five: ${moves(made)}`);
        assert.match(await s.exec(() => document.querySelector("main").innerText), /Bea/);
        await collect(s, errors);
        console.log(`${engine.name} ${size} reopened with no server: a game in ${((Date.now() - t0) / 1000).toFixed(1)} s (${moves(made)})`);
        assert.deepEqual(errors, [], "no page error");
      } finally {
        await stop();
        await s.close().catch(() => {});
      }
    });
  }
}
