/**
 * Runs one attack end to end through the CLI and judges it: rejected at its stage with its code (and path),
 * accepted (a hole), or rejected for another reason (the check said something else — a failure too, so a
 * case cannot pass on an unrelated error).
 */

import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROBED_SLACK_MS } from "../../src/baseline/_settle.js";
import { A2, ATTACKS, type Attack, FIXTURE, ignoredFixture } from "./cases.js";
import { AttackRepo, BUILT, type CliOut, codesOf, summary, type Write } from "./harness.js";
import { KNOWN_OPEN } from "./known-open.js";

export interface Outcome {
  packet: CliOut;
  record?: CliOut;
  check?: CliOut;
  validate?: CliOut;
  late?: CliOut;
}

export function runAttack(a: Attack): Outcome {
  const r = AttackRepo.create(FIXTURE);
  try {
    ignoredFixture(r);
    a.setup?.(r);
    if (a.settled) settleBeforePacket(r);
    const wright = a.role !== "scout";
    const role = wright ? "devrites-slice-wright" : "devrites-evidence-scout";
    const allow = wright ? (a.allow ?? ["src/a.ts"]) : [];
    const made = r.packet(role, allow, a.packetExtra ?? []);
    if (!made.packet) return { packet: made.out };
    const p = made.packet;
    const writes: Write[] = [];
    if (wright && a.honest !== false && a.allow === undefined)
      writes.push({ path: "src/a.ts", op: "modify", sha256_after: r.write("src/a.ts", A2) });
    writes.push(...(a.leaf?.(r, p) ?? []));
    const base = r.resultFor(p, writes);
    const record = r.record(p, a.result ? a.result(r, p, base) : base);
    a.afterRecord?.(r, p);
    const check = r.check(p);
    const after = a.afterCheck?.(r, p, check);
    const late = isCliOut(after) ? after : undefined;
    const validate = r.validate();
    return { packet: made.out, record, check, validate, ...(late ? { late } : {}) };
  } finally {
    r.cleanup();
  }
}

/**
 * Put the repository where a run after the first finds it: the workspace folder exists (so `packet new`
 * probes the file system's clock there and creating the folder does not touch the root after the mark), then
 * wait out the probed slack and one more second (an index entry's ctime is judged in whole seconds) without
 * writing in the repository (a file made in a folder unsettles it). Without this every path is too young to
 * be settled and the cases would pass without ever reaching the fast paths they attack.
 */
function settleBeforePacket(r: AttackRepo): void {
  mkdirSync(r.abs(".devrites"), { recursive: true });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PROBED_SLACK_MS + 1_200);
}

function isCliOut(x: unknown): x is CliOut {
  return typeof x === "object" && x !== null && "diagnostics" in x && "code" in x;
}

function acceptedRuns(v: CliOut | undefined): number {
  const checks = (v?.data as { checks?: { name: string; detail?: string }[] } | undefined)?.checks ?? [];
  const m = /(\d+) accepted/.exec(checks.find((c) => c.name === "workspace")?.detail ?? "");
  return m ? Number(m[1]) : 0;
}

export function describeOutcome(o: Outcome): string {
  const parts = [`packet new: ${summary(o.packet)}`];
  if (o.record) parts.push(`result record: ${summary(o.record)}`);
  if (o.check) parts.push(`result check: ${summary(o.check)}`);
  if (o.late) parts.push(`late call: ${summary(o.late)}`);
  if (o.validate) parts.push(`validate: ${summary(o.validate)} (${acceptedRuns(o.validate)} accepted)`);
  return parts.join("\n  ");
}

/** What the stage the case targets decided. */
export function verdict(a: Attack, o: Outcome): "rejected" | "accepted" | "rejected-otherwise" {
  const stageOut = { packet: o.packet, record: o.record, check: o.check, validate: o.validate, late: o.late }[
    a.stage
  ];
  const passed =
    a.stage === "packet"
      ? o.check !== undefined
      : a.stage === "validate"
        ? o.validate?.ok === true
        : (stageOut?.code ?? 1) === 0;
  if (passed) return "accepted";
  const hit = (stageOut?.diagnostics ?? []).some(
    (d) => d.severity === "error" && d.code === a.code && (a.path === undefined || d.path === a.path),
  );
  return hit ? "rejected" : "rejected-otherwise";
}

/** Every attack of the given classes as one test each; controls must pass end to end. */
export function attackSuite(title: string, classes: readonly string[]): void {
  const cases = ATTACKS.filter((a) => classes.includes(a.klass));
  describe.skipIf(!BUILT)(`${title} (needs npm run build)`, () => {
    it.each(cases.map((c) => [c.name, c] as const))(
      "%s",
      (_name, a) => {
        const o = runAttack(a);
        const said = describeOutcome(o);
        const head = `case "${a.name}" [${a.klass}] — tampered: ${a.tampered}\n  `;
        if (a.control) {
          const ok =
            o.check?.code === 0 &&
            codesOf(o.check).length === 0 &&
            o.validate?.ok === true &&
            acceptedRuns(o.validate) === 1;
          expect(
            ok,
            `${head}the honest near miss must be accepted and re-verified by validate; the CLI said:\n  ${said}`,
          ).toBe(true);
          return;
        }
        const v = verdict(a, o);
        const open = KNOWN_OPEN.find((k) => k.name === a.name);
        if (open) {
          expect(
            v,
            `${head}is listed in KNOWN_OPEN (${open.reason}) but is no longer accepted — remove it from the list; the CLI said:\n  ${said}`,
          ).toBe("accepted");
          return;
        }
        expect(
          v,
          `${head}must be rejected at ${a.stage} with ${a.code}${a.path ? ` on ${a.path}` : ""}; the CLI said:\n  ${said}`,
        ).toBe("rejected");
        if (a.stage === "check")
          expect(
            acceptedRuns(o.validate),
            `${head}validate must not count the rejected run as accepted:\n  ${said}`,
          ).toBe(a.acceptedBefore ?? 0);
      },
      180_000,
    );
  });
}
