import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { GuardDecision } from "../guard/index.js";
import { makeRepo, runId } from "./fixtures.js";
import { parseBytes } from "./input.js";
import { handlePreToolUse, type PreToolUseDeps } from "./pre-tool-use.js";

const repo = makeRepo([{ role: "devrites-evidence-scout", run_id: runId(1) }]);
afterAll(() => repo.cleanup());

/** Guards that fail in every way a buggy policy could: throw, return nothing, return nonsense. */
const brokenGuard = fc.oneof(
  fc.constant<() => unknown>(() => {
    throw new Error("boom");
  }),
  fc.constant<() => unknown>(() => {
    throw "a string";
  }),
  fc.constant<() => unknown>(() => undefined),
  fc.constant<() => unknown>(() => null),
  fc.anything().map((v) => () => v),
  fc.constant<() => unknown>(() => ({ decision: "deny" })),
  fc.constant<() => unknown>(() => ({ decision: "Allow", caller: "leaf" })),
);

function deps(decide: () => unknown): PreToolUseDeps {
  return { decide: decide as () => GuardDecision, now: () => new Date("2026-11-29T23:00:00.000Z") };
}

const env = { env: {}, cwd: repo.root };

/** Host-like inputs with arbitrary extra fields and values, from a leaf (agent_type present, any value). */
const leafInput = fc
  .record({
    agent_type: fc.oneof(
      fc.string(),
      fc.constant("devrites:devrites-evidence-scout"),
      fc.anything().filter((x) => x !== undefined),
    ),
    tool_name: fc.oneof(fc.string(), fc.constantFrom("Write", "Bash", "Agent", "apply_patch"), fc.anything()),
    tool_input: fc.anything(),
    cwd: fc.oneof(fc.constant(repo.root), fc.string(), fc.anything()),
  })
  .chain((base) => fc.dictionary(fc.string(), fc.anything()).map((extra) => ({ ...extra, ...base })));

describe("handlePreToolUse properties", () => {
  it("a leaf never gets an allow from a broken guard", () => {
    fc.assert(
      fc.property(leafInput, brokenGuard, (input, decide) => {
        const a = handlePreToolUse(
          { kind: "ok", bytes: Buffer.from(JSON.stringify(input)) },
          env,
          deps(decide),
        );
        expect(a.exitCode).toBe(2);
        expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
        expect(a.stderr).toMatch(/\[guard\.[a-z-]+\]/);
      }),
      { numRuns: 300 },
    );
  });

  it("whatever bytes arrive, the answer is exit 0 or 2, and 0 only for a parseable root call", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 512 }),
      fc.string().map((s) => new TextEncoder().encode(s)),
      fc.json().map((s) => new TextEncoder().encode(s)),
      leafInput.map((v) => new TextEncoder().encode(JSON.stringify(v).slice(0, -1))), // truncated
    );
    fc.assert(
      fc.property(bytes, brokenGuard, (b, decide) => {
        const a = handlePreToolUse({ kind: "ok", bytes: Buffer.from(b) }, env, deps(decide));
        expect([0, 2]).toContain(a.exitCode);
        if (a.exitCode === 0) {
          const parsed = parseBytes(b);
          expect(parsed.ok && parsed.caller).toBe("root");
          expect(a.stdout).toBe("");
        } else {
          expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a guard that works is obeyed: its allow is exit 0 with no output, its deny is exit 2", () => {
    fc.assert(
      fc.property(leafInput, fc.boolean(), (input, allow) => {
        const decision: GuardDecision = allow
          ? { decision: "allow", caller: "leaf" }
          : { decision: "deny", rule: "guard.spawn", reason: "no spawning" };
        const a = handlePreToolUse(
          { kind: "ok", bytes: Buffer.from(JSON.stringify({ ...input, cwd: repo.root })) },
          env,
          deps(() => decision),
        );
        expect(a.exitCode).toBe(allow ? 0 : 2);
        if (allow) expect(a.stdout).toBe("");
      }),
      { numRuns: 100 },
    );
  });
});
