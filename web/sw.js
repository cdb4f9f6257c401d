// The service worker: the app opens and plays with no network. Every file
// of the app (the WebAssembly engine included) is kept in a cache named for
// this version; the server (or `tripoley site`) writes the version and the
// list below from the files it serves, so a new build is a new worker.
//
// A new version installs beside the running one and waits: the page offers
// "a new version is ready: reload" and the player chooses when, so a game in
// progress is never cut by an update. Nothing of the server's (the API, the
// tables' websockets) is ever cached.

const VERSION = "dev";
const FILES = [];
const CACHE = "tripoley-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("tripoley-") && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (e) => {
  if (e.data === "update") self.skipWaiting();
});

/** The page for every address of the app: its links (`/t/…`, `/replay/…`)
 * are the same page, which asks the server when there is one. */
const PAGE = new URL("./", self.registration.scope).href;

self.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  const read = req.method === "GET" || req.method === "HEAD";
  if (!read || url.origin !== location.origin || url.pathname.includes("/api/")) return;
  if (req.mode === "navigate") {
    // The page from the network when there is one (a server may answer a
    // table's address), else the one kept.
    e.respondWith(fetch(req).catch(() => caches.match(PAGE, { ignoreSearch: true })));
    return;
  }
  // A HEAD asks whether a file is there (the page's check for the engine).
  e.respondWith(caches.match(req, { ignoreSearch: true, ignoreMethod: true }).then((hit) => hit || fetch(req)));
});
