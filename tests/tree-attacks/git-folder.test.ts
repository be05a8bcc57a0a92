/** Tree attacks through the real CLI: classes git (see cases.ts, known-open.ts, docs/tree-attacks.md). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: git", ["git"]);
