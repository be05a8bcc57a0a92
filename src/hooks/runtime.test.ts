import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { makeTree } from "../../tests/helpers/temp-tree.js";
import { denyAnswer, type HookAnswer, SILENT } from "./answer.js";
import { answerNow, type HookSpec, hookEntry, hookFunction, runHook } from "./runtime.js";

function spec(over: Partial<HookSpec> = {}): HookSpec {
  return {
    name: "test",
    handle: () => SILENT,
    onDeadline: (read) => denyAnswer("guard.malformed-input", `deadline ${read.kind}`),
    onCrash: (e) => denyAnswer("guard.internal-error", `crash ${(e as Error)?.message}`),
    ...over,
  };
}

async function run(
  s: HookSpec,
  stdin: Readable | EventEmitter,
  extra: { deadlineMs?: number; env?: Record<string, string> } = {},
) {
  const finished: HookAnswer[] = [];
  const answer = await runHook(s, {
    stdin: stdin as Readable,
    env: { env: extra.env ?? {}, cwd: "/" },
    deadlineMs: extra.deadlineMs ?? process.uptime() * 1000 + 5_000,
    finish: (a) => finished.push(a),
  });
  return { answer, finished };
}

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

describe("runHook", () => {
  it("hands the whole input to the handler and finishes once with its answer", async () => {
    let got = "";
    const r = await run(
      spec({
        handle: (read) => {
          got = read.kind === "ok" ? read.bytes.toString() : read.kind;
          return { exitCode: 0, stdout: "ctx\n", stderr: "" };
        },
      }),
      Readable.from([Buffer.from('{"a":'), Buffer.from("1}")]),
    );
    expect(got).toBe('{"a":1}');
    expect(r.finished).toEqual([{ exitCode: 0, stdout: "ctx\n", stderr: "" }]);
  });

  it("answers with onDeadline when stdin never ends, passing what had arrived", async () => {
    const open = new EventEmitter();
    const p = run(spec(), open, { deadlineMs: process.uptime() * 1000 + 50 });
    open.emit("data", Buffer.from('{"agent_type":'));
    const r = await p;
    expect(r.finished).toHaveLength(1);
    expect(r.answer.exitCode).toBe(2);
    expect(r.answer.stderr).toContain("deadline timeout");
  });

  it("a deadline already past still answers exactly once", async () => {
    const r = await run(spec(), new EventEmitter(), { deadlineMs: 0 });
    expect(r.finished).toHaveLength(1);
    expect(r.answer.stderr).toContain("deadline");
  });

  it("answers with onCrash when the handler throws or rejects", async () => {
    const thrown = await run(
      spec({
        handle: () => {
          throw new Error("sync");
        },
      }),
      Readable.from([]),
    );
    expect(thrown.answer.stderr).toContain("crash sync");
    const rejected = await run(spec({ handle: () => Promise.reject(new Error("async")) }), Readable.from([]));
    expect(rejected.answer.stderr).toContain("crash async");
    expect(rejected.finished).toHaveLength(1);
  });

  it("a handler slower than the deadline loses: the deadline answer stands", async () => {
    const r = await run(
      spec({ handle: () => new Promise<HookAnswer>((res) => setTimeout(() => res(SILENT), 200)) }),
      Readable.from([Buffer.from("{}")]),
      { deadlineMs: process.uptime() * 1000 + 30 },
    );
    expect(r.answer.exitCode).toBe(2);
    await new Promise((res) => setTimeout(res, 250));
    expect(r.finished).toHaveLength(1);
  });

  it("a stream that throws on subscribe reaches the handler as a read error", async () => {
    const bad = {
      on() {
        throw new Error("no stdin");
      },
    };
    const r = await run(
      spec({ handle: (read) => denyAnswer("guard.malformed-input", JSON.stringify(read)) }),
      bad as unknown as EventEmitter,
    );
    expect(r.answer.stderr).toContain('"kind":"error","message":"no stdin"');
  });

  it("DEVRITES_HOOK_LOG appends one JSON line per run with the raw input", async () => {
    const t = makeTree({});
    cleanups.push(t.cleanup);
    const log = join(t.base, "hook.log");
    await run(spec(), Readable.from([Buffer.from('{"x":1}')]), { env: { DEVRITES_HOOK_LOG: log } });
    await run(spec(), Readable.from([Buffer.from("not json")]), { env: { DEVRITES_HOOK_LOG: log } });
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.hook, l.kind, l.stdin, l.bytes])).toEqual([
      ["test", "ok", '{"x":1}', 7],
      ["test", "ok", "not json", 8],
    ]);
  });

  it("an unwritable DEVRITES_HOOK_LOG does not change the answer", async () => {
    const r = await run(spec(), Readable.from([Buffer.from("{}")]), {
      env: { DEVRITES_HOOK_LOG: "/nonexistent-dir/x/y.log" },
    });
    expect(r.answer).toEqual(SILENT);
  });
});

describe("answerNow (the synchronous path)", () => {
  const env = { env: {}, cwd: "/" };
  const ok = { kind: "ok" as const, bytes: Buffer.from("{}") };

  it("returns the handler's answer", () => {
    expect(answerNow(spec({ handle: () => ({ exitCode: 0, stdout: "x\n", stderr: "" }) }), ok, env)).toEqual({
      exitCode: 0,
      stdout: "x\n",
      stderr: "",
    });
  });

  it("a read that timed out gets the deadline answer without calling the handler", () => {
    let called = false;
    const a = answerNow(
      spec({
        handle: () => {
          called = true;
          return SILENT;
        },
      }),
      { kind: "timeout", prefix: Buffer.from("{"), afterMs: 3000 },
      env,
    );
    expect(called).toBe(false);
    expect(a.stderr).toContain("deadline timeout");
  });

  it("a throw, or a promise from a handler marked sync, is the crash answer", () => {
    const thrown = answerNow(
      spec({
        handle: () => {
          throw new Error("sync boom");
        },
      }),
      ok,
      env,
    );
    expect(thrown.stderr).toContain("crash sync boom");
    const promised = answerNow(spec({ handle: () => Promise.resolve(SILENT) }), ok, env);
    expect(promised.exitCode).toBe(2);
    expect(promised.stderr).toContain("marked sync but returned a promise");
  });
});

describe("hookFunction (what a bundle exports for the launcher)", () => {
  const seen = (over: Partial<HookSpec> = {}) => {
    const got: string[] = [];
    const s = spec({
      handle: (read) => {
        got.push(read.kind === "ok" ? `ok:${read.bytes.toString("utf8")}` : read.kind);
        return { exitCode: 0, stdout: "yes\n", stderr: "" };
      },
      ...over,
    });
    return { s, got };
  };

  it("a sync hook answers at once from bytes or text, without a promise", () => {
    const { s, got } = seen({ sync: true });
    const f = hookFunction(s);
    expect(f(Buffer.from('{"a":1}'))).toEqual({ exitCode: 0, stdout: "yes\n", stderr: "" });
    expect(f('{"b":2}')).toEqual({ exitCode: 0, stdout: "yes\n", stderr: "" });
    expect(got).toEqual(['ok:{"a":1}', 'ok:{"b":2}']);
  });

  it("input over the cap reaches the handler as too-large, with the capped prefix", () => {
    let prefix = "";
    const f = hookFunction(
      spec({
        sync: true,
        handle: (read) => {
          prefix = read.kind === "too-large" ? read.prefix.toString() : read.kind;
          return SILENT;
        },
      }),
      4,
    );
    f(Buffer.from("12345"));
    expect(prefix).toBe("1234");
    f(Buffer.from("1234"));
    expect(prefix).toBe("ok");
  });

  it("a sync hook that throws gives the crash answer, not a throw", () => {
    const f = hookFunction(
      spec({
        sync: true,
        handle: () => {
          throw new Error("boom");
        },
      }),
    );
    const a = f("{}") as HookAnswer;
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("crash boom");
  });

  it("an async hook answers with a promise; past its deadline the deadline answer stands", async () => {
    const { s } = seen();
    await expect(hookFunction(s)("{}")).resolves.toEqual({ exitCode: 0, stdout: "yes\n", stderr: "" });
    const slow = spec({ deadlineMs: 0, handle: () => new Promise<HookAnswer>(() => {}) });
    const late = await hookFunction(slow)("{}");
    expect(late.exitCode).toBe(2);
    expect(late.stderr).toContain("deadline");
  });
});

describe("hookEntry", () => {
  it("loaded by the launcher (not main), it only sets module.exports to the hook function", () => {
    const mod: { exports: unknown } = { exports: {} };
    hookEntry(spec({ sync: true }), mod, false);
    expect(typeof mod.exports).toBe("function");
    expect((mod.exports as (i: string) => HookAnswer)("{}")).toEqual(SILENT);
  });
});
