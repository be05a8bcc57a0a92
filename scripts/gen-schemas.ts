/**
 * `npm run schemas`: render the JSON Schemas in `schemas/` from the zod schemas in `src/envelope/zod.ts` (the
 * single source of each shape: parser, TypeScript type and JSON Schema) with zod's own `z.toJSONSchema`.
 * `npm run schemas -- --check` writes nothing and exits 1 when a schema file is stale, missing or orphaned
 * (a `*.schema.json` in `schemas/` that is not in the table below).
 *
 * The generation is exported so a test can compare its in-memory output with the committed files.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import {
  AgentPacketSchema,
  AgentResultSchema,
  DecisionRecordSchema,
  QuestionLineSchema,
  RunEventSchema,
  WorkspaceStateSchema,
} from "../src/envelope/zod.js";
import { routingCorpusSchema } from "../src/route/corpus.js";

/** One generated schema: the record's name, its zod schema, and the output file. */
export interface SchemaTarget {
  /** The record's type name (as `src/envelope/types.ts` and its peers export it). */
  type: string;
  schema: z.ZodType;
  /** Repository-relative output file, under `schemas/`, named `<record>.v<N>.schema.json`. */
  output: string;
}

/** Every generated schema. A new record type is one line here. */
export const SCHEMA_TABLE: readonly SchemaTarget[] = [
  { type: "AgentPacket", schema: AgentPacketSchema, output: "schemas/agent-packet.v1.schema.json" },
  { type: "AgentResult", schema: AgentResultSchema, output: "schemas/agent-result.v1.schema.json" },
  { type: "WorkspaceState", schema: WorkspaceStateSchema, output: "schemas/devrites-state.v1.schema.json" },
  { type: "RunEvent", schema: RunEventSchema, output: "schemas/run-event.v1.schema.json" },
  { type: "QuestionLine", schema: QuestionLineSchema, output: "schemas/question-line.v1.schema.json" },
  { type: "DecisionRecord", schema: DecisionRecordSchema, output: "schemas/decision.v1.schema.json" },
  { type: "RoutingCorpus", schema: routingCorpusSchema, output: "schemas/devrites-routing.v1.schema.json" },
];

export const SCHEMAS_DIR = "schemas";
export const GENERATED_COMMENT = "generated — do not edit; regenerate with npm run schemas";
const SCHEMA_SUFFIX = ".schema.json";

/** The repository root (this file lives in `scripts/`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Stable `$id` derived from the output file name: `schemas/agent-packet.v1.schema.json` → `urn:devrites:schema:agent-packet.v1`. */
export function schemaId(output: string): string {
  return `urn:devrites:schema:${posix.basename(output, SCHEMA_SUFFIX)}`;
}

export interface GeneratedFile {
  /** Repository-relative path. */
  path: string;
  content: string;
}

/**
 * Render every schema in `table`. Pure. Throws when a schema holds something JSON Schema cannot express (a
 * transform, a custom type): a broken table is a bug, not input.
 */
export function generateSchemas(table: readonly SchemaTarget[] = SCHEMA_TABLE): GeneratedFile[] {
  return table.map((target) => {
    let rendered: Record<string, unknown>;
    try {
      rendered = z.toJSONSchema(target.schema, { target: "draft-7", unrepresentable: "throw", io: "input" });
    } catch (e) {
      throw new Error(
        `schema table: ${target.type} cannot be rendered as JSON Schema: ${(e as Error).message}`,
      );
    }
    const schema = { $comment: GENERATED_COMMENT, $id: schemaId(target.output), ...rendered };
    return { path: target.output, content: `${JSON.stringify(sortKeys(schema), null, 2)}\n` };
  });
}

/** Objects with keys in code-unit order, recursively; arrays keep their order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export interface SchemaCheck {
  /** Generated files whose committed content differs. */
  stale: string[];
  /** Generated files that are not committed. */
  missing: string[];
  /** `*.schema.json` files in `schemas/` that no table entry produces. */
  orphaned: string[];
}

/**
 * Compare generated files with what is on disk. `read` returns a file's text or undefined when absent;
 * `listSchemas` returns the repository-relative `*.schema.json` paths present in `schemas/`.
 */
export function checkSchemas(
  generated: readonly GeneratedFile[],
  read: (path: string) => string | undefined,
  listSchemas: () => string[],
): SchemaCheck {
  const stale: string[] = [];
  const missing: string[] = [];
  for (const file of generated) {
    const current = read(file.path);
    if (current === undefined) missing.push(file.path);
    else if (current !== file.content) stale.push(file.path);
  }
  const expected = new Set(generated.map((f) => f.path));
  const orphaned = listSchemas()
    .filter((p) => !expected.has(p))
    .sort();
  return { stale: stale.sort(), missing: missing.sort(), orphaned };
}

export function isClean(check: SchemaCheck): boolean {
  return check.stale.length + check.missing.length + check.orphaned.length === 0;
}

/** Read a repository file, or undefined when it does not exist. */
export function diskReader(root: string): (path: string) => string | undefined {
  return (path) => {
    try {
      return readFileSync(join(root, path), "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  };
}

/** The `*.schema.json` files present in `schemas/` (repository-relative, sorted). */
export function diskSchemaLister(root: string): () => string[] {
  return () => {
    let names: string[];
    try {
      names = readdirSync(join(root, SCHEMAS_DIR));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    return names
      .filter((n) => n.endsWith(SCHEMA_SUFFIX))
      .map((n) => `${SCHEMAS_DIR}/${n}`)
      .sort();
  };
}

function report(check: SchemaCheck): string[] {
  return [
    ...check.stale.map((p) => `stale: ${p}`),
    ...check.missing.map((p) => `missing: ${p}`),
    ...check.orphaned.map(
      (p) => `orphaned: ${p} (not in the table in scripts/gen-schemas.ts; delete it or add it)`,
    ),
  ];
}

/** Command-line entry: returns the exit code. */
export function main(argv: readonly string[], root: string = REPO_ROOT): number {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`usage: npm run schemas [-- --check]\nunexpected argument: ${unknown[0]}\n`);
    return 2;
  }
  const generated = generateSchemas();
  const check = checkSchemas(generated, diskReader(root), diskSchemaLister(root));
  if (argv.includes("--check")) {
    if (isClean(check)) {
      process.stdout.write(`schemas: ${generated.length} up to date\n`);
      return 0;
    }
    process.stderr.write(`${report(check).join("\n")}\nrun \`npm run schemas\` to regenerate\n`);
    return 1;
  }
  const changed = new Set([...check.stale, ...check.missing]);
  mkdirSync(join(root, SCHEMAS_DIR), { recursive: true });
  for (const file of generated) {
    if (changed.has(file.path)) writeFileSync(join(root, file.path), file.content);
  }
  process.stdout.write(
    `schemas: ${changed.size} written, ${generated.length - changed.size} unchanged\n${[...changed]
      .sort()
      .map((p) => `  wrote ${p}\n`)
      .join("")}`,
  );
  if (check.orphaned.length > 0) {
    process.stderr.write(`${report({ stale: [], missing: [], orphaned: check.orphaned }).join("\n")}\n`);
    return 1;
  }
  return 0;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) {
  process.exitCode = main(process.argv.slice(2));
}
