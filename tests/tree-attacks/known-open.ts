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
    name: "index: stat cache forged so a rewritten tracked file looks clean",
    severity: "high",
    reason:
      "the check sees tracked files only through git status, which trusts the index's stat cache; the index file " +
      "itself is not in the baseline (only ls-files -v flags and mode/blob of listed paths), so an entry given " +
      "the new file's ctime/mtime/ino/size with the old blob id (trailer SHA-1 recomputed) hides any content change",
    repro:
      "edit src/b.ts; set its mtime 30 s back; rewrite its .git/index entry's stat fields to the file's lstat " +
      "(keep the blob id), recompute the trailing SHA-1 → git status clean; result check exit 0",
  },
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
    name: "submodule: a hook planted in .git/modules/sub",
    severity: "high",
    reason:
      "a clean submodule is not listed by git status, so it is never recursed into, and its git dir " +
      ".git/modules/sub/ lies outside what the baseline reads of .git (HEAD, config, hooks/, info/, refs, " +
      "alternates); the hook runs on the user's next checkout/commit inside the submodule",
    repro: "write .git/modules/sub/hooks/post-checkout → result check exit 0",
  },
  {
    name: "submodule: .git/modules/sub/config changed",
    severity: "high",
    reason:
      "same blind spot: .git/modules/sub/config is not baselined; core.fsmonitor there runs a command on the " +
      "user's next git status in the superproject (status recurses into submodules)",
    repro: "git -C sub config core.fsmonitor ./evil.sh → result check exit 0",
  },
  {
    name: "nested: a repository hidden inside a tracked folder (src/.git)",
    severity: "high",
    reason:
      "git never lists a .git folder and does not treat a folder holding tracked files as a nested repository, " +
      "so src/.git is invisible to git status and the baseline; any git command run inside src/ (the user's, " +
      "an editor's) then uses the planted repository's config — core.fsmonitor runs a command",
    repro:
      "git init src && git -C src config core.fsmonitor ./evil.sh → result check exit 0, validate exit 0",
  },
  {
    name: "workspace: a user decision forged in .devrites/decisions.jsonl",
    severity: "high",
    reason:
      "questions.jsonl and decisions.jsonl are the CLI's records and are left out of the baseline, but a leaf can " +
      "append to them: a forged human answer (raised + answered + decision) is accepted by check and validate",
    repro:
      "append a raised and an answered line to .devrites/questions.jsonl and a {source: human, qid} decision to " +
      ".devrites/decisions.jsonl → result check exit 0, validate exit 0",
  },
  {
    name: "workspace: .devrites/state.json rewritten by the leaf",
    severity: "medium",
    reason:
      "state.json is a CLI record, excluded from the baseline; a valid rewrite (another active rite) passes",
    repro: "set active_rite to rite-quick in .devrites/state.json → result check exit 0, validate exit 0",
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
    name: "git: a rebase in progress planted with an exec step",
    severity: "medium",
    reason:
      ".git/rebase-merge/ (and rebase-apply/, sequencer/) are not baselined; `git rebase --continue` by the user " +
      "runs the planted exec line",
    repro:
      "create .git/rebase-merge/{head-name,onto,orig-head,interactive,git-rebase-todo='exec touch pwned'} → exit 0",
  },
  {
    name: "git: MERGE_HEAD planted (the next commit becomes a merge with the attacker's parent)",
    severity: "medium",
    reason:
      ".git/MERGE_HEAD / MERGE_MSG are not baselined; the user's next commit records an attacker-chosen parent",
    repro: "echo $(git commit-tree HEAD^{tree} -m x) > .git/MERGE_HEAD → result check exit 0",
  },
  {
    name: "git: a config include file under .git edited",
    severity: "medium",
    reason:
      "only .git/config and config.worktree are baselined; a file the user's config includes (include.path) " +
      "is not, so core.hooksPath or core.fsmonitor can be set through it",
    repro: "with include.path=extra.cfg set by the user, write .git/extra.cfg [core] hooksPath=… → exit 0",
  },
  {
    name: "git: .git/shallow planted (history cut)",
    severity: "low",
    reason: ".git/shallow is not baselined; it hides history from log/blame/merge-base",
    repro: "git rev-parse HEAD > .git/shallow → result check exit 0",
  },
  {
    name: "git: a linked worktree added (.git/worktrees/)",
    severity: "low",
    reason:
      ".git/worktrees/ is not baselined and a detached worktree adds no ref; it plants a checkout outside the " +
      "repository that shares hooks and config",
    repro: "git worktree add --detach ../wt2 → result check exit 0",
  },
  {
    name: "workspace: a file planted among the run folders",
    severity: "low",
    reason: ".devrites/runs/ is excluded wholesale; validate only warns (workspace.stray-entry)",
    repro: "write .devrites/runs/payload.sh → result check exit 0, validate exit 0 with a warning",
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
