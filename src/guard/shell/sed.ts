/**
 * A reader for sed scripts (GNU syntax), enough to find the commands that write or execute: `w`/`W` and the
 * `s///w` flag write files, `e` and the `s///e` flag run commands. Reading commands (`r`, `R`) are harmless.
 * Anything it does not understand is reported, so the caller can refuse it.
 */

export type SedCheck = { ok: true } | { ok: false; writes: boolean; why: string };

const SIMPLE = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);

export function checkSedScript(script: string): SedCheck {
  let i = 0;
  const n = script.length;
  const bad = (why: string, writes = false): SedCheck => ({ ok: false, writes, why });
  const skipBlank = () => {
    while (i < n && (script[i] === " " || script[i] === "\t")) i += 1;
  };
  const toEndOfLine = () => {
    while (i < n && script[i] !== "\n") i += 1;
  };
  /** Reads a delimited section (regex or replacement) ending at an unescaped `delim`. */
  const delimited = (delim: string): boolean => {
    while (i < n) {
      const c = script[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && delim !== "\n") return false;
      i += 1;
      if (c === delim) return true;
    }
    return false;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (c >= "0" && c <= "9") {
      while (i < n && script[i]! >= "0" && script[i]! <= "9") i += 1;
      if (script[i] === "~") {
        i += 1;
        while (i < n && script[i]! >= "0" && script[i]! <= "9") i += 1;
      }
      return true;
    }
    if (c === "$") {
      i += 1;
      return true;
    }
    if (c === "/" || c === "\\") {
      let delim = "/";
      if (c === "\\") {
        delim = script[i + 1] ?? "";
        if (delim === "" || delim === "\n" || delim === "\\") return false;
        i += 2;
      } else {
        i += 1;
      }
      if (!delimited(delim)) return false;
      while (script[i] === "I" || script[i] === "M") i += 1;
      return true;
    }
    return true;
  };
  let depth = 0;
  while (i < n) {
    while (i < n && (script[i] === " " || script[i] === "\t" || script[i] === "\n" || script[i] === ";"))
      i += 1;
    if (i >= n) break;
    if (script[i] === "#") {
      toEndOfLine();
      continue;
    }
    const start = i;
    if (!address()) return bad("an unterminated address");
    skipBlank();
    if (start === i && script[i] === ",") return bad("an empty address");
    if (script[i] === ",") {
      i += 1;
      skipBlank();
      if (script[i] === "+" || script[i] === "~") i += 1;
      if (!address()) return bad("an unterminated address");
      skipBlank();
    }
    while (script[i] === "!") {
      i += 1;
      skipBlank();
    }
    const cmd = script[i];
    i += 1;
    if (cmd === undefined) return bad("an address without a command");
    if (cmd === "{") {
      depth += 1;
      continue;
    }
    if (cmd === "}") {
      depth -= 1;
      if (depth < 0) return bad("an unmatched }");
      continue;
    }
    if (SIMPLE.has(cmd)) continue;
    if (cmd === "l" || cmd === "q" || cmd === "Q" || cmd === "L") {
      skipBlank();
      while (i < n && script[i]! >= "0" && script[i]! <= "9") i += 1;
      continue;
    }
    if (cmd === ":" || cmd === "b" || cmd === "t" || cmd === "T" || cmd === "v") {
      while (i < n && script[i] !== "\n" && script[i] !== ";" && script[i] !== "}") i += 1;
      continue;
    }
    if (cmd === "a" || cmd === "i" || cmd === "c") {
      // Text to the end of the line; a trailing backslash continues it.
      while (i < n) {
        if (script[i] === "\\") {
          i += 2;
          continue;
        }
        if (script[i] === "\n") break;
        i += 1;
      }
      continue;
    }
    if (cmd === "r" || cmd === "R") {
      toEndOfLine();
      continue;
    }
    if (cmd === "w" || cmd === "W") return bad(`the sed command \`${cmd}\` writes a file`, true);
    if (cmd === "e") return bad("the sed command `e` runs a shell command");
    if (cmd === "s" || cmd === "y") {
      const delim = script[i];
      if (delim === undefined || delim === "\n" || delim === "\\")
        return bad(`a malformed \`${cmd}\` command`);
      i += 1;
      if (!delimited(delim) || !delimited(delim)) return bad(`an unterminated \`${cmd}\` command`);
      if (cmd === "y") continue;
      while (i < n) {
        const f = script[i] as string;
        if (
          f === "g" ||
          f === "p" ||
          f === "i" ||
          f === "I" ||
          f === "m" ||
          f === "M" ||
          (f >= "0" && f <= "9")
        ) {
          i += 1;
          continue;
        }
        if (f === "w") return bad("the `s///w` flag writes a file", true);
        if (f === "e") return bad("the `s///e` flag runs the pattern space as a command");
        break;
      }
      skipBlank();
      const after = script[i];
      if (after !== undefined && after !== ";" && after !== "\n" && after !== "}" && after !== "#") {
        return bad(`an unknown \`s\` flag \`${after}\``);
      }
      continue;
    }
    return bad(`an unknown sed command \`${cmd}\``);
  }
  if (depth !== 0) return bad("unbalanced braces");
  return { ok: true };
}
