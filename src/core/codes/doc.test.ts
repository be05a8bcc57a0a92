import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CODES_DOC, main, planCodesDocs, REPO_ROOT } from "../../../scripts/gen-codes-doc.js";
import { beginMarker, endMarker, fillRegion, GUARD_TABLE, renderCodesDoc } from "./doc.js";
import { CATALOGUE } from "./index.js";

describe("the generated code tables", () => {
  it("the committed docs are what the catalogue renders (run npx tsx scripts/gen-codes-doc.ts)", () => {
    for (const p of planCodesDocs(REPO_ROOT)) expect(p.current, p.path).toBe(p.want);
  });

  it("docs/codes.md lists every catalogued code once, under a generated header", () => {
    const doc = renderCodesDoc();
    expect(doc.split("\n")[0]).toMatch(
      /^<!-- generated — do not edit; regenerate with `npx tsx scripts\/gen-codes-doc.ts` -->$/,
    );
    for (const code of Object.keys(CATALOGUE)) expect(doc.split(`| \`${code}\` |`), code).toHaveLength(2);
  });

  it("fills a region between its markers and refuses missing, doubled or reversed markers", () => {
    const b = beginMarker(GUARD_TABLE.name);
    const e = endMarker(GUARD_TABLE.name);
    const filled = fillRegion(`intro\n${b}\nold\n${e}\nafter\n`, GUARD_TABLE);
    expect(filled.ok && filled.text).toBe(`intro\n${b}\n${GUARD_TABLE.render()}\n${e}\nafter\n`);
    expect(fillRegion(`${b}\nold\n`, GUARD_TABLE).ok).toBe(false);
    expect(fillRegion(`${e}\nold\n${b}\n`, GUARD_TABLE).ok).toBe(false);
    expect(fillRegion(`${b}\n${b}\nold\n${e}\n`, GUARD_TABLE).ok).toBe(false);
  });
});

describe("gen-codes-doc --check", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function fixture(): string {
    dir = mkdtempSync(join(tmpdir(), "codes-doc-"));
    mkdirSync(join(dir, "docs"));
    const guard = readFileSync(join(REPO_ROOT, GUARD_TABLE.file), "utf8");
    writeFileSync(join(dir, GUARD_TABLE.file), guard);
    return dir;
  }

  it("fails when docs/codes.md is missing or stale, writes nothing; a run fixes it and --check passes", () => {
    const root = fixture();
    expect(main(["--check"], root)).toBe(1);
    expect(() => readFileSync(join(root, CODES_DOC))).toThrow();
    expect(main([], root)).toBe(0);
    expect(main(["--check"], root)).toBe(0);
    writeFileSync(join(root, CODES_DOC), `${readFileSync(join(root, CODES_DOC), "utf8")}edit\n`);
    expect(main(["--check"], root)).toBe(1);
  });

  it("fails when a row of the guard table was edited by hand", () => {
    const root = fixture();
    main([], root);
    const path = join(root, GUARD_TABLE.file);
    writeFileSync(path, readFileSync(path, "utf8").replace("retry once, then report", "retry"));
    expect(main(["--check"], root)).toBe(1);
  });

  it("refuses an unknown argument with exit 2 and writes nothing", () => {
    const root = fixture();
    expect(main(["--chek"], root)).toBe(2);
    expect(() => readFileSync(join(root, CODES_DOC))).toThrow();
  });
});
