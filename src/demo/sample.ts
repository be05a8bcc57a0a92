/**
 * The demo's sample project: a tiny JavaScript library with a bug (`mean([])` is `NaN`), a test, and the
 * user's own work in progress on another file. Pure data.
 */

/** Committed as the sample project's first commit. */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  "README.md": "# sample\n\nA tiny library for the devrites demo.\n",
  "package.json": `${JSON.stringify(
    { name: "sample", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } },
    null,
    2,
  )}\n`,
  "src/math.js": [
    "export function sum(xs) {",
    "  return xs.reduce((a, b) => a + b, 0);",
    "}",
    "",
    "export function mean(xs) {",
    "  return sum(xs) / xs.length;",
    "}",
    "",
  ].join("\n"),
  "src/greet.js": ["export function greet(name) {", '  return "Hello, " + name + "!";', "}", ""].join("\n"),
  "test/math.test.js": [
    'import assert from "node:assert/strict";',
    'import { test } from "node:test";',
    'import { mean, sum } from "../src/math.js";',
    "",
    'test("sum", () => assert.equal(sum([1, 2, 3]), 6));',
    'test("mean", () => assert.equal(mean([2, 4]), 3));',
    "",
  ].join("\n"),
};

/** The user's uncommitted work, present before the journey starts. */
export const USER_FILE = "src/greet.js";
export const USER_WORK_IN_PROGRESS = [
  "export function greet(name) {",
  '  return "Hello, " + name + "!";',
  "}",
  "",
  "// TODO(me): a farewell",
  "export function farewell(name) {",
  '  return "Goodbye, " + name + ".";',
  "}",
  "",
].join("\n");

/** The user's next edit, made while a scout is out. */
export const USER_EDIT_WHILE_SCOUT_IS_OUT = USER_WORK_IN_PROGRESS.replace(
  "// TODO(me): a farewell\n",
  "// a farewell, done\n",
);

/** `src/math.js` as the wright leaves it: `mean([])` is 0. */
export const MATH_FIXED = SAMPLE_FILES["src/math.js"]!.replace(
  "  return sum(xs) / xs.length;",
  "  return xs.length === 0 ? 0 : sum(xs) / xs.length;",
);

/** The test the wright adds. */
export const TEST_WITH_EMPTY_CASE = SAMPLE_FILES["test/math.test.js"]!.replace(
  'test("mean", () => assert.equal(mean([2, 4]), 3));\n',
  'test("mean", () => assert.equal(mean([2, 4]), 3));\ntest("mean of nothing", () => assert.equal(mean([]), 0));\n',
);

/** The file the wright's first attempt writes although its allowlist does not name it. */
export const STRAY_FILE = "src/debug-log.js";
export const STRAY_CONTENT = "export const trace = (...args) => console.error('[debug]', ...args);\n";

/** The first attempt's `src/math.js`: the fix, plus an import of the stray file. */
export const MATH_FIXED_WITH_TRACE = `import { trace } from "./debug-log.js";\n\n${MATH_FIXED.replace(
  "  return xs.length === 0",
  '  trace("mean", xs);\n  return xs.length === 0',
)}`;
