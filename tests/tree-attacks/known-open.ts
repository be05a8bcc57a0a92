/**
 * Attacks the tree check currently ACCEPTS although it should not. Each entry names a case in cases.ts, says
 * why it gets through and how serious it is. The suite asserts every listed case is still accepted, so fixing
 * a hole fails the suite until its entry is removed (the list cannot go stale); every case not listed must be
 * rejected with its code. `repro` is the shortest shell reproduction after `devrites packet new`.
 */

export interface OpenCase {
  name: string;
  severity: "high" | "medium" | "low";
  reason: string;
  repro: string;
}

export const KNOWN_OPEN: OpenCase[] = [
  {
    name: "records: allowlist widened with the anchor in .git rewritten too",
    severity: "high",
    reason:
      "the anchor is plain JSON (no key, no MAC) under <git-dir>/devrites/anchors; a leaf that can write .git " +
      "recomputes packet_sha256, baseline_sha256 and the canonical packet in it; the binding rests entirely on " +
      "an OS sandbox keeping .git read-only, which the validator neither has nor checks",
    repro:
      "rewrite packet.json allowlist (+src/b.ts), baseline.json touched, packet.created digests and " +
      "<git-dir>/devrites/anchors/<run>.json consistently; edit src/b.ts; declare it → result check exit 0",
  },
  {
    name: "records: accepted verdict forged in the ledger and in the anchored verdicts (.git)",
    severity: "high",
    reason:
      "validate re-derives acceptance from the anchored verdict's changed_paths, which the attacker writes; " +
      "verdicts.jsonl is as unauthenticated as the anchor, so a rejected run becomes accepted in validate",
    repro:
      "after result check rejects, append a result.checked {verdict: accepted, codes: []} to events.jsonl and " +
      "{verdict: accepted, codes: [], changed_paths: [src/a.ts]} to <git-dir>/devrites/anchors/<run>.verdicts.jsonl → validate exit 0",
  },
  {
    name: "workspace: a forged decision with the records journal in .git rewritten too",
    severity: "high",
    reason:
      "the records journal is plain JSON beside the anchor (no key, no MAC); a leaf that can write .git appends " +
      "a step that ends where its forgery left the file; like the anchor, it rests on the sandbox keeping .git read-only",
    repro:
      "append a decision to .devrites/decisions.jsonl and {file, from, to} with its digests to " +
      "<git-dir>/devrites/anchors/<run>.records.jsonl → result check exit 0",
  },
  {
    name: "adapters: guard bundle replaced, sidecars deleted, install.json re-digested (validate)",
    severity: "medium",
    reason:
      "validate compares managed files with install.json, but install.json is itself writable and not bound to " +
      "anything; dropping the sidecars from it and re-digesting the no-op bundle passes validate (a leaf doing " +
      "this during a run is still caught by result check: .devrites/hooks/ is baselined)",
    repro:
      "write a no-op .devrites/hooks/pre-tool-use.cjs, delete *.devrites-generated.json, update install.json " +
      "(drop sidecars, new sha256) → validate exit 0",
  },
  {
    name: "hard link: a tracked file outside the allowlist linked from outside the repository",
    severity: "low",
    reason:
      "link counts are checked on allowlisted paths only; a link to src/b.ts from outside the repository lets a " +
      "later writer of that path change src/b.ts after the check",
    repro: "ln src/b.ts ../backdoor → result check exit 0",
  },
  {
    name: "race: a process left by the leaf changes the tree after acceptance",
    severity: "medium",
    reason:
      "inherent to detection: a change after result check is indistinguishable from the user's own edit, and " +
      "validate does not re-snapshot the tree; only process containment (the sandbox ending the leaf's " +
      "processes) closes it",
    repro: "after result check exit 0, edit src/b.ts → validate exit 0",
  },
];
