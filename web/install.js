// @ts-check
// The installable app: the service worker (sw.js) keeps every file of the
// app so it opens and plays with no network; the header offers "Install"
// where the browser lets a page ask, and "A new version is ready: reload"
// when one has been kept, for the player to take when they choose (a game
// in progress is never reloaded under them).

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** A spot in the header for the app's own offers. */
function offers() {
  let box = document.querySelector("header .app-offers");
  if (!box) {
    box = el("div", { class: "app-offers" });
    document.querySelector("header").append(box);
  }
  return box;
}

/** Registers the service worker and offers what it makes possible. */
export async function keepOffline() {
  window.addEventListener("beforeinstallprompt", (e) => {
    e.preventDefault();
    const button = el("button", {
      type: "button", "data-key": "install",
      onclick: async () => {
        button.remove();
        await /** @type {Event & { prompt(): Promise<void> }} */ (e).prompt();
      },
    }, t("app-install"));
    offers().append(button);
  });
  if (!("serviceWorker" in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register("sw.js");
  } catch {
    return; // an http:// address other than localhost: no service worker
  }
  // Refused without a word (service workers blocked, as a test may ask).
  if (!registration) return;
  const offerUpdate = () => {
    if (!registration.waiting || !navigator.serviceWorker.controller || document.querySelector('[data-key="update"]')) return;
    offers().append(el("p", { class: "update", role: "status" }, t("app-update-ready"), " ",
      el("button", {
        type: "button", "data-key": "update",
        onclick: () => {
          navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
          registration.waiting.postMessage("update");
        },
      }, t("app-update-reload"))));
  };
  offerUpdate();
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    if (next) next.addEventListener("statechange", () => { if (next.state === "installed") offerUpdate(); });
  });
}
