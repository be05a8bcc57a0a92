/** Small markdown readers used by lint rules. Pure. */

/** Level-2 headings (`## Title`) outside fenced code, with their 1-based line in `text`. */
export function h2Headings(text: string): { title: string; line: number }[] {
  const out: { title: string; line: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      const marker = f[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const m = /^##[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (m) out.push({ title: (m[1] as string).trim(), line: i + 1 });
  });
  return out;
}

/**
 * Relative markdown file references in `text`: link targets (`[x](../rite/reference/a.md)`) and code spans
 * that are a relative `.md` path (`` `reference/dispatch.md` ``, `` `../rite/reference/a.md` ``). URLs,
 * anchors and absolute paths are not references.
 */
export function fileReferences(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  text.split("\n").forEach((raw, i) => {
    for (const m of raw.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = (m[1] as string).split("#")[0] as string;
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
      out.push({ target, line: i + 1 });
    }
    for (const m of raw.matchAll(/`([^`\s]+\.md)`/g)) {
      const target = m[1] as string;
      if (/^(\.{1,2}\/|reference\/)/.test(target)) out.push({ target, line: i + 1 });
    }
  });
  return out;
}

/** Join `rel` onto pack-relative folder `dir` and normalise; undefined when it climbs above the pack root. */
export function resolveRelative(dir: string, rel: string): string | undefined {
  const parts = dir ? dir.split("/") : [];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}
