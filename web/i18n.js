// @ts-check
// The players' words: every string the page shows comes from the Fluent
// catalogue (locales/<lang>/*.ftl at the repository's root, served whole as
// /locales/<lang>.ftl) through `t`, formatted by the vendored @fluent/bundle
// with the language's plural rules and number formats.

import { FluentBundle, FluentResource } from "./vendor/fluent-bundle/index.js";

/** The languages there are, each named in itself (what the switch shows). */
export const LANGUAGES = { en: "English", es: "Español" };

const KEY = "tripoley:lang";
/** @type {FluentBundle | null} */
let bundle = null;
let current = "en";

/** The language chosen on this browser with the switch, else the first of
 * the browser's languages that we have, else English. */
export function chooseLanguage(stored = localStorage.getItem(KEY), wanted = navigator.languages || [navigator.language]) {
  if (stored && Object.hasOwn(LANGUAGES, stored)) return stored;
  for (const tag of wanted || []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (Object.hasOwn(LANGUAGES, primary)) return primary;
  }
  return "en";
}

/** Loads a language's catalogue; the page starts only after it, so `t` is
 * synchronous. Placeables are not wrapped in bidi isolation marks: names
 * with bidi controls are refused by the server, and the tests read text. */
export async function loadLanguage(lang = chooseLanguage()) {
  // By the name it is published under (the page's import map), kept by
  // the browser without asking again.
  const res = await fetch(import.meta.resolve("./locales/" + lang + ".ftl"));
  useCatalogue(lang, await res.text());
  document.documentElement.lang = lang;
}

/** Makes `text` (Fluent) the catalogue of language `lang` from now on:
 * what `loadLanguage` does once fetched, and what tests without a page do. */
/** @param {string} lang @param {string} text */
export function useCatalogue(lang, text) {
  const next = new FluentBundle(lang, { useIsolating: false });
  const errors = next.addResource(new FluentResource(text));
  for (const e of errors) console.error("catalogue " + lang + ": " + e.message);
  bundle = next;
  current = lang;
}

/** The message `id` in the page's language, with its arguments (numbers
 * are formatted and pluralised the language's way). A missing id shows as
 * itself, which the catalogue's test rules out. */
/** @param {string} id @param {Record<string, any>} [args] */
export function t(id, args = {}) {
  const message = bundle && bundle.getMessage(id);
  if (!message || !message.value) {
    console.error("no message " + id);
    return id;
  }
  /** @type {Error[]} */
  const errors = [];
  const text = bundle.formatPattern(message.value, args, errors);
  for (const e of errors) console.error(id + ": " + e.message);
  return text;
}

/** The page's language code ("en", "es"). */
export const language = () => current;

/** Switches the page to `lang` and keeps the choice in this browser. The
 * page reloads in it: the table comes back from the server as it is, and
 * every line is said anew in the new language. */
/** @param {string} lang */
export function setLanguage(lang) {
  localStorage.setItem(KEY, lang);
  location.reload();
}

/** A refusal: an Error with the server's `code` and `detail`, which
 * `errorText` says in the page's language.
 * @typedef {Error & { code?: string, detail?: Record<string, any> }} Failure */

/** A refusal with its code and detail (from the server, or the worker).
 * @param {string} message @param {string | undefined} code @param {Record<string, any>} [detail]
 * @returns {Failure} */
export function failure(message, code, detail) {
  return Object.assign(new Error(message), { code, detail });
}

/** What went wrong, in the page's language: the server's error codes are
 * translated; its English words are shown when the code is unknown (and in
 * English, where they are the words). */
/** @param {{ code?: string, detail?: Record<string, any>, message?: string } | null | undefined} e */
export function errorText(e) {
  const d = e && e.detail;
  if (d) return t("error-detail", { reason: d.reason, problem: d.problem, min: d.min, max: d.max, last: d.seats - 1, message: e.message });
  return t("error", { code: (e && e.code) || "other", message: (e && e.message) || String(e) });
}
