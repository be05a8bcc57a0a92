/** The `workspace.*` diagnostics (emitted from src/hooks, src/run, src/validate-repo). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const workspaceCodes = {
  "workspace.records-tampered": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary:
      "a run left without a check (superseded by a new packet, or abandoned) saw one of the CLI's records (.devrites/state.json, questions.jsonl, decisions.jsonl) changed by something other than devrites: its leaf may have forged a human answer, a decision or the state",
    hint: "look at the file before anything relies on it, and put it right (git does not track it)",
  },
  "workspace.accepted-baseline-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "An accepted run's baseline.json no longer matches its packet (it was edited or replaced after acceptance).",
    hint: "baseline.json is written once by devrites packet new; restore it from version control",
  },
  "workspace.accepted-baseline-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An accepted run's baseline.json is gone, so its acceptance cannot be re-verified.",
    hint: "restore it from version control; without it the acceptance cannot be re-verified",
  },
  "workspace.accepted-result-changed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the accepted result is not the bytes that were checked",
    hint: "an accepted result is never edited; restore it from version control",
  },
  "workspace.accepted-result-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An accepted run's result.json is gone.",
    hint: "restore the result from version control, or redispatch the step",
  },
  "workspace.active-run-duplicate": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "state.json lists one active run twice",
    hint: "state.json is written by devrites alone; restore it from version control",
  },
  "workspace.active-run-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "state.json lists an active run that has no folder under .devrites/runs/.",
    hint: "the guard cannot find this run's packet: restore .devrites/runs/<run-id>/ from version control",
  },
  "workspace.ledger-contradiction": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the run ledger records contradicting verdicts for one run",
    hint: "the ledger is append-only and written by devrites alone; this run's record cannot be trusted — abandon it",
  },
  "workspace.packet-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a run's packet.json is not a valid agent-packet/v1",
    hint: "the workspace is written by the devrites CLI only; restore it or abandon the run from the root session",
  },
  "workspace.packet-run-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A run's packet.json names another run id than the folder it sits in.",
    hint: "packets are written once by devrites packet new; restore this one from version control",
  },
  "workspace.result-orphan": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A run folder holds a result.json but no packet.json.",
    hint: "a result must answer a packet written by devrites packet new",
  },
  "workspace.stray-entry": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "Something under .devrites/runs/ is not a run folder (run-<timestamp>-<hex>).",
    hint: "only run-<timestamp>-<hex> folders belong under .devrites/runs/",
  },
  "workspace.unreadable": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a workspace file cannot be read, or is not a regular file",
    hint: "the workspace is written by the devrites CLI only; restore the file from version control",
  },
  "workspace.result-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a run's result.json is not a valid agent-result/v1 (a warning when result check already rejected it)",
    hint: "record the leaf's result again, or abandon the run",
  },
  "workspace.result-role-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a run's result is from another role than its packet (a warning when result check already rejected it)",
    hint: "a leaf must answer its own packet; redispatch the step",
  },
  "workspace.result-baseline-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a run's result names another baseline than its packet (a warning when result check already rejected it)",
    hint: "a leaf must answer the candidate its packet froze",
  },
  "workspace.accepted-unanchored": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the ledger says a run was accepted, but result check never anchored an accepted verdict for it",
    hint: "a result.checked line was added by hand; the run was not accepted — redispatch it",
  },
  "workspace.accepted-verdict-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "an accepted run's stored result, or its anchored tree evidence, no longer supports acceptance",
    hint: "an accepted verdict that cannot be re-derived was not earned; redispatch the step",
  },
} as const satisfies Record<string, CodeEntry>;
