import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { snapshot, snapshotDiff } from "./fixtures/repo.js";
import { recoverJournal, runTransaction, type TxOp } from "./transaction.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A target with a few files of the user's, and a separate folder for the journal. */
function target() {
  const base = mkdtempSync(join(tmpdir(), "devrites-tx-"));
  dirs.push(base);
  const root = join(base, "t");
  mkdirSync(join(root, "docs"), { recursive: true });
  writeFileSync(join(root, "AGENTS.md"), "# mine\n");
  writeFileSync(join(root, "docs", "keep.txt"), "keep\n", { mode: 0o600 });
  chmodSync(join(root, "docs", "keep.txt"), 0o600);
  writeFileSync(join(root, "hook"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  chmodSync(join(root, "hook"), 0o755);
  symlinkSync("AGENTS.md", join(root, "link"));
  return { root, journal: join(base, "journal.json") };
}

const ops = (): TxOp[] => [
  { op: "rename", rel: "hook", to: "hook.pre-devrites" },
  { op: "write", rel: "hook", bytes: Buffer.from("#!/bin/sh\n# ours\n"), mode: 0o755 },
  { op: "write", rel: ".claude/agents/a.md", bytes: Buffer.from("a\n"), mode: 0o644 },
  { op: "write", rel: ".claude/skills/x/SKILL.md", bytes: Buffer.from("x\n"), mode: 0o644 },
  {
    op: "write",
    rel: "AGENTS.md",
    bytes: Buffer.from("# mine\n\n<!-- block -->\n"),
    mode: 0o644,
    exactMode: true,
  },
  { op: "remove", rel: "docs/keep.txt" },
  { op: "rmdir", rel: "docs" },
  { op: "write", rel: ".devrites/install.json", bytes: Buffer.from("{}\n"), mode: 0o644 },
];

describe("runTransaction", () => {
  it("applies every operation and leaves no journal and no temp file", () => {
    const t = target();
    const r = runTransaction(ops(), t);
    expect(r.ok).toBe(true);
    expect(readFileSync(join(t.root, "hook.pre-devrites"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
    expect(readFileSync(join(t.root, "hook"), "utf8")).toContain("# ours");
    expect(existsSync(join(t.root, "docs"))).toBe(false);
    expect(r.ok && r.createdDirs).toEqual([
      ".claude",
      ".devrites",
      ".claude/agents",
      ".claude/skills",
      ".claude/skills/x",
    ]);
    expect(existsSync(t.journal)).toBe(false);
    expect([...snapshot(t.root).keys()].some((k) => k.endsWith(".devrites-tmp"))).toBe(false);
  });

  it("a failure after any number of committed operations leaves the target exactly as it was", () => {
    const count = ops().length;
    for (let k = 0; k < count; k++) {
      const t = target();
      const before = snapshot(t.root);
      const r = runTransaction(ops(), {
        ...t,
        afterOp: (i) => {
          if (i === k) throw new Error(`injected failure after op ${k}`);
        },
      });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.rolledBack).toBe(true);
        expect(r.diagnostics[0]?.code).toBe("install.failed");
        expect(r.diagnostics[0]?.message).toContain(`injected failure after op ${k}`);
      }
      expect(snapshotDiff(before, snapshot(t.root)), `failure after op ${k}`).toEqual([]);
      expect(existsSync(t.journal)).toBe(false);
    }
  });

  it("a failure while staging (a file where a folder must be) changes nothing, created folders included", () => {
    const t = target();
    const before = snapshot(t.root);
    const r = runTransaction(
      [...ops().slice(2, 4), { op: "write", rel: "docs/keep.txt/x", bytes: Buffer.from("x"), mode: 0o644 }],
      t,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics[0]?.message).toMatch(/ENOTDIR|not a directory/);
    expect(snapshotDiff(before, snapshot(t.root))).toEqual([]);
  });

  it("refuses to move a hook onto a path that appeared meanwhile, and rolls back", () => {
    const t = target();
    writeFileSync(join(t.root, "hook.pre-devrites"), "someone else's\n");
    const before = snapshot(t.root);
    const r = runTransaction(ops(), t);
    expect(r.ok).toBe(false);
    expect(snapshotDiff(before, snapshot(t.root))).toEqual([]);
  });
});

describe("recoverJournal: a process killed midway", () => {
  const source = fileURLToPath(new URL("./fixtures/kill-child.ts", import.meta.url));
  let bundleDir: string;
  let child: string;
  beforeAll(async () => {
    bundleDir = mkdtempSync(join(tmpdir(), "devrites-kill-bundle-"));
    child = join(bundleDir, "kill-child.mjs");
    await build({
      entryPoints: [source],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: child,
      logLevel: "silent",
    });
  });
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

  it("leaves a journal that the next run replays to the exact bytes from before", () => {
    for (const killAfter of [0, 2, 4, 6]) {
      const t = target();
      const before = snapshot(t.root);
      const spec = join(t.journal, "..", "spec.json");
      writeFileSync(
        spec,
        JSON.stringify({
          root: t.root,
          journal: t.journal,
          killAfter,
          ops: ops().map((o) =>
            o.op === "write" ? { ...o, bytes: undefined, text: o.bytes.toString("utf8") } : o,
          ),
        }),
      );
      const r = spawnSync(process.execPath, [child, spec], { encoding: "utf8" });
      expect(r.signal).toBe("SIGKILL");
      expect(existsSync(t.journal)).toBe(true);
      expect(snapshotDiff(before, snapshot(t.root)).length).toBeGreaterThan(0);
      const rec = recoverJournal(t.root, t.journal);
      expect(rec.recovered).toBe(true);
      expect(rec.diagnostics.map((d) => d.code)).toEqual(["install.recovered"]);
      expect(snapshotDiff(before, snapshot(t.root)), `killed after op ${killAfter}`).toEqual([]);
      expect(existsSync(t.journal)).toBe(false);
    }
  });

  it("no journal: nothing to do; a garbled one: reported, nothing touched", () => {
    const t = target();
    expect(recoverJournal(t.root, t.journal)).toEqual({ recovered: false, diagnostics: [] });
    writeFileSync(t.journal, "{garbled");
    const before = snapshot(t.root);
    const r = recoverJournal(t.root, t.journal);
    expect(r.recovered).toBe(false);
    expect(r.diagnostics[0]?.code).toBe("install.journal-corrupt");
    expect(snapshotDiff(before, snapshot(t.root))).toEqual([]);
  });
});
