/**
 * The committed JSON Schemas are exactly what `npm run schemas` generates from the zod schemas
 * (drift test), `--check` reports stale, missing and orphaned files, and the zod patterns are the
 * generated ones.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  checkSchemas,
  diskReader,
  diskSchemaLister,
  GENERATED_COMMENT,
  type GeneratedFile,
  generateSchemas,
  isClean,
  main,
  REPO_ROOT,
  SCHEMA_TABLE,
  schemaId,
  sortKeys,
} from "../../scripts/gen-schemas.js";
import { FORMATS } from "./zod.js";

let generated: GeneratedFile[];

beforeAll(() => {
  generated = generateSchemas();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("generated schemas", () => {
  it("match the committed files byte for byte (run `npm run schemas` after changing a type)", () => {
    const read = diskReader(REPO_ROOT);
    for (const file of generated) expect(read(file.path), file.path).toBe(file.content);
    expect(checkSchemas(generated, read, diskSchemaLister(REPO_ROOT))).toEqual({
      stale: [],
      missing: [],
      orphaned: [],
    });
  });

  it("produce one file per table entry, each marked generated, with a stable $id and a trailing newline", () => {
    expect(generated.map((f) => f.path)).toEqual(SCHEMA_TABLE.map((t) => t.output));
    for (const file of generated) {
      const schema = JSON.parse(file.content) as Record<string, unknown>;
      expect(schema.$comment).toBe(GENERATED_COMMENT);
      expect(schema.$id).toBe(schemaId(file.path));
      expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
      // A discriminated-union record (one line of questions.jsonl) is a `oneOf` of closed objects instead.
      if (Array.isArray(schema.oneOf)) {
        expect(schema.oneOf.length).toBeGreaterThan(1);
        for (const branch of schema.oneOf as Record<string, unknown>[]) {
          expect(branch.type).toBe("object");
          expect(branch.additionalProperties).toBe(false);
        }
      } else {
        expect(schema.type).toBe("object");
        expect(schema.additionalProperties).toBe(false);
      }
      expect(typeof schema.description).toBe("string");
      expect(file.content.endsWith("}\n")).toBe(true);
      expect(file.content).toBe(`${JSON.stringify(sortKeys(schema), null, 2)}\n`);
    }
    expect(schemaId("schemas/agent-packet.v1.schema.json")).toBe("urn:devrites:schema:agent-packet.v1");
  });

  it("are deterministic", () => {
    expect(generateSchemas()).toEqual(generated);
  });

  it("close every object: each object schema has additionalProperties false (the open event data excepted)", () => {
    const open: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${where}[${i}]`);
        return;
      }
      if (node === null || typeof node !== "object") return;
      const n = node as Record<string, unknown>;
      // A discriminated union is a `oneOf` of objects, each closed on its own; the walk visits them.
      if (n.type === "object" && n.properties !== undefined && n.additionalProperties !== false) {
        open.push(where);
      }
      if (n.type === "object" && n.properties === undefined && n.additionalProperties === undefined)
        open.push(where);
      for (const [k, v] of Object.entries(n)) walk(v, `${where}.${k}`);
    };
    for (const file of generated) walk(JSON.parse(file.content), file.path);
    expect(open).toEqual([]);
  });

  it("use exactly the patterns the zod schemas use", () => {
    const patterns = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const n of node) walk(n);
        return;
      }
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        if (k === "pattern" && typeof v === "string") patterns.add(v);
        else walk(v);
      }
    };
    for (const file of generated) walk(JSON.parse(file.content));
    expect([...patterns].sort()).toEqual(
      Object.values(FORMATS)
        .map((f) => f.pattern)
        .sort(),
    );
  });

  it("express the delete rule and the payload tag as discriminated unions", () => {
    type Node = {
      oneOf?: Node[];
      properties?: Record<string, Node>;
      items?: Node;
      const?: unknown;
      type?: unknown;
    };
    const result = JSON.parse(generated[1]?.content ?? "{}") as Node;
    const tags = (union: Node | undefined, key: string) =>
      (union?.oneOf ?? []).map((b) => [b.properties?.[key]?.const ?? b.properties?.[key]?.type, b.type]);
    const repoWrite = result.properties?.side_effects?.properties?.repo_writes?.items;
    expect(tags(repoWrite, "op")).toEqual([
      ["string", "object"],
      ["delete", "object"],
    ]);
    expect(repoWrite?.oneOf?.[1]?.properties?.sha256_after?.type).toBe("null");
    expect(tags(result.properties?.payload, "type").map(([t]) => t)).toEqual([
      "evidence-dossier",
      "plan-candidate",
      "proof-report",
      "review-findings",
      "wright-report",
    ]);
  });

  it("carry the code-point length bounds of the parsers (minLength/maxLength)", () => {
    const packet = JSON.parse(generated[0]?.content ?? "{}") as {
      properties: Record<string, { minLength?: number; maxLength?: number }>;
    };
    expect(packet.properties.objective).toMatchObject({ minLength: 1, maxLength: 4000 });
    expect(packet.properties.workspace).toMatchObject({ minLength: 1, maxLength: 4096 });
    expect(packet.properties.rite?.minLength).toBeUndefined();
  });

  it("refuse a table entry JSON Schema cannot express, naming it", () => {
    expect(() =>
      generateSchemas([
        { type: "Big", schema: z.strictObject({ n: z.bigint() }), output: "schemas/x.schema.json" },
      ]),
    ).toThrow(/Big cannot be rendered as JSON Schema/);
    expect(() =>
      generateSchemas([{ type: "Custom", schema: z.custom<string>(), output: "schemas/x.schema.json" }]),
    ).toThrow(/Custom cannot be rendered as JSON Schema/);
  });
});

describe("checkSchemas", () => {
  const files: GeneratedFile[] = [
    { path: "schemas/a.v1.schema.json", content: "A\n" },
    { path: "schemas/b.v1.schema.json", content: "B\n" },
  ];

  it("is clean when every file is present and current and nothing else is there", () => {
    const disk = new Map(files.map((f) => [f.path, f.content]));
    const check = checkSchemas(
      files,
      (p) => disk.get(p),
      () => [...disk.keys()],
    );
    expect(check).toEqual({ stale: [], missing: [], orphaned: [] });
    expect(isClean(check)).toBe(true);
  });

  it("lists stale, missing and orphaned files", () => {
    const disk = new Map([
      ["schemas/a.v1.schema.json", "A (edited)\n"],
      ["schemas/old.v0.schema.json", "{}\n"],
    ]);
    const check = checkSchemas(
      files,
      (p) => disk.get(p),
      () => [...disk.keys()],
    );
    expect(check).toEqual({
      stale: ["schemas/a.v1.schema.json"],
      missing: ["schemas/b.v1.schema.json"],
      orphaned: ["schemas/old.v0.schema.json"],
    });
    expect(isClean(check)).toBe(false);
  });

  it("treats a trailing-newline difference as stale", () => {
    const check = checkSchemas(
      files.slice(0, 1),
      () => "A",
      () => ["schemas/a.v1.schema.json"],
    );
    expect(check.stale).toEqual(["schemas/a.v1.schema.json"]);
  });
});

describe("npm run schemas (main)", () => {
  /** A throwaway repository with no schemas yet (the sources are the modules this process imported). */
  function scratchRepo(): string {
    return mkdtempSync(join(tmpdir(), "devrites-schemas-"));
  }

  function capture(): { out: () => string; err: () => string } {
    let out = "";
    let err = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    return { out: () => out, err: () => err };
  }

  it("writes the schemas, then --check passes; a stale or orphaned file fails --check and nothing is written", () => {
    const root = scratchRepo();
    try {
      let io = capture();
      expect(main(["--check"], root)).toBe(1);
      expect(io.err()).toContain("missing: schemas/agent-packet.v1.schema.json");

      io = capture();
      expect(main([], root)).toBe(0);
      expect(io.out()).toContain(`${SCHEMA_TABLE.length} written`);
      for (const file of generated) expect(readFileSync(join(root, file.path), "utf8")).toBe(file.content);

      io = capture();
      expect(main(["--check"], root)).toBe(0);
      expect(io.err()).toBe("");

      const packetSchema = join(root, "schemas/agent-packet.v1.schema.json");
      writeFileSync(packetSchema, "{}\n");
      writeFileSync(join(root, "schemas/agent-packet.v0.schema.json"), "{}\n");
      writeFileSync(join(root, "schemas/notes.json"), "{}\n");
      io = capture();
      expect(main(["--check"], root)).toBe(1);
      expect(io.err()).toContain("stale: schemas/agent-packet.v1.schema.json");
      expect(io.err()).toContain("orphaned: schemas/agent-packet.v0.schema.json");
      expect(io.err()).not.toContain("notes.json");
      expect(readFileSync(packetSchema, "utf8")).toBe("{}\n");

      // Regenerating repairs the stale file but still reports the orphan, which it never deletes.
      io = capture();
      expect(main([], root)).toBe(1);
      expect(io.out()).toContain("1 written");
      expect(io.err()).toContain("orphaned: schemas/agent-packet.v0.schema.json");
      expect(readFileSync(packetSchema, "utf8")).toBe(generated[0]?.content);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("rejects an unknown argument with exit 2", () => {
    const io = capture();
    expect(main(["--chek"], REPO_ROOT)).toBe(2);
    expect(io.err()).toContain("unexpected argument: --chek");
  });
});
