/**
 * Rules on each skill and agent as a component: names, descriptions, required sections, phase, route hints.
 */

import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { DESCRIPTION_MAX_CHARS } from "./budget.js";
import { h2Headings } from "./markdown.js";
import type { AgentModel, PackModel, SkillModel } from "./types.js";

/** Sections every rite has (level-2 headings, after fragments are expanded). */
export const SKILL_SECTIONS = ["When to use", "Not for", "Reads and writes", "Steps", "Gates"] as const;
/** Extra section for a rite that dispatches roles. */
export const DISPATCH_SECTION = "Dispatch";
/** Sections every role has; the shared fragments provide several of them. */
export const AGENT_SECTIONS = [
  "Job",
  "Mode",
  "Untrusted input",
  "Packet",
  "Result",
  "Escalate",
  "Never",
] as const;

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const RESERVED = /claude|anthropic/i;
/** What a packet accepts as `rite` (see `AgentPacket.rite`). */
const RITE_NAME = /^rite(-[a-z0-9]+)*$/;
/** A description says when to use the component, in its first words. */
const WHEN = /^Use (when|to|for|with|after|before)\b/;

type Component = SkillModel | AgentModel;

function expectedName(c: Component): string {
  if (c.kind === "skill") return c.dir.slice("skills/".length);
  return (c.source.path.split("/").pop() as string).replace(/\.md$/, "");
}

export function lintNames(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const all: Component[] = [...model.skills, ...model.agents];
  const owners = new Map<string, string[]>();
  for (const c of all) {
    const path = c.source.path;
    const line = c.source.keyLines.name;
    if (!KEBAB.test(c.name) || c.name.length > 64) {
      out.push(
        error("pack.name-invalid", `name \`${c.name}\` is not kebab-case of 1–64 characters`, {
          path,
          line,
          hint: "use lowercase letters, digits and single hyphens, e.g. `rite-build`",
        }),
      );
    }
    if (RESERVED.test(c.name)) {
      out.push(
        error("pack.name-reserved", `name \`${c.name}\` contains a reserved word ("claude" or "anthropic")`, {
          path,
          line,
          hint: "hosts reject these words in names; choose another name",
        }),
      );
    }
    const expected = expectedName(c);
    if (c.name !== expected) {
      out.push(
        error(
          "pack.name-mismatch",
          `name \`${c.name}\` differs from its ${c.kind === "skill" ? "folder" : "file"} name \`${expected}\``,
          { path, line, hint: "hosts identify skills by folder and list agents by file; make them equal" },
        ),
      );
    }
    owners.set(c.name, [...(owners.get(c.name) ?? []), path]);
  }
  for (const [name, paths] of owners) {
    if (paths.length < 2) continue;
    for (const path of paths.slice(1)) {
      out.push(
        error(
          "pack.name-duplicate",
          `name \`${name}\` is used by more than one component (${paths.join(", ")})`,
          {
            path,
            hint: "every skill and agent needs a name of its own",
          },
        ),
      );
    }
  }
  return out;
}

export function lintDescriptions(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const c of [...model.skills, ...model.agents]) {
    const path = c.source.path;
    const line = c.source.keyLines.description;
    const d = c.description;
    if (/[\r\n]/.test(d.trim())) {
      out.push(
        error("pack.description-multiline", "description spans more than one line", {
          path,
          line,
          hint: "hosts list descriptions on one line; write one short sentence",
        }),
      );
    }
    if (d.length > DESCRIPTION_MAX_CHARS) {
      out.push(
        error(
          "pack.description-too-long",
          `description has ${d.length} characters; the limit is ${DESCRIPTION_MAX_CHARS}`,
          { path, line, hint: "every session pays for every description; say only when to use it" },
        ),
      );
    }
    if (!WHEN.test(d)) {
      out.push(
        error("pack.description-no-when", "description does not start by saying when to use it", {
          path,
          line,
          hint: 'start with "Use when …" or "Use to …", e.g. "Use to build the next planned slice."',
        }),
      );
    }
    if (/[<>]/.test(d)) {
      out.push(
        error("pack.description-markup", "description contains `<` or `>`", {
          path,
          line,
          hint: "hosts reject XML-like tags in descriptions; use plain words",
        }),
      );
    }
  }
  return out;
}

export function lintSections(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (c: Component, required: readonly string[]) => {
    const have = new Set(h2Headings(c.body).map((h) => h.title.toLowerCase()));
    for (const title of required) {
      if (!have.has(title.toLowerCase())) {
        out.push(
          error("pack.section-missing", `required section \`## ${title}\` is missing`, {
            path: c.source.path,
            hint: `add a \`## ${title}\` section${c.kind === "agent" ? " (or the fragment that provides it)" : ""}`,
          }),
        );
      }
    }
  };
  for (const s of model.skills) {
    check(s, s.devrites.dispatches.length > 0 ? [...SKILL_SECTIONS, DISPATCH_SECTION] : SKILL_SECTIONS);
  }
  for (const a of model.agents) check(a, AGENT_SECTIONS);
  return out;
}

export function lintRites(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hintOwners = new Map<string, string>();
  for (const s of model.skills) {
    const path = s.source.path;
    if (s.devrites.dispatches.length > 0 && !s.devrites.phase) {
      out.push(
        error("pack.phase-missing", "a rite that dispatches roles must declare `devrites.phase`", {
          path,
          line: s.source.keyLines.devrites,
          hint: "every packet records the phase it was dispatched in",
        }),
      );
    }
    if (s.devrites.dispatches.length > 0 && !RITE_NAME.test(s.name)) {
      out.push(
        error("pack.rite-name", `\`${s.name}\` dispatches roles but is not named \`rite\` or \`rite-…\``, {
          path,
          line: s.source.keyLines.name,
          hint: "packets accept only rite names as their dispatcher",
        }),
      );
    }
    s.devrites.route.hints.forEach((hint, i) => {
      const line = s.source.keyLines[`devrites.route.hints.${i}`];
      if (hint !== hint.trim() || hint !== hint.toLowerCase()) {
        out.push(
          error("pack.route-hint-invalid", `route hint \`${hint}\` must be lowercase without outer spaces`, {
            path,
            line,
          }),
        );
      }
      const key = hint.trim().toLowerCase();
      const owner = hintOwners.get(key);
      if (owner && owner !== s.name) {
        out.push(
          warning("pack.route-hint-duplicate", `route hint \`${key}\` is also a hint of \`${owner}\``, {
            path,
            line,
            hint: "a hint shared by two rites cannot decide between them; keep it on one",
          }),
        );
      } else hintOwners.set(key, s.name);
    });
  }
  return out;
}
