/**
 * Rules on what the pack's text tells the model: every `devrites …` command exists in the CLI, every
 * referenced file exists, every role a rite spawns is declared, every fragment is used.
 */

import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { findCommandMentions, LAUNCHER_PREFIX, matchCommand } from "./commands.js";
import { fileReferences, resolveRelative } from "./markdown.js";
import type { PackModel } from "./types.js";

/** A text of the pack as written, with the file line its first line sits on. */
interface Written {
  path: string;
  text: string;
  firstLine: number;
}

/** Every text written in the pack, unexpanded (so a line points into the file that holds it). */
function writtenTexts(model: PackModel): Written[] {
  const out: Written[] = [];
  for (const s of model.skills) {
    out.push({ path: s.source.path, text: s.source.rawBody, firstLine: s.source.bodyLine });
    for (const r of s.references) out.push({ path: r.path, text: r.rawContent, firstLine: 1 });
  }
  for (const a of model.agents)
    out.push({ path: a.source.path, text: a.source.rawBody, firstLine: a.source.bodyLine });
  for (const f of model.fragments) out.push({ path: f.path, text: f.content, firstLine: 1 });
  return out;
}

export function lintCommands(model: PackModel, knownCommands: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const w of writtenTexts(model)) {
    for (const m of findCommandMentions(w.text)) {
      const known = matchCommand(m.words, knownCommands);
      if (known && !m.launcher) {
        out.push(
          error("pack.command-bare", `\`${m.text}\` runs devrites by its bare name`, {
            path: w.path,
            line: w.firstLine + m.line - 1,
            hint: `write \`${LAUNCHER_PREFIX}devrites ${known}\`: a bare \`devrites\` is not on PATH after a project install, nor in Codex's login shell`,
          }),
        );
        continue;
      }
      if (known) continue;
      out.push(
        error("pack.command-unknown", `\`${m.text}\` is not a devrites command`, {
          path: w.path,
          line: w.firstLine + m.line - 1,
          hint: `known commands: ${[...knownCommands].sort().join(", ") || "(none registered)"}`,
        }),
      );
    }
  }
  return out;
}

export function lintReferences(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const known = new Set<string>([
    ...model.skills.map((s) => s.source.path),
    ...model.skills.flatMap((s) => s.references.map((r) => r.path)),
    ...model.skills.flatMap((s) => s.assets),
    ...model.fragments.map((f) => f.path),
    ...model.agents.map((a) => a.source.path),
  ]);
  const texts = model.skills.flatMap((s) => [
    { path: s.source.path, text: s.source.rawBody, firstLine: s.source.bodyLine },
    ...s.references.map((r) => ({ path: r.path, text: r.rawContent, firstLine: 1 })),
  ]);
  for (const w of texts) {
    const dir = w.path.split("/").slice(0, -1).join("/");
    for (const ref of fileReferences(w.text)) {
      const line = w.firstLine + ref.line - 1;
      const target = resolveRelative(dir, ref.target);
      if (target === undefined || !target.startsWith("skills/")) {
        out.push(
          error("pack.reference-outside", `\`${ref.target}\` points outside the pack's skills`, {
            path: w.path,
            line,
            hint: "reference only files shipped with the skills (e.g. `../rite/reference/dispatch.md`)",
          }),
        );
      } else if (!known.has(target)) {
        out.push(
          error("pack.reference-missing", `\`${ref.target}\` does not exist (resolved to \`${target}\`)`, {
            path: w.path,
            line,
            hint: "fix the path or add the reference file",
          }),
        );
      }
    }
  }
  return out;
}

/** `--role <name>` or `subagent_type: "<name>"` in a rite's own text: the roles it actually spawns. */
const SPAWNED = /(?:--role[ \t=]+|subagent_type["']?\s*[:=]\s*["']?)([a-z0-9][a-z0-9-]*)/g;

export function lintDispatchDeclarations(model: PackModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const s of model.skills) {
    const declared = new Set(s.devrites.dispatches);
    s.source.rawBody.split("\n").forEach((line, i) => {
      for (const m of line.matchAll(SPAWNED)) {
        const role = m[1] as string;
        if (declared.has(role)) continue;
        out.push(
          error("pack.dispatch-undeclared", `\`${s.name}\` spawns \`${role}\` but does not declare it`, {
            path: s.source.path,
            line: s.source.bodyLine + i,
            hint: "add it to `devrites.dispatches`, so the delegation graph shows it",
          }),
        );
      }
    });
    for (const role of s.devrites.dispatches) {
      if (!s.body.includes(role)) {
        out.push(
          warning(
            "pack.dispatch-unused",
            `\`${s.name}\` declares \`${role}\` but never says when to dispatch it`,
            {
              path: s.source.path,
              line: s.source.keyLines["devrites.dispatches"],
              hint: "name the role in the rite's Dispatch section, or drop the declaration",
            },
          ),
        );
      }
    }
  }
  return out;
}

export function lintFragments(model: PackModel): Diagnostic[] {
  return model.fragments
    .filter((f) => f.includedBy.length === 0)
    .map((f) =>
      warning("pack.fragment-unused", `fragment \`${f.name}\` is not included anywhere`, {
        path: f.path,
        hint: "include it with `<!-- devrites:include fragments/<name>.md -->`, or delete it",
      }),
    );
}
