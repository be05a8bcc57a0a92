import type { RiteCard } from "./types.js";

/**
 * The route hints proposed for each rite's SKILL.md frontmatter (`devrites.route.hints`): the shipped ones,
 * minus the words that misroute (the menu's `start`/`continue`/`resume`/`rite`, which steal "start coding" and
 * a mid-build "continue"; the bare `commit`/`push` of rite-ship and `resolve` of rite-resolve, which send
 * "commit to this approach" and "resolve the merge conflict" to rites that act), plus the phrasings the
 * routing corpora showed missing. Once the pack carries them, the corpus test can read the pack's hints as is.
 */
export const PROPOSED_HINTS: Readonly<Record<string, readonly string[]>> = {
  rite: [
    "devrites",
    "menu",
    "list of rites",
    "which rite",
    "what can devrites do",
    "what can you do",
    "what commands",
    "how do i use",
    "what are my options",
    "devrites help",
  ],
  "rite-spec": [
    "spec",
    "specify",
    "requirements",
    "new feature",
    "acceptance criteria",
    "investigate",
    "write a spec",
    "specification",
    "i want to add",
    "we need a feature",
    "figure out what",
    "should do",
    "user story",
  ],
  "rite-plan": [
    "plan",
    "slice",
    "break down",
    "decompose",
    "replan",
    "repair the plan",
    "vertical slices",
    "task list",
    "reslice",
    "implementation plan",
    "into slices",
    "what order",
    "plan the work",
  ],
  "rite-build": [
    "build",
    "implement",
    "next slice",
    "code the slice",
    "write the code",
    "start coding",
    "make the change",
    "wire up",
    "keep building",
    "keep going",
    "continue",
    "address the findings",
    "fix the findings",
  ],
  "rite-prove": [
    "prove",
    "run the tests",
    "verify",
    "check the build",
    "proof",
    "does it work",
    "tests",
    "still works",
    "evidence",
    "run the checks",
    "typecheck",
    "lint",
    "failing",
    "ci",
  ],
  "rite-review": [
    "review",
    "code review",
    "critique",
    "audit the change",
    "second opinion",
    "review the code",
    "look over",
    "audit",
    "against the spec",
    "review it",
  ],
  "rite-ship": [
    "ship",
    "release",
    "open a pr",
    "merge it",
    "ship it",
    "deploy",
    "publish",
    "pull request",
    "merge the branch",
    "merge and push",
    "push to main",
    "commit and push",
    "tag a release",
    "tag it",
    "go live",
  ],
  "rite-status": [
    "status",
    "progress",
    "where are we",
    "what is next",
    "what is running",
    "where we are",
    "what's next",
    "how far",
    "current state",
    "which phase",
    "what's left",
    "what's the status",
    "show progress",
    "summarize",
  ],
  "rite-resolve": [
    "answer",
    "decide",
    "open question",
    "unblock",
    "my answer is",
    "resolve q",
    "resolve the question",
    "questions",
    "pending decision",
    "pending question",
    "go with option",
    "drop the question",
    "gate",
  ],
  "rite-quick": [
    "quick",
    "small fix",
    "typo",
    "tweak",
    "one-liner",
    "rename",
    "quick fix",
    "fix the typo",
    "small change",
    "tiny",
    "bump",
    "just change",
    "one line fix",
  ],
};

/** Cards with the given hints replacing each card's own (rites without a proposal keep theirs). */
export function withHints(
  cards: readonly RiteCard[],
  hints: Readonly<Record<string, readonly string[]>>,
): RiteCard[] {
  return cards.map((c) => ({ ...c, hints: [...(hints[c.name] ?? c.hints)] }));
}

const PHASES: Readonly<Record<string, string>> = {
  "rite-spec": "spec",
  "rite-plan": "plan",
  "rite-build": "build",
  "rite-prove": "prove",
  "rite-review": "review",
  "rite-ship": "ship",
  "rite-quick": "quick",
};

/** Self-contained cards for the router's unit tests (no pack on disk): the menu first. */
export const FIXTURE_CARDS: RiteCard[] = Object.entries(PROPOSED_HINTS).map(([name, hints]) => {
  const card: RiteCard = { name, description: `Use for ${name}.`, hints: [...hints] };
  const phase = PHASES[name];
  if (phase) card.phase = phase;
  return card;
});
