/**
 * `npm run schemas`: generate the JSON Schemas in `schemas/` from the TypeScript types (the single source of
 * truth) with ts-json-schema-generator. `npm run schemas -- --check` writes nothing and exits 1 when a schema
 * file is stale, missing or orphaned (a `*.schema.json` in `schemas/` that is not in the table below).
 *
 * The generation is exported so a test can compare its in-memory output with the committed files.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type CompletedConfig,
  createFormatter,
  createParser,
  DEFAULT_CONFIG,
  SchemaGenerator,
  ts,
} from "ts-json-schema-generator";

/** One generated schema: the exported type, the file that declares it, and the output file. */
export interface SchemaTarget {
  /** Exported interface or type alias name. */
  type: string;
  /** Repository-relative TypeScript file that declares it. */
  source: string;
  /** Repository-relative output file, under `schemas/`, named `<record>.v<N>.schema.json`. */
  output: string;
}

/** Every generated schema. A new record type is one line here. */
export const SCHEMA_TABLE: readonly SchemaTarget[] = [
  { type: "AgentPacket", source: "src/envelope/types.ts", output: "schemas/agent-packet.v1.schema.json" },
  { type: "AgentResult", source: "src/envelope/types.ts", output: "schemas/agent-result.v1.schema.json" },
  {
    type: "WorkspaceState",
    source: "src/run/workspace-types.ts",
    output: "schemas/devrites-state.v1.schema.json",
  },
  { type: "RunEvent", source: "src/run/workspace-types.ts", output: "schemas/run-event.v1.schema.json" },
  {
    type: "QuestionLine",
    source: "src/run/workspace-types.ts",
    output: "schemas/question-line.v1.schema.json",
  },
  { type: "DecisionRecord", source: "src/run/workspace-types.ts", output: "schemas/decision.v1.schema.json" },
  { type: "RoutingCorpus", source: "src/route/types.ts", output: "schemas/devrites-routing.v1.schema.json" },
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

const GENERATOR_CONFIG: CompletedConfig = {
  ...DEFAULT_CONFIG,
  expose: "export",
  topRef: false,
  jsDoc: "extended",
  additionalProperties: false,
  sortProps: true,
  skipTypeCheck: true,
  discriminatorType: "json-schema",
};

/**
 * Only what resolving the source files needs. `lib: es5` (where `Record` and `Array` live) and `types: []`
 * keep the DOM, newer libs and @types/* out of the program, and the time they cost.
 */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es5.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/**
 * Generate every schema in `table` from the sources under `root`. Pure apart from reading the sources.
 * Throws when a table entry names a type its source file does not export (a broken table is a bug, not input).
 */
export function generateSchemas(
  root: string = REPO_ROOT,
  table: readonly SchemaTarget[] = SCHEMA_TABLE,
): GeneratedFile[] {
  const sources = [...new Set(table.map((t) => t.source))];
  const program = ts.createProgram(
    sources.map((s) => join(root, s)),
    COMPILER_OPTIONS,
  );
  const generator = new SchemaGenerator(
    program,
    createParser(program, GENERATOR_CONFIG),
    createFormatter(GENERATOR_CONFIG),
    GENERATOR_CONFIG,
  );
  return table.map((target) => {
    const sourceFile = program.getSourceFile(join(root, target.source));
    if (!sourceFile) throw new Error(`schema table: cannot read ${target.source}`);
    const node = findExportedType(sourceFile, target.type);
    if (!node) throw new Error(`schema table: ${target.source} does not export a type ${target.type}`);
    const schema = {
      $comment: GENERATED_COMMENT,
      $id: schemaId(target.output),
      ...generator.createSchemaFromNodes([node]),
    };
    return { path: target.output, content: `${JSON.stringify(sortKeys(schema), null, 2)}\n` };
  });
}

function findExportedType(sourceFile: ts.SourceFile, name: string): ts.Node | undefined {
  return sourceFile.statements.find(
    (s) =>
      (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) &&
      s.name.text === name &&
      (ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export) !== 0,
  );
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
  const generated = generateSchemas(root);
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
