import { describe, expect, it } from "vitest";
import {
  isScrubbedEnv,
  SCRUBBED_ENV_NAMES,
  SCRUBBED_ENV_PREFIXES,
  scrubbedFrom,
  scrubPreamble,
} from "./env.js";

describe("the scrubbed environment", () => {
  it("names the variables that load code, change shell start-up or redirect git", () => {
    for (const name of [
      "BASH_ENV",
      "ENV",
      "SHELLOPTS",
      "NODE_OPTIONS",
      "PYTHONSTARTUP",
      "PYTHONPATH",
      "PERL5OPT",
      "RUBYOPT",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "DYLD_INSERT_LIBRARIES",
      "GIT_DIR",
      "GIT_CONFIG_PARAMETERS",
      "GIT_EXEC_PATH",
      "BASH_FUNC_ls%%",
    ]) {
      expect(isScrubbedEnv(name), name).toBe(true);
    }
  });

  it("keeps the near misses a command needs", () => {
    for (const name of [
      "PATH",
      "HOME",
      "LANG",
      "TERM",
      "GITHUB_TOKEN_X",
      "NODE_ENV",
      "LDFLAGS",
      "ENVIRONMENT",
      "PYTHONUNBUFFERED",
    ]) {
      expect(isScrubbedEnv(name), name).toBe(false);
    }
  });

  it("lists each name once and matches prefixes in the preamble", () => {
    expect(new Set(SCRUBBED_ENV_NAMES).size).toBe(SCRUBBED_ENV_NAMES.length);
    for (const p of SCRUBBED_ENV_PREFIXES) expect(scrubPreamble()).toContain(`\${!${p}@}`);
    expect(scrubPreamble()).not.toContain("$(");
  });

  it("picks the prefixed names and exported functions out of the hook's environment", () => {
    expect(
      scrubbedFrom({
        GIT_DIR: "x",
        "BASH_FUNC_ls%%": "() { :; }",
        LD_PRELOAD: "y",
        PATH: "/bin",
        NODE_OPTIONS: "z",
        GITX: "k",
      }),
    ).toEqual(["BASH_FUNC_ls%%", "GIT_DIR", "LD_PRELOAD"]);
  });
});
