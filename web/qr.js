// @ts-check
// The invite link as a QR code, for phones at the same table: drawn as SVG
// by the vendored qrcode-generator (web/vendor/qrcode-generator, MIT, served
// as /qrcode.mjs), which is loaded only when a lobby shows a code.

import { el, svgEl } from "./dom.js";
import { t } from "./i18n.js";

/** Pixels per module, and the quiet zone of four modules the standard asks for. */
const CELL = 4;
const QUIET = 4;

/** What qr.js calls of the generator: a code of a version (0: the
 * smallest that holds the data) at an error correction level.
 * @typedef {{ addData(text: string): void, make(): void, getModuleCount(): number, isDark(row: number, col: number): boolean }} QRCode
 * @typedef {(version: number, level: string) => QRCode} QRCodeGenerator */

/** Where the server serves the generator (a string, not a literal: the
 * type check has no file at that address). @type {string} */
const LIBRARY = "/qrcode.mjs";

/** The drawn code of each link (the lobby is rebuilt at every render).
 * @type {Map<string, SVGElement>} */
const drawn = new Map();
/** @type {Promise<QRCodeGenerator> | null} */
let library = null;

/** Loads the generator once. */
function load() {
  library ??= import(LIBRARY).then((m) => m.default);
  return library;
}

/** An SVG of `text` as a QR code: the smallest version that holds it, at
 * error correction level M (a phone reads it from a scratched screen).
 * @param {QRCodeGenerator} qrcode @param {string} text */
function draw(qrcode, text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const size = (n + 2 * QUIET) * CELL;
  let d = "";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += "M" + (c + QUIET) + " " + (r + QUIET) + "h1v1h-1z";
  }
  const box = n + 2 * QUIET;
  return svgEl("svg", { viewBox: "0 0 " + box + " " + box, width: size, height: size, role: "img", "aria-label": t("qr-label"), "shape-rendering": "crispEdges" },
    svgEl("rect", { width: box, height: box, fill: "#fff" }),
    svgEl("path", { d, fill: "#000" }));
}

/** The code of `link` with a caption; filled in once the generator has
 * loaded (at once after the first time). @param {string} link */
export function qrCode(link) {
  const holder = el("span", { class: "qr-code" });
  const figure = el("figure", { class: "qr" }, holder, el("figcaption", {}, t("qr-caption")));
  const fill = (/** @type {SVGElement} */ svg) => holder.replaceChildren(svg.cloneNode(true));
  if (drawn.has(link)) fill(drawn.get(link));
  else {
    load().then((qrcode) => {
      if (!drawn.has(link)) drawn.set(link, draw(qrcode, link));
      fill(drawn.get(link));
    }).catch(() => holder.replaceChildren(el("span", { class: "note" }, t("qr-failed"))));
  }
  return figure;
}
