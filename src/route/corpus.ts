/**
 * Per-rite routing corpora: `pack/.claude/skills/<rite>/routing.json` holds phrasings that must route to the
 * rite and phrasings that must not. `evaluateCorpora` (pure) runs them through the router; `loadCorpora`
 * reads them (the only I/O here).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { type Diagnostic, error } from "../core/diagnostics.js";
import { route } from "./route.js";
import type { NegativeCase, RiteCard, RouteResult, RoutingCorpus } from "./types.js";

export type { NegativeCase, RoutingCase, RoutingCorpus } from "./types.js";

export const ROUTING_SCHEMA = "devrites-routing/v1";

const caseSchema = z
  .strictObject({
    text: z.string().min(1),
    active: z
      .string()
      .nullable()
      .describe("The active rite when the phrase is said (null or absent: no journey).")
      .optional(),
  })
  .describe("A phrasing a user might say.");

/**
 * `routing.json` next to a rite's SKILL.md: the one source of its parser, its type (`RoutingCorpus`) and its
 * JSON Schema (`schemas/devrites-routing.v1.schema.json`, `npm run schemas`).
 */
export const routingCorpusSchema = z
  .strictObject({
    schema: z.literal(ROUTING_SCHEMA),
    rite: z
      .string()
      .regex(/^rite(-[a-z0-9]+)*$/u)
      .describe("The rite this corpus guards (its folder name)."),
    positive: z.array(caseSchema).min(6).describe("Phrasings that must route here (at least six)."),
    negative: z
      .array(
        caseSchema
          .extend({
            expect: z
              .string()
              .describe(
                "Where it must go instead: a rite name, or `clarify` (the router must ask). Absent: anywhere else.",
              )
              .optional(),
          })
          .describe("A phrasing that must not route to the corpus's rite."),
      )
      .min(1)
      .describe("Phrasings that must not route here."),
  })
  .describe("`routing.json` next to a rite's SKILL.md.");

export interface CaseOutcome {
  kind: "positive" | "negative";
  text: string;
  active: string | null;
  expected: string;
  got: RouteResult;
  pass: boolean;
}

export interface RiteAccuracy {
  rite: string;
  total: number;
  passed: number;
  accuracy: number;
  failures: CaseOutcome[];
}

export interface EvalReport {
  rites: RiteAccuracy[];
  total: number;
  passed: number;
  accuracy: number;
}

/** Did the router take the rite (a real route, not a clarifying question asked from it)? */
export function took(r: RouteResult, rite: string): boolean {
  return r.rite === rite && r.reason !== "clarify";
}

/** Judge one case. A clarifying question is never a wrong write: it passes a negative case. */
export function judgeCase(
  corpus: Pick<RoutingCorpus, "rite">,
  c: NegativeCase,
  kind: "positive" | "negative",
  cards: readonly RiteCard[],
): CaseOutcome {
  const active = c.active ?? null;
  const activeCard = cards.find((x) => x.name === active);
  const got = route(c.text, cards, { active_rite: active, phase: activeCard?.phase ?? null });
  let pass: boolean;
  let expected: string;
  if (kind === "positive") {
    expected = corpus.rite;
    pass = took(got, corpus.rite);
  } else {
    expected = c.expect ?? `not ${corpus.rite}`;
    const avoided = !took(got, corpus.rite);
    if (c.expect === undefined) pass = avoided;
    else if (c.expect === "clarify") pass = got.reason === "clarify";
    else pass = avoided && took(got, c.expect);
  }
  return { kind, text: c.text, active, expected, got, pass };
}

export function evaluateCorpora(corpora: readonly RoutingCorpus[], cards: readonly RiteCard[]): EvalReport {
  const rites: RiteAccuracy[] = corpora.map((corpus) => {
    const outcomes = [
      ...corpus.positive.map((c) => judgeCase(corpus, c, "positive", cards)),
      ...corpus.negative.map((c) => judgeCase(corpus, c, "negative", cards)),
    ];
    const passed = outcomes.filter((o) => o.pass).length;
    return {
      rite: corpus.rite,
      total: outcomes.length,
      passed,
      accuracy: outcomes.length ? passed / outcomes.length : 1,
      failures: outcomes.filter((o) => !o.pass),
    };
  });
  const total = rites.reduce((a, r) => a + r.total, 0);
  const passed = rites.reduce((a, r) => a + r.passed, 0);
  return { rites, total, passed, accuracy: total ? passed / total : 1 };
}

/** Every `skills/<rite>/routing.json` under a pack's `.claude` folder. A broken file is a diagnostic. */
export function loadCorpora(claudeDir: string): { corpora: RoutingCorpus[]; diagnostics: Diagnostic[] } {
  const corpora: RoutingCorpus[] = [];
  const diagnostics: Diagnostic[] = [];
  let dirs: string[] = [];
  try {
    dirs = readdirSync(join(claudeDir, "skills"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (e) {
    diagnostics.push(
      error("route.no-pack", `cannot read ${join(claudeDir, "skills")}: ${(e as Error).message}`, {
        hint: "run from the devrites repository, or pass --pack <dir>",
      }),
    );
    return { corpora, diagnostics };
  }
  for (const dir of dirs) {
    const rel = `skills/${dir}/routing.json`;
    let text: string;
    try {
      text = readFileSync(join(claudeDir, rel), "utf8");
    } catch {
      continue; // a skill without a corpus (not every skill is routable)
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      diagnostics.push(
        error("route.corpus-invalid", `not valid JSON: ${(e as Error).message}`, { path: rel }),
      );
      continue;
    }
    const parsed = routingCorpusSchema.safeParse(value);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      diagnostics.push(
        error(
          "route.corpus-invalid",
          `not a ${ROUTING_SCHEMA} corpus: ${i ? `${i.path.join(".")}: ${i.message}` : ""}`,
          {
            path: rel,
          },
        ),
      );
      continue;
    }
    if (parsed.data.rite !== dir) {
      diagnostics.push(
        error("route.corpus-misplaced", `the corpus is for ${parsed.data.rite} but sits in ${dir}`, {
          path: rel,
        }),
      );
      continue;
    }
    corpora.push(parsed.data as RoutingCorpus);
  }
  return { corpora, diagnostics };
}
