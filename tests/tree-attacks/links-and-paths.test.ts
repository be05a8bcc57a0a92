/** Tree attacks through the real CLI: classes links paths (see cases.ts, known-open.ts, docs/tree-attacks.md). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: links paths", ["links", "paths"]);
