import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A file tree for tests: `"dir/"` → directory, `{ link: target }` → symlink, string → file content. */
export type Tree = Record<string, string | { link: string }>;

/** Build `tree` under a fresh temp folder `<tmp>/x/` and return it with a cleanup function. */
export function makeTree(tree: Tree): { base: string; cleanup: () => void } {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "devrites-tree-")));
  const base = join(top, "x");
  mkdirSync(base);
  for (const [rel, spec] of Object.entries(tree)) {
    const abs = join(base, rel);
    if (typeof spec === "string" && rel.endsWith("/")) {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof spec === "string") writeFileSync(abs, spec);
    else symlinkSync(spec.link, abs);
  }
  return { base, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}
