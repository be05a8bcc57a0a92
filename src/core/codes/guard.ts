/** The guard hook's rule codes (`src/guard`): each is a deny reason, answered to the host as a hook decision. */

import type { GuardRule } from "../../guard/types.js";
import type { CodeEntry } from "./entry.js";

export const guardCodes = {
  "guard.malformed-input": {
    severity: "error",
    exit: "hook",
    summary: "the hook input (or a tool input) is not what the hosts send",
    hint: "nothing; a wiring problem, reported to the root",
  },
  "guard.input-too-large": {
    severity: "error",
    exit: "hook",
    summary: "a command or patch above the size cap, refused unparsed",
    hint: "split it, or put it in a script file",
  },
  "guard.input-too-complex": {
    severity: "error",
    exit: "hook",
    summary: "a shell call with more simple commands or words than the walk's caps",
    hint: "split it into several calls, or a script file",
  },
  "guard.foreign-write-during-run": {
    severity: "error",
    exit: "hook",
    summary:
      "a foreign agent writes, patches or spawns while a devrites run is active; the reason names the runs",
    hint: "read only; wait until the root finishes the runs (`devrites result check …`)",
  },
  "guard.no-active-packet": {
    severity: "error",
    exit: "hook",
    summary: "no active packet for the role; the reason quotes `devrites packet new`",
    hint: "stop and report; the root creates the packet",
  },
  "guard.ambiguous-packet": {
    severity: "error",
    exit: "hook",
    summary: "more than one active wright run",
    hint: "stop and report; the root closes all but one",
  },
  "guard.unknown-tool": {
    severity: "error",
    exit: "hook",
    summary: "a tool the guard does not know (MCP included)",
    hint: "use Read, Grep, Glob, Bash, Edit or Write",
  },
  "guard.spawn": {
    severity: "error",
    exit: "hook",
    summary: "starting or instructing another agent",
    hint: "do it yourself, or report that a step is needed",
  },
  "guard.devrites-write": {
    severity: "error",
    exit: "hook",
    summary: "writing the devrites workspace, or running the devrites CLI",
    hint: "return the result as the final message",
  },
  "guard.git-mutation": {
    severity: "error",
    exit: "hook",
    summary: "a git command that changes refs, index, objects, config or a remote",
    hint: "report it; the root commits",
  },
  "guard.install": {
    severity: "error",
    exit: "hook",
    summary: "installing, removing, updating or downloading dependencies",
    hint: "report the missing package",
  },
  "guard.publish": {
    severity: "error",
    exit: "hook",
    summary: "publishing or releasing",
    hint: "report it",
  },
  "guard.readonly-write": {
    severity: "error",
    exit: "hook",
    summary: "a read-only role writing a file",
    hint: "describe the change in the result",
  },
  "guard.shell-unclassified": {
    severity: "error",
    exit: "hook",
    summary: "a command the guard cannot parse or that is not allowed for the role",
    hint: "use the simpler form the reason suggests",
  },
  "guard.write-target-unknown": {
    severity: "error",
    exit: "hook",
    summary: "the wright writes somewhere the guard cannot determine",
    hint: "write each file by its literal path",
  },
  "guard.outside-allowlist": {
    severity: "error",
    exit: "hook",
    summary: "the wright writes a path that is not exactly on its allowlist",
    hint: "stay on the allowlist, or ask for a new packet",
  },
  "guard.in-place-edit": {
    severity: "error",
    exit: "hook",
    summary:
      "sandboxed: `sed -i` / `perl -i`, which replace a file through a new one in its folder (read-only in the sandbox, so it would fail)",
    hint: "use Edit/Write (the wright), or describe the change",
  },
  "guard.sandbox-refused": {
    severity: "error",
    exit: "hook",
    summary:
      "the sandbox will not run this shell call as asked (an allowlist entry that is a hard link, a symlink out, under `.git`/`node_modules`/`.claude` …; a rewritten command too long for one argument)",
    hint: "the reason names the path; ask the root for a packet without it, or use Edit/Write",
  },
  "guard.user-deny-rule": {
    severity: "error",
    exit: "hook",
    summary:
      "a leaf's sandboxed shell call matches one of the user's own Claude Code `Bash(…)` deny rules on its original command; the reason names the rule, its settings file and the subcommand (or says the matcher could not tell and counted it as a match)",
    hint: "do not run it; report that it is needed (the rule is the user's)",
  },
  "guard.user-ask-rule": {
    severity: "error",
    exit: "hook",
    summary: "the same, for one of the user's `ask` rules: no one can be asked for a leaf's call",
    hint: "do not run it; report that it is needed (the root can run it, and its host asks the user)",
  },
  "guard.user-rules-unreadable": {
    severity: "error",
    exit: "hook",
    summary:
      "a Claude Code settings file that may hold the user's rules exists but cannot be read, is over 1 MiB, is not JSON, or has a `permissions.deny`/`ask` that is not a list of strings",
    hint: "the reason names the file; the user fixes or removes it",
  },
  "guard.internal-error": {
    severity: "error",
    exit: "hook",
    summary: "the guard failed; it fails closed for leaves",
    hint: "retry once, then report",
  },
} as const satisfies Record<GuardRule, CodeEntry>;
