// What the browser tests share: a `tripoley serve` of their own on a free
// port with a fresh database, Debian's headless Chromium, phone and desktop
// contexts, screenshots to artifacts/, and axe-core scans.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.TRIPOLEY_BIN || join(here, "..", "target", "ci", "tripoley");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const ARTIFACTS = join(here, "artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

/** A script of an npm package, to run in a page (axe-core, jsQR). */
export const packageScript = (path) => readFileSync(createRequire(import.meta.url).resolve(path), "utf8");

const AXE = packageScript("axe-core/axe.min.js");
/** Serious and critical accessibility violations (WCAG 2 A and AA) found
 * by axe-core on each page scanned (or a part of it: `selector`), as
 * "where: rule (elements)"; each scan returns its own. */
export const violations = [];
export async function axeScan(page, where, selector = null) {
  const found = await page.evaluate(async ([source, selector]) => {
    if (!window.axe) (0, eval)(source); // axe-core is a script, not a module
    // The page as it settles: a card landing fades in over 260 ms, and a
    // scan in the middle of it read its corner's contrast at part opacity
    // (a bot's play came during "the rules view" scan on a slower machine).
    // Finite animations and transitions are finished first; endless ones
    // (none today) could not be, and are left.
    for (const a of document.getAnimations()) {
      if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
    }
    const r = await window.axe.run(selector || document, { runOnly: ["wcag2a", "wcag2aa"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => v.id + " (" + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ") + ")");
  }, [AXE, selector]);
  for (const f of found) violations.push(where + ": " + f);
  return found;
}

// The phone asks for reduced motion (nothing flies), the desktop does not.
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, reducedMotion: "reduce" };
// A laptop: Michigan once started below its fold.
export const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** The server's address (`http://127.0.0.1:<port>`) and the browser, once
 * the `before` hook of [`serverAndBrowser`] has run. */
export let base;
export let browser;
let server;

async function waitForServer(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start: " + url);
}

/** The address `tripoley serve` says it serves at
 * (`http://127.0.0.1:<port>`); fails if it ends or says nothing in `ms`. */
function servedAt(child, ms) {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server did not say where it serves: " + out)), ms);
    child.on("exit", (code) => reject(new Error(`the server ended (${code}): ${out}`)));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/served at (http:\/\/[\d.]+:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
}

/** Starts `tripoley serve` (with these extra arguments) with a fresh
 * database; resolves with the child and its address once it answers. */
export async function startServer(serveArgs = []) {
  const db = join(mkdtempSync(join(tmpdir(), "tripoley-e2e-")), "e2e.db");
  // A port the system picks, read back from the server's first line: no
  // port chosen here can be taken already.
  // Bots play after 150 ms instead of a person's 700 (E2E_BOT_PAUSE=700
  // to watch at the table's pace): whole games in less time, every step
  // still its own message.
  const pause = process.env.E2E_BOT_PAUSE || "150";
  const child = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", db, "--bot-pause", pause, ...serveArgs], { stdio: ["ignore", "pipe", "inherit"] });
  const at = await servedAt(child, 20000);
  await waitForServer(at + "/api/presets", 20000);
  return { child, base: at };
}

/** Serves `dir` with Python's static server on a free port; resolves with
 * the child and its address once it says where it listens. `quiet`: its
 * log of requests is left out of the test's output. */
export function staticServer(dir, { quiet = false } = {}) {
  const child = spawn("python3", ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir], { stdio: ["ignore", "pipe", quiet ? "ignore" : "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/port (\d+)/);
      if (m) resolve({ child, base: "http://127.0.0.1:" + m[1] });
    });
    child.on("exit", (code) => reject(new Error("the static server ended: " + code)));
    setTimeout(() => reject(new Error("the static server did not start")), 10000);
  });
}

/** Starts the server (with these extra `serve` arguments) and the browser
 * before the file's tests, and stops them after. */
export function serverAndBrowser(serveArgs = []) {
  before(async () => {
    ({ child: server, base } = await startServer(serveArgs));
    browser = await launch();
    if (process.env.E2E_WEB_FROM_DISK) serveWebFromDisk(browser);
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) server.kill();
  });
}

/** Debian's headless Chromium, with nothing of its own on the network. */
export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** The tripoley binary the tests run. */
export const TRIPOLEY = BIN;

/** While working on the page (E2E_WEB_FROM_DISK=<folder>, such as ../web):
 * its scripts and style sheet come from that folder as they are now, not
 * from the binary (which embeds them and takes minutes to build); an old
 * commit's web/ shows what a new test finds there. Not for a run that counts. */
function serveWebFromDisk(b) {
  const newContext = b.newContext.bind(b);
  b.newContext = async (options) => {
    const ctx = await newContext(options);
    await ctx.route(/\/[a-z]+\.(js|css)$/, (route) => route.fulfill({
      path: join(process.env.E2E_WEB_FROM_DISK, new URL(route.request().url()).pathname),
      contentType: route.request().url().endsWith(".css") ? "text/css" : "text/javascript",
    }));
    return ctx;
  };
}

// Animations are run to their end: a screenshot shows where things land.
export const shot = (page, name, fullPage = true) => page.screenshot({ path: join(ARTIFACTS, name + ".png"), fullPage, animations: "disabled" });
export const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** A host on a laptop and a guest on a phone, each in its own browser
 * context, with the page errors of both collected in `errors`. */
export async function hostAndGuest() {
  const hostCtx = await browser.newContext(DESKTOP);
  const guestCtx = await browser.newContext(PHONE);
  const host = await hostCtx.newPage();
  const guest = await guestCtx.newPage();
  const errors = [];
  for (const p of [host, guest]) p.on("pageerror", (e) => errors.push(e.message));
  return { hostCtx, guestCtx, host, guest, errors };
}

/** Creates a table from the home page as `host` (named Ann) with these
 * form fields and has each guest (Bob, Cy, ...) take a seat by the invite
 * link; `names` gives others, the host's first. Returns the invite link. */
export async function openTable(host, guests, fields, names = ["Ann", "Bob", "Cy"]) {
  await host.goto(base + "/");
  // Found by its fields, not its words: the page may be in any language.
  const form = host.locator('form:has(select[name="preset"])');
  await form.locator('input[name="name"]').fill(names[0]);
  for (const [name, value] of Object.entries(fields)) {
    if (value === true) {
      await form.locator(`input[name="${name}"]`).check();
      continue;
    }
    const select = form.locator(`select[name="${name}"]`);
    if (await select.count()) await select.selectOption(value);
    else {
      // A house rule's field sits in folded sections: open them first.
      const input = form.locator(`input[name="${name}"]`);
      await input.evaluate((i) => { for (let d = i.closest("details"); d; d = d.parentElement.closest("details")) d.open = true; });
      await input.fill(value);
    }
  }
  await form.locator('button[data-key="create"]').click();
  await host.waitForURL(/\/t\//);
  const link = await host.locator(".invite input").inputValue();
  assert.match(link, /\/t\//);
  for (const [i, guest] of guests.entries()) {
    await guest.goto(link);
    const sit = guest.locator("form.sit");
    await sit.locator('input[name="name"]').fill(names[i + 1]);
    await sit.locator('button[type="submit"]').click();
    await guest.locator(".lobby-seats li", { hasText: names[i + 1] }).waitFor();
    await host.locator(".lobby-seats li", { hasText: names[i + 1] }).waitFor();
  }
  return link;
}

/** A player at one page: makes their move when it is theirs, screenshots
 * the first decision of each kind and every deal result (then dismisses
 * it), under names starting with `tag`. */
export class Player {
  /** `skip`: decisions left alone (the test makes them); `inView`: checks
   * that the decision's controls are on screen each time one is asked. */
  constructor(page, tag, { misplay = false, keyboard = false, skip = [], inView = false, ids = null } = {}) {
    this.page = page;
    this.ids = ids; // the catalogue's message ids, checked on the pass-and-play cover
    this.passedTo = []; // each name a pass-and-play cover named, in order
    this.deciders = new Set(); // who the header said this page was at each decision made
    this.skip = new Set(skip);
    this.inView = inView;
    this.decisions = 0;
    this.offscreen = [];
    this.panels = new Map();
    this.keys = []; // keys pressed for each decision made by keyboard
    this.keyboard = keyboard;
    this.tag = tag;
    this.kinds = new Set();
    this.results = new Set();
    this.coached = new Set();
    this.moves = 0;
    this.misplay = misplay;
    this.misplayed = false;
  }

  async click(locator) {
    try {
      if (this.keyboard) return await this.tabTo(locator.first());
      await locator.first().click({ timeout: 2000 });
      return true;
    } catch {
      return false; // the page moved on under us: try again next round
    }
  }

  /** Keyboard alone: Tab (at most 120 times) until `target` has the
   * focus, then Enter. */
  async tabTo(target) {
    const handle = await target.elementHandle({ timeout: 2000 });
    for (let i = 0; i < 120; i++) {
      if (await handle.evaluate((e) => e === document.activeElement)) {
        await this.page.keyboard.press("Enter");
        this.lastKeys = i + 1;
        return true;
      }
      if (!(await handle.evaluate((e) => e.isConnected))) return false; // re-rendered: look again
      await this.page.keyboard.press("Tab");
    }
    return false;
  }

  /** Reads the guided game's explanation of a stage and says "Got it". */
  async coach() {
    const coach = this.page.locator("section.coach");
    if (!(await coach.count())) return false;
    const stage = await coach.getAttribute("data-stage").catch(() => null);
    if (stage && !this.coached.has(stage)) {
      this.coached.add(stage);
      await shot(this.page, `${this.tag}-guide-${stage}`);
    }
    const seen = () => this.page.evaluate(() => JSON.parse(localStorage.getItem("tripoley:prefs") || "{}").seen || []).catch(() => []);
    const had = await seen();
    const clicked = await this.click(coach.locator('button[data-key="coach-ok"]'));
    // "Got it" dismisses the text that was read, never one drawn in its
    // place meanwhile (bots play on while the player reads).
    const dismissed = (await seen()).filter((s) => !had.includes(s));
    assert.ok(dismissed.every((s) => s === stage), `"Got it" on the explanation of ${stage} dismissed ${dismissed}`);
    return clicked;
  }

  /** Looks at deal results; returns true when it dismissed one. */
  async results_() {
    const result = this.page.locator("section.result").first();
    if (!(await result.count())) return false;
    const deal = await result.getAttribute("data-deal");
    if (this.inView) {
      // None of the panel is under the docked hand (seen on a laptop).
      const under = await underHand(result).catch(() => 0);
      if (under > 1) {
        this.offscreen.push(`result of deal ${deal}: ${Math.round(under)} px under the hand`);
        await shot(this.page, `${this.tag}-result-under-hand`, false);
      }
    }
    if (!this.results.has(deal)) {
      this.results.add(deal);
      this.panels.set(Number(deal), await readPanel(result));
      await shot(this.page, `${this.tag}-result-deal-${deal}`);
      await axeScan(this.page, `${this.tag} result of deal ${deal}`);
    }
    return this.click(result.locator("button.primary"));
  }

  /** Pass-and-play: the cover between two players of this device has no
   * hand, no card and no board in the page; it is screenshot (phone and
   * desktop sizes) and scanned the first time, then tapped through. */
  async passCover() {
    const cover = this.page.locator("section.pass-cover");
    if (!(await cover.count())) return false;
    const drawn = await this.page.locator("section.hand, .cardface, section.board").count();
    assert.equal(drawn, 0, "nothing of a hand is in the page under the cover");
    const title = await cover.locator("h2").innerText().catch(() => "");
    const who = (title.match(/Pass the device to (.+)$/) || [])[1];
    if (!who) return false; // re-rendered meanwhile
    if (this.ids) await assertNoLeaks(this.page, this.ids, `${this.tag} pass cover`);
    if (!this.passedTo.length) {
      await shot(this.page, `${this.tag}-pass-cover`, false);
      const size = this.page.viewportSize();
      await this.page.setViewportSize(DESKTOP.viewport);
      await shot(this.page, `${this.tag}-pass-cover-desktop-size`, false);
      await this.page.setViewportSize(size);
      await axeScan(this.page, `${this.tag} pass-and-play cover`);
    }
    if (!(await this.click(cover.locator('button[data-key="pass-continue"]')))) return false;
    this.passedTo.push(who);
    return true;
  }

  async step() {
    const dismissed = (await this.coach()) || (await this.results_()) || (await this.passCover());
    const hand = this.page.locator("section.hand.mine");
    if (!(await hand.count())) return dismissed;
    const kind = await hand.getAttribute("data-decision").catch(() => null);
    if (!kind || this.skip.has(kind)) return dismissed;
    if (this.inView) await this.checkInView(hand, kind);
    if (!this.kinds.has(kind)) {
      this.kinds.add(kind);
      await shot(this.page, `${this.tag}-decision-${kind}`);
      await axeScan(this.page, `${this.tag} deciding (${kind})`);
    }
    let done = false;
    if (kind === "lead") {
      const misplays = hand.locator("button.cardface.playable.misplay");
      if (this.misplay && !this.misplayed && (await misplays.count())) {
        done = await this.misplayOnce(hand, misplays);
      } else if (await hand.locator('button[data-key="lead-only"]').count()) {
        // One legal lead: the button saying so has the focus (the card itself
        // comes before it on the page).
        done = await this.click(hand.locator('button[data-key="lead-only"]'));
      } else {
        const fine = hand.locator("button.cardface.playable:not(.misplay)");
        done = await this.click((await fine.count()) ? fine : hand.locator("button.cardface.playable"));
        if (done && (await hand.locator('button[data-key="confirm"]').count())) done = await this.click(hand.locator('button[data-key="confirm"]'));
      }
    } else {
      // The quiet answers: keep, check, call, pass, play, these five, No.
      for (const key of ["keep", "check", "call", "pass", "play", "choose", "no", "decline", "hearts"]) {
        const b = hand.locator(`.controls button[data-key="${key}"], .controls button[data-key="suit-${key}"]`);
        if (await b.count()) {
          done = await this.click(b);
          break;
        }
      }
    }
    if (done) {
      this.moves++;
      this.deciders.add((await this.page.locator("#conn").innerText().catch(() => "")).replace(/^you are /, ""));
    }
    if (done && this.keyboard) this.keys.push(this.lastKeys);
    return done || dismissed;
  }

  /** The decision's controls and the cards it may take are on screen, as
   * the page stands (no scrolling), at each new decision. */
  async checkInView(hand, kind) {
    // While a deal's result is unread, the hand waits below it by design
    // (read, "Got it", then it docks): checked once it docks. A decision
    // can arrive between the harness's look for results and this check.
    if (await this.page.locator(".table.reading").count()) return;
    const n = await this.page.evaluate(() => Number(document.querySelector("section.hand.mine")?.dataset.n));
    if (n === this.lastChecked) return;
    this.lastChecked = n;
    this.decisions++;
    const off = await hand.evaluate((h) => [...h.querySelectorAll(".controls button, button.cardface.playable")]
      .filter((b) => {
        const r = b.getBoundingClientRect();
        return r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1;
      })
      .map((b) => b.dataset.key || b.dataset.card));
    if (!this.docked) this.docked = new Set();
    if (!this.docked.has(kind)) {
      this.docked.add(kind);
      await shot(this.page, `${this.tag}-docked-${kind}`, false);
    }
    if (off.length) {
      this.offscreen.push(`${kind}: ${off.join(" ")}`);
      await shot(this.page, `${this.tag}-offscreen-${kind}`, false);
    }
    // What the decision is about is in view with it, above the docked hand
    // (issue 50, point 8: the Pot was under it when betting on a phone, the
    // runs in Michigan, the diamonds' row cut in half on a laptop).
    const hidden = await hand.evaluate((h, sel) => {
      const top = Math.min(h.getBoundingClientRect().top, innerHeight);
      return sel ? [...document.querySelectorAll(sel)].filter((e) => !h.contains(e)).filter((e) => {
        const r = e.getBoundingClientRect();
        return r.top < -1 || r.bottom > top + 1;
      }).map((e) => e.className) : [];
    }, SUBJECTS[kind] || null);
    if (hidden.length) {
      this.offscreen.push(`${kind}: what it is about is out of view (${hidden.join(", ")})`);
      await shot(this.page, `${this.tag}-subject-hidden-${kind}`, false);
    }
  }

  /** Leads a misplay: the price is shown on the card and asked before it is made. */
  async misplayOnce(hand, misplays) {
    const price = await misplays.first().locator("xpath=..").locator(".price").innerText();
    assert.match(price, /misplay −\d+/);
    if (!(await this.click(misplays))) return false;
    const confirm = hand.locator(".confirm");
    await confirm.waitFor({ timeout: 2000 });
    assert.match(await confirm.innerText(), /misplay.*pay 1 chip to each other player/s);
    await shot(this.page, `${this.tag}-misplay-confirm`);
    this.misplayed = await this.click(hand.locator('button[data-key="confirm"]'));
    return this.misplayed;
  }
}

/** What each kind of decision is about, which must be in view with its
 * controls: the Pot and the others' bets when betting, the high bid when
 * bidding, the cards played by suit in Michigan. */
const BETTING = ".board .space-pot, .seats-ring .seat-bet";
const PLAYED = ".played-rows .suit-row";
const SUBJECTS = { open: BETTING, respond: BETTING, auction_bid: ".board .board-note", pay_suit_bid: ".board .board-note", lead: PLAYED, follow: PLAYED };

/** How many pixels of a panel's height, as the page stands, are under the
 * player's docked hand (0 when the hand is not docked over it). */
export function underHand(panel) {
  return panel.evaluate((r) => {
    const h = document.querySelector(".table > .hand.mine");
    if (!h) return 0;
    const a = r.getBoundingClientRect(), b = h.getBoundingClientRect();
    const overlap = (lo, hi) => Math.max(0, hi - lo);
    const across = overlap(Math.max(a.left, b.left), Math.min(a.right, b.right));
    return across > 0 ? overlap(Math.max(a.top, b.top, 0), Math.min(a.bottom, b.bottom, innerHeight)) : 0;
  });
}

/** Plays every page's moves until `done()` or the time runs out. */
export async function playUntil(players, done, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await done()) return true;
    let moved = false;
    for (const p of players) moved = (await p.step()) || moved;
    await pause(moved ? 30 : 120);
  }
  return false;
}


/** One person (a desktop unless `size` says otherwise) and bots: opens a
 * table with these fields and starts it with `press` (given the start
 * button). `socket` holds the websocket's messages, as in [`watchSocket`]. */
export async function soloTable(fields, press, size = DESKTOP) {
  const ctx = await browser.newContext(size);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const socket = watchSocket(page);
  await openTable(page, [], fields);
  await press(page.locator('button[data-key="start"]'));
  return { ctx, page, errors, socket };
}

/** Every message the page's websockets received and sent, parsed, in
 * order: what the browser saw and what it said. */
export function watchSocket(page) {
  const socket = { received: [], sent: [] };
  page.on("websocket", (ws) => {
    ws.on("framereceived", (f) => socket.received.push(JSON.parse(f.payload)));
    ws.on("framesent", (f) => socket.sent.push(JSON.parse(f.payload)));
  });
  return socket;
}


/** Message ids of the catalogue (`ev-bid`, `table-your-turn` ...): none may
 * show on a page, nor an unfilled placeable. */
export async function catalogueIds() {
  const text = await (await fetch(base + "/locales/en.ftl")).text();
  return [...text.matchAll(/^([a-z][a-z0-9]*(?:-[a-z0-9]+)+) =/gm)].map((m) => m[1]);
}

export async function assertNoLeaks(page, ids, where) {
  const text = await page.locator("body").innerText();
  assert.doesNotMatch(text, /\{\s*\$|\{ *[a-z-]+ *\}/, `${where}: an unfilled placeable`);
  const leaked = ids.filter((id) => new RegExp("(^|[^\\w-])" + id + "($|[^\\w-])").test(text));
  assert.deepEqual(leaked, [], `${where}: message ids on screen`);
}

/** Whether the game-over panel is on the page (in English). */
export const over = (page) => page.locator('section[aria-label="Final standings"]').count();

/** A deal's result panel as numbers: each player's net (`nets[seat]`),
 * each line's chips per seat (`lines[i][seat]`), the chips shown on the
 * other seats meanwhile (`stacks[seat]`) and the chips it says stay on the
 * board (`stays`, null when it says nothing). */
async function readPanel(panel) {
  return panel.evaluate((p) => {
    const parse = (text) => Object.fromEntries(text.trim().split(/\s+/).filter(Boolean).map((x) => x.split(":").map(Number)));
    return {
      nets: Object.fromEntries([...p.querySelectorAll("[data-net]")].map((li) => [li.dataset.seat, Number(li.dataset.net)])),
      lines: [...p.querySelectorAll("[data-delta]")].map((li) => ({ text: li.textContent, delta: parse(li.dataset.delta) })),
      // The seats' chips shown beside it, and what it says stays on the board.
      stacks: Object.fromEntries([...document.querySelectorAll('.seats-ring .seat[data-account^="stack:"]')]
        .map((d) => [d.dataset.account.split(":")[1], Number(d.querySelector(".stack").textContent)])),
      stays: p.querySelector("[data-stays]") ? Number(p.querySelector("[data-stays]").dataset.stays) : null,
    };
  });
}
