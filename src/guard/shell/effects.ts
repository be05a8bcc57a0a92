/**
 * What a shell command does, as far as the guard is concerned. Classification is role-independent; the policy
 * (../policy.ts) turns effects into a decision for the calling role.
 */

import type { Word } from "./parse.js";

/** A directory the command may run in; null when the guard cannot tell (after `cd "$x"`, `popd`, …). */
export type Cwd = string | null;

export type DenyRule =
  | "guard.spawn"
  | "guard.devrites-write"
  | "guard.git-mutation"
  | "guard.install"
  | "guard.publish"
  | "guard.in-place-edit"
  | "guard.shell-unclassified"
  | "guard.input-too-complex";

export type Effect =
  /** Sets a shell or environment variable (assignment, `export`, `read`, `for`). */
  | { kind: "env"; name: string; value?: Word; what: string }
  /** Runs a program whose behaviour the guard cannot see (allowed for the wright only). */
  | { kind: "exec"; what: string; why: string }
  /** Runs a proof command: tests, type checks, linters in check mode (the proof runner and the wright). */
  | { kind: "test"; what: string }
  /**
   * Writes, creates or deletes the file (or, with `dir`, the directory) `target`, relative to each of `cwds`.
   * `sink` marks a write *into* an open file (a redirect, `tee`, `dd of=`): only then is a device such as
   * `/dev/null` harmless. As an operand of `rm`, `mv`, `ln`, `chmod`… a device path is replaced or changed.
   */
  | { kind: "write"; target: Word; cwds: Cwd[]; dir?: boolean; sink?: boolean; what: string }
  /** Writes somewhere the guard cannot determine. */
  | { kind: "write-unknown"; what: string; why: string }
  /** Forbidden for every leaf, or not classifiable. */
  | { kind: "deny"; rule: DenyRule; what: string; why: string; hint: string };

export const exec = (what: string, why: string): Effect => ({ kind: "exec", what, why });
export const test = (what: string): Effect => ({ kind: "test", what });
export const writeUnknown = (what: string, why: string): Effect => ({ kind: "write-unknown", what, why });
export const writes = (what: string, targets: readonly Word[], cwds: Cwd[], dir = false): Effect[] =>
  targets.map((target) => ({ kind: "write", target, cwds, dir, what }));
/** Writes *into* `targets` as open files (redirects, `tee`, `dd of=`): a device target is harmless. */
export const sinks = (what: string, targets: readonly Word[], cwds: Cwd[]): Effect[] =>
  targets.map((target) => ({ kind: "write", target, cwds, sink: true, what }));
export const deny = (rule: DenyRule, what: string, why: string, hint: string): Effect => ({
  kind: "deny",
  rule,
  what,
  why,
  hint,
});
export const unclassified = (what: string, why: string, hint: string): Effect =>
  deny("guard.shell-unclassified", what, why, hint);
