// A small W3C WebDriver client for the browsers beyond Chromium: WebKit
// (WebKitGTK's WebKitWebDriver, the engine under Safari) and Firefox ESR
// (geckodriver). A few HTTP calls of the W3C protocol made with fetch,
// no npm package: WebdriverIO's `webdriver` package pulls in browser and
// driver downloaders (@puppeteer/browsers, the geckodriver and edgedriver
// packages) and selenium-webdriver ships Selenium Manager, which downloads
// browsers; this drives the browsers Debian installed and downloads nothing.
//
// Each engine's driver is started on a free port of its own; WebKitGTK has
// no headless mode, so its browser gets a virtual X display of its own
// (Xvfb) unless DISPLAY is set already.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { homedir, tmpdir } from "node:os";

/** The first of these files that exists (a command is looked for on PATH
 * and in ~/.cargo/bin, where `cargo install` puts it). */
function which(...names) {
  const dirs = [...(process.env.PATH || "").split(delimiter), join(homedir(), ".cargo", "bin")];
  for (const name of names) {
    if (!name) continue;
    if (name.includes("/")) {
      if (existsSync(name)) return name;
      continue;
    }
    for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The engines, each with what it needs on this machine: the driver, the
 * browser (and for WebKit, a display), or `missing` saying what is not
 * there and how to install it. */
export function engines() {
  const gecko = which(process.env.GECKODRIVER, "geckodriver");
  const firefox = which(process.env.FIREFOX, "/usr/bin/firefox-esr", "/usr/bin/firefox");
  const webkit = which(process.env.WEBKITWEBDRIVER, "WebKitWebDriver");
  const xvfb = process.env.DISPLAY ? "(DISPLAY)" : which("Xvfb");
  return [
    {
      name: "firefox",
      missing: !gecko || !firefox ? "Firefox needs geckodriver (cargo install geckodriver --version =0.37.1 --locked) and Firefox ESR (apt-get install firefox-esr)" : null,
      start: () => startDriver(gecko, (port) => ["--port", String(port), "--host", "127.0.0.1"], {}),
      // A new profile each session: nothing kept from the one before (no
      // service worker, no storage).
      capabilities: () => {
        const profile = narrowFirefox();
        return {
          capabilities: {
            browserName: "firefox",
            "moz:firefoxOptions": {
              binary: firefox,
              args: ["-headless", "-profile", profile],
              prefs: {
                "toolkit.legacyUserProfileCustomizations.stylesheets": true,
                // Nothing of its own on the network: no update checks, no telemetry.
                "app.update.enabled": false,
                "browser.shell.checkDefaultBrowser": false,
                "datareporting.policy.dataSubmissionEnabled": false,
                "network.captive-portal-service.enabled": false,
                "network.connectivity-service.enabled": false,
              },
            },
          },
          cleanup: () => rmSync(profile, { recursive: true, force: true }),
        };
      },
    },
    {
      name: "webkit",
      missing: !webkit || !xvfb ? "WebKit needs WebKitWebDriver (apt-get install webkit2gtk-driver) and, with no DISPLAY, Xvfb (apt-get install xvfb)" : null,
      start: async () => {
        const display = process.env.DISPLAY ? { display: process.env.DISPLAY, stop() {} } : await startXvfb();
        try {
          const driver = await startDriver(webkit, (port) => [`--port=${port}`], { DISPLAY: display.display, XDG_CONFIG_HOME: narrowGtk() });
          const stop = driver.stop;
          driver.stop = async () => {
            await stop();
            display.stop();
          };
          return driver;
        } catch (e) {
          display.stop();
          throw e;
        }
      },
      // MiniBrowser in automation mode: a new, private profile each session.
      capabilities: () => ({
        capabilities: { browserName: "MiniBrowser", "webkitgtk:browserOptions": { args: ["--automation"] } },
        cleanup() {},
      }),
    },
  ];
}

/** A configuration folder for the WebKit browser (MiniBrowser) whose GTK
 * style sheet lets its window narrow to a phone's width: its toolbar's
 * buttons and address entry keep it at least 447 px wide otherwise. Only
 * the browser's own widgets change; WebKitGTK draws the page's controls
 * itself. */
function narrowGtk() {
  const dir = mkdtempSync(join(tmpdir(), "tripoley-webkit-"));
  mkdirSync(join(dir, "gtk-3.0"));
  writeFileSync(join(dir, "gtk-3.0", "gtk.css"), "entry, button { min-width: 0; padding: 0; margin: 0; }\n");
  return dir;
}

/** A new Firefox profile whose style sheet for the browser's own window
 * lets it narrow to a phone's width (Firefox keeps a window at least 500 px
 * wide otherwise); the page is not touched. */
function narrowFirefox() {
  const dir = mkdtempSync(join(tmpdir(), "tripoley-firefox-"));
  mkdirSync(join(dir, "chrome"));
  writeFileSync(join(dir, "chrome", "userChrome.css"), ":root { min-width: 0 !important; }\n");
  return dir;
}

/** A free TCP port on the loopback (the driver binds it right after). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A virtual X display of its own (Xvfb picks a free display number and
 * says it on the file descriptor given). */
function startXvfb() {
  const child = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("Xvfb did not start")), 10000);
    child.on("exit", (code) => reject(new Error("Xvfb ended: " + code)));
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^(\d+)\n/);
      if (m) {
        clearTimeout(timer);
        resolve({ display: ":" + m[1], stop: () => child.kill() });
      }
    });
  });
}

/** Starts a driver on a free port; resolves once its /status says ready. */
async function startDriver(bin, args, env) {
  const port = await freePort();
  const child = spawn(bin, args(port), { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let err = "";
  child.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
  let ended = null;
  child.on("exit", (code) => (ended = code));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 20000;
  for (;;) {
    if (ended !== null) throw new Error(`${bin} ended (${ended}): ${err}`);
    try {
      const r = await (await fetch(url + "/status")).json();
      if (r.value && r.value.ready !== undefined) break;
    } catch {
      // not up yet
    }
    if (Date.now() > until) {
      child.kill();
      throw new Error(`${bin} did not answer on ${url}: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log: () => err,
    stop: () => new Promise((resolve) => {
      if (ended !== null) return resolve();
      child.once("exit", resolve);
      child.kill();
      setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 3000).unref();
    }),
  };
}

/** An element reference as the W3C protocol names it. */
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** One browser session of a driver. */
export class Session {
  /** A new session of `engine` (one of [`engines`]) with its `driver`. */
  static async open(engine, driver) {
    const { capabilities, cleanup } = engine.capabilities();
    let r;
    try {
      r = await call(driver.url, "POST", "/session", { capabilities: { alwaysMatch: capabilities } });
    } catch (e) {
      cleanup();
      throw e;
    }
    const s = new Session(driver.url, r.sessionId);
    s.capabilities = r.capabilities;
    s.cleanup = cleanup;
    return s;
  }

  constructor(url, id) {
    this.base = `${url}/session/${id}`;
  }

  cmd(method, path, body) {
    return call(this.base, method, path, body);
  }

  goto(url) {
    return this.cmd("POST", "/url", { url });
  }

  refresh() {
    return this.cmd("POST", "/refresh", {});
  }

  /** Runs `fn` (a function, or its source) in the page with these
   * arguments (JSON, or elements) and returns what it returns (an element
   * comes back as a reference to click). */
  exec(fn, ...args) {
    return this.cmd("POST", "/execute/sync", { script: `return (${fn}).apply(null, arguments);`, args });
  }

  /** As `exec`, awaiting the promise `fn` returns. */
  async execAsync(fn, ...args) {
    const r = await this.cmd("POST", "/execute/async", {
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
          .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`,
      args,
    });
    if (r && r.error) throw new Error("in the page: " + r.error);
    return r.ok;
  }

  /** Polls `fn` in the page until it returns something truthy; returns it. */
  async waitFor(fn, ms, what, ...args) {
    const until = Date.now() + ms;
    for (;;) {
      const v = await this.exec(fn, ...args).catch(() => null); // a page being replaced
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A real click: the driver moves the pointer to the element's middle
   * and presses there (it fails if something else is on top). */
  click(element) {
    return this.cmd("POST", `/element/${element[ELEMENT]}/click`, {});
  }

  /** Types `text` into the element (a real key press per character). */
  async type(element, text) {
    await this.cmd("POST", `/element/${element[ELEMENT]}/clear`, {});
    return this.cmd("POST", `/element/${element[ELEMENT]}/value`, { text });
  }

  /** Sizes the window so that the page's viewport is `width` x `height`
   * (a window's outer size counts its frame; what is left is measured). */
  async viewport(width, height) {
    let [w, h] = [width, height];
    for (let i = 0; i < 4; i++) {
      await this.cmd("POST", "/window/rect", { width: w, height: h });
      // The page may learn its new size a moment after the window's.
      let inner = await this.exec(() => [innerWidth, innerHeight]);
      for (let t = 0; t < 10; t++) {
        await new Promise((r) => setTimeout(r, 50));
        const now = await this.exec(() => [innerWidth, innerHeight]);
        if (now[0] === inner[0] && now[1] === inner[1]) break;
        inner = now;
      }
      const [iw, ih] = inner;
      if (iw === width && ih === height) return;
      w += width - iw;
      h += height - ih;
    }
    const got = await this.exec(() => [innerWidth, innerHeight]);
    throw new Error(`the viewport is ${got.join("x")}, not ${width}x${height}`);
  }

  async screenshot(path) {
    const png = await this.cmd("GET", "/screenshot");
    writeFileSync(path, Buffer.from(png, "base64"));
  }

  /** Ends the session (the browser quits) and removes what it kept. */
  async close() {
    try {
      await this.cmd("DELETE", "", undefined);
    } finally {
      this.cleanup();
    }
  }
}

async function call(base, method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json();
  if (!r.ok || (json.value && json.value.error)) {
    const v = json.value || {};
    const e = new Error(`${method} ${path}: ${v.error || r.status}: ${v.message || JSON.stringify(json)}`);
    e.code = v.error;
    throw e;
  }
  return json.value;
}
