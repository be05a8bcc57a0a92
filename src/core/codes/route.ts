/** The `route.*` diagnostics (emitted from src/cli/commands, src/route). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const routeCodes = {
  "route.accuracy": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "`devrites eval` measured a routing accuracy over the rites' corpora below the minimum (`--min`, or the default).",
    hint: "improve the rites' route hints (frontmatter devrites.route.hints), not the corpora",
  },
  "route.cards-invalid": {
    severity: "error",
    exit: ExitCode.MissingInput,
    summary:
      "With no pack to route against, the rite cards shipped beside the plugin's CLI (bin/rite-cards.json) are not valid JSON or not a list of well-formed cards; `route` and `eval` exit 5 as for a missing pack.",
    hint: "reinstall the plugin (devrites generate writes this file)",
  },
  "route.corpus-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A rite's routing corpus (skills/<rite>/routing.json) is not valid JSON, or does not fit the routing corpus schema.",
    hint: "fix the corpus at the path given: the message names the JSON error or the first field that does not fit",
  },
  "route.corpus-misplaced": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A routing corpus names another rite than the skill folder it sits in.",
    hint: "move the corpus into the folder of the rite it is for (skills/<rite>/routing.json)",
  },
  "route.no-corpus": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "no skills/<rite>/routing.json corpus found",
    hint: "add a skills/<rite>/routing.json corpus for each rite to measure",
  },
  "route.no-pack": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack to route against cannot be read",
    hint: "run from the devrites repository, or pass --pack <dir>",
  },
  "route.no-state": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "could not read the journey state; routing as if no rite were active",
    hint: "run `devrites status` to see what is wrong",
  },
} as const satisfies Record<string, CodeEntry>;
