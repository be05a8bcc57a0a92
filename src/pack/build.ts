/**
 * Build the pack model from the pack's files (pure). Each file is parsed on its own; a file whose frontmatter
 * is malformed or does not have the required shape becomes a diagnostic and is left out of the model, so one
 * broken file never hides the rest of the pack. Value rules (names, descriptions, sections, commands, budget)
 * are checked later by `lintPack`, on the model.
 */

import { type Diagnostic, error, warning } from "../core/diagnostics.js";
import { parseMarkdownDoc, parseYamlWithLines } from "./frontmatter.js";
import { buildGraph } from "./graph.js";
import { expandIncludes, INCLUDE_LINE } from "./includes.js";
import { agentFrontmatterSchema, hookWiringSchema, skillFrontmatterSchema } from "./schema.js";
import { shapeDiagnostics } from "./shape-diagnostics.js";
import type {
  AgentModel,
  FragmentModel,
  HookWiring,
  PackFiles,
  PackModel,
  ReferenceFile,
  SkillModel,
  SourceInfo,
} from "./types.js";

/** The one hook wiring file. */
export const WIRING_PATH = "hooks/wiring.yaml";

export interface LoadResult {
  model: PackModel;
  diagnostics: Diagnostic[];
}

interface Layout {
  skillFiles: Map<string, string>; // skill name → SKILL.md path
  skillDirs: Set<string>;
  references: Map<string, string[]>; // skill name → reference paths
  assets: Map<string, string[]>; // skill name → other file paths
  agentFiles: string[];
  fragmentFiles: string[];
  diagnostics: Diagnostic[];
}

/** Sort the file list into skills, references, agents, fragments and hooks; flag everything else. */
function classify(paths: readonly string[]): Layout {
  const l: Layout = {
    skillFiles: new Map(),
    skillDirs: new Set(),
    references: new Map(),
    assets: new Map(),
    agentFiles: [],
    fragmentFiles: [],
    diagnostics: [],
  };
  const push = <K>(m: Map<K, string[]>, k: K, v: string) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const p of [...paths].sort()) {
    const parts = p.split("/");
    const [top] = parts;
    if (top === "skills") {
      if (parts.length < 3) {
        l.diagnostics.push(
          stray(p, "a file directly under skills/; a skill is a folder with SKILL.md", "error"),
        );
        continue;
      }
      const name = parts[1] as string;
      l.skillDirs.add(name);
      const rest = parts.slice(2).join("/");
      if (rest === "SKILL.md") l.skillFiles.set(name, p);
      else if (parts[2] === "reference" && p.endsWith(".md")) push(l.references, name, p);
      else push(l.assets, name, p);
    } else if (top === "agents") {
      if (parts.length === 2 && p.endsWith(".md")) l.agentFiles.push(p);
      else
        l.diagnostics.push(
          stray(p, "hosts load every markdown file under agents/ (recursively) as an agent", "error"),
        );
    } else if (top === "fragments") {
      if (parts.length === 2 && p.endsWith(".md")) l.fragmentFiles.push(p);
      else l.diagnostics.push(stray(p, "fragments are `fragments/<name>.md` files", "error"));
    } else if (top === "hooks") {
      if (p !== WIRING_PATH) l.diagnostics.push(stray(p, `the only hooks file is ${WIRING_PATH}`, "warning"));
    } else {
      l.diagnostics.push(
        stray(p, "not part of the pack layout (skills/, agents/, fragments/, hooks/)", "warning"),
      );
    }
  }
  for (const dir of l.skillDirs) {
    if (!l.skillFiles.has(dir)) {
      l.diagnostics.push(
        error("pack.skill-file-missing", `skill folder skills/${dir}/ has no SKILL.md`, {
          path: `skills/${dir}`,
          hint: "add SKILL.md or remove the folder",
        }),
      );
    }
  }
  return l;
}

function stray(path: string, why: string, severity: "error" | "warning"): Diagnostic {
  const make = severity === "error" ? error : warning;
  return make("pack.stray-file", `unexpected file: ${why}`, {
    path,
    hint: "move it into the pack layout or delete it",
  });
}

/** Build the model from `files` (pack-relative path → text). Never throws. */
export function buildPack(files: PackFiles): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const layout = classify([...files.keys()]);
  diagnostics.push(...layout.diagnostics);
  const text = (p: string) => files.get(p) ?? "";

  // Fragments first: everything else includes them.
  const fragments = new Map<string, FragmentModel>();
  for (const p of layout.fragmentFiles) {
    const content = text(p);
    const name = p.slice("fragments/".length, -".md".length);
    content.split("\n").forEach((line, i) => {
      if (INCLUDE_LINE.test(line.trim()) || /devrites:\s*include/i.test(line)) {
        diagnostics.push(
          error("pack.include-nested", "a fragment may not include another fragment", {
            path: p,
            line: i + 1,
            hint: "inline the text, or include both fragments from the role",
          }),
        );
      }
    });
    fragments.set(p, { name, path: p, content, includedBy: [] });
  }
  const noteUse = (user: string, used: string[]) => {
    for (const u of used) {
      const f = fragments.get(u);
      if (f && !f.includedBy.includes(user)) f.includedBy.push(user);
    }
  };

  const skills: SkillModel[] = [];
  for (const [name, p] of layout.skillFiles) {
    const parsed = parseMarkdownDoc(p, text(p));
    if (!parsed.ok) {
      diagnostics.push(...parsed.diagnostics);
      continue;
    }
    const { doc } = parsed;
    const shape = skillFrontmatterSchema.safeParse(doc.data);
    if (!shape.success) {
      diagnostics.push(...shapeDiagnostics(p, shape.error.issues, doc.data, doc.keyLines));
      continue;
    }
    const exp = expandIncludes(p, doc.body, doc.bodyLine, fragments);
    diagnostics.push(...exp.diagnostics);
    noteUse(p, exp.used);
    const references: ReferenceFile[] = [];
    for (const rp of layout.references.get(name) ?? []) {
      const raw = text(rp);
      const rexp = expandIncludes(rp, raw, 1, fragments);
      diagnostics.push(...rexp.diagnostics);
      noteUse(rp, rexp.used);
      references.push({
        relPath: rp.slice(`skills/${name}/`.length),
        path: rp,
        content: rexp.text,
        rawContent: raw,
      });
    }
    const { devrites, ...host } = shape.data;
    skills.push({
      kind: "skill",
      name: shape.data.name,
      dir: `skills/${name}`,
      description: shape.data.description,
      frontmatter: host,
      devrites: {
        ...(devrites.phase ? { phase: devrites.phase } : {}),
        dispatches: devrites.dispatches,
        route: { hints: devrites.route.hints },
      },
      body: exp.text,
      references,
      assets: layout.assets.get(name) ?? [],
      source: source(p, doc),
    });
  }

  const agents: AgentModel[] = [];
  for (const p of layout.agentFiles) {
    const parsed = parseMarkdownDoc(p, text(p));
    if (!parsed.ok) {
      diagnostics.push(...parsed.diagnostics);
      continue;
    }
    const { doc } = parsed;
    const shape = agentFrontmatterSchema.safeParse(doc.data);
    if (!shape.success) {
      diagnostics.push(...shapeDiagnostics(p, shape.error.issues, doc.data, doc.keyLines));
      continue;
    }
    const exp = expandIncludes(p, doc.body, doc.bodyLine, fragments);
    diagnostics.push(...exp.diagnostics);
    noteUse(p, exp.used);
    const { devrites, ...host } = shape.data;
    agents.push({
      kind: "agent",
      name: shape.data.name,
      description: shape.data.description,
      tools: splitTools(shape.data.tools),
      ...(shape.data.model ? { model: shape.data.model } : {}),
      mode: devrites.mode,
      payload: devrites.payload,
      frontmatter: host,
      devrites: { mode: devrites.mode, payload: devrites.payload, dispatches: devrites.dispatches },
      body: exp.text,
      source: source(p, doc),
    });
  }

  const wiring = loadWiring(files);
  diagnostics.push(...wiring.diagnostics);

  skills.sort((a, b) => cmp(a.name, b.name));
  agents.sort((a, b) => cmp(a.name, b.name));
  const fragmentList = [...fragments.values()].sort((a, b) => cmp(a.path, b.path));
  for (const f of fragmentList) f.includedBy.sort();
  const model: PackModel = {
    skills,
    agents,
    fragments: fragmentList,
    hooks: wiring.hooks,
    ...(wiring.ok ? { hooksPath: WIRING_PATH } : {}),
    graph: buildGraph(skills, agents),
  };
  return { model, diagnostics };
}

function loadWiring(files: PackFiles): { ok: boolean; hooks: HookWiring[]; diagnostics: Diagnostic[] } {
  const raw = files.get(WIRING_PATH);
  if (raw === undefined) {
    return {
      ok: false,
      hooks: [],
      diagnostics: [
        error("pack.hooks-missing", `the pack has no ${WIRING_PATH}`, {
          path: WIRING_PATH,
          hint: "declare the guard (PreToolUse) and result check (SubagentStop) hooks there",
        }),
      ],
    };
  }
  const parsed = parseYamlWithLines(WIRING_PATH, raw, 0, "pack.hooks-malformed");
  if (!parsed.ok) return { ok: false, hooks: [], diagnostics: parsed.diagnostics };
  const shape = hookWiringSchema.safeParse(parsed.value);
  if (!shape.success) {
    return {
      ok: false,
      hooks: [],
      diagnostics: shapeDiagnostics(WIRING_PATH, shape.error.issues, parsed.value, parsed.keyLines),
    };
  }
  const hooks = shape.data.hooks.map((h, i) => {
    const line = parsed.keyLines[`hooks.${i}`];
    return { ...h, ...(line ? { line } : {}) };
  });
  return { ok: true, hooks, diagnostics: [] };
}

function source(
  path: string,
  doc: { frontmatterText: string; keyLines: Record<string, number>; bodyLine: number; body: string },
): SourceInfo {
  return {
    path,
    frontmatterText: doc.frontmatterText,
    keyLines: doc.keyLines,
    bodyLine: doc.bodyLine,
    rawBody: doc.body,
  };
}

/** `"Read, Grep , Bash"` or `["Read", "Grep"]` → `["Read", "Grep", "Bash"]`; absent → `[]`. */
export function splitTools(tools: string | string[] | undefined): string[] {
  if (tools === undefined) return [];
  const list = Array.isArray(tools) ? tools : tools.split(",");
  return list.map((t) => t.trim()).filter((t) => t.length > 0);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
