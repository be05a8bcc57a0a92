import type { Command } from "../command.js";
import { graphCommand } from "./graph.js";
import { packLintCommand } from "./pack-lint.js";
import { packetNew } from "./packet-new.js";
import { resultCheck } from "./result-check.js";
import { resultRecord } from "./result-record.js";

/** One import per command module; keep sorted. */
export const allCommands: Command[] = [graphCommand, packLintCommand, packetNew, resultCheck, resultRecord];
