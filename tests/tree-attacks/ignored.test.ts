/** Tree attacks through the real CLI: classes control ignored tracked index (see cases.ts, known-open.ts, docs/tree-attacks.md). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: control ignored tracked index", ["control", "ignored", "tracked", "index"]);
