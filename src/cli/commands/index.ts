import type { Command } from "../command.js";
import { askCommand } from "./ask.js";
import { demoCommand } from "./demo.js";
import { doctorCommand } from "./doctor.js";
import { evalCommand } from "./eval.js";
import { generateCommand } from "./generate.js";
import { graphCommand } from "./graph.js";
import { initCommand } from "./init.js";
import { packLintCommand } from "./pack-lint.js";
import { packetNew } from "./packet-new.js";
import { resolveCommand } from "./resolve.js";
import { resultCheck } from "./result-check.js";
import { resultRecord } from "./result-record.js";
import { resumeCommand } from "./resume.js";
import { riteEnd, riteStart } from "./rite-marks.js";
import { routeCommand } from "./route.js";
import { runAbandon } from "./run-abandon.js";
import { statusCommand } from "./status.js";
import { uninstallCommand } from "./uninstall.js";
import { updateCommand } from "./update.js";
import { validateCommand } from "./validate.js";

/** One import per command module; keep sorted. */
export const allCommands: Command[] = [
  askCommand,
  demoCommand,
  doctorCommand,
  evalCommand,
  generateCommand,
  graphCommand,
  initCommand,
  packLintCommand,
  packetNew,
  resolveCommand,
  resultCheck,
  resultRecord,
  resumeCommand,
  riteEnd,
  riteStart,
  routeCommand,
  runAbandon,
  statusCommand,
  uninstallCommand,
  updateCommand,
  validateCommand,
];
