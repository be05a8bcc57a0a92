import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { GIT_HOOK_MARKER, isDevritesHook, preCommitScript, shellQuote } from "./git-hook.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function scratch(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "devrites hook 'q' ")));
  dirs.push(d);
  return d;
}

/** Run a hook script the way git does: sh, cwd = the work tree, a plain PATH. */
function runHook(dir: string, script: string, env: Record<string, string> = {}) {
  const hooks = join(dir, "hooks");
  mkdirSync(hooks, { recursive: true });
  writeFileSync(join(hooks, "pre-commit"), script, { mode: 0o755 });
  chmodSync(join(hooks, "pre-commit"), 0o755);
  return spawnSync("/bin/sh", [join(hooks, "pre-commit")], {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", ...env },
    encoding: "utf8",
  });
}

describe("the pre-commit hook script", () => {
  it("carries its marker; a user's hook does not", () => {
    expect(isDevritesHook(preCommitScript())).toBe(true);
    expect(preCommitScript()).toContain(GIT_HOOK_MARKER);
    expect(isDevritesHook("#!/bin/sh\nnpm test\n")).toBe(false);
  });

  it("falls back to the devrites that installed it, quoted safely (spaces and quotes in the path)", () => {
    const d = scratch();
    const fake = join(d, "bin dir 'x'", "devrites.js");
    mkdirSync(join(d, "bin dir 'x'"));
    writeFileSync(fake, `echo "ran: $*" > "${join(d, "out.txt")}"\n`);
    const r = runHook(d, preCommitScript({ node: "/bin/sh", bin: fake }));
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(d, "out.txt"), "utf8")).toBe("ran: validate --staged\n");
  });

  it("fails the commit with a message when devrites is nowhere (no vacuous pass)", () => {
    const d = scratch();
    const r = runHook(d, preCommitScript({ node: "/bin/sh", bin: join(d, "gone.js") }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("devrites was not found");
  });

  it("runs the chained hook first and stops on its failure", () => {
    const d = scratch();
    mkdirSync(join(d, "hooks"));
    writeFileSync(join(d, "hooks", "pre-commit.pre-devrites"), "#!/bin/sh\necho chained >&2\nexit 7\n", {
      mode: 0o755,
    });
    chmodSync(join(d, "hooks", "pre-commit.pre-devrites"), 0o755);
    const r = runHook(d, preCommitScript(), { DEVRITES_BIN: "/bin/true" });
    expect(r.status).toBe(7);
    expect(r.stderr).toContain("chained");
  });

  it("a chained hook that is not executable is skipped, as git would skip it", () => {
    const d = scratch();
    mkdirSync(join(d, "hooks"));
    writeFileSync(join(d, "hooks", "pre-commit.pre-devrites"), "#!/bin/sh\nexit 7\n", { mode: 0o644 });
    chmodSync(join(d, "hooks", "pre-commit.pre-devrites"), 0o644);
    expect(runHook(d, preCommitScript(), { DEVRITES_BIN: "/bin/true" }).status).toBe(0);
  });

  it("property: shellQuote gives back the exact string through sh", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((s) => !s.includes("\u0000")),
        (s) => {
          const r = spawnSync("/bin/sh", ["-c", `printf %s ${shellQuote(s)}`], { encoding: "utf8" });
          expect(r.stdout).toBe(s);
        },
      ),
      { numRuns: 100 },
    );
  });
});
