/**
 * The demo journey: what the engine dispatches in the demo, as an ordinary journey registered by name so
 * that `devrites resume` finds it again. Spec (two scouts) → plan (a drafter, then a human approves the
 * plan) → build (one wright on the approved slice's files).
 */

import type { Journey, JourneyContext } from "../run/engine-types.js";
import { registerJourney } from "../run/journeys.js";

export const DEMO_JOURNEY = "demo";

/** The step ids the engine derives for the demo journey (`<rite>/<role>#<n>`, `<rite>/human#<n>`). */
export const DEMO_STEPS = {
  map: "rite-spec/devrites-evidence-scout#1",
  cause: "rite-spec/devrites-evidence-scout#2",
  plan: "rite-plan/devrites-plan-drafter#1",
  approve: "rite-plan/human#1",
  build: "rite-build/devrites-slice-wright#1",
} as const;

/** The files the approved slice may write: the wright's exact allowlist. */
export const SLICE_FILES = ["src/math.js", "test/math.test.js"];

/** The wright's objective, taken from the slice the plan drafter proposed (and the human approved). */
function buildObjective(ctx: JourneyContext): string {
  const plan = ctx.accepted(DEMO_STEPS.plan)?.payload;
  const slice = plan?.type === "plan-candidate" ? plan.content.slices[0] : undefined;
  return slice
    ? `Implement slice ${slice.id}: ${slice.goal} Acceptance: ${slice.acceptance.join("; ")}.`
    : "Implement the approved slice.";
}

export function demoJourney(): Journey {
  return {
    name: DEMO_JOURNEY,
    steps: [
      {
        kind: "dispatch",
        rite: "rite-spec",
        phase: "spec",
        packets: [
          {
            role: "devrites-evidence-scout",
            objective: "Map the sample library: where mean() lives and which tests cover it.",
            inputs: [
              { path: "src/math.js", purpose: "the library" },
              { path: "test/math.test.js", purpose: "its tests" },
            ],
          },
        ],
      },
      {
        kind: "dispatch",
        rite: "rite-spec",
        phase: "spec",
        packets: [
          {
            role: "devrites-evidence-scout",
            objective: "Find why mean([]) returns NaN.",
            inputs: [{ path: "src/math.js", purpose: "where mean() is defined" }],
          },
        ],
      },
      {
        kind: "dispatch",
        rite: "rite-plan",
        phase: "plan",
        packets: [
          {
            role: "devrites-plan-drafter",
            objective: "Plan one slice that makes mean([]) return 0, proven by a test.",
            inputs: [
              { path: "src/math.js", purpose: "the code to change" },
              { path: "test/math.test.js", purpose: "where the test goes" },
            ],
          },
        ],
      },
      {
        kind: "gate",
        rite: "rite-plan",
        phase: "plan",
        gate: {
          kind: "scope",
          question: `Approve slice fix-mean-empty? It may write ${SLICE_FILES.join(" and ")} and nothing else.`,
          options: ["approve", "revise"],
        },
      },
      {
        kind: "dispatch",
        rite: "rite-build",
        phase: "build",
        when: (ctx) => ctx.answer(DEMO_STEPS.approve) === "approve",
        packets: [
          {
            role: "devrites-slice-wright",
            objective: buildObjective,
            inputs: SLICE_FILES.map((path) => ({ path, purpose: "a file of the slice" })),
            scope: { in: [...SLICE_FILES], out: [], allowed_repo_writes: [...SLICE_FILES] },
          },
        ],
      },
    ],
  };
}

registerJourney(DEMO_JOURNEY, () => demoJourney());
