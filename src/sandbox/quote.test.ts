import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellJoin, shellQuote } from "./quote.js";

/** Run `printf '%s\0' <quoted>…` in `shell` and split its output back into words. */
function roundTrip(shell: string, words: readonly string[]): string[] {
  const out = execFileSync(shell, ["-c", `printf '%s\\0' ${shellJoin(words)}`], { encoding: "utf8" });
  return out.split("\u0000").slice(0, -1);
}

/** Strings with the characters shells treat specially, plus arbitrary Unicode (no NUL: argv cannot hold it). */
const word = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(..."'\"\\$`!*?[]{}()<>|&;# \t\n~=%,^-") }),
    fc.string({ unit: "grapheme" }),
    fc.string(),
  )
  .map((s) => s.replaceAll("\u0000", ""));

describe("shellQuote", () => {
  it("round-trips any string exactly through bash and dash (one printf per batch of words)", () => {
    const words = fc.sample(fc.array(word, { minLength: 1, maxLength: 20 }), 60).flat();
    words.push("", "'", "\\", "''", "a'b", "a\\'b", "$(touch x)", "`id`", "\n", "-n", "~", "!!", "é");
    for (const shell of ["/bin/bash", "/bin/sh"]) expect(roundTrip(shell, words)).toEqual(words);
  });

  it("leaves plain words bare and quotes everything else", () => {
    expect(shellQuote("src/a.ts")).toBe("src/a.ts");
    expect(shellQuote("--bind")).toBe("--bind");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("a~")).toBe("'a~'");
    expect(shellQuote("*")).toBe("'*'");
  });

  it("keeps quotes and backslashes outside single quotes, as fish and zsh's RC_QUOTES need", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("a\\b")).toBe("'a'\\\\'b'");
    expect(shellQuote("'")).toBe("\\'");
    fc.assert(
      fc.property(word, (s) => {
        const q = shellQuote(s);
        // Walk the quoted word: `\x` outside quotes is one escaped character; a single-quoted run must hold
        // neither a backslash nor be followed at once by another single-quoted run ('a''b' reads as a'b in
        // zsh with RC_QUOTES).
        let i = 0;
        let lastClosedAt = -2;
        while (i < q.length) {
          if (q[i] === "\\") i += 2;
          else if (q[i] === "'") {
            expect(lastClosedAt === i - 1 && s !== "").toBe(false);
            const end = q.indexOf("'", i + 1);
            expect(end).toBeGreaterThan(i);
            expect(q.slice(i + 1, end)).not.toContain("\\");
            lastClosedAt = end;
            i = end + 1;
          } else i += 1;
        }
      }),
    );
  });

  it("refuses a NUL byte instead of truncating the word", () => {
    expect(() => shellQuote("a\u0000b")).toThrow(/NUL/);
  });
});
