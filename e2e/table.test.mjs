// End to end: two people at one table in two browser contexts (separate
// cookies and storage, like two phones), joined by the invite link, play a
// whole deal by clicking. Screenshots go to e2e/artifacts/.
//
// Needs the tripoley binary (TRIPOLEY_BIN, default ../target/ci/tripoley)
// and Debian's Chromium (CHROMIUM, default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.TRIPOLEY_BIN || join(here, "..", "target", "ci", "tripoley");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARTIFACTS = join(here, "artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

let server;
let base;
let browser;

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

before(async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const db = join(mkdtempSync(join(tmpdir(), "tripoley-e2e-")), "e2e.db");
  server = spawn(BIN, ["serve", "--addr", `127.0.0.1:${port}`, "--db", db], { stdio: ["ignore", "pipe", "inherit"] });
  base = `http://127.0.0.1:${port}`;
  await waitForServer(base + "/api/presets", 20000);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

/** Creates a table from the home page as `host` (named Ann) with these
 * form fields, has `guest` (Bob) take a seat by the invite link, and waits
 * until both lobbies list Bob. Returns the invite link. */
async function openTableWithGuest(host, guest, fields) {
  await host.goto(base + "/");
  const form = host.locator('form[aria-label="New table"]');
  await form.locator('input[name="name"]').fill("Ann");
  for (const [name, value] of Object.entries(fields)) {
    const select = form.locator(`select[name="${name}"]`);
    if (await select.count()) await select.selectOption(value);
    else await form.locator(`input[name="${name}"]`).fill(value);
  }
  await form.locator('button[type="submit"]').click();
  await host.waitForURL(/\/t\//);
  const link = await host.locator('input[aria-label="Invite link"]').inputValue();
  assert.match(link, /\/t\//);
  await guest.goto(link);
  const sit = guest.locator("form", { has: guest.locator('button:has-text("Take the seat")') });
  await sit.locator('input[name="name"]').fill("Bob");
  await sit.locator('button[type="submit"]').click();
  // Both lobbies list Bob in his seat before the host starts.
  await guest.locator("ol.seats li", { hasText: "Bob" }).waitFor();
  await host.locator("ol.seats li", { hasText: "Bob" }).waitFor();
  return link;
}

/** Makes one move if it is this page's turn; returns true if it did. */
async function move(page) {
  const mine = await page.locator("section.hand.mine").count();
  if (!mine) return false;
  const hand = page.locator("section.hand.mine");
  const show = hand.locator('button[data-key="choose"]');
  if (await show.count()) {
    // Choose five cards: click until five are chosen, then show them.
    const cards = hand.locator("button.cardbtn.legal");
    const n = await cards.count();
    for (let i = 0; i < n && !(await show.isEnabled()); i++) {
      if ((await cards.nth(i).getAttribute("aria-pressed")) !== "true") await cards.nth(i).click();
    }
    await show.click();
    return true;
  }
  const lead = hand.locator("button.cardbtn.legal");
  const controls = hand.locator('.controls button:not([data-key="hint"])');
  if ((await controls.count()) === 0 && (await lead.count())) {
    await lead.first().click();
    return true;
  }
  // Prefer the quiet answers: keep, check, call, pass, play.
  for (const key of ["keep", "check", "call", "pass", "play", "Keep", "Check", "Pass"]) {
    const b = hand.locator(`.controls button[data-key="${key}"]`);
    if (await b.count()) {
      await b.first().click();
      return true;
    }
  }
  if (await controls.count()) {
    await controls.first().click();
    return true;
  }
  return false;
}

test("two players join one table by its link and play a whole deal by clicking", { timeout: 180000 }, async () => {
  const hostCtx = await browser.newContext({ viewport: { width: 390, height: 844 } }); // a phone
  const guestCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const host = await hostCtx.newPage();
  const guest = await guestCtx.newPage();
  const errors = [];
  for (const p of [host, guest]) p.on("pageerror", (e) => errors.push(e.message));

  await openTableWithGuest(host, guest, { preset: "tripoley", seats: "3", deals: "1", turn: "0" });
  await host.screenshot({ path: join(ARTIFACTS, "1-lobby-host.png"), fullPage: true });

  await host.locator('button[data-key="start"]').click();
  await host.locator('section[aria-label="Players"]').waitFor();
  await guest.locator('section[aria-label="Players"]').waitFor();
  await host.screenshot({ path: join(ARTIFACTS, "2-table-host-phone.png"), fullPage: true });
  await guest.screenshot({ path: join(ARTIFACTS, "3-table-guest.png"), fullPage: true });

  // Play until the game (one deal, then the final pot) is over on both screens.
  const until = Date.now() + 150000;
  let moves = 0;
  let hostMoves = 0;
  let guestMoves = 0;
  let shot = false;
  let hinted = false;
  while (Date.now() < until) {
    const done = (await host.locator('section[aria-label="Final standings"]').count()) &&
      (await guest.locator('section[aria-label="Final standings"]').count());
    if (done) break;
    if (!hinted && (await guest.locator("section.hand.mine").count())) {
      // The hint button asks the server's expert bot for this seat's move.
      await guest.locator('button[data-key="hint"]').click();
      await guest.locator(".hint-text").waitFor();
      assert.match(await guest.locator(".hint-text").innerText(), /^The expert would /);
      hinted = true;
    }
    const byHost = await move(host);
    const byGuest = !byHost && (await move(guest));
    const moved = byHost || byGuest;
    hostMoves += byHost ? 1 : 0;
    guestMoves += byGuest ? 1 : 0;
    if (moved) {
      moves++;
      if (!shot && (await guest.locator("button.cardbtn.legal").count())) {
        await guest.screenshot({ path: join(ARTIFACTS, "4-guest-deciding.png"), fullPage: true });
        shot = true;
      }
    }
    await new Promise((r) => setTimeout(r, moved ? 50 : 150));
  }
  await host.screenshot({ path: join(ARTIFACTS, "5-standings-host.png"), fullPage: true });
  await guest.screenshot({ path: join(ARTIFACTS, "6-standings-guest.png"), fullPage: true });
  assert.ok(moves > 0, "the players made moves by clicking");
  assert.ok(hinted, "the guest asked for a hint");
  for (const p of [host, guest]) {
    const standings = p.locator('section[aria-label="Final standings"] li');
    assert.equal(await standings.count(), 3);
    const chips = (await standings.allTextContents()).map((t) => Number(t.match(/(\d+) chips/)[1]));
    assert.equal(chips.reduce((a, b) => a + b, 0), 300, "chips are conserved");
  }
  // Both played: each page shows its own seat and hand, and no page failed.
  assert.ok(guestMoves > 0 && hostMoves > 0, `both players moved (host ${hostMoves}, guest ${guestMoves})`);
  assert.match(await guest.locator('section[aria-label="Players"]').innerText(), /Bob \(you\)/);
  assert.match(await host.locator('section[aria-label="Players"]').innerText(), /Ann \(you\)/);
  assert.deepEqual(errors, []);
  await hostCtx.close();
  await guestCtx.close();
});

test("a Napalm table: two players join by link and play to the result by clicking", { timeout: 180000 }, async () => {
  const hostCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const guestCtx = await browser.newContext();
  const host = await hostCtx.newPage();
  const guest = await guestCtx.newPage();
  const errors = [];
  for (const p of [host, guest]) p.on("pageerror", (e) => errors.push(e.message));

  await openTableWithGuest(host, guest, { game: "napalm", seats: "3", tokens: "2", turn: "0" });
  await host.locator('button[data-key="start"]').click();

  // Everyone says Yes when asked, so tokens and side bets come quickly.
  const until = Date.now() + 150000;
  let moves = 0;
  while (Date.now() < until) {
    if ((await host.locator('section[aria-label="Final result"]').count()) &&
      (await guest.locator('section[aria-label="Final result"]').count())) break;
    let moved = false;
    for (const p of [host, guest]) {
      const mine = p.locator("section.hand.mine");
      if (!(await mine.count())) continue;
      for (const key of ["yes", "challenge"]) {
        const b = mine.locator(`.controls button[data-key="${key}"]`);
        if (await b.count()) {
          await b.click();
          moved = true;
          moves++;
          break;
        }
      }
    }
    await new Promise((r) => setTimeout(r, moved ? 50 : 150));
  }
  await host.screenshot({ path: join(ARTIFACTS, "7-napalm-result-host.png"), fullPage: true });
  await guest.screenshot({ path: join(ARTIFACTS, "8-napalm-result-guest.png"), fullPage: true });
  assert.ok(moves > 0, "the players declared by clicking");
  for (const p of [host, guest]) {
    const result = p.locator('section[aria-label="Final result"]');
    assert.match(await result.innerText(), /Winner/);
    const chips = (await result.locator("li").allTextContents()).map((t) => Number(t.match(/(\d+) chips/)[1]));
    assert.equal(chips.length, 3);
    assert.equal(chips.reduce((a, b) => a + b, 0), 300, "chips are conserved (the pot went to the winner)");
  }
  assert.deepEqual(errors, []);
  await hostCtx.close();
  await guestCtx.close();
});
