/**
 * The real driver: packets are written by `packet new` (frozen baseline, `packet.json`, `packet.created`),
 * the leaf runs outside the engine (a host spawns it, or the demo's scripted leaf), its final message is
 * stored by `result record`, and the validator judges it. Used by a model-driven session and by the demo.
 *
 * Idempotent per run id, as the driver contract requires: `dispatch` returns the packet a run already has
 * (after a crash the engine may ask again), `collect` only looks for `result.json`, and `check` runs the
 * validator once and records nothing — the engine appends the one `result.checked` event of the check.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, formatDiagnostic } from "../core/diagnostics.js";
import { parseJsonText, parsePacket } from "../envelope/parse.js";
import type { AgentPacket } from "../envelope/types.js";
import { runPacketNew } from "../packet/create.js";
import { assessRun } from "../result/check.js";
import type {
  CheckOutcome,
  CollectOutcome,
  DispatchReceipt,
  DispatchRequest,
  Driver,
} from "./engine-types.js";
import { registerDriver } from "./journeys.js";
import { workspacePaths } from "./workspace.js";

/** The name `state.json` records for journeys this driver runs (`devrites resume` finds it by it). */
export const CLI_DRIVER = "cli";

/** A driver step that could not be done; the engine records it as `step.failed` (`engine.driver-error`). */
export class DriverError extends Error {
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[],
  ) {
    super([message, ...diagnostics.map(formatDiagnostic)].join("\n"));
    this.name = "DriverError";
  }
}

export interface CliDriverOptions {
  /** The repository root (the folder holding `.devrites/`). */
  root: string;
  /** The clock for packets and checks. */
  now?: () => Date;
}

/** True for diagnostics that say the envelope itself is malformed (not JSON, wrong version, schema). */
export function isMalformed(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error" && d.code.startsWith("envelope."));
}

/** The instruction a paused journey shows for a run whose leaf has not returned. */
export function leafInstruction(req: Pick<DispatchRequest, "role" | "run_id">): string {
  return `spawn ${req.role} with ${workspacePaths.packet(req.run_id)}; store its final message with \`devrites result record ${req.run_id}\``;
}

export class CliDriver implements Driver {
  private readonly root: string;
  private readonly now: () => Date;

  constructor(opts: CliDriverOptions) {
    this.root = opts.root;
    this.now = opts.now ?? (() => new Date());
  }

  async dispatch(req: DispatchRequest): Promise<DispatchReceipt> {
    const packetPath = workspacePaths.packet(req.run_id);
    if (this.existingPacket(req)) return { packet_path: packetPath };
    const out = await runPacketNew({
      cwd: this.root,
      role: req.role,
      rite: req.rite,
      phase: req.phase,
      objective: req.objective,
      allow: req.scope.allowed_repo_writes,
      inputs: req.inputs.map((i) => i.path),
      now: this.now(),
      engine: {
        runId: req.run_id,
        stepId: req.step_id,
        attempt: req.attempt,
        budgets: req.budgets,
        purposes: Object.fromEntries(req.inputs.map((i) => [i.path, i.purpose])),
        scope: { in: req.scope.in, out: req.scope.out },
      },
    });
    if (out.exitCode === 0 && out.data) return { packet_path: out.data.packet_path };
    // Another process wrote it between the look and the write: the packet stands, once.
    if (out.diagnostics.some((d) => d.code === "packet.exists") && this.existingPacket(req))
      return { packet_path: packetPath };
    throw new DriverError(`packet new for ${req.step_id} (run ${req.run_id}) failed`, out.diagnostics);
  }

  async collect(req: DispatchRequest): Promise<CollectOutcome> {
    if (existsSync(join(this.root, workspacePaths.result(req.run_id)))) return { state: "returned" };
    return { state: "pending", instruction: leafInstruction(req) };
  }

  async check(req: DispatchRequest): Promise<CheckOutcome> {
    const judged = await assessRun(this.root, req.run_id, this.now());
    if (!judged.ok)
      throw new DriverError(`cannot judge the result of run ${req.run_id}`, judged.outcome.diagnostics);
    const { packet, report, guard_strength } = judged.assessment;
    assertPacketOf(packet, req);
    return {
      verdict: report.verdict,
      diagnostics: report.diagnostics,
      malformed: isMalformed(report.diagnostics),
      guard_strength,
      ...(report.verdict !== "rejected" && report.result ? { result: report.result } : {}),
    };
  }

  /**
   * The run's packet when it already exists and is the one this request describes; undefined when there is
   * none. A packet that cannot be read, or that belongs to another step, attempt or role, fails closed.
   */
  private existingPacket(req: DispatchRequest): AgentPacket | undefined {
    const rel = workspacePaths.packet(req.run_id);
    let text: string;
    try {
      text = readFileSync(join(this.root, rel), "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new DriverError(`cannot read ${rel}: ${(e as Error).message}`, []);
    }
    const json = parseJsonText(text, rel);
    const parsed = json.ok ? parsePacket(json.value, rel) : json;
    if (!parsed.ok) throw new DriverError(`run ${req.run_id} has an invalid packet`, parsed.diagnostics);
    assertPacketOf(parsed.value, req);
    return parsed.value;
  }
}

/** The packet must be this request's: same run, role, step and attempt. */
function assertPacketOf(packet: AgentPacket, req: DispatchRequest): void {
  const want = { run_id: req.run_id, role: req.role, step_id: req.step_id, attempt: req.attempt };
  const got = { run_id: packet.run_id, role: packet.role, step_id: packet.step_id, attempt: packet.attempt };
  if (JSON.stringify(want) !== JSON.stringify(got))
    throw new DriverError(
      `the packet of run ${req.run_id} is for ${JSON.stringify(got)}, not ${JSON.stringify(want)}`,
      [],
    );
}

registerDriver(CLI_DRIVER, (root) => new CliDriver({ root }));
