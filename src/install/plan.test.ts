import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../core/hash.js";
import { markedBlock } from "../hosts/merge.js";
import { preCommitScript } from "./git-hook.js";
import { INSTALL_SCHEMA, type InstallManifest, type ManagedFile } from "./manifest.js";
import { type CurrentFile, type DesiredFile, type InstallPlan, planInstall, type Step } from "./plan.js";

type Fs = Map<string, CurrentFile>;

const HOOKS = JSON.stringify({
  hooks: {
    PreToolUse: [
      { matcher: "*", hooks: [{ type: "command", command: "node x devrites-hook", timeout: 10 }] },
    ],
  },
});
const HOOK_PATH = ".git/hooks/pre-commit";
const CHAINED = ".git/hooks/pre-commit.pre-devrites";

const file = (text: string, mode = 0o644): CurrentFile => ({ kind: "file", bytes: Buffer.from(text), mode });

function desired(opts: { hook?: boolean } = {}): DesiredFile[] {
  return [
    { path: ".claude/agents/a.md", kind: "owned", content: "agent a\n", mode: 0o644 },
    { path: ".claude/.devrites-generated.json", kind: "owned", content: "{}\n", mode: 0o644 },
    { path: ".claude/settings.json", kind: "merged-json", content: HOOKS, mode: 0o644 },
    { path: "AGENTS.md", kind: "marked-block", content: markedBlock("## devrites\nuse rites"), mode: 0o644 },
    { path: ".codex/config.toml", kind: "toml-block", content: "", mode: 0o644 },
    {
      path: ".devrites/state.json",
      kind: "skeleton",
      content: '{"schema":"devrites-state/v1"}\n',
      mode: 0o644,
    },
    ...(opts.hook
      ? [{ path: HOOK_PATH, kind: "git-hook" as const, content: preCommitScript(), mode: 0o755 }]
      : []),
  ];
}

function manifestOf(files: ManagedFile[]): InstallManifest {
  return {
    schema: INSTALL_SCHEMA,
    version: "0.0.1",
    hosts: ["claude", "codex"],
    files,
    dirs: [],
    installed_at: "t",
    updated_at: "t",
  };
}

function plan(fs: Fs, d: DesiredFile[], manifest: InstallManifest | null, force = false): InstallPlan {
  return planInstall({ desired: d, manifest, current: fs, force, chainedPath: CHAINED });
}

/** What the installer's transaction would do to `fs`. */
function apply(fs: Fs, steps: readonly Step[]): Fs {
  const next = new Map(fs);
  const order = (s: Step) => (s.op === "chain" ? 0 : s.op === "remove" ? 1 : s.op === "unchain" ? 3 : 2);
  for (const s of [...steps].sort((a, b) => order(a) - order(b))) {
    if (s.op === "create" || s.op === "update" || s.op === "merge" || s.op === "restore")
      next.set(s.path, { kind: "file", bytes: s.bytes, mode: s.mode });
    else if (s.op === "remove") next.delete(s.path);
    else if (s.op === "chain" || s.op === "unchain") {
      const moved = next.get(s.path);
      if (!moved) throw new Error(`nothing at ${s.path}`);
      if (next.has(s.to)) throw new Error(`${s.to} is taken`);
      next.delete(s.path);
      next.set(s.to, moved);
    }
  }
  return next;
}

function ops(p: InstallPlan): Record<string, string> {
  return Object.fromEntries(p.steps.map((s) => [s.path, s.op]));
}

function text(fs: Fs, path: string): string | undefined {
  const f = fs.get(path);
  return f?.kind === "file" ? f.bytes.toString("utf8") : undefined;
}

function install(
  fs: Fs,
  d = desired(),
  force = false,
): { fs: Fs; manifest: InstallManifest; plan: InstallPlan } {
  const p = plan(fs, d, null, force);
  return { fs: apply(fs, p.steps), manifest: manifestOf(p.files), plan: p };
}

function uninstall(fs: Fs, manifest: InstallManifest, force = false): { fs: Fs; plan: InstallPlan } {
  const p = plan(fs, [], manifest, force);
  return { fs: apply(fs, p.steps), plan: p };
}

function sameFs(a: Fs, b: Fs): void {
  const show = (fs: Fs) =>
    Object.fromEntries(
      [...fs].map(([k, v]) => [
        k,
        v.kind === "file" ? `${v.mode.toString(8)} ${v.bytes.toString("utf8")}` : v.kind,
      ]),
    );
  expect(show(a)).toEqual(show(b));
}

describe("planInstall: a fresh repository", () => {
  it("creates every file, merges nothing, and uninstall leaves nothing behind", () => {
    const empty: Fs = new Map();
    const i = install(empty);
    expect(Object.values(ops(i.plan)).every((o) => o === "create")).toBe(true);
    expect(
      i.manifest.files.every(
        (f) => f.kind === "owned" || f.kind === "skeleton" || f.original?.exists === false,
      ),
    ).toBe(true);
    sameFs(uninstall(i.fs, i.manifest).fs, empty);
  });

  it("merges into the user's shared files and gives their bytes back exactly", () => {
    const before: Fs = new Map([
      [".claude/settings.json", file('{ "model":"opus",\n  "hooks": {"Stop": [] } }', 0o600)],
      ["AGENTS.md", file("# House rules\r\nNo tabs.\r\n")],
      [".codex/config.toml", file('model = "gpt"\n')],
    ]);
    const i = install(before);
    expect(ops(i.plan)).toMatchObject({
      ".claude/settings.json": "merge",
      "AGENTS.md": "merge",
      ".codex/config.toml": "merge",
    });
    expect(JSON.parse(text(i.fs, ".claude/settings.json") ?? "")).toMatchObject({ model: "opus" });
    expect(text(i.fs, "AGENTS.md")).toContain("# House rules\r\nNo tabs.");
    expect((i.fs.get(".claude/settings.json") as { mode: number }).mode).toBe(0o600);
    const settings = i.manifest.files.find((f) => f.path === ".claude/settings.json");
    expect(settings?.original).toMatchObject({ exists: true, exact: true, mode: 0o600 });
    sameFs(uninstall(i.fs, i.manifest).fs, before);
  });

  it("leaves the user's [agents] table alone and stops managing config.toml", () => {
    const before: Fs = new Map([[".codex/config.toml", file("[agents]\nmax_threads = 2\n")]]);
    const i = install(before);
    expect(ops(i.plan)[".codex/config.toml"]).toBe("unchanged");
    expect(i.manifest.files.some((f) => f.path === ".codex/config.toml")).toBe(false);
    expect(i.plan.diagnostics.map((d) => d.code)).toContain("install.codex-agents-kept");
  });

  it("never overwrites a file that is not devrites' (skip-modified), unless --force, and uninstall puts it back", () => {
    const before: Fs = new Map([[".claude/agents/a.md", file("my own agent\n")]]);
    const skipped = install(before);
    const step = skipped.plan.steps.find((s) => s.path === ".claude/agents/a.md");
    expect(step?.op).toBe("skip-modified");
    expect(step && "diagnostic" in step && step.diagnostic.hint).toContain("--force");
    expect(text(skipped.fs, ".claude/agents/a.md")).toBe("my own agent\n");
    expect(skipped.manifest.files.some((f) => f.path === ".claude/agents/a.md")).toBe(false);
    sameFs(uninstall(skipped.fs, skipped.manifest).fs, before);

    const forced = install(before, desired(), true);
    expect(ops(forced.plan)[".claude/agents/a.md"]).toBe("update");
    expect(text(forced.fs, ".claude/agents/a.md")).toBe("agent a\n");
    expect(forced.plan.diagnostics.map((d) => d.code)).toContain("install.forced");
    sameFs(uninstall(forced.fs, forced.manifest).fs, before);
  });

  it("adopts a file already exactly as devrites would write it, and leaves it as it was on uninstall", () => {
    const before: Fs = new Map([[".claude/agents/a.md", file("agent a\n")]]);
    const i = install(before);
    expect(ops(i.plan)[".claude/agents/a.md"]).toBe("unchanged");
    sameFs(uninstall(i.fs, i.manifest).fs, before);
  });

  it("creates state.json only when the workspace has none", () => {
    const before: Fs = new Map([[".devrites/state.json", file('{"in":"use"}')]]);
    const i = install(before);
    expect(ops(i.plan)[".devrites/state.json"]).toBe("unchanged");
    expect(i.manifest.files.some((f) => f.path === ".devrites/state.json")).toBe(false);
  });

  it("blocks the whole run on an unsafe path or a malformed shared file", () => {
    const unsafe: Fs = new Map([
      [
        ".claude/agents/a.md",
        { kind: "unsafe", diagnostic: { code: "install.symlink-outside", severity: "error", message: "x" } },
      ],
    ]);
    expect(ops(plan(unsafe, desired(), null))[".claude/agents/a.md"]).toBe("blocked");
    const malformed: Fs = new Map([[".claude/settings.json", file("{ not json")]]);
    const s = plan(malformed, desired(), null).steps.find((x) => x.path === ".claude/settings.json");
    expect(s?.op).toBe("blocked");
    expect(s && "diagnostic" in s && s.diagnostic.path).toBe(".claude/settings.json");
    const latin1: Fs = new Map([
      ["AGENTS.md", { kind: "file", bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9]), mode: 0o644 }],
    ]);
    const l = plan(latin1, desired(), null).steps.find((x) => x.path === "AGENTS.md");
    expect(l && "diagnostic" in l && l.diagnostic.code).toBe("install.not-utf8");
  });
});

describe("planInstall: update and uninstall after the user worked", () => {
  it("replaces an unedited owned file and skips an edited one (its record stays)", () => {
    const i = install(new Map());
    const edited = new Map(i.fs).set(".claude/agents/a.md", file("agent a, with my note\n"));
    const newer = desired().map((d) =>
      d.path === ".claude/.devrites-generated.json" ? { ...d, content: '{"v":2}\n' } : d,
    );
    const u = plan(edited, newer, i.manifest);
    expect(ops(u)).toMatchObject({
      ".claude/agents/a.md": "skip-modified",
      ".claude/.devrites-generated.json": "update",
    });
    const kept = u.files.find((f) => f.path === ".claude/agents/a.md");
    expect(kept?.sha256).toBe(sha256Hex("agent a\n"));
    expect(ops(plan(edited, newer, i.manifest, true))[".claude/agents/a.md"]).toBe("update");
  });

  it("removes a file devrites no longer generates while unedited, keeps it when edited", () => {
    const i = install(new Map());
    const fewer = desired().filter((d) => d.path !== ".claude/agents/a.md");
    expect(ops(plan(i.fs, fewer, i.manifest))[".claude/agents/a.md"]).toBe("remove");
    const edited = new Map(i.fs).set(".claude/agents/a.md", file("mine now\n"));
    expect(ops(plan(edited, fewer, i.manifest))[".claude/agents/a.md"]).toBe("skip-modified");
  });

  it("uninstall keeps the user's later edits of a merged file and takes devrites' part out", () => {
    const before: Fs = new Map([
      ["AGENTS.md", file("# Rules\n")],
      [".claude/settings.json", file('{"model":"opus"}\n')],
    ]);
    const i = install(before);
    const agents = `${text(i.fs, "AGENTS.md")}\nAdded later.\n`;
    const settings = JSON.parse(text(i.fs, ".claude/settings.json") ?? "{}");
    settings.env = { X: "1" };
    const worked = new Map(i.fs)
      .set("AGENTS.md", file(agents))
      .set(".claude/settings.json", file(JSON.stringify(settings)));
    const u = uninstall(worked, i.manifest);
    expect(ops(u.plan)).toMatchObject({ "AGENTS.md": "restore", ".claude/settings.json": "restore" });
    expect(u.plan.steps.filter((s) => s.op === "restore").every((s) => s.op === "restore" && !s.exact)).toBe(
      true,
    );
    expect(text(u.fs, "AGENTS.md")).toBe("# Rules\n\nAdded later.\n");
    expect(JSON.parse(text(u.fs, ".claude/settings.json") ?? "")).toEqual({ model: "opus", env: { X: "1" } });
  });

  it("an update after the user edited a merged file records the user's content, not the stale original", () => {
    const i = install(new Map([["AGENTS.md", file("# v1\n")]]));
    const worked = new Map(i.fs).set("AGENTS.md", file(`# v2\n\n${markedBlock("## devrites\nuse rites")}\n`));
    const newer = desired().map((d) =>
      d.path === "AGENTS.md" ? { ...d, content: markedBlock("## devrites\nuse rites, v2") } : d,
    );
    const u = plan(worked, newer, i.manifest);
    const rec = u.files.find((f) => f.path === "AGENTS.md");
    expect(rec?.original).toMatchObject({ exists: true, exact: false });
    const after = apply(worked, u.steps);
    expect(text(uninstall(after, manifestOf(u.files)).fs, "AGENTS.md")).toBe("# v2\n");
  });

  it("a file devrites created and the user emptied of everything else is removed, not left as {}", () => {
    const i = install(new Map());
    const u = uninstall(i.fs, i.manifest);
    expect(u.fs.has(".claude/settings.json")).toBe(false);
    expect(u.fs.has("AGENTS.md")).toBe(false);
  });

  it("uninstall keeps a workspace state that is in use", () => {
    const i = install(new Map());
    const used = new Map(i.fs).set(".devrites/state.json", file('{"active":1}'));
    const u = uninstall(used, i.manifest, true);
    expect(text(u.fs, ".devrites/state.json")).toBe('{"active":1}');
  });
});

describe("planInstall: the pre-commit hook", () => {
  it("installs ours where there is none, and removes it again", () => {
    const i = install(new Map(), desired({ hook: true }));
    expect(ops(i.plan)[HOOK_PATH]).toBe("create");
    expect(uninstall(i.fs, i.manifest).fs.has(HOOK_PATH)).toBe(false);
  });

  it("chains the user's hook (moved aside, run first) and moves it back, byte for byte", () => {
    const before: Fs = new Map([[HOOK_PATH, file("#!/bin/sh\nnpm test\n", 0o755)]]);
    const i = install(before, desired({ hook: true }));
    expect(i.plan.steps.filter((s) => s.path === HOOK_PATH).map((s) => s.op)).toEqual(["chain", "create"]);
    expect(text(i.fs, CHAINED)).toBe("#!/bin/sh\nnpm test\n");
    expect(i.manifest.files.find((f) => f.kind === "git-hook")?.chained).toBe(CHAINED);
    sameFs(uninstall(i.fs, i.manifest).fs, before);
  });

  it("chains a symlinked user hook as a link", () => {
    const before: Fs = new Map([[HOOK_PATH, { kind: "link", target: "../../scripts/pre-commit" }]]);
    const i = install(before, desired({ hook: true }));
    expect(i.fs.get(CHAINED)).toEqual({ kind: "link", target: "../../scripts/pre-commit" });
    sameFs(uninstall(i.fs, i.manifest).fs, before);
  });

  it("is idempotent and refuses when the chained slot is taken", () => {
    const i = install(new Map([[HOOK_PATH, file("#!/bin/sh\n")]]), desired({ hook: true }));
    const again = plan(i.fs, desired({ hook: true }), i.manifest);
    expect(again.steps.filter((s) => s.op !== "unchanged")).toEqual([]);
    const taken: Fs = new Map([
      [HOOK_PATH, file("#!/bin/sh\n")],
      [CHAINED, file("#!/bin/sh\nold\n")],
    ]);
    const s = plan(taken, desired({ hook: true }), null).steps.find((x) => x.path === HOOK_PATH);
    expect(s?.op).toBe("blocked");
    expect(s && "diagnostic" in s && s.diagnostic.code).toBe("install.hook-chain-occupied");
  });

  it("leaves an edited devrites hook alone on update and uninstall unless --force", () => {
    const i = install(new Map(), desired({ hook: true }));
    const edited = new Map(i.fs).set(HOOK_PATH, file(`${preCommitScript()}echo extra\n`, 0o755));
    expect(ops(plan(edited, desired({ hook: true }), i.manifest))[HOOK_PATH]).toBe("skip-modified");
    expect(ops(uninstall(edited, i.manifest).plan)[HOOK_PATH]).toBe("skip-modified");
    expect(uninstall(edited, i.manifest, true).fs.has(HOOK_PATH)).toBe(false);
  });
});

describe("planInstall: properties", () => {
  const jsonValue = fc.jsonValue({ maxDepth: 2 });
  const userSettings = fc
    .dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, { maxKeys: 4 })
    .map((o) => {
      const { hooks: _, ...rest } = o as Record<string, unknown>;
      return rest;
    });
  const userText = fc.string({ maxLength: 40 }).filter((s) => !s.includes("DEVRITES"));
  const mode = fc.constantFrom(0o600, 0o644, 0o664, 0o755);
  const initial = fc.record(
    {
      settings: fc.tuple(userSettings, fc.integer({ min: 0, max: 4 }), mode),
      agents: fc.tuple(userText, mode),
      owned: fc.tuple(userText, mode),
      hook: fc.tuple(userText, mode),
    },
    { requiredKeys: [] },
  );

  it("init then uninstall gives every byte and mode back, whatever the user had", () => {
    fc.assert(
      fc.property(initial, fc.boolean(), (init, force) => {
        const before: Fs = new Map();
        if (init.settings)
          before.set(
            ".claude/settings.json",
            file(JSON.stringify(init.settings[0], null, init.settings[1]), init.settings[2]),
          );
        if (init.agents) before.set("AGENTS.md", file(init.agents[0], init.agents[1]));
        if (init.owned) before.set(".claude/agents/a.md", file(init.owned[0], init.owned[1]));
        if (init.hook) before.set(HOOK_PATH, file(init.hook[0], init.hook[1]));
        const i = install(before, desired({ hook: true }), force);
        expect(i.plan.steps.some((s) => s.op === "blocked")).toBe(false);
        sameFs(uninstall(i.fs, i.manifest).fs, before);
      }),
    );
  });

  it("a second init is a no-op", () => {
    fc.assert(
      fc.property(initial, (init) => {
        const before: Fs = new Map();
        if (init.settings)
          before.set(".claude/settings.json", file(JSON.stringify(init.settings[0]), init.settings[2]));
        if (init.agents) before.set("AGENTS.md", file(init.agents[0], init.agents[1]));
        const i = install(before, desired({ hook: true }));
        const again = plan(i.fs, desired({ hook: true }), i.manifest);
        expect(again.steps.filter((s) => s.op !== "unchanged")).toEqual([]);
        expect(again.files).toEqual(i.manifest.files);
      }),
    );
  });
});
