/**
 * The attack corpus, judged by effects: every case runs end to end for each host's hook input (the generated
 * hook decides, the command the host would run is run) and must change nothing outside the role's scope,
 * create no marker, open no connection, kill nothing and get its answer within the hook's budget. Controls
 * must keep working. Cases in KNOWN_OPEN must still have an effect (so the list cannot go stale).
 *
 * Needs the built CLI (`npm run build`). `DEVRITES_ATTACK_HOSTS=claude` narrows the hosts;
 * `DEVRITES_ATTACK_ONLY=id,id` the cases; `DEVRITES_ATTACK_REPORT=<file>` writes every report as JSON lines.
 */

import { appendFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACK_CLASSES, CORPUS, KNOWN_OPEN } from "./corpus.js";
import {
  type CaseDirs,
  type CaseReport,
  createLab,
  describeReport,
  HOSTS,
  type Host,
  type Lab,
  lateEffects,
  removeCaseRepo,
  runCase,
} from "./harness.js";

const hosts = (process.env.DEVRITES_ATTACK_HOSTS?.split(",") ?? HOSTS) as Host[];
const only = process.env.DEVRITES_ATTACK_ONLY?.split(",");
const cases = only ? CORPUS.filter((c) => only.includes(c.id)) : CORPUS;
const reportFile = process.env.DEVRITES_ATTACK_REPORT;

let lab: Lab;
const done: { report: CaseReport; dirs: CaseDirs }[] = [];

beforeAll(async () => {
  lab = await createLab();
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

describe("the corpus itself", () => {
  it("has at least 60 cases, unique ids, known classes, and every KNOWN_OPEN entry names a case", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    const ids = CORPUS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CORPUS) expect(ATTACK_CLASSES).toContain(c.class);
    for (const id of Object.keys(KNOWN_OPEN)) expect(ids, `KNOWN_OPEN names no case: ${id}`).toContain(id);
    for (const c of CORPUS) {
      expect(c.class === "control", `${c.id}: a control has an expectation, an attack has none`).toBe(
        c.control !== undefined,
      );
    }
  });

  it("covers every class with at least one case and every role", () => {
    for (const k of ATTACK_CLASSES)
      expect(
        CORPUS.some((c) => c.class === k),
        k,
      ).toBe(true);
    for (const role of ["devrites-evidence-scout", "devrites-proof-runner", "devrites-slice-wright"]) {
      expect(
        CORPUS.some((c) => c.role === role && c.class !== "control"),
        role,
      ).toBe(true);
      expect(
        CORPUS.some((c) => c.role === role && c.class === "control"),
        role,
      ).toBe(true);
    }
  });
});

for (const host of hosts) {
  describe(`attack corpus, ${host} hook input`, () => {
    for (const c of cases) {
      it(`${c.id} [${c.class}] ${c.role}`, async () => {
        const r = await runCase(lab, c, host);
        done.push({ report: r, dirs: r.dirs });
        removeCaseRepo(r.dirs);
        if (reportFile) {
          const { dirs: _dirs, ...plain } = r;
          appendFileSync(reportFile, `${JSON.stringify(plain)}\n`);
        }
        const line = describeReport(r);
        const failures = r.controlFailures.map((f) => `control: ${f}`);
        expect(r.droppedFields, `${line}\nthe rewrite dropped tool_input fields`).toEqual([]);
        if (KNOWN_OPEN[c.id] !== undefined) {
          // Known to fail today: it must still fail, else the entry is stale.
          expect(
            [...r.effects, ...failures].length,
            `${c.id} is in KNOWN_OPEN (${KNOWN_OPEN[c.id]}) but passed on ${host}: remove it from KNOWN_OPEN\n${line}`,
          ).toBeGreaterThan(0);
        } else {
          expect([...r.effects, ...failures], line).toEqual([]);
        }
      }, 90_000);
    }
  });
}

describe("after the corpus", () => {
  it("no case left an effect behind that appeared after it ended", async () => {
    await new Promise((ok) => setTimeout(ok, 3000));
    const late = done
      .map(({ report, dirs }) => ({ report, late: lateEffects(dirs) }))
      .filter((x) => x.late.length > 0 && KNOWN_OPEN[x.report.id] === undefined)
      .map((x) => `${x.report.id} [${x.report.class}] on ${x.report.host}:\n    ${x.late.join("\n    ")}`);
    expect(late).toEqual([]);
  }, 30_000);

  it("summary (printed): effects per class, slowest hook", () => {
    const byClass = new Map<string, { cases: number; withEffect: number }>();
    for (const { report } of done) {
      const k = `${report.class} (${report.host})`;
      const v = byClass.get(k) ?? { cases: 0, withEffect: 0 };
      v.cases++;
      if (report.effects.length > 0) v.withEffect++;
      byClass.set(k, v);
    }
    const slowest = [...done].sort((a, b) => b.report.hookMs - a.report.hookMs)[0]?.report;
    const lines = [...byClass].map(([k, v]) => `${k}: ${v.withEffect}/${v.cases} with an effect`);
    if (slowest)
      lines.push(`slowest hook: ${slowest.id} on ${slowest.host}, ${Math.round(slowest.hookMs)} ms`);
    console.info(`attack corpus summary\n${lines.join("\n")}`);
    expect(done.length).toBe(cases.length * hosts.length);
  });
});
