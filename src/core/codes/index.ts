/**
 * The one catalogue of every diagnostic code devrites emits: meaning, severity, exit code and standing hint.
 * One file per area; the validator's codes live with it (`src/judge/codes.ts`). `error()`, `warning()` and
 * `info()` accept only a `Code`, so an uncatalogued code fails the typecheck. `docs/codes.md` is generated
 * from here (`npx tsx scripts/gen-codes-doc.ts`).
 */

import { CODES as judgeCodes } from "../../judge/codes.js";
import { cliCodes } from "./cli.js";
import { decisionCodes } from "./decision.js";
import { demoCodes } from "./demo.js";
import { doctorCodes } from "./doctor.js";
import { engineCodes } from "./engine.js";
import type { CodeEntry } from "./entry.js";
import { envelopeCodes } from "./envelope.js";
import { eventCodes } from "./event.js";
import { generateCodes } from "./generate.js";
import { guardCodes } from "./guard.js";
import { installCodes } from "./install.js";
import { journeyCodes } from "./journey.js";
import { ledgerCodes } from "./ledger.js";
import { packCodes } from "./pack.js";
import { packetCodes } from "./packet.js";
import { questionCodes } from "./question.js";
import { resumeCodes } from "./resume.js";
import { riteCodes } from "./rite.js";
import { routeCodes } from "./route.js";
import { runCodes } from "./run.js";
import { scopeCodes } from "./scope.js";
import { validateCodes } from "./validate.js";
import { workspaceCodes } from "./workspace.js";

export type { CodeEntry } from "./entry.js";

/** Each area's record, by area name (the part of the code before the first dot, or the emitting module). */
export const AREAS = {
  judge: judgeCodes,
  cli: cliCodes,
  decision: decisionCodes,
  demo: demoCodes,
  doctor: doctorCodes,
  engine: engineCodes,
  envelope: envelopeCodes,
  event: eventCodes,
  generate: generateCodes,
  guard: guardCodes,
  install: installCodes,
  journey: journeyCodes,
  ledger: ledgerCodes,
  pack: packCodes,
  packet: packetCodes,
  question: questionCodes,
  resume: resumeCodes,
  rite: riteCodes,
  route: routeCodes,
  run: runCodes,
  scope: scopeCodes,
  validate: validateCodes,
  workspace: workspaceCodes,
} as const;

type Areas = typeof AREAS;
/** Every catalogued code. */
export type Code = { [A in keyof Areas]: keyof Areas[A] }[keyof Areas];

/** All areas merged (a code in two areas is a defect the catalogue test catches). */
export const CATALOGUE: Readonly<Record<Code, CodeEntry>> = Object.assign({}, ...Object.values(AREAS));

export function isCode(code: string): code is Code {
  return Object.hasOwn(CATALOGUE, code);
}
