/** Tree attacks through the real CLI: classes nested submodule workspace adapters (see cases.ts, known-open.ts, docs/tree-attacks.md). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: nested submodule workspace adapters", [
  "nested",
  "submodule",
  "workspace",
  "adapters",
]);
