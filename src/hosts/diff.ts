/**
 * A small line-based unified diff, for showing what a hand edit changed in a generated file. Common prefix and
 * suffix lines are trimmed first; the middle is an LCS table, or one replace block when it would be too large.
 */

type Op = { kind: " " | "-" | "+"; line: string };

const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], in one flat array.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
      ops.push({ kind: "-", line: a[i++]! });
    } else {
      ops.push({ kind: "+", line: b[j++]! });
    }
  }
  while (i < n) ops.push({ kind: "-", line: a[i++]! });
  while (j < m) ops.push({ kind: "+", line: b[j++]! });
  return ops;
}

/** Line operations turning `oldText` into `newText`. */
export function diffLines(oldText: string, newText: string): Op[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;
  return [
    ...a.slice(0, pre).map((line) => ({ kind: " " as const, line })),
    ...middleOps(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf)),
    ...a.slice(a.length - suf).map((line) => ({ kind: " " as const, line })),
  ];
}

/**
 * `diff -u` style text from `oldText` (labelled `from`) to `newText` (`to`), with `context` lines around each
 * change. Empty when the texts have the same lines.
 */
export function unifiedDiff(oldText: string, newText: string, from: string, to: string, context = 3): string {
  const ops = diffLines(oldText, newText);
  const changed = ops.flatMap((o, i) => (o.kind === " " ? [] : [i]));
  if (changed.length === 0) return "";
  // Group changes whose context windows touch into hunks.
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const start = Math.max(0, i - context);
    const end = Math.min(ops.length, i + context + 1);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else hunks.push([start, end]);
  }
  const out = [`--- ${from}`, `+++ ${to}`];
  for (const [start, end] of hunks) {
    let oldLine = 1;
    let newLine = 1;
    for (let k = 0; k < start; k++) {
      if (ops[k]!.kind !== "+") oldLine++;
      if (ops[k]!.kind !== "-") newLine++;
    }
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((o) => o.kind !== "+").length;
    const newCount = slice.filter((o) => o.kind !== "-").length;
    // An empty side starts at the line before, as `diff -u` writes it (`@@ -0,0 +1,2 @@`).
    const oldStart = oldCount === 0 ? oldLine - 1 : oldLine;
    const newStart = newCount === 0 ? newLine - 1 : newLine;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const o of slice) out.push(`${o.kind}${o.line}`);
  }
  return `${out.join("\n")}\n`;
}
