/** Tree attacks on the settled fast paths through the real CLI (see cases.ts, docs/tree-check.md "Settled paths"). */

import { attackSuite } from "./runner.js";

attackSuite("tree attacks: settled", ["settled"]);
