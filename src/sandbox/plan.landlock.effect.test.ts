/**
 * The Landlock fallback judged by its effects. Codex's own sandbox lets no new user namespace be created, so
 * bubblewrap cannot start there; these tests reproduce that by running the planned command inside an outer
 * `bwrap --unshare-user --disable-userns` (as the exit-126 test in ./plan.effect.test.ts does), then compare
 * the work tree and `.git` byte for byte. Needs bubblewrap and the built helper (`npm run build`); skipped with
 * the reason otherwise.
 */

import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRepo, mechanismHere, run, snapshot } from "../../tests/helpers/sandbox.js";
import { landlockHelperPath, landlockSupported } from "./landlock-helper.js";
import { nodeProbe } from "./node-fs.js";
import { planSandbox, type SandboxMode } from "./plan.js";
import { makeScratch } from "./scratch.js";

const m = mechanismHere();
const helper = landlockHelperPath(resolve(import.meta.dirname, "../.."));
const why =
  m.kind !== "bwrap"
    ? "no bubblewrap"
    : helper === undefined
      ? "no built Landlock helper (npm run build)"
      : !landlockSupported({ probeHelper: helper })
        ? "this kernel does not apply Landlock"
        : undefined;
const d = why === undefined ? describe : describe.skip;
if (why !== undefined) console.warn(`Landlock effect tests skipped: ${why}`);

/** Like Codex's own sandbox: no new user namespace may be created inside, so bubblewrap cannot start. */
const NO_USERNS = ["bwrap", "--bind", "/", "/", "--dev", "/dev", "--unshare-user", "--disable-userns", "--"];

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
});

function repo() {
  const root = makeRepo({ "a.txt": "a\n", "src/b.ts": "b\n", "package.json": "{}\n" });
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

function plan(
  o: { mode: SandboxMode; root: string; command: string; allowlist?: string[] },
  mech: "fallback" | "only" = "fallback",
) {
  if (m.kind !== "bwrap" || helper === undefined) throw new Error("skipped");
  const scratch = makeScratch();
  if (scratch === undefined) throw new Error("no scratch folder");
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const p = planSandbox(
    {
      mode: o.mode,
      root: o.root,
      gitDir: join(o.root, ".git"),
      allowlist: (o.allowlist ?? []).map((a) => join(o.root, a)),
      command: o.command,
      cwd: o.root,
      shell: "/bin/bash",
      tools: mech === "fallback" ? { ...m, landlock: helper } : { bash: m.bash, landlock: helper },
      scratch,
      env: process.env,
    },
    nodeProbe,
  );
  if (!p.ok) throw new Error(`planner refused: ${p.code} ${p.path}: ${p.why}`);
  return { command: p.command, scratch };
}

d("Landlock when bubblewrap cannot start (nested in a no-userns sandbox, as in Codex's)", () => {
  for (const mode of ["read-only", "proof"] as const) {
    it(`${mode}: the command runs; its repository writes fail with EACCES; tree and .git byte-identical`, () => {
      const root = repo();
      const before = snapshot(root);
      const { command, scratch } = plan({
        mode,
        root,
        command: `node -e "require('fs').writeFileSync('x','y')"; echo one > a.txt; touch .git/hooks/post-checkout; echo t > "$TMPDIR/t" && cat "$TMPDIR/t"; exit 3`,
      });
      const r = run(command, { wrap: NO_USERNS });
      expect(r.stderr).toContain("bubblewrap could not start here");
      if (mode === "proof") expect(r.stderr).toContain("no copy-on-write");
      expect(r.stderr).toContain("EACCES");
      expect(r.stderr).toContain("Permission denied");
      expect(r.stdout).toBe("t\n");
      expect(r.status).toBe(3);
      expect(existsSync(join(root, "x"))).toBe(false);
      expect(snapshot(root)).toEqual(before);
      expect(readFileSync(join(scratch, "t"), "utf8")).toBe("t\n");
    });
  }

  it("wright: the allowlisted write lands (a missing file is created first), the neighbour's fails, .git kept", () => {
    const root = repo();
    const before = snapshot(root);
    const { command } = plan({
      mode: "wright",
      root,
      allowlist: ["src/b.ts", "src/new.ts"],
      command:
        "echo new > src/b.ts; echo made > src/new.ts; echo n > a.txt; echo x > src/c.ts; echo hook > .git/hooks/pre-commit; echo done",
    });
    const r = run(command, { wrap: NO_USERNS });
    expect(r.stdout).toBe("done\n");
    expect(r.stderr.match(/Permission denied/g)?.length).toBe(3);
    expect(readFileSync(join(root, "src/b.ts"), "utf8")).toBe("new\n");
    expect(readFileSync(join(root, "src/new.ts"), "utf8")).toBe("made\n");
    const after = snapshot(root);
    for (const s of [before, after] as Record<string, string>[]) {
      delete s["src/b.ts"];
      delete s["src/new.ts"];
    }
    expect(after).toEqual(before);
  });

  it("no network: a connection to a listener on 127.0.0.1 fails and is never accepted", async () => {
    let accepted = 0;
    const server = createServer((c) => {
      accepted++;
      c.destroy();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const port = (server.address() as { port: number }).port;
      const root = repo();
      const { command } = plan({
        mode: "read-only",
        root,
        command: `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>console.log('connected')).on('error',e=>console.log('net-'+e.code))"`,
      });
      // run asynchronously: the listener lives in this process
      const { execa } = await import("execa");
      const r = await execa(NO_USERNS[0] as string, [...NO_USERNS.slice(1), "/bin/bash", "-c", command], {
        reject: false,
        stdin: "ignore",
      });
      expect(r.stdout).toBe("net-EACCES");
      expect(accepted).toBe(0);
      // control: outside the devrites sandbox the same outer sandbox reaches the listener
      const c = await execa(
        NO_USERNS[0] as string,
        [
          ...NO_USERNS.slice(1),
          "node",
          "-e",
          `require('net').connect(${port},'127.0.0.1').on('connect',function(){console.log('connected');this.destroy()})`,
        ],
        { reject: false, stdin: "ignore" },
      );
      expect(c.stdout).toBe("connected");
      expect(accepted).toBe(1);
    } finally {
      server.close();
    }
  });

  it("near miss: where bubblewrap starts, bubblewrap runs the command (EROFS) and the helper is not used", () => {
    const root = repo();
    const before = snapshot(root);
    const { command, scratch } = plan({
      mode: "read-only",
      root,
      command: `echo t > "$TMPDIR/t"; echo one > a.txt`,
    });
    const r = run(command);
    expect(r.stderr).toContain("Read-only file system");
    expect(r.stderr).not.toContain("Landlock");
    expect(existsSync(join(scratch, "t"))).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it("Landlock alone (no bubblewrap): the same read-only effect, no fallback message", () => {
    const root = repo();
    const before = snapshot(root);
    const { command } = plan({ mode: "read-only", root, command: "echo one > a.txt; pwd" }, "only");
    const r = run(command);
    expect(r.stderr).toContain("Permission denied");
    expect(r.stderr).not.toContain("bubblewrap could not start");
    expect(r.stdout).toBe(`${root}\n`);
    expect(snapshot(root)).toEqual(before);
  });
});
