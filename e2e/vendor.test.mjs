// The vendored Fluent formatter (web/vendor/fluent-bundle/) is exactly the
// pinned npm package's ES modules: nothing edited by hand, nothing stale.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const vendored = join(here, "..", "web", "vendor", "fluent-bundle");
const require = createRequire(import.meta.url);
const esm = join(dirname(require.resolve("@fluent/bundle/package.json")), "esm");

test("web/vendor/fluent-bundle holds @fluent/bundle's own ES modules, unchanged", () => {
  const pinned = JSON.parse(readFileSync(join(here, "package.json"), "utf8")).devDependencies["@fluent/bundle"];
  assert.equal(require("@fluent/bundle/package.json").version, pinned);
  assert.match(readFileSync(join(vendored, "README.md"), "utf8"), new RegExp("@fluent/bundle " + pinned.replace(/\./g, "\\.")));
  const files = readdirSync(vendored).filter((f) => f.endsWith(".js"));
  assert.equal(files.length, 8);
  for (const f of files) assert.equal(readFileSync(join(vendored, f), "utf8"), readFileSync(join(esm, f), "utf8"), f);
  // Its declarations, for the page's type check, are the package's too.
  const types = readdirSync(vendored).filter((f) => f.endsWith(".d.ts"));
  assert.deepEqual(types, readdirSync(esm).filter((f) => f.endsWith(".d.ts")));
  for (const f of types) assert.equal(readFileSync(join(vendored, f), "utf8"), readFileSync(join(esm, f), "utf8"), f);
  // Every module the vendored ones import is vendored too.
  for (const f of files) {
    for (const m of readFileSync(join(vendored, f), "utf8").matchAll(/from "\.\/([a-z]+\.js)"/g)) assert.ok(files.includes(m[1]), `${f} imports ${m[1]}`);
  }
  assert.match(readFileSync(join(vendored, "LICENSE"), "utf8"), /Apache License\s+Version 2\.0/);
});
