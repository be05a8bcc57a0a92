/**
 * The imperative edge of `devrites result check`: read the packet, the stored baseline and the result,
 * look at the tree, run the pure validator, then record the verdict in the run's ledger and, when the
 * result is accepted, retire the run from `state.active_runs`.
 *
 * `runResultChecks` judges several results against one look at each repository (a wave of leaves on one
 * frozen candidate): the tree is snapshotted once per root, at the start, so every result in the batch is
 * judged against the same instant.
 */

import { lstatSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  absoluteGitDir,
  describePaths,
  entriesFor,
  type ManifestEntry,
  type SnapshotOptions,
  type StatMark,
  snapshotTree,
  type TreeSnapshot,
  VERIFY_MARGIN_S,
} from "../baseline/index.js";
import { type Diagnostic, ExitCode, error } from "../core/diagnostics.js";
import { sha256Hex } from "../core/hash.js";
import { isRunId } from "../envelope/ids.js";
import { decodeUtf8Strict, parseJsonBytes, parsePacket } from "../envelope/parse.js";
import type { AgentPacket } from "../envelope/types.js";
import { type BaselineRead, packetTouchedPaths, verifyBaselineRecord } from "../judge/baseline-record.js";
import { type CheckReport, evaluateResult } from "../judge/check.js";
import { diag } from "../judge/codes.js";
import { codesOf, exitCodeOf, type Verdict, verdictOf } from "../judge/verdict.js";
import {
  appendAnchoredVerdict,
  compareWithAnchor,
  compareWithLedger,
  type PacketJson,
  type RunAnchor,
  readAnchor,
  readAnchoredVerdicts,
} from "../packet/anchor.js";
import { rootOfPacket } from "../packet/root.js";
import { isRootRecord } from "../packet/root-records.js";
import { type AnchorHome, findAnchorHome, shownAnchor } from "../run/anchor-home.js";
import { readLedgerStrict, type StrictLedger } from "../run/ledger.js";
import {
  type JournaledRecord,
  judgeRecords,
  readRecordsJournal,
  recordDigests,
  writeStateJournaled,
} from "../run/records-journal.js";
import { appendEvent, PendingSyncs, readState, workspacePaths } from "../run/workspace.js";
import { checkAllowlist, checkRepoPath } from "../scope/index.js";
import { readInputBytes } from "./fs-read.js";
import { type GuardStrength, guardStrength } from "./guard-strength.js";
import { MAX_TRANSCRIPT_BYTES, type ReceiptCheck, verifyReceipts } from "./receipts.js";

export interface ResultCheckOptions {
  cwd: string;
  /** The result file, as the user gave it (relative to cwd or absolute). */
  result: string;
  /** The packet file; default `packet.json` beside the result. */
  packet?: string | undefined;
  now: Date;
}

export interface ResultCheckData {
  verdict: Verdict;
  run_id: string;
  role: string;
  guard_strength: GuardStrength;
  /** The leaf's transcript against the guard's receipts (./receipts.ts). */
  receipts: {
    verified: boolean;
    transcript: string | null;
    /** Tool calls in the transcript. */
    calls: number;
    /** The ids of those without a receipt. */
    unreceipted: string[];
    /** Why the calls could not be verified. */
    why?: string;
  };
  changed_paths: string[];
  /** The result's own status when it parsed (so the root can route a rejection without reading it). */
  status: string | null;
}

export interface ResultCheckOutcome {
  exitCode: ExitCode;
  diagnostics: Diagnostic[];
  data?: ResultCheckData;
}

/** Check one result. */
export async function runResultCheck(opts: ResultCheckOptions): Promise<ResultCheckOutcome> {
  const [outcome] = await runResultChecks({
    cwd: opts.cwd,
    items: [{ result: opts.result, packet: opts.packet }],
    now: opts.now,
  });
  return outcome!;
}

export interface ResultChecksOptions {
  cwd: string;
  items: { result: string; packet?: string | undefined }[];
  now: Date;
}

/** Check several results, snapshotting each repository once. Outcomes are in input order. */
export async function runResultChecks(opts: ResultChecksOptions): Promise<ResultCheckOutcome[]> {
  const snapshots = new Map<string, Promise<TreeSnapshot>>();
  const hints = new Map<string, Set<string>>();
  const snapshotOf = (root: string) => {
    let s = snapshots.get(root);
    if (!s) {
      s = snapshotTree(root, 0, {
        settle: settleFor(loaded.filter((l): l is Loaded => "root" in l && l.root === root)),
        ignoredHint: [...(hints.get(root) ?? [])],
      });
      s.catch(() => {}); // awaited below; a failure surfaces there (and fails the check closed)
      snapshots.set(root, s);
    }
    return s;
  };
  const loaded: (Loaded | ResultCheckOutcome)[] = [];
  // the CLI's records, read once per repository for the batch (nothing writes them until the runs retire)
  const records = new Map<string, Record<JournaledRecord, string | null>>();
  const recordsOf = (root: string) => {
    let r = records.get(root);
    if (!r) {
      r = recordDigests(root);
      records.set(root, r);
    }
    return r;
  };
  for (const item of opts.items) loaded.push(await load(opts.cwd, item.result, item.packet, recordsOf));
  for (const l of loaded) {
    if (!("root" in l)) continue;
    const hint = hints.get(l.root) ?? new Set<string>();
    for (const d of ignoredDirsOf(l)) hint.add(d);
    hints.set(l.root, hint);
  }
  for (const l of loaded) if ("root" in l) void snapshotOf(l.root); // start every snapshot before judging anything
  const outcomes: ResultCheckOutcome[] = [];
  const retire = new Map<string, string[]>();
  // Every verdict is appended at once and fsynced with the others before anything is retired or returned.
  const syncs = new PendingSyncs();
  for (const l of loaded) {
    if (!("root" in l)) {
      outcomes.push(l);
      continue;
    }
    const outcome = await judge(l, await snapshotOf(l.root), opts.now, syncs);
    if (outcome.data?.verdict === "accepted")
      retire.set(l.root, [...(retire.get(l.root) ?? []), l.packet.run_id]);
    outcomes.push(outcome);
    if (syncs.size >= MAX_PENDING_SYNCS) await syncs.flush();
  }
  await syncs.flush();
  for (const [root, runIds] of retire) {
    const problems = retireRuns(root, runIds, opts.now);
    if (problems.length === 0) continue;
    for (const o of outcomes) if (o.data && runIds.includes(o.data.run_id)) o.diagnostics.push(...problems);
  }
  return outcomes;
}

/**
 * What a snapshot of one repository may trust for these runs (`SnapshotOptions.settle`): the earliest of
 * their cuts, so nothing is trusted that changed after any of their baselines began. A run's cut is its
 * anchored mark; a run made before marks existed (or whose mark lies in the future) cuts at its packet's
 * creation less `VERIFY_MARGIN_S`, and then only the index verification is narrowed: no hash or ignored
 * signature is kept. A `created_at` that does not parse cuts at 0 (verify every entry: fail closed).
 */
function settleFor(runs: readonly Loaded[]): NonNullable<SnapshotOptions["settle"]> {
  let cutMs = Number.POSITIVE_INFINITY;
  const roots = new Set<string | undefined>();
  let reuse: readonly ManifestEntry[] | undefined;
  for (const l of runs) {
    const mark = l.mark !== undefined && l.mark.settled_before_ms <= Date.now() ? l.mark : undefined;
    if (mark) {
      cutMs = Math.min(cutMs, mark.settled_before_ms);
      if (reuse === undefined && l.baseline.ok) reuse = l.baseline.record.dirty;
    } else {
      const t = Date.parse(l.packet.created_at);
      cutMs = Math.min(cutMs, Number.isFinite(t) ? (Math.floor(t / 1000) - VERIFY_MARGIN_S) * 1000 : 0);
    }
    roots.add(mark?.root);
  }
  const [root] = roots;
  if (!Number.isFinite(cutMs)) cutMs = 0;
  return roots.size === 1 && root !== undefined ? { cutMs, root, ...(reuse ? { reuse } : {}) } : { cutMs };
}

/** Ledger files held open for one concurrent fsync; bounded so a large batch cannot run out of descriptors. */
const MAX_PENDING_SYNCS = 64;

interface Loaded {
  root: string;
  packet: AgentPacket;
  /** The run's records compared with its anchor and its ledger's creation event (`anchor.ts`). */
  binding: Diagnostic[];
  /** Where the run's anchor is (`findAnchorHome`); null outside git. */
  anchorHome: AnchorHome | null;
  /** The anchor's mark (`src/baseline/_settle.ts`), when it has one and the run's records are bound to it. */
  mark?: StatMark;
  ledger: StrictLedger;
  /** The stored result's bytes, judged as they are (decoded strictly by the validator). */
  resultText: Uint8Array;
  resultShown: string;
  baseline: BaselineRead;
}

async function load(
  cwd: string,
  result: string,
  packetArg: string | undefined,
  recordsOf: (root: string) => Record<JournaledRecord, string | null>,
): Promise<Loaded | ResultCheckOutcome> {
  const resultAbs = resolve(cwd, result);
  const packetAbs =
    packetArg !== undefined ? resolve(cwd, packetArg) : join(dirname(resultAbs), "packet.json");

  const packetBytes = readInputBytes(packetAbs, shown(cwd, packetAbs), "the packet file");
  if (!packetBytes.ok) return packetBytes;
  const packet = loadPacket(packetBytes.bytes, shown(cwd, packetAbs));
  if (!packet.ok) return { exitCode: ExitCode.Violation, diagnostics: packet.diagnostics };

  const found = await rootOfPacket(packetAbs, packet.value.run_id);
  if (!found.ok) return found;
  const root = found.root;
  const runId = packet.value.run_id;
  const resultShown = shownInRoot(root, cwd, resultAbs);
  const resultBytes = readInputBytes(resultAbs, resultShown, "the result file");
  if (!resultBytes.ok) return resultBytes;

  const baselineRel = workspacePaths.baseline(packet.value.run_id);
  const baselineBytes = readInputBytes(join(root, baselineRel), baselineRel, "the run's baseline.json");
  const baselineText = baselineBytes.ok ? decodeUtf8Strict(baselineBytes.bytes, baselineRel) : undefined;
  const baseline: BaselineRead = !baselineBytes.ok
    ? {
        ok: false,
        diagnostics: [diag("result.baseline-missing", baselineBytes.diagnostics[0]!.message, baselineRel)],
      }
    : !baselineText!.ok
      ? baselineText!
      : verifyBaselineRecord(baselineText!.value, packet.value, baselineRel);
  const gitDir = packet.value.baseline.head === "no-git" ? null : await gitDirOf(root);
  const ledger = readLedgerStrict(root, runId);
  const anchorHome = gitDir === null ? null : findAnchorHome(gitDir, root, packet.value.run_id);
  const { diagnostics: binding, mark } = bindingOf(anchorHome, packet.value, packet.raw, ledger, () =>
    recordsOf(root),
  );
  return {
    root,
    packet: packet.value,
    binding,
    anchorHome,
    ...(mark && binding.length === 0 ? { mark } : {}),
    ledger,
    resultText: resultBytes.bytes,
    resultShown,
    baseline,
  };
}

const gitDirs = new Map<string, Promise<string | null>>();
/** The git folder of a repository root, asked of git once per root in a process. */
function gitDirOf(root: string): Promise<string | null> {
  let d = gitDirs.get(root);
  if (!d) {
    d = absoluteGitDir(root);
    gitDirs.set(root, d);
  }
  return d;
}

/**
 * The run's records against what `packet new` fixed: the anchor (packet fields, the
 * baseline's bytes) and the ledger's single `packet.created` event (the packet's digest). Outside git there
 * is no anchor and only the ledger binds.
 */
function bindingOf(
  home: AnchorHome | null,
  packet: AgentPacket,
  raw: PacketJson,
  ledger: StrictLedger,
  recordsNow: () => Record<JournaledRecord, string | null>,
): { diagnostics: Diagnostic[]; mark?: StatMark } {
  const runId = packet.run_id;
  const paths = {
    packet: workspacePaths.packet(runId),
    baseline: workspacePaths.baseline(runId),
    anchor: shownAnchor(home, runId).anchor,
  };
  const out: Diagnostic[] = [];
  let anchor: RunAnchor | undefined;
  if (packet.baseline.head !== "no-git") {
    if (home === null)
      out.push(diag("result.anchor-missing", "git cannot name the repository's git folder", paths.anchor));
    else {
      const read = readAnchor(home, runId);
      if (read.ok) {
        anchor = read.anchor;
        // The baseline's bytes are not hashed again here: its manifests are recomputed against the packet's
        // digests, and the packet is the anchored one, so an edited baseline cannot pass either way.
        out.push(...compareWithAnchor(anchor, raw, undefined, paths));
        // a run checked again after its acceptance left the journal's care when it was retired
        if (!anchoredAccepted(home, runId)) out.push(...recordsBinding(home, runId, recordsNow));
      } else out.push(...read.diagnostics);
    }
  }
  out.push(
    ...compareWithLedger(ledger.values, ledger.lineNumbers, raw, anchor, workspacePaths.events(runId)),
  );
  return { diagnostics: out, ...(anchor?.stat_mark ? { mark: anchor.stat_mark } : {}) };
}

/** Whether an accepting verdict is anchored for the run (a malformed verdicts file counts as none). */
function anchoredAccepted(home: AnchorHome, runId: string): boolean {
  return readAnchoredVerdicts(home, runId).verdicts.some((v) => v.verdict === "accepted");
}

/**
 * The CLI's workspace records against the run's records journal (`src/run/records-journal.ts`): every change
 * to them since `packet new` must be a write the CLI journaled.
 */
function recordsBinding(
  home: AnchorHome,
  runId: string,
  recordsNow: () => Record<JournaledRecord, string | null>,
): Diagnostic[] {
  const journal = shownAnchor(home, runId).records;
  const read = readRecordsJournal(home, runId);
  if (!read.ok)
    return [
      read.missing
        ? diag("result.records-journal-missing", `the run has no records journal (${journal})`, journal)
        : diag("result.records-journal-invalid", `the run's records journal is ${read.message}`, journal),
    ];
  return judgeRecords(read.text, recordsNow()).map((f) =>
    f.kind === "tampered"
      ? diag("result.record-tampered", f.message, f.file)
      : { ...diag("result.records-journal-invalid", `line ${f.line}: ${f.message}`, journal), line: f.line },
  );
}

/** What the validator found for one stored result, before anything is recorded. */
export interface Assessment {
  packet: AgentPacket;
  report: CheckReport;
  guard_strength: GuardStrength;
  receipts: ReceiptCheck;
}

/** The leaf's transcript, as the host wrote it; undefined when it cannot be read (or is too large to read). */
function readTranscript(path: string): Uint8Array | undefined {
  try {
    const st = lstatSync(path);
    if (!st.isFile() || st.size > MAX_TRANSCRIPT_BYTES) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** What `result check --json` says about the receipts. */
function receiptSummary(r: ReceiptCheck): ResultCheckData["receipts"] {
  return {
    verified: r.verified,
    transcript: r.transcript,
    calls: r.calls,
    unreceipted: r.missing.map((c) => c.id),
    ...(r.why !== undefined ? { why: r.why } : {}),
  };
}

/** Most unreceipted calls named one by one; the rest are counted. */
const MAX_NAMED_CALLS = 20;

function unreceiptedDiagnostics(r: ReceiptCheck): Diagnostic[] {
  const named = r.missing
    .slice(0, MAX_NAMED_CALLS)
    .map((c) =>
      diag(
        "result.unreceipted-call",
        `the leaf's ${c.name} call ${c.id} (transcript line ${c.line}) has no guard receipt: no PreToolUse hook decided it`,
        r.transcript ?? undefined,
      ),
    );
  const more = r.missing.length - named.length;
  return more > 0
    ? [
        ...named,
        diag(
          "result.unreceipted-call",
          `and ${more} more calls without a guard receipt`,
          r.transcript ?? undefined,
        ),
      ]
    : named;
}

/**
 * The ignored directories the run's baseline recorded (their entries end in `/`): the snapshot walks them
 * while git lists the tree (`SnapshotOptions.ignoredHint`). A baseline that cannot be read hints nothing.
 */
function ignoredDirsOf(l: Loaded): string[] {
  if (!l.baseline.ok) return [];
  const dirty = l.baseline.record.dirty;
  // a wave's runs share one parsed dirty manifest (baseline-record.ts): read it once, not once per run
  let dirs = ignoredDirsSeen.get(dirty);
  if (!dirs) {
    dirs = dirty.filter((e) => e.path.endsWith("/")).map((e) => e.path);
    ignoredDirsSeen.set(dirty, dirs);
  }
  return dirs;
}

const ignoredDirsSeen = new WeakMap<readonly ManifestEntry[], string[]>();

/** Run the validator once over a loaded result and the tree as snapshotted. Records nothing. */
async function assess(l: Loaded, snapshot: TreeSnapshot, now: Date): Promise<Assessment> {
  const { root, packet } = l;
  const allow = checkAllowlist(root, packet.scope.allowed_repo_writes);
  const touched = await describePaths(root, describable(packet, allow.ok));
  const report = evaluateResult({
    resultText: l.resultText,
    resultPath: l.resultShown,
    packet,
    baseline: l.baseline,
    current: {
      head: snapshot.head,
      entries: entriesFor(
        snapshot,
        packetTouchedPaths(packet),
        l.baseline.ok ? l.baseline.record.dirty : undefined,
      ),
      touched,
      hardLinked: hardLinked(root, allow.ok),
    },
    allowlistViolations: allow.violations,
    now,
  });
  const events = l.ledger;
  // Records rewritten after packet new, and ledger lines devrites never wrote (a repeated key, bytes that are
  // not UTF-8): the run cannot be trusted, so neither can a verdict that reads it.
  const untrusted = [...l.binding, ...events.tampered];
  if (untrusted.length > 0) {
    report.diagnostics.push(...untrusted);
    report.verdict = verdictOf(report.diagnostics);
  }
  // every call in the leaf's own transcript must have been decided by the guard (./receipts.ts)
  const receipts = verifyReceipts(events.values, readTranscript);
  if (receipts.missing.length > 0) {
    report.diagnostics.push(...unreceiptedDiagnostics(receipts));
    report.verdict = verdictOf(report.diagnostics);
  }
  return { packet, report, guard_strength: guardStrength(events.values, receipts.verified), receipts };
}

/**
 * Judge the stored result of run `runId` in `root` without recording anything. The engine's driver uses
 * this: the engine records the verdict in its own `result.checked` event, so one check is one event.
 * A missing or invalid packet or result is the outcome with its diagnostics (as `result check` reports it).
 */
export async function assessRun(
  root: string,
  runId: string,
  now: Date,
): Promise<{ ok: true; assessment: Assessment } | { ok: false; outcome: ResultCheckOutcome }> {
  if (!isRunId(runId))
    return {
      ok: false,
      outcome: {
        exitCode: ExitCode.Usage,
        diagnostics: [error("input.invalid", `${JSON.stringify(runId)} is not a run id`)],
      },
    };
  const l = await load(root, workspacePaths.result(runId), undefined, recordDigests);
  if (!("root" in l)) return { ok: false, outcome: l };
  const assessment = await assess(
    l,
    await snapshotTree(l.root, 0, { settle: settleFor([l]), ignoredHint: ignoredDirsOf(l) }),
    now,
  );
  anchorVerdict(l, assessment.report, now);
  return { ok: true, assessment };
}

async function judge(
  l: Loaded,
  snapshot: TreeSnapshot,
  now: Date,
  syncs: PendingSyncs,
): Promise<ResultCheckOutcome> {
  const { root, packet } = l;
  const { report, guard_strength: strength, receipts } = await assess(l, snapshot, now);
  const runId = packet.run_id;
  // first, so that a verdict that cannot be anchored leaves no ledger line either (validate would hold an
  // unanchored verdict against the run)
  const unanchored = tryAnchorVerdict(l, report, now, syncs);
  if (unanchored) return { exitCode: ExitCode.Violation, diagnostics: [...report.diagnostics, unanchored] };
  appendEvent(
    root,
    {
      ts: now.toISOString(),
      run_id: runId,
      type: "result.checked",
      data: { verdict: report.verdict, codes: codesOf(report.diagnostics), guard_strength: strength },
    },
    { syncLater: syncs },
  );
  return {
    exitCode: exitCodeOf(report.verdict),
    diagnostics: report.diagnostics,
    data: {
      verdict: report.verdict,
      run_id: runId,
      role: packet.role,
      guard_strength: strength,
      receipts: receiptSummary(receipts),
      changed_paths: report.changedPaths,
      status: report.result?.status ?? null,
    },
  };
}

/**
 * Append the verdict to the run's anchored verdicts (beside the anchor): `validate` holds
 * the ledger's `result.checked` lines to these. Outside git there is nowhere a leaf cannot write: skipped.
 */
function anchorVerdict(l: Loaded, report: CheckReport, now: Date, syncs?: PendingSyncs): void {
  if (l.anchorHome === null) return;
  appendAnchoredVerdict(
    l.anchorHome,
    l.packet.run_id,
    {
      ts: now.toISOString(),
      verdict: report.verdict,
      result_sha256: sha256Hex(l.resultText),
      codes: codesOf(report.diagnostics),
      changed_paths: report.changedPaths,
    },
    syncs ? { syncLater: syncs } : {},
  );
}

/** `anchorVerdict`, or the diagnostic naming the file when it cannot be written (a read-only git folder). */
function tryAnchorVerdict(
  l: Loaded,
  report: CheckReport,
  now: Date,
  syncs: PendingSyncs,
): Diagnostic | undefined {
  try {
    anchorVerdict(l, report, now, syncs);
    return undefined;
  } catch (e) {
    const shown = shownAnchor(l.anchorHome, l.packet.run_id).verdicts;
    return diag(
      "result.anchor-unwritable",
      `${shown}: the verdict (${report.verdict}) cannot be appended (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      shown,
    );
  }
}

function loadPacket(
  bytes: Uint8Array,
  path: string,
): { ok: true; value: AgentPacket; raw: PacketJson } | { ok: false; diagnostics: Diagnostic[] } {
  const json = parseJsonBytes(bytes, path);
  const parsed = json.ok ? parsePacket(json.value, path) : json;
  if (parsed.ok && json.ok)
    return { ok: true, value: parsed.value as AgentPacket, raw: json.value as PacketJson };
  return {
    ok: false,
    diagnostics: [
      diag(
        "packet.invalid",
        "the packet is not a valid agent-packet/v1; no result can be judged against it",
        path,
      ),
      ...(parsed.ok ? [] : parsed.diagnostics),
    ],
  };
}

/** Allowlisted paths that are regular files with more than one link (read without following a symlink). */
function hardLinked(root: string, allowed: readonly string[]): { path: string; nlink: number }[] {
  const out: { path: string; nlink: number }[] = [];
  for (const p of allowed) {
    try {
      const st = lstatSync(join(root, p));
      if (st.isFile() && st.nlink > 1) out.push({ path: p, nlink: st.nlink });
    } catch {
      // absent: nothing linked
    }
  }
  return out;
}

/**
 * The touched paths that are safe to look at now: allowlist entries that still pass the scope rules, and
 * inputs that are still canonical. A path that fails is not read (it may lead outside the repository); it
 * counts as absent, so a change is still reported, and the allowlist violation rejects the result anyway.
 */
function describable(packet: AgentPacket, allowOk: readonly string[]): string[] {
  const ok = new Set(allowOk);
  const inputs = new Set(packet.inputs.map((i) => i.path));
  return packetTouchedPaths(packet).filter(
    (p) => ok.has(p) || (inputs.has(p) && (checkRepoPath(p).ok || isRootRecord(p))),
  );
}

/**
 * Remove accepted runs from `state.active_runs` in one atomic rewrite. A state that cannot be read is
 * reported as a warning: the verdict stands, but the run stays listed as active.
 */
function retireRuns(root: string, runIds: readonly string[], now: Date): Diagnostic[] {
  const read = readState(root, now.toISOString());
  if (!read.ok) return read.diagnostics.map((d) => ({ ...d, severity: "warning" as const }));
  const remaining = read.state.active_runs.filter((r) => !runIds.includes(r.run_id));
  if (remaining.length === read.state.active_runs.length) return [];
  writeStateJournaled(
    root,
    { ...read.state, active_runs: remaining, updated_at: now.toISOString() },
    read.sha256,
  );
  return [];
}

/** A path for messages: relative to cwd when inside it, else absolute. */
function shown(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return inside(rel) ? rel.split(sep).join("/") : abs;
}

/** Repository-relative when inside the root, else as `shown`. */
function shownInRoot(root: string, cwd: string, abs: string): string {
  const rel = relative(root, abs);
  return inside(rel) ? rel.split(sep).join("/") : shown(cwd, abs);
}

function inside(rel: string): boolean {
  return (
    rel !== "" &&
    rel !== ".." &&
    !rel.startsWith(`..${sep}`) &&
    !rel.startsWith(sep) &&
    !/^[A-Za-z]:/.test(rel)
  );
}
