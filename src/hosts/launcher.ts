/**
 * The hook command of every devrites hook: a `node -e` bootstrap with no file of its own, so it still runs when
 * the bundle is missing. For project hooks (`.claude/settings.json`, `.codex/hooks.json`) it finds
 * `.devrites/hooks/<entry>.mjs` (from `$CLAUDE_PROJECT_DIR` when Claude Code sets it, else walking up from the
 * working directory, since Codex runs hooks in the session cwd and has no project variable), runs it with the
 * hook's stdin, and passes its exit code (0 or 2) and output through. For plugin hooks it runs only the plugin's
 * own bundle (`walk: false`).
 *
 * When the bundle is missing, crashes, hangs past the hook timeout or exits with anything but 0 or 2, a fail-closed
 * entry (the guard) denies with exit 2 whenever stdin mentions `agent_type`: every leaf's tool call, and the root's
 * own `spawn_agent` on Codex, so no leaf runs unguarded. Other callers get exit 1 with the reason on stderr (a
 * visible, non-blocking hook error on both hosts).
 */

import { DEVRITES_HOOK_MARKER } from "./merge.js";
import { HOOKS_DIR } from "./output-path.js";

export interface LauncherOptions {
  /** Deny a leaf (exit 2) when the bundle cannot run. True for the guard. */
  failClosed: boolean;
  /** The host's timeout for this hook, in seconds; the bundle gets one second less. */
  timeoutSec: number;
  /**
   * Bundle paths to try before the walk, as shell words (e.g. `"${PLUGIN_ROOT}/hooks/pre-tool-use.mjs"`);
   * the shell expands them, an empty or absent one is skipped.
   */
  candidates?: readonly string[];
  /**
   * Also look for `.devrites/hooks/<entry>.mjs` from `$CLAUDE_PROJECT_DIR` and up from the cwd (default true).
   * Plugins turn it off: a plugin runs only its own bundle, never a project copy of another version.
   */
  walk?: boolean;
}

/** The bootstrap's JavaScript. No single quotes: it is wrapped in them for the shell. */
export function launcherScript(opts: LauncherOptions): string {
  const timeoutMs = Math.max(1, opts.timeoutSec - 1) * 1000;
  const walk = opts.walk !== false;
  const js = [
    `/*${DEVRITES_HOOK_MARKER}*/const f=require("fs"),p=require("path"),c=require("child_process")`,
    "const e=process.argv[1],a=process.argv.slice(2)",
    `let i="";try{i=f.readFileSync(0,"utf8")}catch{}`,
    `const L=${opts.failClosed ? "true" : "false"}&&i.includes("agent_type")`,
    "const s=a.filter(Boolean)",
    ...(walk
      ? [
          "for(const r of [process.env.CLAUDE_PROJECT_DIR,process.cwd()]){if(!r)continue;" +
            `for(let d=p.resolve(r);;d=p.dirname(d)){s.push(p.join(d,${JSON.stringify(HOOKS_DIR)},e+".mjs"));` +
            "if(p.dirname(d)===d)break}}",
        ]
      : []),
    "const b=s.find(x=>{try{return f.statSync(x).isFile()}catch{return false}})",
    walk
      ? `let w="bundle ${HOOKS_DIR}/"+e+".mjs not found; run devrites generate"`
      : `let w="bundle "+(s[0]||e)+" not found; reinstall the plugin"`,
    `if(b){const r=c.spawnSync(process.execPath,[b],{input:i,stdio:["pipe","inherit","inherit"],timeout:${timeoutMs}})` +
      ";if(r.status===0||r.status===2)process.exit(r.status)" +
      `;w=b+" failed: "+(r.error?r.error.message:r.signal||"exit "+r.status)}`,
    `process.stderr.write("devrites hook "+e+": "+w+(L?"; denied (fail closed)":"")+"\\n")`,
    "process.exit(L?2:1)",
  ].join(";");
  if (js.includes("'")) throw new Error("launcher script must not contain a single quote");
  return js;
}

/** The shell command a host runs for `entry`. */
export function hookCommand(entry: string, opts: LauncherOptions): string {
  if (!/^[a-z][a-z0-9-]*$/.test(entry)) throw new Error(`hook entry name not allowed: ${entry}`);
  const extra = (opts.candidates ?? []).map((c) => ` ${c}`).join("");
  return `node -e '${launcherScript(opts)}' ${entry}${extra}`;
}
