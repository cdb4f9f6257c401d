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
 * by axe-core on each page scanned, as "where: rule (elements)". */
export const violations = [];
export async function axeScan(page, where) {
  const found = await page.evaluate(async (source) => {
    if (!window.axe) (0, eval)(source); // axe-core is a script, not a module
    const r = await window.axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => v.id + " (" + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ") + ")");
  }, AXE);
  for (const f of found) violations.push(where + ": " + f);
}

// The phone asks for reduced motion (nothing flies), the desktop does not.
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, reducedMotion: "reduce" };
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

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

/** Starts the server and the browser before the file's tests, and stops
 * them after. */
export function serverAndBrowser() {
  before(async () => {
    const db = join(mkdtempSync(join(tmpdir(), "tripoley-e2e-")), "e2e.db");
    // A port the system picks, read back from the server's first line: no
    // port chosen here can be taken already.
    server = spawn(BIN, ["serve", "--addr", "127.0.0.1:0", "--db", db], { stdio: ["ignore", "pipe", "inherit"] });
    base = await servedAt(server, 20000);
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
}

// Animations are run to their end: a screenshot shows where things land.
export const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, name + ".png"), fullPage: true, animations: "disabled" });
export const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Creates a table from the home page as `host` (named Ann) with these
 * form fields and has each guest (Bob, Cy, ...) take a seat by the invite
 * link. Returns the invite link. */
export async function openTable(host, guests, fields) {
  await host.goto(base + "/");
  // Found by its fields, not its words: the page may be in any language.
  const form = host.locator('form:has(select[name="preset"])');
  await form.locator('input[name="name"]').fill("Ann");
  for (const [name, value] of Object.entries(fields)) {
    if (value === true) {
      await form.locator(`input[name="${name}"]`).check();
      continue;
    }
    const select = form.locator(`select[name="${name}"]`);
    if (await select.count()) await select.selectOption(value);
    else await form.locator(`input[name="${name}"]`).fill(value);
  }
  await form.locator('button[type="submit"]').click();
  await host.waitForURL(/\/t\//);
  const link = await host.locator(".invite input").inputValue();
  assert.match(link, /\/t\//);
  const names = ["Bob", "Cy"];
  for (const [i, guest] of guests.entries()) {
    await guest.goto(link);
    const sit = guest.locator("form.sit");
    await sit.locator('input[name="name"]').fill(names[i]);
    await sit.locator('button[type="submit"]').click();
    await guest.locator(".lobby-seats li", { hasText: names[i] }).waitFor();
    await host.locator(".lobby-seats li", { hasText: names[i] }).waitFor();
  }
  return link;
}
