/**
 * The imperative shell shared by every hook entry point: read stdin (capped), race a deadline, run the
 * handler, print its answer synchronously and exit. Whatever happens — a throw, a rejected promise, an
 * uncaught exception, the deadline — exactly one answer is printed, chosen by the hook (`onDeadline`,
 * `onCrash`): the PreToolUse hook denies, the others step aside.
 */

import { appendFileSync, closeSync, constants, openSync, readSync, writeSync } from "node:fs";
import type { HookAnswer } from "./answer.js";
import { HOOK_DEADLINE_MS, MAX_STDIN_BYTES } from "./limits.js";
import { type ReadableLike, readCapped, readStdinSync, type StdinRead } from "./stdin.js";

export interface HookEnv {
  env: Record<string, string | undefined>;
  /** The hook process's cwd (both hosts start hooks in the session's cwd). */
  cwd: string;
}

export interface HookSpec {
  /** `pre-tool-use`, `subagent-stop`, `user-prompt-submit`: names the hook in logs. */
  name: string;
  /** Deadline in ms since process start; default {@link HOOK_DEADLINE_MS}. */
  deadlineMs?: number;
  handle(read: StdinRead, env: HookEnv): HookAnswer | Promise<HookAnswer>;
  /** The answer when the deadline passes first; `read` is what had arrived (kind `timeout`). */
  onDeadline(read: StdinRead): HookAnswer;
  /** The answer when something threw outside the handler's own error handling. */
  onCrash(error: unknown): HookAnswer;
  /**
   * The handler never returns a promise: when stdin was read synchronously (the Linux fast path), the hook
   * answers without any timer or promise (the hot path of PreToolUse).
   */
  sync?: boolean;
}

export interface RunOptions {
  /** A stream to read, or the input already read (the synchronous fast path). */
  stdin: ReadableLike | StdinRead;
  env: HookEnv;
  /** Deadline in ms since process start (`process.uptime()` time). */
  deadlineMs?: number;
  maxBytes?: number;
  /** Where the answer goes; the default prints and exits the process. */
  finish?: (answer: HookAnswer) => void;
}

/**
 * Run one hook to its single answer. Resolves with the answer (after `finish` was called with it). The
 * default `finish` writes synchronously and calls `process.exit`, so the host sees the exit code at once.
 */
export function runHook(spec: HookSpec, opts: RunOptions): Promise<HookAnswer> {
  const finish = opts.finish ?? exitWith;
  const deadline = opts.deadlineMs ?? spec.deadlineMs ?? HOOK_DEADLINE_MS;
  return new Promise<HookAnswer>((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Answer once; if building the answer throws, the crash answer stands in. */
    const settle = (make: () => HookAnswer) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      let answer: HookAnswer;
      try {
        answer = make();
      } catch (e) {
        answer = spec.onCrash(e);
      }
      resolve(answer);
      finish(answer);
    };
    let reading: ReturnType<typeof readCapped> | undefined;
    timer = setTimeout(
      () => {
        const prefix = reading?.partial() ?? Buffer.alloc(0);
        settle(() => spec.onDeadline({ kind: "timeout", prefix, afterMs: Math.round(uptimeMs()) }));
      },
      Math.max(0, deadline - uptimeMs()),
    );
    const input = opts.stdin;
    if ("kind" in input && input.kind === "timeout") {
      settle(() => spec.onDeadline(input));
      return;
    }
    reading = "kind" in input ? alreadyRead(input) : readCapped(input, opts.maxBytes ?? MAX_STDIN_BYTES);
    reading
      .then(async (read) => {
        if (done) return;
        logInput(opts.env, spec.name, read);
        const answer = await spec.handle(read, opts.env);
        settle(() => answer);
      })
      .catch((e: unknown) => settle(() => spec.onCrash(e)));
  });
}

/** The process entry: run `spec` on the real stdin and exit with its answer. Installs last-resort handlers. */
export function runtimeMain(spec: HookSpec): void {
  let answered = false;
  const last = (e: unknown) => {
    if (answered) return;
    answered = true;
    exitWith(safe(() => spec.onCrash(e)));
  };
  process.on("uncaughtException", last);
  process.on("unhandledRejection", last);
  const fast = readStdinSync(
    MAX_STDIN_BYTES,
    Math.min(spec.deadlineMs ?? HOOK_DEADLINE_MS, HOOK_DEADLINE_MS) / 1000,
    {
      openSync,
      readSync,
      closeSync,
      constants,
    },
  );
  const env: HookEnv = { env: process.env, cwd: safe(() => process.cwd(), "") };
  if (fast !== undefined && spec.sync) {
    answered = true;
    exitWith(answerNow(spec, fast, env));
  }
  void runHook(spec, {
    stdin: fast ?? process.stdin,
    env,
    finish: (a) => {
      answered = true;
      exitWith(a);
    },
  });
}

/**
 * What a hook bundle exports (`module.exports`) for the generated launcher, which loads it in its own process:
 * answer one call from the stdin bytes the launcher already read. Returns the answer, or a promise of it for
 * hooks that are not `sync`; the promise settles by the hook's own deadline (the answer `onDeadline` gives).
 * Never prints or exits: the launcher checks the answer, prints it and exits, and fails closed when this throws
 * or returns anything else.
 */
export type HookFunction = (input: Uint8Array | string) => HookAnswer | Promise<HookAnswer>;

export function hookFunction(spec: HookSpec, maxBytes: number = MAX_STDIN_BYTES): HookFunction {
  return (input) => {
    const bytes =
      typeof input === "string"
        ? Buffer.from(input, "utf8")
        : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const read: StdinRead =
      bytes.length > maxBytes
        ? { kind: "too-large", prefix: bytes.subarray(0, maxBytes), maxBytes }
        : { kind: "ok", bytes };
    const env: HookEnv = { env: process.env, cwd: safe(() => process.cwd(), "") };
    if (spec.sync) return answerNow(spec, read, env);
    return runHook(spec, { stdin: read, env, finish: () => {} });
  };
}

/**
 * A bundle's entry point. Run directly (`node hooks/<entry>.cjs`, `main` true) it reads stdin and exits with the
 * answer ({@link runtimeMain}); loaded by the launcher it only exports {@link hookFunction}.
 */
export function hookEntry(spec: HookSpec, mod: { exports: unknown }, main: boolean): void {
  if (main) runtimeMain(spec);
  else mod.exports = hookFunction(spec);
}

/** The synchronous path: the input is read, the handler is synchronous; same answers as {@link runHook}. */
export function answerNow(spec: HookSpec, read: StdinRead, env: HookEnv): HookAnswer {
  try {
    if (read.kind === "timeout") return spec.onDeadline(read);
    logInput(env, spec.name, read);
    const answer = spec.handle(read, env);
    if (typeof (answer as Partial<Promise<HookAnswer>>).then === "function") {
      return spec.onCrash(new Error(`hook ${spec.name} is marked sync but returned a promise`));
    }
    return answer as HookAnswer;
  } catch (e) {
    return spec.onCrash(e);
  }
}

function alreadyRead(read: StdinRead): ReturnType<typeof readCapped> {
  const empty = Buffer.alloc(0);
  return Object.assign(Promise.resolve(read), {
    partial: () => (read.kind === "ok" ? read.bytes : read.kind === "error" ? empty : read.prefix),
  });
}

function uptimeMs(): number {
  return process.uptime() * 1000;
}

function safe<T>(f: () => T, fallback?: T): T {
  try {
    return f();
  } catch (e) {
    if (fallback !== undefined) return fallback;
    throw e;
  }
}

/** Print synchronously (fd writes; retried on EAGAIN) and exit with the answer's code. */
export function exitWith(answer: HookAnswer): never {
  writeAll(1, answer.stdout);
  writeAll(2, answer.stderr);
  process.exit(answer.exitCode);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, text: string): void {
  if (text === "") return;
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  for (let tries = 0; off < buf.length && tries < 1000; tries++) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return; // the reader is gone: nothing to tell
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * `DEVRITES_HOOK_LOG=<file>`: append one JSON line per hook run, `{hook, ts, kind, bytes, stdin}` with the raw
 * input as text (for end-to-end tests asserting what the host sent). Failures to log are ignored.
 */
function logInput(env: HookEnv, hook: string, read: StdinRead): void {
  const file = env.env.DEVRITES_HOOK_LOG;
  if (!file) return;
  try {
    const bytes = read.kind === "ok" ? read.bytes : read.kind === "error" ? Buffer.alloc(0) : read.prefix;
    const line = {
      hook,
      ts: new Date().toISOString(),
      kind: read.kind,
      bytes: bytes.length,
      stdin: bytes.toString("utf8"),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // test aid only
  }
}
