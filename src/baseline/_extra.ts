/**
 * What a leaf can change that `git status` does not report, as extra manifest entries (see
 * docs/tree-check.md). Each entry's `path` cannot be a path `git status` reports: `.git/…` names the git
 * folder's state (git never tracks or lists a `.git` path), `<dir>/` (a trailing slash) an ignored directory.
 * The `.devrites/` records other than the CLI's own are entries under their real paths.
 *
 * - git state: `.git/HEAD` (the file's text: a symbolic ref or a detached commit), `.git/refs` (every ref and
 *   what it points at, `refs/remotes/` and `refs/prefetch/` excepted: a background fetch or `git maintenance`
 *   prefetch is not the leaf), `.git/config` (and
 *   `config.worktree`), `.git/hooks/<name>` and `.git/info/<name>` (each file but `info/refs`, which git's
 *   own housekeeping rewrites), `.git/objects/info/alternates`,
 *   `.git/index-flags` (which index entries are assume-unchanged or skip-worktree), and `.git/index/<path>`
 *   for every path `git status` lists: the index's mode and blob for it (a change made only in the index of a
 *   file already dirty at the baseline).
 * - ignored paths: one entry per ignored file or directory git lists (`--ignored=matching`), whose digest is
 *   a stat signature — for every file and directory under it: path, type, size, mtime_ns, ctime_ns, ino,
 *   mode, nlink. Contents are not read. Sees: any create, delete, rename, write (mtime/ctime/size/ino),
 *   chmod, hard link. Cannot see: a rewrite that leaves size, mtime and ctime unchanged (ctime cannot be set
 *   from user space, so only on a file system whose timestamps are coarser than the time between the freeze
 *   and the write).
 */

import { isUtf8 } from "node:buffer";
import { type Dirent, lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { sha256Hex } from "../core/hash.js";
import { RUN_ID_PATTERN } from "../envelope/ids.js";
import { git, gitOk } from "./_git.js";
import { joinRaw, pathFromBytes } from "./_paths.js";
import { settledAt } from "./_settle.js";
import type { ManifestEntry } from "./types.js";

/** Files and directories one ignored tree may hold before devrites refuses to fingerprint it (fail closed). */
export const IGNORED_MAX_ENTRIES = 2_000_000;

/** An ignored path's stat signature. */
export interface IgnoredTree {
  /** Repository-relative, as git listed it; directories end with `/`. */
  path: string;
  raw: Buffer;
  dir: boolean;
  /** One line per file or directory under it (itself included): the signature's text. */
  lines: string[];
  /** Repository-relative paths of the files it holds (to leave out the touched ones). */
  files: string[];
  /** The signature's digest with nothing left out, once computed. */
  digest?: string;
  /**
   * Nothing in it changed since the check's cut (`_settle.ts`): not walked, no lines; `entriesFor` takes the
   * packet's baseline entry for it.
   */
  settled?: true;
}

function statLine(rel: string, abs: Buffer | string): { line: string; dir: boolean } | null {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw e;
  }
  const dir = st.isDirectory();
  const type = dir ? "d" : st.isSymbolicLink() ? "l" : st.isFile() ? "f" : "o";
  // Times in ms with their fraction (sub-microsecond resolution), the permission bits in octal as find prints.
  return {
    line: `${rel}\u0000${type} ${st.size} ${st.mtimeMs} ${st.ctimeMs} ${st.ino} ${(st.mode & 0o7777).toString(8)} ${st.nlink}`,
    dir,
  };
}

/** Walk one ignored path (without following links) into its signature. */
export function ignoredTree(root: string, raw: Buffer, dir: boolean): IgnoredTree {
  const top = pathFromBytes(raw);
  const tree: IgnoredTree = { path: dir ? `${top}/` : top, raw, dir, lines: [], files: [] };
  const stack: Buffer[] = [raw];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const relPath = pathFromBytes(rel);
    const abs = joinRaw(root, rel);
    const stat = statLine(relPath, abs);
    if (stat === null) continue;
    tree.lines.push(stat.line);
    if (tree.lines.length > IGNORED_MAX_ENTRIES)
      throw new Error(
        `the ignored path ${top} holds more than ${IGNORED_MAX_ENTRIES} entries; devrites cannot fingerprint it`,
      );
    if (!stat.dir) {
      tree.files.push(relPath);
      continue;
    }
    let names: Buffer[];
    try {
      names = readdirSync(abs, { encoding: "buffer" });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      throw e;
    }
    for (const n of names) stack.push(Buffer.concat([rel, Buffer.from("/"), n]));
  }
  tree.lines.sort();
  return tree;
}

/**
 * The ignored trees as entries, leaving out the files in `exclude` (the packet's touched paths: the touched
 * manifest hashes those exactly, and an allowlisted ignored file must not make its whole folder changed).
 */
export function ignoredEntries(trees: readonly IgnoredTree[], exclude: ReadonlySet<string>): ManifestEntry[] {
  return trees.flatMap((t) => {
    if (t.settled) return [];
    const excluded = exclude.size > 0 && t.files.some((f) => exclude.has(f));
    // The signature without exclusions is the same for every packet: hashed once per snapshot.
    if (!excluded) t.digest ??= sha256Hex(t.lines.join("\n"));
    const sha256 = excluded
      ? sha256Hex(t.lines.filter((l) => !exclude.has(l.slice(0, l.indexOf("\u0000")))).join("\n"))
      : t.digest!;
    return { path: t.path, type: "file", exec: false, sha256 };
  });
}

/** The git folder state only git itself can list: every ref, and the files the config includes. */
export interface GitStateReads {
  refs: Promise<Buffer>;
  includes: Promise<string[]>;
}

/** Start the git calls `gitStateEntries` needs, so they run beside the snapshot's other reads. */
export function startGitStateReads(root: string, commonDir: Promise<string>): GitStateReads {
  const reads = {
    refs: gitOk(root, ["for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)"]),
    includes: commonDir.then((c) => includeTargets(root, c)),
  };
  // awaited by gitStateEntries; a failure before then is not an unhandled rejection
  reads.refs.catch(() => {});
  reads.includes.catch(() => {});
  return reads;
}

/** The git folder's behaviour-changing state (see the module comment). */
export async function gitStateEntries(
  gitDir: string,
  commonDir: string,
  /** `<tag> <path>\0` for every index entry tagged other than `H` (`flaggedRecords`). */
  flaggedListing: Buffer,
  /** Started by `startGitStateReads` beside the snapshot's other reads. */
  reads: GitStateReads,
): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  const file = (path: string, abs: string) => {
    const e = fileEntry(path, abs);
    if (e) out.push(e);
  };
  file(".git/HEAD", join(gitDir, "HEAD"));
  file(".git/config", join(commonDir, "config"));
  file(".git/config.worktree", join(gitDir, "config.worktree"));
  file(".git/objects/info/alternates", join(commonDir, "objects", "info", "alternates"));
  for (const sub of ["hooks", "info"]) {
    let names: string[] = [];
    try {
      names = readdirSync(join(commonDir, sub));
    } catch {
      names = [];
    }
    for (const n of names.sort()) {
      // `info/refs` is written by `git update-server-info`, which every repack runs, so a background
      // `git gc --auto` (started by the user's own commit) rewrites it mid-run; only the dumb HTTP transport
      // reads it, and the refs themselves are compared by value below.
      if (sub === "info" && n === "refs") continue;
      file(`.git/${sub}/${n}`, join(commonDir, sub, n));
    }
  }
  // Files that run code or change the next commit: an operation in progress, a cut history, linked worktrees.
  for (const name of ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "CHERRY_PICK_HEAD", "REVERT_HEAD", "shallow"])
    file(`.git/${name}`, join(name === "shallow" ? commonDir : gitDir, name));
  for (const dir of ["rebase-merge", "rebase-apply"]) treeFiles(out, `.git/${dir}`, join(gitDir, dir), 0);
  treeFiles(out, ".git/sequencer", join(commonDir, "sequencer"), 0);
  // Linked worktrees: which exist and where, not their index or logs (the user works in them).
  let worktrees: string[] = [];
  try {
    worktrees = readdirSync(join(commonDir, "worktrees")).sort();
  } catch {
    worktrees = [];
  }
  for (const w of worktrees)
    for (const f of ["HEAD", "gitdir", "commondir", "config.worktree", "locked"])
      file(`.git/worktrees/${w}/${f}`, join(commonDir, "worktrees", w, f));
  // Submodules' git folders (`.git/modules/<name>`, names may hold slashes, submodules nest).
  moduleDirs(out, ".git/modules", join(commonDir, "modules"), 0);
  // Files the config includes (include.path, includeIf.<cond>.path): they can set hooksPath or fsmonitor.
  for (const [i, target] of (await reads.includes).entries()) file(`.git/include/${i}`, target);
  const refs = await reads.refs;
  const kept = refs
    .toString("latin1")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("refs/remotes/") && !l.startsWith("refs/prefetch/"))
    .join("\n");
  out.push({ path: ".git/refs", type: "file", exec: false, sha256: sha256Hex(Buffer.from(kept, "latin1")) });
  // Which index entries git is told not to look at, and how (`ls-files -v` tags other than `H`).
  out.push({ path: ".git/index-flags", type: "file", exec: false, sha256: sha256Hex(flaggedListing) });
  return out;
}

/** How deep `.git/modules` and the operation folders are walked (fail closed beyond: an entry says so). */
const GIT_WALK_MAX_DEPTH = 12;

/** Every file under a folder of the git dir, as `.git/...` entries (the folder's absence records nothing). */
function treeFiles(out: ManifestEntry[], prefix: string, abs: string, depth: number): void {
  let names: string[];
  try {
    names = readdirSync(abs).sort();
  } catch {
    return;
  }
  if (depth > GIT_WALK_MAX_DEPTH) {
    out.push({ path: prefix, type: "file", exec: false, sha256: sha256Hex(`too deep: ${names.join("\0")}`) });
    return;
  }
  for (const n of names) {
    const p = `${prefix}/${n}`;
    const a = join(abs, n);
    let dir = false;
    try {
      dir = lstatSync(a).isDirectory();
    } catch {
      continue;
    }
    if (dir) treeFiles(out, p, a, depth + 1);
    else {
      const e = fileEntry(p, a);
      if (e) out.push(e);
    }
  }
}

/**
 * `.git/modules/**`: in each submodule git dir (a folder holding `HEAD`) its HEAD, config, config.worktree,
 * hooks and info, then its own `modules/`; other folders are part of a submodule name and are walked.
 */
function moduleDirs(out: ManifestEntry[], prefix: string, abs: string, depth: number): void {
  let names: string[];
  try {
    names = readdirSync(abs).sort();
  } catch {
    return;
  }
  for (const n of names) {
    const p = `${prefix}/${n}`;
    const a = join(abs, n);
    try {
      if (!lstatSync(a).isDirectory()) continue;
    } catch {
      continue;
    }
    if (depth > GIT_WALK_MAX_DEPTH) {
      out.push({ path: p, type: "file", exec: false, sha256: sha256Hex("too deep") });
      continue;
    }
    let isGitDir = false;
    try {
      isGitDir = lstatSync(join(a, "HEAD")).isFile();
    } catch {
      isGitDir = false;
    }
    if (!isGitDir) {
      moduleDirs(out, p, a, depth + 1);
      continue;
    }
    for (const f of ["HEAD", "config", "config.worktree", "objects/info/alternates"]) {
      const e = fileEntry(`${p}/${f}`, join(a, f));
      if (e) out.push(e);
    }
    treeFiles(out, `${p}/hooks`, join(a, "hooks"), 0);
    treeFiles(out, `${p}/info`, join(a, "info"), 0);
    moduleDirs(out, `${p}/modules`, join(a, "modules"), depth + 1);
  }
}

/** The files `<common-dir>/config` includes, resolved as git does relative to the config file. */
async function includeTargets(root: string, commonDir: string): Promise<string[]> {
  // Section names are case-insensitive: a config whose text never says "include" includes nothing, and the
  // usual config is answered without a git process (an unreadable one is left to git, which fails closed).
  try {
    if (!/include/i.test(readFileSync(join(commonDir, "config"), "latin1"))) return [];
  } catch {
    // git says why below
  }
  const r = await git(root, [
    "config",
    "--file",
    join(commonDir, "config"),
    "-z",
    "--get-regexp",
    "^include(if\\..*)?\\.path$",
  ]);
  // 1: no such key. Anything else but 0 fails closed.
  if (r.exitCode === 1) return [];
  if (r.exitCode !== 0) throw new Error(`git config could not list the include files: ${r.stderr.trim()}`);
  const targets: string[] = [];
  for (const rec of r.stdout.toString("utf8").split("\u0000")) {
    const nl = rec.indexOf("\n");
    if (nl < 0) continue;
    let v = rec.slice(nl + 1);
    if (v.startsWith("~/")) v = join(process.env.HOME ?? "", v.slice(2));
    targets.push(resolve(commonDir, v));
  }
  return targets.sort();
}

/**
 * `<dir>/.git` for every folder holding tracked files (the top level excepted): git never lists a `.git`
 * and does not treat a folder with tracked files as a nested repository, so a repository planted there is
 * invisible to status. One lstat per tracked folder; a planted one is an entry named by its path.
 */
export function hiddenRepoEntries(root: string, folders: readonly string[]): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  for (const d of [...folders].sort()) {
    const abs = join(root, d, ".git");
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      continue;
    }
    const parts = [`${st.isDirectory() ? "d" : "f"} ${st.ino}`];
    for (const f of st.isDirectory() ? ["HEAD", "config"] : [""]) {
      try {
        parts.push(readFileSync(join(abs, f)).toString("latin1"));
      } catch {
        parts.push("-");
      }
    }
    out.push({ path: `${d}/.git`, type: "file", exec: false, sha256: sha256Hex(parts.join("\0")) });
  }
  return out;
}

/** `.git/index/<path>`: the index's mode and object for a path git status listed (porcelain v2 `mI hI`). */
export function indexEntry(path: string, modeAndBlob: string): ManifestEntry {
  return { path: `.git/index/${path}`, type: "file", exec: false, sha256: sha256Hex(modeAndBlob) };
}

/**
 * The CLI's own records under `.devrites/`: written while leaves run, so not in a baseline. The first three
 * are bound through each run's records journal instead (`src/run/records-journal.ts`).
 */
const CLI_RECORDS = new Set([
  "state.json",
  "questions.jsonl",
  "decisions.jsonl",
  "engine.lock",
  "records.lock",
  "install.json",
]);

/** What the CLI writes in a run's folder `.devrites/runs/<run-id>/`. */
const RUN_RECORDS = new Set(["packet.json", "baseline.json", "result.json", "events.jsonl"]);

/**
 * A run's anchor, anchored verdicts or records journal in `.devrites/anchors/` (`src/run/anchor-home.ts`): the
 * run id's pattern without its closing `$`, then the suffix.
 */
const ANCHOR_FILE = new RegExp(
  `${RUN_ID_PATTERN.source.slice(0, -1)}\\.(?:json|verdicts\\.jsonl|records\\.jsonl)$`,
);

/** The CLI's temporary files beside its records, mid atomic write. */
const isCliTemp = (name: string) => name.endsWith(".devrites-tmp");

/**
 * Whether the CLI writes this non-directory during a run (`segments`: its path under `.devrites/`): the
 * records above, each run folder's own records, the anchors, and its temporary files beside them. Anything
 * else under `.devrites/` is an entry, including a file planted among the run folders or inside one, or a
 * stranger in the anchors folder.
 */
function isCliWritten(segments: readonly string[]): boolean {
  const name = segments[segments.length - 1] ?? "";
  const parent = segments.slice(0, -1);
  const runFolder = parent.length === 2 && parent[0] === "runs" && RUN_ID_PATTERN.test(parent[1] ?? "");
  const anchors = parent.length === 1 && parent[0] === "anchors";
  if (isCliTemp(name)) return parent.length === 0 || runFolder || anchors;
  if (parent.length === 0) return CLI_RECORDS.has(name);
  if (runFolder) return RUN_RECORDS.has(name);
  return anchors && ANCHOR_FILE.test(name);
}

/**
 * `.devrites/` files other than those the CLI writes during a run (`isCliWritten`: the run folders' records,
 * the anchors, `state.json`, the ledgers, the engine lock, `install.json`): the spec, plan, proof and review
 * records and anything else found there (generated hook bundles included; `devrites validate` also compares
 * those with the install manifest). Folders are told from the directory listing, so the CLI's own records cost
 * no `lstat`.
 */
export function workspaceEntries(root: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const walk = (rel: string, segments: string[]) => {
    let dirents: Dirent[];
    try {
      dirents = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of dirents.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      const r = `${rel}/${d.name}`;
      const segs = [...segments, d.name];
      if (d.isDirectory()) {
        if (segs.length <= 16) walk(r, segs);
        continue;
      }
      if (isCliWritten(segs)) continue;
      const e = fileEntry(r, join(root, r));
      if (e) out.push(e);
    }
  };
  walk(".devrites", []);
  return out;
}

function fileEntry(path: string, abs: string): ManifestEntry | null {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return null;
  }
  if (st.isSymbolicLink())
    return { path, type: "symlink", exec: false, sha256: sha256Hex(readlinkBytes(abs)) };
  if (!st.isFile()) return { path, type: "file", exec: false, sha256: sha256Hex(`not a file: ${st.mode}`) };
  return { path, type: "file", exec: (st.mode & 0o100) !== 0, sha256: sha256Hex(readFileSync(abs)) };
}

function readlinkBytes(abs: string): Buffer {
  return readlinkSync(abs, { encoding: "buffer" });
}

let findWorks: Promise<boolean> | undefined;

/**
 * Whether GNU find can walk the ignored paths here (asked once per process; start it early, it is a process
 * of its own).
 */
export function findUsable(root: string): Promise<boolean> {
  findWorks ??= execa("find", [".", "-maxdepth", "0", "-printf", "%y"], { cwd: root, reject: false }).then(
    (probe) => process.platform === "linux" && probe.exitCode === 0 && probe.stdout === "d",
    () => false,
  );
  return findWorks;
}

/**
 * Every ignored path's signature, in one `find -printf` child process when GNU find is there (it runs beside
 * the hashing of dirty files, on another core, and is several times faster than walking in Node), else by
 * `ignoredTree`. One method per process, so two snapshots always compare like with like; a `find` that fails
 * once it is known to work (a file vanished mid-walk) fails the snapshot: the tree is changing.
 */
export async function ignoredTrees(
  root: string,
  listed: readonly { raw: Buffer; dir: boolean }[],
): Promise<IgnoredTree[]> {
  if (listed.length === 0) return [];
  if (!(await findUsable(root))) return listed.map((l) => ignoredTree(root, l.raw, l.dir));
  const out = await findUnder(root, listed, ["-printf", "%p\\0%y %s %T@ %C@ %i %m %n\\0"]);
  const trees: IgnoredTree[] = listed.map((l) => {
    const top = pathFromBytes(l.raw);
    return { path: l.dir ? `${top}/` : top, raw: l.raw, dir: l.dir, lines: [], files: [] };
  });
  if (isUtf8(out) && listed.every((l) => isUtf8(l.raw))) {
    // The common case, without a Buffer per record: every name is UTF-8, so strings compare as bytes do.
    const parts = out.toString("utf8").split("\u0000");
    if (parts.length % 2 !== 1 || parts[parts.length - 1] !== "") throw new Error("find output is truncated");
    let t = 0;
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const rel = parts[i]!.slice(2);
      const stat = parts[i + 1]!;
      while (t < trees.length && !withinText(rel, trees[t]!)) t++;
      const tree = trees[t];
      if (!tree) throw new Error(`find listed ${rel}, outside the paths it was given`);
      tree.lines.push(`${rel}\u0000${stat}`);
      if (stat[0] !== "d") tree.files.push(rel);
    }
    for (const tr of trees) {
      if (tr.lines.length > IGNORED_MAX_ENTRIES)
        throw new Error(
          `the ignored path ${tr.path} holds more than ${IGNORED_MAX_ENTRIES} entries; devrites cannot fingerprint it`,
        );
      tr.lines.sort();
    }
    return trees;
  }
  let k = 0;
  let start = 0;
  while (start < out.length) {
    const a = out.indexOf(0, start);
    const b = a < 0 ? -1 : out.indexOf(0, a + 1);
    if (a < 0 || b < 0) throw new Error("find output is truncated");
    const raw = out.subarray(start + 2, a); // without the leading "./"
    const stat = out.subarray(a + 1, b).toString("latin1");
    start = b + 1;
    while (k < trees.length && !within(raw, trees[k]!.raw)) k++;
    const tree = trees[k];
    if (!tree) throw new Error(`find listed ${pathFromBytes(raw)}, outside the paths it was given`);
    const rel = pathFromBytes(raw);
    tree.lines.push(`${rel}\u0000${stat}`);
    if (tree.lines.length > IGNORED_MAX_ENTRIES)
      throw new Error(
        `the ignored path ${tree.path} holds more than ${IGNORED_MAX_ENTRIES} entries; devrites cannot fingerprint it`,
      );
    if (stat[0] !== "d") tree.files.push(rel);
  }
  for (const t of trees) t.lines.sort();
  return trees;
}

/**
 * The repository paths under `listed` (each included) whose ctime is at or after `cutMs`: one
 * `find -newerct` child when GNU find is there (it prints nothing for a folder nobody touched, so nothing is
 * parsed), else the whole walk in Node. Links are not followed.
 */
export async function changedSince(
  root: string,
  listed: readonly { raw: Buffer; dir: boolean }[],
  cutMs: number,
): Promise<Set<string>> {
  const changed = new Set<string>();
  if (listed.length === 0) return changed;
  if (!(await findUsable(root))) {
    for (const l of listed)
      for (const line of ignoredTree(root, l.raw, l.dir).lines) {
        const [rel = "", stat = ""] = line.split("\u0000");
        if (!settledAt(Number(stat.split(" ")[3]), cutMs)) changed.add(rel);
      }
    return changed;
  }
  // `-newerct` is strictly newer than the reference: a millisecond before the cut keeps "at or after" whole
  const ref = `@${((cutMs - 1) / 1000).toFixed(3)}`;
  const out = await findUnder(root, listed, ["-newerct", ref, "-printf", "%p\\0"]);
  for (let start = 0; start < out.length; ) {
    const end = out.indexOf(0, start);
    if (end < 0) throw new Error("find output is truncated");
    changed.add(pathFromBytes(out.subarray(start + 2, end)));
    start = end + 1;
  }
  return changed;
}

/** GNU find over the listed paths (`./<path>` each, links not followed) with `tail`; its output, or it fails. */
async function findUnder(
  root: string,
  listed: readonly { raw: Buffer }[],
  tail: readonly string[],
): Promise<Buffer> {
  const args = listed.map((l) => Buffer.concat([Buffer.from("./"), l.raw]).toString("latin1"));
  const r = await execa("find", [...args, ...tail], {
    cwd: root,
    reject: false,
    encoding: "buffer",
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, LC_ALL: "C" },
  });
  if (r.exitCode !== 0)
    throw new Error(
      `find could not walk the ignored paths (${Buffer.from(r.stderr ?? "")
        .toString()
        .trim()})`,
    );
  return Buffer.from(r.stdout ?? new Uint8Array());
}

function withinText(rel: string, tree: IgnoredTree): boolean {
  const top = tree.dir ? tree.path.slice(0, -1) : tree.path;
  return (
    rel === top || (rel.length > top.length && rel.charCodeAt(top.length) === 0x2f && rel.startsWith(top))
  );
}

function within(raw: Buffer, top: Buffer): boolean {
  return (
    raw.equals(top) ||
    (raw.length > top.length && raw[top.length] === 0x2f && raw.subarray(0, top.length).equals(top))
  );
}
