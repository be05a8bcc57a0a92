import { lstatSync, realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { sha256Hex } from "../core/hash.js";
import { checkRepoPath } from "../scope/index.js";
import { type Described, describeRaw, type SettledEntry, submoduleEntry } from "./_describe.js";
import type { IgnoredTree } from "./_extra.js";
import {
  changedSince,
  findUsable,
  gitStateEntries,
  hiddenRepoEntries,
  ignoredEntries,
  ignoredTrees,
  indexEntry,
  startGitStateReads,
  workspaceEntries,
} from "./_extra.js";
import { git, gitOk, revParseHead } from "./_git.js";
import {
  flaggedRecords,
  forgedCleanPaths,
  hiddenIndexEntries,
  INDEX_LISTING_ARGS,
  indexFolders,
  parseIndexListing,
} from "./_index-verify.js";
import { isWorkspacePath, joinRaw, pathFromBytes, pathToBytes, sortByPathBytes } from "./_paths.js";
import { mapLimit } from "./_pool.js";
import { SettledTree } from "./_settle.js";
import { parsePorcelainV2 } from "./_status.js";
import { manifestDigest } from "./digest.js";
import { findRepoRoot } from "./find-repo-root.js";
import type { ManifestEntry, TreeSnapshot } from "./types.js";

/** How deep repositories inside repositories are followed. */
const NESTED_MAX_DEPTH = 4;

/** Files hashed at once: enough to overlap I/O, few enough not to exhaust file descriptors. */
const CONCURRENCY = 8;

interface Candidate {
  raw: Buffer;
  /** git said submodule / nested repository. */
  repoLike: boolean;
  /** Record only when something is on disk (skip-worktree entries are normally absent). */
  onlyIfPresent: boolean;
}

/**
 * The dirty manifest of `root` (which must be the repository top level, or a folder outside git): every path
 * that differs from HEAD in the index or work tree, plus untracked files that are not ignored, plus index
 * entries git is told not to look at (assume-unchanged, skip-worktree present on disk); the workspace
 * `.devrites/` excluded. Only those paths are hashed, so the cost follows the number of dirty files. Outside
 * git every file except `.git/` and the root `.devrites/` is an entry. Sorted by path bytes.
 */
export interface SnapshotOptions {
  /**
   * At `result check`: what may be trusted without reading it again (`_settle.ts`). `cutMs`: paths whose ctime
   * and folders' ctimes are all before it have not changed since; every clean index entry that is not settled
   * is verified against its blob (a forged stat cache, `_index-verify.ts`). With `root` (the mark's root
   * identity: the cut came from marks that `packet new` took before its snapshots read anything), a settled
   * dirty file keeps the hash in `reuse` (a baseline's dirty manifest) and a settled ignored path is not
   * fingerprinted again (`entriesFor` takes the packet's own baseline entry for it). Absent at the baseline.
   */
  settle?: { cutMs: number; root?: string; reuse?: readonly ManifestEntry[] };
  /**
   * Ignored directories an earlier snapshot of this repository saw (repository-relative, ending in `/`, as
   * its entries name them). They are walked while git lists the tree, instead of after: the walk of a large
   * ignored folder takes longer than the status. Only a hint: what git lists as ignored now decides what is
   * recorded, and a listed directory the hint missed is walked afterwards.
   */
  ignoredHint?: readonly string[];
}

export async function snapshotTree(
  root: string,
  depth = 0,
  opts: SnapshotOptions = {},
): Promise<TreeSnapshot> {
  // One git call answers the usual case (a repository with a commit checked out); anything else takes the
  // careful path, which also says why a repository git cannot read is not a plain folder.
  const facts = await repoFacts(root);
  let topLevel: string;
  if (facts) topLevel = facts.top;
  else {
    const repo = await findRepoRoot(root);
    if (!repo.git) return snapshotPlainFolder(repo.root);
    topLevel = repo.root;
  }
  if (realpathSync(topLevel) !== realpathSync(root))
    throw new Error(`snapshotTree needs the repository top level ${topLevel}, got ${root}`);
  // Every git read here depends on the repository alone, never on another's answer, and none writes the index
  // (GIT_OPTIONAL_LOCKS=0): they all run side by side, so the snapshot waits about as long as its slowest
  // (the status). Ignored paths are listed as git matches them (a matched directory once, not every file in it).
  const dirsRead: Promise<{ gitDir: string; commonDir: string }> = (
    facts
      ? Promise.resolve(facts)
      : gitOk(root, ["rev-parse", "--absolute-git-dir", "--git-common-dir"]).then((d) => {
          const [gitDir = "", common = ""] = d.toString("utf8").split("\n");
          return { gitDir, common };
        })
  ).then(({ gitDir, common }) => ({ gitDir, commonDir: resolve(root, common) }));
  const stateReads = startGitStateReads(
    root,
    dirsRead.then((d) => d.commonDir),
  );
  const settle = opts.settle;
  const tree = settle ? new SettledTree(root, settle.cutMs, settle.root) : undefined;
  // Marks settle ignored paths and dirty files; a cut from a packet's creation only narrows the verification.
  const marked = tree !== undefined && settle?.root !== undefined ? tree : undefined;
  void findUsable(root); // never rejects: a probe that fails says "not usable"
  const early = earlyIgnoredWalk(root, opts.ignoredHint ?? [], marked);
  const [head, status, listing, { gitDir, commonDir }] = await Promise.all([
    facts ? facts.head : headOf(root),
    gitOk(root, [
      "status",
      "--porcelain=v2",
      "-z",
      "--untracked-files=all",
      "--no-renames",
      "--ignore-submodules=none",
      "--ignored=matching",
    ]),
    gitOk(root, INDEX_LISTING_ARGS).then(parseIndexListing),
    dirsRead,
  ]);
  const hidden = hiddenIndexEntries(listing);
  const parsed = parsePorcelainV2(status).filter((s) => !isWorkspacePath(s.raw));
  const listedPaths = parsed.filter((s) => !s.ignored);
  const candidates: Candidate[] = [
    ...listedPaths.map((s) => ({ raw: s.raw, repoLike: s.repoLike, onlyIfPresent: false })),
    ...hidden.map((h) => ({ raw: h.raw, repoLike: false, onlyIfPresent: h.skipWorktree })),
  ];
  if (tree) {
    const known = new Set(candidates.map((c) => c.raw.toString("hex")));
    for (const raw of await forgedCleanPaths(root, listing, tree, known))
      candidates.push({ raw, repoLike: false, onlyIfPresent: false });
  }
  // The ignored paths are walked (in a child process where possible) while the dirty files are hashed.
  const ignoredWalk = walkIgnored(
    root,
    parsed.filter((s) => s.ignored).map((s) => ({ raw: s.raw, dir: s.repoLike })),
    early,
    marked,
  );
  ignoredWalk.catch(() => {}); // awaited below
  const kept = marked && settle?.reuse ? settledFiles(marked, settle.reuse) : undefined;
  const snapshot = await build(
    head,
    root,
    dedupe(candidates.filter((c) => !isWorkspacePath(c.raw))),
    depth,
    kept,
  );
  const extra = [
    ...(await gitStateEntries(gitDir, commonDir, flaggedRecords(listing), stateReads)),
    ...hiddenRepoEntries(root, indexFolders(listing)),
    ...listedPaths.flatMap((s) => (s.index ? [indexEntry(pathFromBytes(s.raw), s.index)] : [])),
    ...workspaceEntries(root),
  ];
  snapshot.entries = sortByPathBytes([...snapshot.entries, ...extra]);
  snapshot.ignored = await ignoredWalk;
  return snapshot;
}

/** A baseline's files by path (a wave's runs share one parsed manifest: built once per manifest). */
const filesByPath = new WeakMap<readonly ManifestEntry[], Map<string, ManifestEntry>>();

/**
 * The baseline's entry for a dirty file that is settled now, with the same exec bit: it cannot have changed
 * since that baseline hashed it.
 */
function settledFiles(tree: SettledTree, reuse: readonly ManifestEntry[]): SettledEntry {
  let byPath = filesByPath.get(reuse);
  if (!byPath) {
    byPath = new Map(reuse.filter((e) => e.type === "file").map((e) => [e.path, e]));
    filesByPath.set(reuse, byPath);
  }
  const files = byPath;
  return (path, st) => {
    const e = files.get(path);
    if (!e || e.exec !== ((st.mode & 0o100) !== 0) || !tree.stats(path, st)) return undefined;
    return { ...e };
  };
}

/**
 * An early walk of the hinted directories: their full signatures, or (marked, with every folder above them
 * settled) which of their entries changed since the cut.
 */
interface EarlyWalk {
  full: Set<string>;
  trees: Promise<IgnoredTree[]>;
  probed: Set<string>;
  changed: Promise<Set<string>>;
}

/** The hinted ignored directories still there as real directories, walked at once (see `ignoredHint`). */
function earlyIgnoredWalk(
  root: string,
  hint: readonly string[],
  marked: SettledTree | undefined,
): EarlyWalk | undefined {
  // only canonical repository paths: a record never makes the snapshot walk outside the repository
  const named = [...new Set(hint)].filter((p) => p.endsWith("/") && checkRepoPath(p.slice(0, -1)).ok);
  // one walk per tree: a directory inside another hinted one is walked with it (find would list it twice)
  const dirs = named.filter(
    (p) =>
      !named.some((q) => q !== p && p.startsWith(q)) &&
      lstatSync(resolve(root, p.slice(0, -1)), { throwIfNoEntry: false })?.isDirectory() === true,
  );
  if (dirs.length === 0) return undefined;
  const probed = dirs.filter((p) => marked?.above(p.slice(0, -1)) === true);
  const full = dirs.filter((p) => !probed.includes(p));
  const listed = (ps: string[]) => ps.map((p) => ({ raw: pathToBytes(p.slice(0, -1)), dir: true }));
  const trees = ignoredTrees(root, listed(full));
  const changed = marked
    ? changedSince(root, listed(probed), marked.cutMs)
    : Promise.resolve(new Set<string>());
  // awaited by walkIgnored, or dropped with the snapshot that failed first
  trees.catch(() => {});
  changed.catch(() => {});
  return { full: new Set(full), trees, probed: new Set(probed), changed };
}

/**
 * The ignored paths git listed, in its order: those the early walk covered taken from it, the rest walked now
 * (a path git no longer lists as ignored is dropped from the early walk's answer). Marked, a path whose
 * folders above are settled is first asked what changed in it since the cut (`changedSince`), and walked in
 * full only when something did; the others are `settled` trees without lines (`entriesFor` takes their
 * baseline entries).
 */
async function walkIgnored(
  root: string,
  listed: { raw: Buffer; dir: boolean }[],
  early: EarlyWalk | undefined,
  marked: SettledTree | undefined,
): Promise<IgnoredTree[]> {
  const key = (l: { raw: Buffer; dir: boolean }) => `${pathFromBytes(l.raw)}${l.dir ? "/" : ""}`;
  const walkedEarly = (l: { raw: Buffer; dir: boolean }) => l.dir && early?.full.has(key(l)) === true;
  const probedEarly = (l: { raw: Buffer; dir: boolean }) => l.dir && early?.probed.has(key(l)) === true;
  const rest = listed.filter((l) => !walkedEarly(l));
  let toWalk = rest;
  const settledPaths = new Set<string>();
  if (marked) {
    const probe = rest.filter((l) => {
      const top = pathFromBytes(l.raw);
      return !top.includes("\u0000") && marked.above(top);
    });
    const [earlyChanged, lateChanged] = await Promise.all([
      early?.changed ?? Promise.resolve(new Set<string>()),
      changedSince(
        root,
        probe.filter((l) => !probedEarly(l)),
        marked.cutMs,
      ),
    ]);
    // the probed paths something changed in: each changed path's folders looked up, not every pair compared
    const tops = new Set(probe.map((l) => pathFromBytes(l.raw)));
    const touched = new Set<string>();
    for (const c of [...earlyChanged, ...lateChanged])
      for (let p = c; p !== ""; p = p.slice(0, Math.max(0, p.lastIndexOf("/"))))
        if (tops.has(p)) touched.add(p);
    for (const t of tops) if (!touched.has(t)) settledPaths.add(t);
    toWalk = rest.filter((l) => !settledPaths.has(pathFromBytes(l.raw)));
  }
  const [done, late] = await Promise.all([early?.trees ?? Promise.resolve([]), ignoredTrees(root, toWalk)]);
  const byPath = new Map<string, IgnoredTree>();
  for (const t of [...done, ...late]) byPath.set(t.path, t);
  return listed.map((l) => {
    const top = pathFromBytes(l.raw);
    const path = key(l);
    if (settledPaths.has(top)) return { path, raw: l.raw, dir: l.dir, lines: [], files: [], settled: true };
    const t = byPath.get(path);
    if (!t) throw new Error(`the ignored path ${top} was not walked`);
    return t;
  });
}

/**
 * The dirty manifest of a snapshot for one packet: the snapshot's entries and its ignored paths' stat
 * signatures, with the packet's touched paths left out of those signatures (the touched manifest hashes
 * them exactly, so an allowlisted ignored file does not make its whole folder a change). An ignored path the
 * snapshot found settled (`SnapshotOptions.settle`) has not changed since the packet's baseline, so its entry
 * is that baseline's (`baseline`, the packet's own dirty manifest); one the baseline does not have is
 * recorded as a change.
 */
export function entriesFor(
  snapshot: TreeSnapshot,
  touched: readonly string[],
  baseline?: readonly ManifestEntry[],
): ManifestEntry[] {
  const trees = snapshot.ignored;
  if (!trees || trees.length === 0) return snapshot.entries;
  const exclude = new Set(touched);
  const excluded = exclude.size > 0 && trees.some((t) => t.files.some((f) => exclude.has(f)));
  const settled = trees.some((t) => t.settled) ? settledEntries(trees, baseline) : [];
  // Most packets touch no ignored file: their manifest is the same list, merged and sorted once (per baseline
  // when some ignored path is settled: a wave's runs share theirs).
  if (!excluded) {
    const cache = mergedWithIgnored.get(snapshot);
    if (cache && cache.baseline === (settled.length > 0 ? baseline : undefined)) return cache.merged;
    const merged = sortByPathBytes([...snapshot.entries, ...ignoredEntries(trees, new Set()), ...settled]);
    mergedWithIgnored.set(snapshot, { baseline: settled.length > 0 ? baseline : undefined, merged });
    return merged;
  }
  return sortByPathBytes([...snapshot.entries, ...ignoredEntries(trees, exclude), ...settled]);
}

const mergedWithIgnored = new WeakMap<
  TreeSnapshot,
  { baseline: readonly ManifestEntry[] | undefined; merged: ManifestEntry[] }
>();

const baselineByPath = new WeakMap<readonly ManifestEntry[], Map<string, ManifestEntry>>();

/** The settled ignored paths' entries, from the baseline (absent there: an entry that cannot match it). */
function settledEntries(trees: readonly IgnoredTree[], baseline: readonly ManifestEntry[] | undefined) {
  let byPath = baseline ? baselineByPath.get(baseline) : undefined;
  if (!byPath) {
    byPath = new Map((baseline ?? []).map((e) => [e.path, e]));
    if (baseline) baselineByPath.set(baseline, byPath);
  }
  const known = byPath;
  return trees
    .filter((t) => t.settled)
    .map(
      (t): ManifestEntry =>
        known.get(t.path) ?? {
          path: t.path,
          type: "file",
          exec: false,
          sha256: sha256Hex(`settled, but not in the baseline: ${t.path}`),
        },
    );
}

/**
 * The current state of exactly these repository paths (missing ones included), deduplicated and sorted by
 * path bytes. Paths must be structurally canonical (no absolute, `..`, `.`, empty segments, NUL, backslash);
 * `.git`, `.devrites` and glob characters are tolerated here because this only reads.
 */
export async function describePaths(root: string, paths: readonly string[]): Promise<ManifestEntry[]> {
  const tolerated = new Set(["scope.git", "scope.devrites", "scope.glob"]);
  for (const p of paths) {
    const c = checkRepoPath(p);
    if (!c.ok && !tolerated.has(c.violation.rule))
      throw new TypeError(`describePaths: ${c.violation.message} (${c.violation.rule})`);
  }
  const candidates = dedupe(
    paths.map((p) => ({ raw: pathToBytes(p), repoLike: false, onlyIfPresent: false })),
  );
  const described = await mapLimit(candidates, CONCURRENCY, (c) => toEntry(root, c));
  return sortByPathBytes(described.flatMap((d) => (d ? [d.entry] : [])));
}

/**
 * The top level, git folders and checked-out commit of the repository at `root`, from one `git rev-parse`;
 * undefined when that call does not give all four (no repository, an unborn branch, git failing): the caller
 * then asks each on its own.
 */
async function repoFacts(
  root: string,
): Promise<{ top: string; gitDir: string; common: string; head: string } | undefined> {
  const r = await git(root, [
    "rev-parse",
    "--show-toplevel",
    "--absolute-git-dir",
    "--git-common-dir",
    "HEAD^{commit}",
  ]);
  if (r.exitCode !== 0) return undefined;
  const lines = r.stdout.toString("utf8").split("\n");
  const [top = "", gitDir = "", common = "", head = ""] = lines;
  if (lines.length !== 5 || lines[4] !== "" || top === "" || gitDir === "" || common === "") return undefined;
  if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head)) return undefined;
  return { top, gitDir, common, head };
}

async function headOf(root: string): Promise<string> {
  const head = await revParseHead(root);
  if (head !== null) return head;
  // HEAD names no commit: fine only for an unborn branch (a fresh `git init`), never for a broken ref.
  const sym = await git(root, ["symbolic-ref", "-q", "HEAD"]);
  const ref = sym.stdout.toString("utf8").trim();
  if (sym.exitCode === 0 && ref !== "") {
    const exists = await git(root, ["show-ref", "--verify", "-q", ref]);
    if (exists.exitCode !== 0) return "unborn";
  }
  throw new Error(`HEAD in ${root} does not name a commit and is not an unborn branch`);
}

async function build(
  head: string,
  root: string,
  candidates: Candidate[],
  depth = 0,
  kept?: SettledEntry,
): Promise<TreeSnapshot> {
  const described = await mapLimit(candidates, CONCURRENCY, (c) => toEntry(root, c, depth, kept));
  const stats = { hashedFiles: 0, hashedBytes: 0 };
  const entries: ManifestEntry[] = [];
  for (const d of described) {
    if (!d) continue;
    entries.push(d.entry);
    if (d.hashed) {
      stats.hashedFiles += 1;
      stats.hashedBytes += d.hashedBytes;
    }
  }
  sortByPathBytes(entries);
  return { head, entries, stats };
}

/** One candidate → its entry, or null when nothing should be recorded. */
async function toEntry(
  root: string,
  c: Candidate,
  depth = 0,
  kept?: SettledEntry,
): Promise<{ entry: ManifestEntry; hashed: boolean; hashedBytes: number } | null> {
  const d: Described = await describeRaw(root, c.raw, kept);
  if (d.kind === "entry") {
    if (c.onlyIfPresent && d.entry.type === "missing") return null;
    return d;
  }
  if (d.kind === "directory" && (d.hasGit || c.repoLike)) {
    const entry = await submoduleEntry(root, c.raw, d.hasGit);
    if (d.hasGit) {
      // Its work tree too: a nested repository or submodule that was already dirty must not hide a change.
      if (depth >= NESTED_MAX_DEPTH)
        throw new Error(`${entry.path}: repositories nested deeper than ${NESTED_MAX_DEPTH} levels`);
      const nested = await snapshotTree(joinRaw(root, c.raw).toString("utf8"), depth + 1);
      const inner = manifestDigest(entriesFor(nested, []));
      entry.sha256 = sha256Hex(`${entry.sha256 ?? "none"}\0${nested.head}\0${inner}`);
    }
    return { entry, hashed: false, hashedBytes: 0 };
  }
  // A plain directory or a FIFO/socket/device where a file was: there is no file at this path.
  if (c.onlyIfPresent) return null;
  return {
    entry: { path: pathFromBytes(c.raw), type: "missing", exec: false, sha256: null },
    hashed: false,
    hashedBytes: 0,
  };
}

function dedupe(candidates: Candidate[]): Candidate[] {
  const byPath = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = c.raw.toString("hex");
    const prev = byPath.get(key);
    byPath.set(
      key,
      prev
        ? {
            ...prev,
            repoLike: prev.repoLike || c.repoLike,
            onlyIfPresent: prev.onlyIfPresent && c.onlyIfPresent,
          }
        : c,
    );
  }
  return [...byPath.values()];
}

/** Outside git: every regular file and symlink, without following links, minus `.git` dirs and the root workspace. */
async function snapshotPlainFolder(root: string): Promise<TreeSnapshot> {
  const found: Buffer[] = [];
  const walk = async (rel: Buffer | null): Promise<void> => {
    const dir = rel === null ? Buffer.from(root) : joinRaw(root, rel);
    const names = await readdir(dir, { encoding: "buffer", withFileTypes: true });
    for (const d of names) {
      const name = d.name as unknown as Buffer;
      const child = rel === null ? Buffer.from(name) : Buffer.concat([rel, Buffer.from("/"), name]);
      if (name.equals(Buffer.from(".git"))) continue;
      if (rel === null && isWorkspacePath(child)) continue;
      if (d.isDirectory()) await walk(child);
      else found.push(child);
    }
  };
  await walk(null);
  const candidates = found.map((raw) => ({ raw, repoLike: false, onlyIfPresent: true }));
  return build("no-git", root, candidates);
}
