// The WebAssembly side of the differential test (differential.rs): reads a
// list of games from its standard input, and for each plays it through the
// browser's API (`Offline`: the person's every move is the expert's hint,
// the bots search their playouts) and replays the record so made (`replay`,
// for every seat and face up), writing all it got as JSON on its output.
//
// Usage: node wasm.mjs PKG_DIR < games.json

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.argv[2];
const glue = await import(pathToFileURL(join(pkg, "tripoley_web.js")).href);
glue.initSync({ module: readFileSync(join(pkg, "tripoley_web_bg.wasm")) });
const { Offline, replay } = glue;

const games = JSON.parse(readFileSync(0, "utf8"));
const out = games.map((g) => {
  const table = new Offline(JSON.stringify(g.create), JSON.stringify(g.names), JSON.stringify(g.bots), g.seed, undefined);
  for (let i = 0; i < 100000; i++) {
    const next = JSON.parse(table.next());
    if (next.due === "over") break;
    if (next.due === "bot") table.bot_acts();
    else if (next.due === "held") table.release();
    else {
      const hint = JSON.parse(table.hint(next.seat));
      if (hint.type !== "hint") throw new Error("no hint: " + JSON.stringify(hint));
      const error = table.act(next.seat, JSON.stringify(hint.action), table.n());
      if (error) throw new Error(error);
    }
  }
  const saved = table.saved();
  const seats = g.names.map((_, s) => s);
  const replays = [null, ...seats].map((seat) => replay(saved, seat ?? undefined));
  return { saved, replays, state: table.state(0) };
});
process.stdout.write(JSON.stringify(out));
