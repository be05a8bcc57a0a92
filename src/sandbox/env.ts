/**
 * The environment a sandboxed leaf command starts with: the host's, without the variables that load code
 * into a program, change how a shell starts, or redirect git. One declared list, applied twice: the exact
 * names are removed by bubblewrap before anything runs (`--unsetenv`, so `bash` never reads `BASH_ENV`), with
 * every prefixed name and exported bash function (`BASH_FUNC_*%%`) in the environment the hook sees; the first
 * shell inside the sandbox removes prefixed names the host added after that (their names are only known then).
 *
 * This is hygiene, not the boundary: a leaf can set any of these for its own command, which runs inside the
 * same sandbox. It keeps a user's own `NODE_OPTIONS=--require …` or `GIT_DIR` from changing what a leaf's
 * command does behind the sandbox's back (a git hook path, a preloaded module that talks to a socket …).
 */

/** Removed by name. */
export const SCRUBBED_ENV_NAMES: readonly string[] = [
  // shells: start-up files and imported options
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PROMPT_COMMAND",
  "PS4",
  "CDPATH",
  "GLOBIGNORE",
  "ZDOTDIR",
  // interpreters: preloaded code and module paths
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "PYTHONSTARTUP",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONINSPECT",
  "PYTHONUSERBASE",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "LUA_INIT",
  "LUA_PATH",
  "LUA_CPATH",
  "TCLLIBPATH",
  "R_PROFILE",
  "R_PROFILE_USER",
  // programs that run a helper named in a variable
  "LESSOPEN",
  "LESSCLOSE",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "BROWSER",
  // sockets reached through a variable (the sandbox hides their usual folders too)
  "SSH_AUTH_SOCK",
  "DBUS_SESSION_BUS_ADDRESS",
  "DOCKER_HOST",
];

/** Removed when a name starts with one of these (dynamic loader, git's own redirection and config). */
export const SCRUBBED_ENV_PREFIXES: readonly string[] = ["LD_", "DYLD_", "GIT_"];

/** How bash names an exported function in the environment (`BASH_FUNC_<name>%%`). */
export const EXPORTED_FUNCTION_PREFIX = "BASH_FUNC_";

/**
 * Every prefix the native helper removes before bubblewrap starts (`--unset-prefix`): the scrubbed prefixes
 * and exported functions, whatever the host added after the hook looked.
 */
export const HELPER_UNSET_PREFIXES: readonly string[] = [...SCRUBBED_ENV_PREFIXES, EXPORTED_FUNCTION_PREFIX];

/** Whether `name` is scrubbed (for tests and documentation). */
export function isScrubbedEnv(name: string): boolean {
  return (
    SCRUBBED_ENV_NAMES.includes(name) ||
    SCRUBBED_ENV_PREFIXES.some((p) => name.startsWith(p)) ||
    name.startsWith(EXPORTED_FUNCTION_PREFIX)
  );
}

/**
 * The bash text that removes the prefixed variables before the leaf's command starts, without starting a
 * process (`${!GIT_@}` lists the names bash knows with that prefix; a command substitution would cost a fork).
 */
export function scrubPreamble(): string {
  const names = SCRUBBED_ENV_PREFIXES.map((p) => `\${!${p}@}`).join(" ");
  return `for v in ${names}; do builtin unset -v "$v"; done`;
}

/**
 * Names to remove by `--unsetenv` found in the environment the hook sees (the host's): the prefixed names and
 * exported bash functions (`BASH_FUNC_<name>%%`), which the first bash inside would otherwise import. Sorted.
 */
export function scrubbedFrom(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter(
      (n) => !SCRUBBED_ENV_NAMES.includes(n) && isScrubbedEnv(n) && !n.includes("\u0000") && !n.includes("="),
    )
    .sort();
}
