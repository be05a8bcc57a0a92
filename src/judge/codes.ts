/**
 * The validator's diagnostics catalogue: every code `devrites result check`, `packet new` and
 * `result record` can emit, with the stage that emits it and the standing hint. Codes are stable: scripts
 * and the root rites match on them. Envelope parsing codes (`envelope.*`) and scope codes (`scope.*`) come
 * from their own modules and pass through unchanged.
 */

import type { CodeEntry } from "../core/codes/entry.js";
import { type Diagnostic, ExitCode } from "../core/diagnostics.js";

export interface CodeSpec extends CodeEntry {
  /** The check stage that emits it (see `STAGES`). */
  stage: Stage;
}

/** The validator's stages, in the order they run. */
export const STAGES = [
  "schema",
  "identity",
  "status",
  "budgets",
  "payload",
  "side-effects",
  "tree",
  "receipts",
  "expiry",
  "input",
  "record",
] as const;
export type Stage = (typeof STAGES)[number];

const RETRY = "redispatch the leaf with a fresh packet; never reconcile this result";
const REFREEZE =
  "the candidate moved after the packet was frozen: discard the result and redispatch on a fresh packet";
const SCOPE =
  "stop: preserve the user's work, reconcile only the confirmed leaf-owned delta, then block or redispatch";

export const CODES = {
  // schema: the strict reader every stored envelope, baseline and ledger line goes through -----------------
  "envelope.byte-order-mark": {
    stage: "schema",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the JSON text starts with a byte-order mark (U+FEFF)",
    hint: "write the JSON as plain UTF-8 with no byte-order mark; nothing is stripped on your behalf",
  },
  "envelope.invalid-encoding": {
    stage: "schema",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the bytes are not valid UTF-8 (or the text holds a lone surrogate)",
    hint: "write the JSON as UTF-8; invalid bytes are never replaced on your behalf",
  },
  "envelope.duplicate-key": {
    stage: "schema",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "one JSON object names the same key twice (JSON.parse would keep the last one silently)",
    hint: "give each key once; a document that reads two ways is never judged",
  },
  // identity ---------------------------------------------------------------------------------------------
  "result.run-id-mismatch": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result's run_id is not the packet's run_id",
    hint: "check the result against its own packet (the packet.json in the result's run folder)",
  },
  "result.role-mismatch": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result's role is not the role the packet was written for",
    hint: RETRY,
  },
  "result.baseline-mismatch": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result's baseline_id is not the packet's baseline.id",
    hint: "the leaf answered for another candidate; redispatch it with this packet",
  },
  "result.baseline-missing": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run's frozen baseline.json is missing or unreadable",
    hint: "the run folder was damaged; abandon this run and write a fresh packet",
  },
  "result.baseline-tampered": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the stored baseline.json does not hash to the identity recorded in the packet",
    hint: "the frozen baseline was edited after the packet was written; abandon this run and write a fresh packet",
  },
  "result.unreceipted-call": {
    stage: "receipts",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a tool call in the leaf's own transcript has no guard receipt: its PreToolUse hook never decided it (hooks off or not trusted, a crash or a time-out, which both hosts let through)",
    hint: "check that the devrites hooks are on for this host (Codex: trust them in /hooks), then abandon the run and dispatch the step again on a fresh packet",
  },
  "result.packet-tampered": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "packet.json is not the packet `packet new` fixed: a field differs from the run's anchor",
    hint: "packets are written once; abandon this run and write a fresh packet (never edit packet.json)",
  },
  "result.anchor-missing": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the run has no anchor (<git-dir>/devrites/anchors/<run-id>.json, or .devrites/anchors/), so its records cannot be trusted",
    hint: "the run was not created by this devrites, or its anchor was deleted; write a fresh packet",
  },
  "result.anchor-invalid": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run's anchor is unreadable, malformed or does not hash to itself",
    hint: "the anchors folder was damaged or edited; write a fresh packet",
  },
  "result.record-tampered": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a workspace record the CLI writes while runs are active (.devrites/state.json, questions.jsonl, decisions.jsonl) was changed by something other than devrites during the run: its records journal has no write that leaves it as it is",
    hint: "a leaf or a hand edit changed it (a forged answer or decision, a rewritten state): put the file right, then dispatch the step again on a fresh packet",
  },
  "result.records-journal-missing": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the run has no records journal (<run-id>.records.jsonl beside its anchor), so the CLI's workspace records cannot be trusted for it",
    hint: "the run was made by a devrites without records journals, or its journal was deleted; write a fresh packet",
  },
  "result.records-journal-invalid": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run's records journal is unreadable or malformed (a line devrites never writes)",
    hint: "the anchors folder was damaged or edited; write a fresh packet",
  },
  "result.anchor-unwritable": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the verdict cannot be appended beside the run's anchor, so the check recorded nothing (no verdict, no ledger line)",
    hint: "make the anchors folder writable for this command (Codex's sandbox keeps .git read-only: check the run where it was made, or outside the sandbox), then check again",
  },
  "result.ledger-mismatch": {
    stage: "identity",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run's ledger does not bind this packet: no single packet.created event carrying its digest",
    hint: "the run's records were rewritten after packet new; abandon this run and write a fresh packet",
  },
  // status -----------------------------------------------------------------------------------------------
  "result.cannot-verify": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status cannot_verify is never a pass",
    hint: "supply the one missing permitted input once and redispatch, or keep the gap on record",
  },
  "result.cannot-verify-as-complete": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "status complete, but the payload says the leaf could not verify (an inconclusive or vacuous verdict)",
    hint: "a verification that did not happen is cannot_verify, not complete; redispatch with the missing input",
  },
  "result.partial": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status partial is not an acceptance",
    hint: "read the remaining question in the payload and dispatch a bounded follow-up packet",
  },
  "result.blocked": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status blocked without a human gate: the leaf stopped on a technical blocker",
    hint: "read the escalation; supply what is missing and redispatch, or record a technical blocker",
  },
  "result.failed": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status failed",
    hint: "read the escalation; a bounded technical retry is allowed (at most three attempts per cause)",
  },
  "result.escalation-missing": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status blocked or failed needs an escalation saying why",
    hint: "the leaf must name the one missing input or decision; redispatch quoting this defect",
  },
  "result.status-contradiction": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "status complete together with an escalation is contradictory",
    hint: "a leaf that escalates did not complete; redispatch quoting this defect",
  },
  "result.verdict-contradiction": {
    stage: "status",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the payload's verdict contradicts its own findings or checks",
    hint: "redispatch quoting this defect; never repair a verdict by hand",
  },
  "result.gate": {
    stage: "status",
    severity: "warning",
    exit: ExitCode.HumanGate,
    summary: "the leaf raised a decision only a human may take",
    hint: "put the gate's question to the user; the result is otherwise valid",
  },
  // budgets ----------------------------------------------------------------------------------------------
  "result.budget-exceeded": {
    stage: "budgets",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the leaf reports using more than its budget",
    hint: "redispatch with a narrower objective; a leaf over budget must stop with status partial",
  },
  "result.budget-mismatch": {
    stage: "budgets",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a budget ceiling the result echoes differs from the packet's",
    hint: "leave the ceilings out of the result, or echo the packet's unchanged; redispatch quoting this defect",
  },
  "result.too-long": {
    stage: "budgets",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result, pretty-printed, has more lines than the packet's max_result_lines",
    hint: "the leaf must return a compact result; redispatch quoting this defect",
  },
  // payload ----------------------------------------------------------------------------------------------
  "result.payload-type": {
    stage: "payload",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the payload type is not the one the packet's role returns",
    hint: RETRY,
  },
  // side effects -----------------------------------------------------------------------------------------
  "result.read-only-write": {
    stage: "side-effects",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a read-only role declares a repository write",
    hint: SCOPE,
  },
  "result.write-not-allowed": {
    stage: "side-effects",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the wright declares a write to a path that is not on its packet's allowlist",
    hint: SCOPE,
  },
  "result.duplicate-write": {
    stage: "side-effects",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the same path is declared more than once in repo_writes",
    hint: "each path must be declared once with its final state; redispatch quoting this defect",
  },
  "result.allowlist-invalid": {
    stage: "side-effects",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "an allowlisted path of the packet no longer passes the scope rules (e.g. a symlink now escapes)",
    hint: SCOPE,
  },
  // tree -------------------------------------------------------------------------------------------------
  "result.hard-link": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "an allowlisted file has more than one hard link: writing it writes another path too",
    hint: SCOPE,
  },
  "result.head-moved": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "HEAD is not the commit the packet was frozen on",
    hint: REFREEZE,
  },
  "result.stale": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the candidate changed after the packet was frozen, so a read-only result no longer describes it",
    hint: REFREEZE,
  },
  "result.out-of-scope": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a path changed on disk that is not on the wright's allowlist",
    hint: SCOPE,
  },
  "result.undeclared-write": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a path changed on disk that the result does not declare in repo_writes",
    hint: SCOPE,
  },
  "result.phantom-write": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result declares a write, but the file is unchanged since the baseline",
    hint: "a declared write that did not happen is a false claim; redispatch quoting this defect",
  },
  "result.op-mismatch": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the declared op (create/modify/delete) is not what happened on disk",
    hint: "create: absent before, present after; modify: present both; delete: present before, absent after",
  },
  "result.hash-mismatch": {
    stage: "tree",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the declared sha256_after is not the hash of the file on disk",
    hint: "the file changed after the leaf reported it, or the report is wrong; redispatch on a fresh packet",
  },
  // expiry -----------------------------------------------------------------------------------------------
  "result.expired": {
    stage: "expiry",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the packet expired before the result was checked",
    hint: "write a fresh packet and redispatch",
  },
  // inputs of the commands -------------------------------------------------------------------------------
  "input.missing": {
    stage: "input",
    severity: "error",
    exit: ExitCode.MissingInput,
    summary: "a required input file does not exist",
    hint: "check the path; run `devrites packet new` first when the run folder is missing",
  },
  "input.unreadable": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Usage,
    summary: "an input file exists but cannot be read",
    hint: "check its permissions",
  },
  "input.invalid": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Usage,
    summary: "a command-line value is not what the command expects",
    hint: "see `--help` for the expected form",
  },
  "input.no-repo": {
    stage: "input",
    severity: "error",
    exit: ExitCode.MissingInput,
    summary: "no repository was found at or above the working directory",
    hint: "run the command inside the project's repository",
  },
  "input.tree-unstable": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the working tree kept changing while the baseline was being frozen",
    hint: "wait until nothing is writing to the repository, then write the packet again",
  },
  "dispatch.doctor-failed": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the last `devrites doctor` run for the running host's version failed: the writer is not dispatched",
    hint: "fix what doctor's failed rows say, run `devrites doctor` again, and dispatch once it passes",
  },
  "dispatch.doctor-state-invalid": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "the doctor's per-user record cannot be read, so whether the host keeps the guarantees is unknown",
    hint: "run `devrites doctor` (it rewrites the record), then dispatch again",
  },
  "packet.invalid": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the packet file is not a valid agent-packet/v1",
    hint: "the run folder was damaged; abandon this run and write a fresh packet",
  },
  "workspace.state-invalid": {
    stage: "input",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the workspace state could not be read",
    hint: "restore .devrites/state.json from version control, or move it aside",
  },
  // result record ----------------------------------------------------------------------------------------
  "record.no-json": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the leaf's text is neither a bare JSON object nor contains one ```json fenced block",
    hint: "the leaf must end with its agent-result/v1 as one JSON object; redispatch quoting this defect",
  },
  "record.multiple-json": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the leaf's text contains more than one ```json fenced block",
    hint: "the leaf must return exactly one result object; redispatch quoting this defect",
  },
  "record.malformed-json": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the extracted JSON does not parse",
    hint: "redispatch quoting the parse error",
  },
  "record.not-object": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the extracted JSON is not an object",
    hint: "the result must be one agent-result/v1 object; redispatch quoting this defect",
  },
  "record.unknown-run": {
    stage: "record",
    severity: "error",
    exit: ExitCode.MissingInput,
    summary: "no packet exists for this run id",
    hint: "list active runs in .devrites/state.json",
  },
  "record.run-not-active": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run is not active (already accepted, superseded or abandoned)",
    hint: "a finished run takes no new result; write a fresh packet to redo the step",
  },
  "record.result-exists": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a different result was already recorded for this run",
    hint: "a run takes one result (replaceable only after a check rejected it); write a fresh packet to redo the step",
  },
  "record.not-a-result": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the JSON is not an agent-result/v1 (no result_version); nothing was stored",
    hint: "store the leaf's agent-result/v1 object itself, not a wrapper or notes",
  },
  "record.run-mismatch": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the result names another run; nothing was stored",
    hint: "record each leaf's result under its own run id",
  },
  "record.hand-back-ambiguous": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the host's hand-back holds several agents' messages; nothing was stored",
    hint: "record each leaf's message under its own run",
  },
  "record.hand-back-unfinished": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the host's hand-back says the agent has not completed; nothing was stored",
    hint: "wait for the agent to finish, then record its message",
  },
  "record.result-path-invalid": {
    stage: "record",
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the packet's result_path is not the run's result.json",
    hint: "the packet was edited; abandon this run and write a fresh packet",
  },
} as const satisfies Record<string, CodeSpec>;

export type Code = keyof typeof CODES;

/** Build a diagnostic for a catalogued code, with its standing severity and hint. */
export function diag(code: Code, message: string, path?: string, hint?: string): Diagnostic {
  const spec: CodeSpec = CODES[code];
  const d: Diagnostic = { code, severity: spec.severity, message, hint: hint ?? spec.hint };
  if (path !== undefined) d.path = path;
  return d;
}
