/** The `route.*` diagnostics (emitted from src/cli/commands, src/route). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const routeCodes = {
  "route.accuracy": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "routing accuracy … is below …",
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
    summary: "not valid JSON: …",
    hint: "fix the JSON of the routing corpus at the line given",
  },
  "route.corpus-misplaced": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the corpus is for … but sits in …",
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
