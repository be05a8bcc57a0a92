/** Tree attacks through the real CLI: classes records post-check race replay envelope (see cases.ts, known-open.ts, docs/tree-attacks.md). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: records post-check race replay envelope", [
  "records",
  "post-check",
  "race",
  "replay",
  "envelope",
]);
