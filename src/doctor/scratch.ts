/**
 * The doctor's scratch repository: a fresh git project with devrites installed the way `devrites init` does
 * it, an active packet per probed role, and a HOME (with the host's config folder) of its own, so nothing of
 * the user's is read or written by the probed host. It lives under the user's cache folder, never under the
 * system temp folder: Codex refuses to create its sandbox helper there and every shell call then fails.
 */

import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandCatalog } from "../cli/commands/catalog.js";
import { VERSION } from "../cli/version.js";
import { hasErrors } from "../core/diagnostics.js";
import type { RoleName } from "../envelope/roles.js";
import { runInstall } from "../install/run.js";
import { runPacketNew } from "../packet/create.js";
import { landlockHelperName, landlockHelperPath } from "../sandbox/landlock-helper.js";
import type { DoctorFault, DoctorHost } from "./types.js";

/** This package's root (`dist/doctor/` or `src/doctor/` → two folders up). */
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Scratch {
  root: string;
  home: string;
  project: string;
  /** The hook log (`DEVRITES_HOOK_LOG`). */
  hookLog: string;
  cleanup(): void;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `$DEVRITES_DOCTOR_SCRATCH`, else `$XDG_CACHE_HOME/devrites/doctor`, else `~/.cache/devrites/doctor`. */
export function scratchBase(env: Env): string {
  const dir =
    env.DEVRITES_DOCTOR_SCRATCH ||
    join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "devrites", "doctor");
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const tmp = realpathSync(tmpdir());
  if (real === tmp || real.startsWith(`${tmp}/`)) {
    throw new Error(
      `the doctor's scratch folder ${real} lies under the temp folder ${tmp}, where Codex cannot start its sandbox; set DEVRITES_DOCTOR_SCRATCH to a folder elsewhere`,
    );
  }
  return real;
}

/** Scratch folders older than this are a killed doctor's leftovers. */
export const STALE_SCRATCH_MS = 6 * 60 * 60 * 1000;

/**
 * Remove doctor's own leftovers in `base` (a run killed before its cleanup): folders named as doctor names
 * them (`claude-*`, `codex-*`, `codex-trust-*`) and older than {@link STALE_SCRATCH_MS}. Returns what it removed.
 */
export function pruneStaleScratch(base: string, now: number): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!/^(claude|codex|codex-trust)-[A-Za-z0-9]{6}$/.test(name)) continue;
    const dir = join(base, name);
    try {
      const st = statSync(dir);
      if (st.isDirectory() && now - st.mtimeMs > STALE_SCRATCH_MS) {
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

const git = (cwd: string, args: string[]) =>
  execFileSync(
    "git",
    ["-c", "user.email=doctor@devrites.invalid", "-c", "user.name=devrites doctor", ...args],
    {
      cwd,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );

export const PROBE_FILE = "src/a.ts";

/**
 * Make the scratch project for `host` with packets for `roles`. Throws with a message naming the step that
 * failed (the caller turns it into a `host.runs` failure).
 */
export async function makeScratch(
  host: DoctorHost,
  roles: readonly RoleName[],
  env: Env,
  faults: readonly DoctorFault[],
): Promise<Scratch> {
  const base = scratchBase(env);
  pruneStaleScratch(base, Date.now());
  const root = mkdtempSync(join(base, `${host}-`));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  try {
    const home = join(root, "home");
    const project = join(root, "project");
    mkdirSync(home);
    mkdirSync(join(project, "src"), { recursive: true });
    git(project, ["init", "-q"]);
    writeFileSync(join(project, PROBE_FILE), "export const a = 1;\n");
    git(project, ["add", "."]);
    git(project, ["commit", "-qm", "doctor scratch"]);
    const installed = await runInstall({
      mode: "init",
      cwd: project,
      hosts: [host],
      dryRun: false,
      force: false,
      now: new Date(),
      knownCommands: commandCatalog.map((c) => c.name),
      version: VERSION,
    });
    if (installed.exitCode !== 0) {
      const why = installed.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ");
      throw new Error(`devrites init in the scratch repository failed (exit ${installed.exitCode}): ${why}`);
    }
    if (!faults.includes("no-sandbox")) installHelper(project);
    if (faults.includes("hooks-removed")) removeHooks(project, host);
    for (const role of roles) {
      const made = await runPacketNew({
        cwd: project,
        role,
        rite: "rite-build",
        objective: `devrites doctor probe (${role})`,
        allow: role === "devrites-slice-wright" ? [PROBE_FILE] : [],
        inputs: [],
        now: new Date(),
      });
      if (made.exitCode !== 0 || hasErrors(made.diagnostics)) {
        const why = made.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ");
        throw new Error(`packet new --role ${role} in the scratch repository failed: ${why}`);
      }
    }
    return { root, home, project, hookLog: join(root, "hook-log.jsonl"), cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/**
 * The package's Landlock helper beside the project's hook bundles (`.devrites/native/`, where the hook looks
 * second), so a probed call may fall back to it inside another sandbox as in a user's install.
 */
function installHelper(project: string): void {
  const name = landlockHelperName();
  const built = landlockHelperPath(PACKAGE_ROOT);
  if (name === undefined || built === undefined) return;
  const dir = join(project, ".devrites", "native");
  mkdirSync(dir, { recursive: true });
  copyFileSync(built, join(dir, name));
  chmodSync(join(dir, name), 0o755);
}

/** The test-only fault `hooks-removed`: the `hooks` key taken out of the host's project settings. */
function removeHooks(project: string, host: DoctorHost): void {
  const file = join(project, host === "claude" ? ".claude/settings.json" : ".codex/hooks.json");
  const settings = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  delete settings.hooks;
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}
