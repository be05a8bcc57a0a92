/**
 * Where `devrites resume` finds a journey again: journey definitions and drivers are registered by name
 * (the scripted demo registers its own), and `state.json` records the names of the running pair.
 */

import { error, info } from "../core/diagnostics.js";
import { newJourneyId } from "../envelope/ids.js";
import { runJourney } from "./engine.js";
import type { Driver, EngineEvent, EngineOutcome, Journey } from "./engine-types.js";
import { readState } from "./workspace.js";
import type { JourneyRef } from "./workspace-types.js";

export type JourneyFactory = (root: string) => Journey;
export type DriverFactory = (root: string) => Driver;

const journeys = new Map<string, JourneyFactory>();
const drivers = new Map<string, DriverFactory>();

const NAME_RE = /^[a-z0-9][a-z0-9-]*$/;

/** Register a journey definition under a name (replaces an earlier one of the same name). */
export function registerJourney(name: string, factory: JourneyFactory): void {
  if (!NAME_RE.test(name)) throw new Error(`bad journey name: ${name}`);
  journeys.set(name, factory);
}

/** Register a driver under a name (replaces an earlier one of the same name). */
export function registerDriver(name: string, factory: DriverFactory): void {
  if (!NAME_RE.test(name)) throw new Error(`bad driver name: ${name}`);
  drivers.set(name, factory);
}

export function registeredJourneys(): string[] {
  return [...journeys.keys()].sort();
}

export interface StartOptions {
  journey: string;
  driver: string;
  now?: () => string;
  mintRunId?: (now: string) => string;
}

/** A generator that yields nothing and stops with `outcome` (a refusal before the engine starts). */
async function* refused(outcome: EngineOutcome): AsyncGenerator<EngineEvent, EngineOutcome> {
  yield* [];
  return outcome;
}

/**
 * Start a registered journey with a registered driver. Refused while another journey is unfinished
 * (`journey.in-progress`: resume or finish it first).
 */
export function startJourney(root: string, opts: StartOptions): AsyncGenerator<EngineEvent, EngineOutcome> {
  const now = opts.now ?? (() => new Date().toISOString());
  const read = readState(root, now());
  if (!read.ok) return refused({ status: "refused", diagnostics: read.diagnostics });
  const current = read.state.journey;
  if (current && current.status !== "done")
    return refused({
      status: "refused",
      diagnostics: [
        error("journey.in-progress", `journey ${current.name} (${current.id}) is ${current.status}`, {
          hint: "run `devrites resume` to continue it",
        }),
      ],
    });
  const make = journeys.get(opts.journey);
  const drive = drivers.get(opts.driver);
  if (!make || !drive)
    return refused({
      status: "refused",
      diagnostics: [
        error(
          !make ? "journey.unknown" : "journey.unknown-driver",
          !make ? `no journey named ${opts.journey}` : `no driver named ${opts.driver}`,
        ),
      ],
    });
  const t = now();
  const ref: JourneyRef = {
    id: newJourneyId(t),
    name: opts.journey,
    driver: opts.driver,
    status: "running",
    started_at: t,
  };
  return runJourney({
    root,
    journey: make(root),
    ref,
    driver: drive(root),
    now,
    ...(opts.mintRunId ? { mintRunId: opts.mintRunId } : {}),
  });
}

/**
 * Continue the journey recorded in `state.json` from its ledger. With no journey, or a finished one, the
 * outcome is `idle` with `resume.nothing` (not an error: resuming is always safe to try).
 */
export function resumeJourney(
  root: string,
  opts: { now?: () => string; mintRunId?: (now: string) => string } = {},
): AsyncGenerator<EngineEvent, EngineOutcome> {
  const now = opts.now ?? (() => new Date().toISOString());
  const read = readState(root, now());
  if (!read.ok) return refused({ status: "refused", diagnostics: read.diagnostics });
  const ref = read.state.journey;
  if (!ref || ref.status === "done")
    return refused({
      status: "idle",
      diagnostics: [
        info(
          "resume.nothing",
          ref ? `journey ${ref.name} (${ref.id}) is already done` : "no journey is in progress",
          { hint: "start a rite, or run `devrites status`" },
        ),
      ],
    });
  const make = journeys.get(ref.name);
  const drive = drivers.get(ref.driver);
  if (!make || !drive)
    return refused({
      status: "refused",
      diagnostics: [
        error(
          !make ? "resume.unknown-journey" : "resume.unknown-driver",
          !make
            ? `the journey in progress (${ref.name}) is not known to this devrites`
            : `the journey's driver (${ref.driver}) is not known to this devrites`,
          { path: ".devrites/state.json", hint: "use the devrites version that started the journey" },
        ),
      ],
    });
  return runJourney({
    root,
    journey: make(root),
    ref,
    driver: drive(root),
    now,
    ...(opts.mintRunId ? { mintRunId: opts.mintRunId } : {}),
  });
}
