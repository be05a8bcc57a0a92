/**
 * The imperative edge of `devrites packet new`: check the command line against the repository, freeze the
 * baseline, then write `baseline.json` and `packet.json` (in that order, each atomically, so a packet never
 * exists without its baseline), append `packet.created` and register the run in `state.active_runs`.
 */

import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../baseline/_git.js";
import { locateRoot } from "../baseline/find-repo-root.js";
import { absoluteGitDir, describePaths, freezeBaseline, manifestDigest } from "../baseline/index.js";
import { writeFileAtomic } from "../core/atomic-write.js";
import { type Diagnostic, ExitCode, error, info } from "../core/diagnostics.js";
import { isRunId, newRunId, nextStepNumber, RITE_PATTERN } from "../envelope/ids.js";
import { parsePacket } from "../envelope/parse.js";
import { isRoleName, ROLE_NAMES, ROLES } from "../envelope/roles.js";
import type { AgentPacket, Phase } from "../envelope/types.js";
import { touchedPaths } from "../judge/baseline-record.js";
import { diag } from "../judge/codes.js";
import { gitAnchorHome, workspaceAnchorHome } from "../run/anchor-home.js";
import { readSuperseded, recordSuperseded } from "../run/lifecycle.js";
import { openRecordsJournal, tamperedRecordsWarning, writeStateJournaled } from "../run/records-journal.js";
import { appendEvent, readState, workspacePaths } from "../run/workspace.js";
import { checkAllowlist, resolveRepoPath, type ScopeViolation } from "../scope/index.js";
import { anchorFor, type RunAnchor, writeAnchorSomewhere } from "./anchor.js";
import { buildBaselineRecord, buildPacket, isPhase, type PacketEngineFields, PHASES } from "./assemble.js";
import { doctorGate } from "./doctor-gate.js";
import { isRootRecord } from "./root-records.js";

export interface PacketNewOptions {
  cwd: string;
  role: string | undefined;
  rite: string | undefined;
  objective: string | undefined;
  phase?: string | undefined;
  allow: string[];
  inputs: string[];
  expiresIn?: string | undefined;
  now: Date;
  /** 4 random bytes for the run id; injectable for tests. */
  random?: () => Uint8Array;
  /** Set when the engine dispatches (its driver calls this; there is no command-line form). */
  engine?: EngineDispatch;
  /** The environment: which host runs this and where doctor's record is (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The engine's part of a packet: the run id it minted (its run folder already holds the engine's ledger),
 * its step id and attempt, and the packet fields a journey may set. A run that already has a packet is
 * refused (`packet.exists`): a packet is written once.
 */
export interface EngineDispatch extends PacketEngineFields {
  runId: string;
}

export interface PacketNewOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  data?: { packet_path: string; baseline_path: string; run_id: string; step_id: string; packet: AgentPacket };
}

/** Longest expiry accepted by `--expires-in`: 30 days, in minutes. */
export const MAX_EXPIRES_IN = 30 * 24 * 60;

export async function runPacketNew(opts: PacketNewOptions): Promise<PacketNewOutcome> {
  const usage: Diagnostic[] = [];
  const bad = (message: string, hint: string, path?: string) =>
    usage.push(error("input.invalid", message, path === undefined ? { hint } : { path, hint }));

  const role = opts.role;
  if (role === undefined) bad("--role is required", `expected one of ${ROLE_NAMES.join(", ")}`);
  else if (!isRoleName(role))
    bad(`unknown role ${JSON.stringify(role)}`, `expected one of ${ROLE_NAMES.join(", ")}`);
  const rite = opts.rite;
  if (rite === undefined) bad("--rite is required", "expected the dispatching rite, e.g. rite-build");
  else if (!RITE_PATTERN.test(rite))
    bad(`${JSON.stringify(rite)} is not a rite name`, "expected rite-<name>, lowercase, e.g. rite-build");
  const objective = opts.objective?.trim();
  if (!objective)
    bad("--objective is required and must not be blank", "state the leaf's one bounded job in a paragraph");
  else if (objective.length > 4000)
    bad(`--objective has ${objective.length} characters`, "keep it within 4000 characters");
  if (opts.phase !== undefined && !isPhase(opts.phase)) {
    bad(`unknown phase ${JSON.stringify(opts.phase)}`, `expected one of ${PHASES.join(", ")}`);
  }
  let expiresInMinutes: number | undefined;
  if (opts.expiresIn !== undefined) {
    if (
      !/^[0-9]{1,6}$/.test(opts.expiresIn) ||
      Number(opts.expiresIn) < 1 ||
      Number(opts.expiresIn) > MAX_EXPIRES_IN
    ) {
      bad(
        `--expires-in ${JSON.stringify(opts.expiresIn)} is not a whole number of minutes`,
        `expected 1 to ${MAX_EXPIRES_IN}`,
      );
    } else expiresInMinutes = Number(opts.expiresIn);
  }
  if (role !== undefined && isRoleName(role)) {
    if (ROLES[role].mode === "read-only" && opts.allow.length > 0) {
      bad(
        `${role} is read-only and takes no --allow`,
        "only devrites-slice-wright may be given a write allowlist",
      );
    }
    if (ROLES[role].mode === "writer" && opts.allow.length === 0) {
      bad(
        `${role} needs its exact write allowlist`,
        "give every file the wright may write with --allow PATH",
      );
    }
  }
  const engine = opts.engine;
  if (engine && role !== undefined && isRoleName(role) && rite !== undefined) {
    if (!isRunId(engine.runId))
      bad(`${JSON.stringify(engine.runId)} is not a run id`, "mint it with newRunId");
    const prefix = `${rite}/${role}#`;
    if (!engine.stepId.startsWith(prefix) || !/^[1-9][0-9]{0,8}$/.test(engine.stepId.slice(prefix.length)))
      bad(
        `step id ${JSON.stringify(engine.stepId)} is not ${prefix}<n>`,
        "the engine derives it from the journey",
      );
    if (!Number.isInteger(engine.attempt) || engine.attempt < 1 || engine.attempt > 3)
      bad(`attempt ${engine.attempt} is not 1, 2 or 3`, "a step has at most three attempts");
  }
  if (usage.length > 0 || role === undefined || !isRoleName(role) || rite === undefined || !objective) {
    return { exitCode: ExitCode.Usage, diagnostics: usage };
  }

  const found = await locateRoot(opts.cwd);
  if (!found.ok) return found;
  const root = found.root;

  // the writer is refused on a host version whose last doctor run failed (./doctor-gate.ts)
  if (ROLES[role].mode === "writer") {
    const refused = doctorGate(opts.env ?? process.env, root);
    if (refused.length > 0) return { exitCode: ExitCode.Violation, diagnostics: refused };
  }

  const allow = checkAllowlist(root, opts.allow);
  const scopeDiags = allow.violations.map((v) => scopeDiagnostic(v, "--allow"));
  scopeDiags.push(...(await insideNestedRepos(root, allow.ok)));
  const inputs = checkInputs(root, opts.inputs);
  if (scopeDiags.length > 0 || inputs.diagnostics.length > 0) {
    const missing = inputs.diagnostics.some((d) => d.code === "input.missing");
    const onlyMissing =
      missing && scopeDiags.length === 0 && inputs.diagnostics.every((d) => d.code === "input.missing");
    return {
      exitCode: onlyMissing ? ExitCode.MissingInput : ExitCode.Usage,
      diagnostics: [...scopeDiags, ...inputs.diagnostics],
    };
  }

  const stateRead = readState(root, opts.now.toISOString());
  if (!stateRead.ok) return { exitCode: ExitCode.Violation, diagnostics: stateRead.diagnostics };
  const state = stateRead.state;
  // The workspace phase counts only while this rite is the active one (another rite's phase is not this one's).
  const phase: Phase | undefined =
    (opts.phase as Phase | undefined) ??
    (state.active_rite === rite ? (state.phase ?? undefined) : undefined) ??
    phaseOfRite(rite) ??
    state.phase ??
    undefined;
  if (phase === undefined) {
    return {
      exitCode: ExitCode.Usage,
      diagnostics: [
        error("input.invalid", `cannot tell the phase of ${rite}`, {
          hint: `give --phase, one of ${PHASES.join(", ")}`,
        }),
      ],
    };
  }

  let runId: string;
  let stepNumber = 0;
  if (engine) {
    runId = engine.runId;
    if (existsSync(join(root, workspacePaths.packet(runId)))) {
      return {
        exitCode: ExitCode.Violation,
        diagnostics: [
          error("packet.exists", `run ${runId} already has a packet; a packet is written once`, {
            path: workspacePaths.packet(runId),
            hint: "read the existing packet instead of writing another",
          }),
        ],
      };
    }
  } else {
    const random = opts.random ?? (() => randomBytes(4));
    runId = newRunId(opts.now, random());
    while (existsSync(join(root, workspacePaths.runDir(runId)))) runId = newRunId(opts.now, random());
    const known = [...state.active_runs.map((r) => r.step_id), ...stepIdsOnDisk(root)];
    stepNumber = nextStepNumber(rite, role, known);
  }

  const touchedList = touchedPaths(allow.ok, inputs.paths);
  const frozen = await freezeConsistently(root, touchedList);
  if (frozen === undefined) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        diag("input.tree-unstable", "the working tree kept changing while the baseline was being frozen"),
      ],
    };
  }
  const packet = buildPacket(
    {
      runId,
      role,
      rite,
      phase,
      stepNumber,
      objective,
      allow: allow.ok,
      inputs: inputs.paths,
      now: opts.now,
      ...(expiresInMinutes !== undefined ? { expiresInMinutes } : {}),
      ...(engine ? { engine } : {}),
    },
    frozen.baseline,
    frozen.touched,
  );
  if (engine) {
    // The engine's fields (budgets, purposes, scope) bypass the command-line checks: the whole packet must
    // still be a valid agent-packet/v1 before anything is written.
    const valid = parsePacket(JSON.parse(JSON.stringify(packet)), workspacePaths.packet(runId));
    if (!valid.ok) return { exitCode: ExitCode.Usage, diagnostics: valid.diagnostics };
  }
  const record = buildBaselineRecord(runId, frozen.baseline.head, frozen.dirty, frozen.touched);

  const baselinePath = workspacePaths.baseline(runId);
  const packetPath = workspacePaths.packet(runId);
  const baselineBytes = Buffer.from(`${JSON.stringify(record, null, 2)}\n`, "utf8");
  // The anchor goes where a leaf cannot write (the git folder, else the workspace's anchors folder), before
  // the packet exists: a packet is never without its baseline and its anchor. Outside git only the ledger
  // event binds the run.
  const gitDir = frozen.baseline.head === "no-git" ? null : await absoluteGitDir(root);
  if (frozen.baseline.head !== "no-git" && gitDir === null) {
    return {
      exitCode: ExitCode.Violation,
      diagnostics: [
        error("input.no-repo", "git cannot name the repository's git folder, so the run cannot be anchored", {
          hint: "check the repository with git rev-parse --absolute-git-dir",
        }),
      ],
    };
  }
  const anchor = anchorFor(packet, baselineBytes, frozen.mark);
  // first, so that a git folder we cannot write leaves no half-made run behind
  if (gitDir !== null) {
    const unwritable = tryWriteAnchor(gitDir, root, anchor);
    if (unwritable) return { exitCode: ExitCode.Violation, diagnostics: [unwritable] };
  }
  writeFileAtomic(join(root, baselinePath), baselineBytes);
  writeFileAtomic(join(root, packetPath), `${JSON.stringify(packet, null, 2)}\n`);
  appendEvent(root, {
    ts: opts.now.toISOString(),
    run_id: runId,
    type: "packet.created",
    data: {
      role,
      rite,
      phase,
      step_id: packet.step_id,
      baseline_id: packet.baseline.id,
      allowed_repo_writes: packet.scope.allowed_repo_writes,
      inputs: inputs.paths,
      packet_sha256: anchor.packet_sha256,
      baseline_sha256: anchor.baseline_sha256,
      ...(anchor.stat_mark ? { stat_mark: anchor.stat_mark } : {}),
    },
  });
  // The runs this packet replaces leave the active set (a retry never meets guard.ambiguous-packet).
  const superseded = readSuperseded(root, state.active_runs, { role, rite });
  const gone = new Set(superseded.map((r) => r.run_id));
  // judged before this packet's own write of the state, which is not journaled for the runs it retires
  const forged = superseded.flatMap((r) => tamperedRecordsWarning(root, r.run_id, "was superseded"));
  writeStateJournaled(
    root,
    {
      ...state,
      // the dispatching rite is where the journey is (status, route stickiness, resume, the prompt line)
      active_rite: rite,
      phase,
      active_runs: [
        ...state.active_runs.filter((r) => !gone.has(r.run_id)),
        {
          run_id: runId,
          role,
          step_id: packet.step_id,
          packet_path: packetPath,
          created_at: packet.created_at,
        },
      ],
      updated_at: opts.now.toISOString(),
    },
    stateRead.sha256,
  );
  recordSuperseded(root, superseded, runId, opts.now);
  return {
    exitCode: ExitCode.Ok,
    diagnostics: [
      ...superseded.map((r) =>
        info("packet.superseded", `${r.step_id} retired: its leaf can no longer record a result`, {
          path: r.packet_path,
          hint: "dispatch the new packet",
        }),
      ),
      ...forged,
    ],
    data: {
      packet_path: packetPath,
      baseline_path: baselinePath,
      run_id: runId,
      step_id: packet.step_id,
      packet,
    },
  };
}

/**
 * Freeze the baseline and describe the touched paths so that the stored touched manifest is exactly the one
 * the baseline id was computed from. A file changing between the two reads makes them disagree; retry a few
 * times, then give up (undefined) rather than store a baseline that would later look tampered.
 */
async function freezeConsistently(root: string, touched: string[]) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { baseline, dirty, mark } = await freezeBaseline(root, touched);
    const described = await describePaths(root, touched);
    if (manifestDigest(described) === baseline.touched_sha256) {
      return { baseline, dirty, touched: described, mark };
    }
  }
  return undefined;
}

function checkInputs(root: string, given: readonly string[]): { paths: string[]; diagnostics: Diagnostic[] } {
  const paths: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const p of given) {
    // The root's records are the one part of .devrites/ a leaf may be handed (see root-records.ts).
    const checked = isRootRecord(p) ? rootRecordCheck(root, p) : resolveRepoPath(root, p);
    if (!checked.ok) {
      diagnostics.push(scopeDiagnostic(checked.violation, "--input"));
      continue;
    }
    if (seen.has(p)) {
      diagnostics.push(
        error("scope.duplicate", `--input ${JSON.stringify(p)} is given more than once`, {
          path: p,
          hint: "list each input once",
        }),
      );
      continue;
    }
    seen.add(p);
    let kind: "file" | "missing" | "other";
    try {
      const st = lstatSync(join(root, p));
      kind = st.isFile() ? "file" : "other";
    } catch {
      kind = "missing";
    }
    if (kind === "missing") {
      diagnostics.push(
        error("input.missing", `--input ${p} does not exist`, {
          path: p,
          hint: "name an existing file, repository-relative",
        }),
      );
    } else if (kind === "other") {
      diagnostics.push(
        error("input.invalid", `--input ${p} is not a regular file`, {
          path: p,
          hint: "inputs are exact files: no directories, symlinks or special files",
        }),
      );
    } else {
      paths.push(p);
    }
  }
  return { paths, diagnostics };
}

/**
 * Allowlist entries inside a submodule or a nested repository are refused (`scope.submodule`): the file
 * belongs to another repository, whose index, HEAD and history this run's baseline records only as one
 * digest, so a write there could never be told apart from any other change inside it (docs/tree-check.md).
 * Found by a `.git` at any folder above the path, or a gitlink (mode 160000) in the index there (an
 * uninitialised submodule).
 */
async function insideNestedRepos(root: string, allow: readonly string[]): Promise<Diagnostic[]> {
  const prefixes = new Map<string, string[]>();
  for (const p of allow) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join("/");
      prefixes.set(d, [...(prefixes.get(d) ?? []), p]);
    }
  }
  if (prefixes.size === 0) return [];
  const nested = new Set<string>();
  for (const d of prefixes.keys()) if (existsSync(join(root, d, ".git"))) nested.add(d);
  const listed = await git(root, [
    "ls-files",
    "-s",
    "-z",
    "--",
    ...[...prefixes.keys()].map((d) => `:(literal)${d}`),
  ]);
  if (listed.exitCode === 0)
    for (const rec of listed.stdout.toString("utf8").split("\0")) {
      const tab = rec.indexOf("\t");
      if (rec.startsWith("160000 ") && tab > 0 && prefixes.has(rec.slice(tab + 1)))
        nested.add(rec.slice(tab + 1));
    }
  const out: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const d of [...nested].sort())
    for (const p of prefixes.get(d) ?? []) {
      if (reported.has(p)) continue;
      reported.add(p);
      out.push(
        error("scope.submodule", `--allow: ${p} is inside ${d}, a submodule or nested repository`, {
          path: p,
          hint: `a leaf writes only this repository's files; dispatch the change inside ${d} from its own repository`,
        }),
      );
    }
  return out;
}

/** A root record is read through `.devrites/` itself: that folder must be a real directory, not a link out. */
function rootRecordCheck(root: string, p: string): { ok: true } | { ok: false; violation: ScopeViolation } {
  let real = false;
  try {
    real = lstatSync(join(root, ".devrites")).isDirectory();
  } catch {
    real = false;
  }
  if (real) return { ok: true };
  return {
    ok: false,
    violation: {
      rule: "scope.symlink-escape",
      input: p,
      message: `${p} is not inside a real .devrites/ folder`,
      hint: ".devrites/ must be a directory of this repository, not a symlink",
    },
  };
}

function scopeDiagnostic(v: ScopeViolation, option: string): Diagnostic {
  return error(v.rule, `${option}: ${v.message}`, { path: v.input, hint: v.hint });
}

/** `rite-build` → `build` when the rite is named after a phase. */
function phaseOfRite(rite: string): Phase | undefined {
  const suffix = rite.slice("rite-".length);
  return isPhase(suffix) ? suffix : undefined;
}

/** Step ids of every packet already written in this workspace, so step numbers are never reused. */
function stepIdsOnDisk(root: string): string[] {
  const dir = join(root, workspacePaths.runs);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const name of names) {
    try {
      const v = JSON.parse(readFileSync(join(dir, name, "packet.json"), "utf8")) as { step_id?: unknown };
      if (typeof v.step_id === "string") ids.push(v.step_id);
    } catch {
      // not a run folder, or a damaged packet: it cannot claim a step number
    }
  }
  return ids;
}

/**
 * Write the run's anchor into the git folder, or, when the root cannot write that (Codex's workspace-write
 * sandbox keeps `.git` read-only for the shell), into `.devrites/anchors/`; the diagnostic when neither can be
 * written. Nothing is written to the workspace's runs before it.
 */
function tryWriteAnchor(gitDir: string, root: string, anchor: RunAnchor): Diagnostic | undefined {
  const written = writeAnchorSomewhere([gitAnchorHome(gitDir), workspaceAnchorHome(root)], anchor);
  if (written.ok) {
    // the records journal beside it opens with the CLI's records as they are, before this run's state write
    try {
      openRecordsJournal(written.home, anchor.run_id, root);
      return undefined;
    } catch (e) {
      return error(
        "packet.anchor-unwritable",
        `cannot start the run's records journal beside its anchor in ${written.home.dir} (${(e as NodeJS.ErrnoException).code ?? "error"})`,
        {
          path: written.home.dir,
          hint: "the anchor goes under the git folder, or .devrites/anchors when that is read-only: make one of them writable for this command",
        },
      );
    }
  }
  const why = written.failures.map((f) => `${f.home.dir} (${f.code})`).join(", ");
  return error("packet.anchor-unwritable", `cannot write the run's anchor: ${why}`, {
    path: written.failures[0]!.home.dir,
    hint: "the anchor goes under the git folder, or .devrites/anchors when that is read-only: make one of them writable for this command",
  });
}
