/**
 * `npm run build` (last step): compile the Landlock helper `native/landlock-exec.c` with the system C compiler
 * (`$CC`, else `cc`) into `dist/native/devrites-landlock-linux-<arch>`, which the package ships. Static when
 * the C library links statically (then the binary runs in any Linux user space, e.g. inside another sandbox
 * whose root lacks this libc), else dynamic. `-O2 -Wall -Wextra -Werror`.
 *
 * Never fails a build on a machine that cannot make the helper: off Linux, or without a C compiler, it says so
 * and exits 0 (the hook then finds no helper and uses another mechanism or the classifier). A compiler that is
 * present but rejects the source fails the build: that is a defect in the source. The binary is written to a
 * temporary name and renamed, so a half-written helper is never where the hook looks.
 */

import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { landlockHelperName, NATIVE_DIR } from "../src/sandbox/landlock-helper.js";

export const NATIVE_SOURCE = "native/landlock-exec.c";
export const CFLAGS = ["-O2", "-Wall", "-Wextra", "-Werror"] as const;

export type NativeBuild =
  | { status: "built"; path: string; linkage: "static" | "dynamic" }
  | { status: "skipped"; reason: string };

function compile(cc: string, args: readonly string[]): { ok: boolean; missing: boolean; stderr: string } {
  const r = spawnSync(cc, args, { encoding: "utf8" });
  const missing = (r.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
  return { ok: r.status === 0, missing, stderr: r.stderr ?? String(r.error ?? "") };
}

/** Build the helper for this platform under `root` (the package root), or say why not. */
export function buildNative(root: string, opts: { cc?: string; outDir?: string } = {}): NativeBuild {
  const name = landlockHelperName();
  if (name === undefined) return { status: "skipped", reason: `no Landlock on ${process.platform}` };
  const cc = opts.cc ?? process.env.CC ?? "cc";
  const out = join(opts.outDir ?? join(root, NATIVE_DIR), name);
  const tmp = `${out}.tmp-${process.pid}`;
  mkdirSync(dirname(out), { recursive: true });
  const src = join(root, NATIVE_SOURCE);
  try {
    let linkage: "static" | "dynamic" = "static";
    let r = compile(cc, [...CFLAGS, "-static", "-o", tmp, src]);
    if (r.missing) return { status: "skipped", reason: `no C compiler (${cc} not found)` };
    if (!r.ok) {
      linkage = "dynamic";
      r = compile(cc, [...CFLAGS, "-o", tmp, src]);
    }
    if (!r.ok) throw new Error(`${cc} failed to compile ${NATIVE_SOURCE}:\n${r.stderr}`);
    chmodSync(tmp, 0o755);
    renameSync(tmp, out);
    return { status: "built", path: out, linkage };
  } finally {
    rmSync(tmp, { force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("../", import.meta.url));
  try {
    const r = buildNative(root);
    if (r.status === "built") console.log(`build-native: ${r.path} (${r.linkage})`);
    else console.log(`build-native: skipped, ${r.reason}; the Landlock sandbox will be unavailable`);
  } catch (e) {
    console.error(`build-native: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
