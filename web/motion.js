// Movement that explains: chips fly from where they were to where they go
// (a space to the player who takes it, a bet to the Pot). Nothing moves when
// the player asks for reduced motion.

import { el } from "./dom.js";

const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function key(a) {
  if (a === "pot") return "pot";
  return a.stack !== undefined ? "stack:" + a.stack : "space:" + a.space;
}

/** Flies a few chips for each transfer, from the payer's place before the
 * re-render (`before`) to the taker's place now. */
export function flyChips(transfers, before, root) {
  if (!transfers.length || still()) return;
  transfers.slice(-12).forEach((t, i) => {
    const from = before.get(key(t.from));
    const target = root.querySelector('[data-account="' + key(t.to) + '"]');
    if (!from || !target) return;
    const to = target.getBoundingClientRect();
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    for (let c = 0; c < Math.min(t.amount, 3); c++) {
      const chip = el("span", { class: "chip flying", "aria-hidden": "true" });
      chip.style.left = from.left + from.width / 2 - 9 + window.scrollX + "px";
      chip.style.top = from.top + from.height / 2 - 9 + window.scrollY + "px";
      document.body.append(chip);
      const anim = chip.animate(
        [{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
        { duration: 450, delay: i * 60 + c * 40, easing: "ease-in-out", fill: "forwards" },
      );
      anim.onfinish = () => chip.remove();
    }
  });
}
