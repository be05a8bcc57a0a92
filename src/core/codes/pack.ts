/** The `pack.*` diagnostics (emitted from src/pack). */

import { ExitCode } from "../diagnostics.js";
import type { CodeEntry } from "./entry.js";

export const packCodes = {
  "pack.budget-always-on": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the names and descriptions, always in the host's context, exceed their budget",
    hint: "shorten descriptions: every session pays for every one of them",
  },
  "pack.budget-invoke": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a skill loads more characters than its invocation budget",
    hint: "move detail into a reference file loaded only when needed",
  },
  "pack.command-bare": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A skill, role or fragment runs devrites by its bare name (`devrites <command>`) instead of through the launcher path the pack uses.",
    hint: "call devrites by the path the pack uses: a bare `devrites` is not on PATH after a project install, nor in Codex's login shell",
  },
  "pack.command-unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill, role or fragment mentions a `devrites` command that does not exist.",
    hint: "use a command `devrites --help` lists",
  },
  "pack.delegation-cycle": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The pack's declared dispatches form a cycle: a component dispatches, directly or not, one that dispatches it.",
    hint: "delegation is one level deep: rites → roles; remove a dispatch to break the cycle",
  },
  "pack.description-markup": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "description contains `<` or `>`",
    hint: "hosts reject XML-like tags in descriptions; use plain words",
  },
  "pack.description-multiline": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "description spans more than one line",
    hint: "hosts list descriptions on one line; write one short sentence",
  },
  "pack.description-no-when": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "description does not start by saying when to use it",
    hint: 'start with "Use when …" or "Use to …", e.g. "Use to build the next planned slice."',
  },
  "pack.description-too-long": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill's or role's description is longer than the limit; the message gives both lengths.",
    hint: "every session pays for every description; say only when to use it",
  },
  "pack.dir-missing": {
    severity: "error",
    exit: ExitCode.MissingInput,
    summary: "the pack folder does not exist",
    hint: "run from the repository root, or pass --dir <pack/.claude>",
  },
  "pack.dispatch-dangling": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A component declares a dispatch (`devrites.dispatches`) of a name the pack has no component for.",
    hint: "fix the name or add the role under agents/",
  },
  "pack.dispatch-duplicate": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A component lists the same role more than once in `devrites.dispatches`.",
    hint: "declare each dispatched role once",
  },
  "pack.dispatch-not-role": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A rite declares a dispatch of another rite; rites dispatch leaf roles only.",
    hint: "rites dispatch leaf roles only; hand over to another rite by telling the user to run it",
  },
  "pack.dispatch-undeclared": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A skill's text spawns a role (`--role <name>` or `subagent_type: <name>`) it does not list in `devrites.dispatches`.",
    hint: "add it to `devrites.dispatches`, so the delegation graph shows it",
  },
  "pack.dispatch-unused": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary:
      "A skill lists a role in `devrites.dispatches`, but its text never names the role, so never says when to dispatch it.",
    hint: "name the role in the rite's Dispatch section, or drop the declaration",
  },
  "pack.field-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A frontmatter field of a skill or role has a value of the wrong kind (type, format or allowed values); the message names the field and the problem.",
    hint: "give the field a value of the kind the message names",
  },
  "pack.field-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill's or role's frontmatter lacks a field it requires.",
    hint: "add the field the message names",
  },
  "pack.fragment-unused": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "A fragment under fragments/ is included by no skill or role.",
    hint: "include it with `<!-- devrites:include fragments/<name>.md -->`, or delete it",
  },
  "pack.hook-duplicate": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "one hook event is wired more than once",
    hint: "a hook registered twice runs twice; declare each event once",
  },
  "pack.hook-entry-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "The pack's hook wiring runs another bundle for a hook event than the one that event needs (PreToolUse the guard, SubagentStop the result check).",
    hint: "wire the hook to the bundle the message names",
  },
  "pack.hook-matcher-narrow": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "The guard's PreToolUse hook has a tool matcher other than `*`, so some tools would bypass it.",
    hint: "set the guard's matcher to `*`: it must see every tool, including write tools it does not know yet",
  },
  "pack.hooks-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack has no hook wiring file",
    hint: "declare the guard (PreToolUse) and result check (SubagentStop) hooks there",
  },
  "pack.include-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "include line is not of the form `<!-- devrites:include fragments/<name>.md -->`",
    hint: "put the include alone on its line, with a kebab-case fragment name under fragments/",
  },
  "pack.include-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "An include line names a fragment that does not exist under fragments/.",
    hint: "create it under fragments/ or fix the name",
  },
  "pack.include-nested": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a fragment may not include another fragment",
    hint: "inline the text, or include both fragments from the role",
  },
  "pack.name-duplicate": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "Two components of the pack (skills or agents) have the same name.",
    hint: "every skill and agent needs a name of its own",
  },
  "pack.name-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill's or role's name is not kebab-case of 1–64 characters.",
    hint: "use lowercase letters, digits and single hyphens, e.g. `rite-build`",
  },
  "pack.name-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill's name differs from its folder name, or a role's from its file name.",
    hint: "hosts identify skills by folder and list agents by file; make them equal",
  },
  "pack.name-reserved": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: 'A skill\'s or role\'s name contains a word the hosts reserve ("claude" or "anthropic").',
    hint: "hosts reject these words in names; choose another name",
  },
  "pack.phase-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a rite that dispatches roles must declare `devrites.phase`",
    hint: "every packet records the phase it was dispatched in",
  },
  "pack.read-failed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "The pack folder, or a file in it, could not be listed or read (permissions or an I/O error).",
    hint: "check that the pack folder exists and is readable",
  },
  "pack.reference-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A relative link in a pack text points to a file that does not exist; the message gives the path it resolved to.",
    hint: "fix the path or add the reference file",
  },
  "pack.reference-outside": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A relative link in a pack text points outside the pack's skills.",
    hint: "reference only files shipped with the skills (e.g. `../rite/reference/dispatch.md`)",
  },
  "pack.rite-name": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill dispatches roles but is not named `rite` or `rite-<name>`; only rites dispatch.",
    hint: "packets accept only rite names as their dispatcher",
  },
  "pack.role-dispatches": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A leaf role declares a dispatch; only rites dispatch (delegation is one level deep).",
    hint: "remove `devrites.dispatches` from the role; only rites dispatch (depth one)",
  },
  "pack.role-mode-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A role file's mode differs from the mode the role table (src/envelope/roles.ts) gives the role.",
    hint: "the validator and the guard use the role table; make the file agree with it",
  },
  "pack.role-payload-mismatch": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A role file's payload differs from the payload the role table (src/envelope/roles.ts) gives the role.",
    hint: "set the payload the role table (src/envelope/roles.ts) gives for the role",
  },
  "pack.role-tool-forbidden": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "A role's tools list has a tool its role may not have: one that spawns agents (no leaf may), or one that writes files (in a read-only role).",
    hint: "remove the tool: leaves never spawn agents, and only the writer role (devrites-slice-wright) may have Edit, Write and MultiEdit",
  },
  "pack.role-tool-unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A role's tools list has a tool that is not on the known list for the role's mode.",
    hint: "use a tool on the role's known list (the message lists them)",
  },
  "pack.role-tools-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "no `tools` allowlist: the role would inherit every tool",
    hint: "add a `tools:` list",
  },
  "pack.role-undispatched": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "No rite dispatches this role.",
    hint: "add it to a rite's `devrites.dispatches`, or remove the role",
  },
  "pack.role-unknown": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A role file under agents/ has a name that is not one of the roles in devrites' role table.",
    hint: "use a role listed in src/envelope/roles.ts",
  },
  "pack.route-hint-duplicate": {
    severity: "warning",
    exit: ExitCode.Ok,
    summary: "A route hint of one rite is also a hint of another, so it cannot decide between them.",
    hint: "a hint shared by two rites cannot decide between them; keep it on one",
  },
  "pack.route-hint-invalid": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A rite's route hint is not lowercase, or has leading or trailing spaces.",
    hint: "write the route hint in lowercase, without leading or trailing spaces",
  },
  "pack.section-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill or role lacks a `## <title>` section its kind requires.",
    hint: "add the `## <title>` section the message names (for a role, it may come from an included fragment)",
  },
  "pack.skill-file-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A folder under skills/ has no SKILL.md.",
    hint: "add SKILL.md or remove the folder",
  },
  "pack.unknown-field": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "A skill's or role's frontmatter has a field devrites does not know.",
    hint: "remove it or fix its spelling; unknown fields are rejected so no host drops or ignores them",
  },
  "pack.stray-file": {
    severity: "error",
    exit: ExitCode.Violation,
    summary:
      "a file in the pack folder that is not part of the pack layout (a warning for files that are merely ignored)",
    hint: "move it into the pack layout or delete it",
  },
  "pack.hooks-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack's hook wiring file is not valid YAML",
    hint: "fix the YAML at the line given",
  },
  "pack.frontmatter-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a skill or role file does not start with a `---` frontmatter block",
    hint: "start the file with `---`, then `name:` and `description:` lines, then a closing `---`",
  },
  "pack.frontmatter-malformed": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "a skill or role file's frontmatter is not closed, empty, not a mapping, or not valid YAML",
    hint: "start the file with `---`, then `name:` and `description:` lines, then a closing `---`",
  },
  "pack.hook-guard-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack wires no PreToolUse hook: the guard that keeps leaves in scope",
    hint: "add a PreToolUse entry",
  },
  "pack.hook-result-check-missing": {
    severity: "error",
    exit: ExitCode.Violation,
    summary: "the pack wires no SubagentStop hook: the hook that records and checks a leaf's result",
    hint: "add a SubagentStop entry",
  },
} as const satisfies Record<string, CodeEntry>;
