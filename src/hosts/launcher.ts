/**
 * The hook command of every devrites hook: a `node -e` bootstrap with no file of its own, so it still runs when
 * the bundle is missing. For project hooks (`.claude/settings.json`, `.codex/hooks.json`) it finds
 * `.devrites/hooks/<entry>.cjs` (from `$CLAUDE_PROJECT_DIR` when Claude Code sets it, else walking up from the
 * working directory, since Codex runs hooks in the session cwd and has no project variable). For plugin hooks it
 * takes only the plugin's own bundle (`walk: false`).
 *
 * The bundle runs in the bootstrap's own process (one Node start per tool call, not two): the bootstrap reads
 * stdin, loads the CommonJS bundle (its text compiled as a module body, as `require` would, minus the module
 * resolution, which a hook call would pay for nothing; through a per-user V8 code cache,
 * `./compile-cache/bootstrap.ts`), calls the function it exports with the stdin bytes, checks the answer
 * (`{exitCode: 0 | 2, stdout, stderr}`, or a promise of one), prints it and exits with its code.
 *
 * When the bundle is missing, throws while loading or answering (also later, from a callback or a rejected
 * promise), exports no function, answers anything else, or leaves its promise unsettled past the hook timeout
 * less one second, a fail-closed entry (the guard) denies with exit 2 whenever stdin mentions `agent_type`:
 * every leaf's tool call, and the root's own `spawn_agent` on Codex, so no leaf runs unguarded. Other callers
 * get exit 1 with the reason on stderr (a visible, non-blocking hook error on both hosts). A bundle stuck in a
 * synchronous loop cannot be interrupted in process; the host's timeout ends it (see `docs/hooks.md`, Speed).
 */

import { COMPILE_CACHE_JS } from "./compile-cache/bootstrap.generated.js";
import { DEVRITES_HOOK_MARKER } from "./merge.js";
import { HOOK_BUNDLE_EXT, HOOKS_DIR, LAZY_PARTS_LINE } from "./output-path.js";

export interface LauncherOptions {
  /** Deny a leaf (exit 2) when the bundle cannot answer. True for the guard. */
  failClosed: boolean;
  /** The host's timeout for this hook, in seconds; the bundle's answer must come one second sooner. */
  timeoutSec: number;
  /**
   * Bundle paths to try before the walk, as shell words (e.g. `"${PLUGIN_ROOT}/hooks/pre-tool-use.cjs"`);
   * the shell expands them, an empty or absent one is skipped.
   */
  candidates?: readonly string[];
  /**
   * Also look for `.devrites/hooks/<entry>.cjs` from `$CLAUDE_PROJECT_DIR` and up from the cwd (default true).
   * Plugins turn it off: a plugin runs only its own bundle, never a project copy of another version.
   */
  walk?: boolean;
}

/** The bootstrap's JavaScript. No single quotes: it is wrapped in them for the shell. */
export function launcherScript(opts: LauncherOptions): string {
  const timeoutMs = Math.max(1, opts.timeoutSec - 1) * 1000;
  const walk = opts.walk !== false;
  const ext = JSON.stringify(HOOK_BUNDLE_EXT);
  const js = [
    `/*${DEVRITES_HOOK_MARKER}*/const f=require("fs"),p=require("path")`,
    "const e=process.argv[1],a=process.argv.slice(2)",
    // stdin as bytes: the bundle judges the encoding and the size itself
    "let i;try{i=f.readFileSync(0)}catch{i=Buffer.alloc(0)}",
    // a leaf calls (or the root spawns one): stdin mentions agent_type
    'const A=i.includes("agent_type")',
    // the compile cache's variant: a root call, a leaf's shell call (the shell parts of the guard) or another
    // leaf call; it only picks the cache entry, never what runs
    `const V=A?(i.includes(${JSON.stringify('"Bash"')})||i.includes(${JSON.stringify('"exec_command"')})?"leaf-shell":"leaf"):"root"`,
    `const L=${opts.failClosed ? "true" : "false"}&&A`,
    "const s=a.filter(Boolean)",
    ...(walk
      ? [
          "for(const r of [process.env.CLAUDE_PROJECT_DIR,process.cwd()]){if(!r)continue;" +
            `for(let d=p.resolve(r);;d=p.dirname(d)){s.push(p.join(d,${JSON.stringify(HOOKS_DIR)},e+${ext}));` +
            "if(p.dirname(d)===d)break}}",
        ]
      : []),
    "const b=s.find(x=>{try{return f.statSync(x).isFile()}catch{return false}})",
    // write all of t to fd d, waiting 1 ms on EAGAIN (a non-blocking pipe), giving up when the reader is gone
    "const W=(d,t)=>{const k=Buffer.from(t);let n=0;for(let j=0;n<k.length&&j<1e3;j++)try{n+=f.writeSync(d,k,n)}" +
      'catch(q){if(q.code!=="EAGAIN")return;Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,1)}}',
    COMPILE_CACHE_JS,
    // print the answer, then refresh the compile cache (never before: it must not delay or change a decision)
    "const o=(c,t,u)=>{W(1,t);W(2,u);try{QS()}catch{}process.exit(c)}",
    `const x=w=>o(L?2:1,"","devrites hook "+e+": "+w+(L?"; denied (fail closed)":"")+"\\n")`,
    'const z=q=>{let m;try{m=q instanceof Error?q.message:String(q)}catch{m=typeof q}x(b+" failed: "+m)}',
    'const y=r=>r!==null&&typeof r==="object"&&(r.exitCode===0||r.exitCode===2)&&typeof r.stdout==="string"' +
      '&&typeof r.stderr==="string"?o(r.exitCode,r.stdout,r.stderr):x(b+" gave no valid answer")',
    walk
      ? `if(!b)x("bundle ${HOOKS_DIR}/"+e+${ext}+" not found; run devrites generate")`
      : `if(!b)x("bundle "+(s[0]||e)+" not found; reinstall the plugin")`,
    `process.on("uncaughtException",z);process.on("unhandledRejection",z)`,
    // the bundle's text compiled as a CommonJS module body: what `require` does, without module resolution,
    // through the compile cache
    // the text is published for the bundle's lazy parts, which then come from the very text that was compiled;
    // the cache entry is chosen by the kind of call (`V`, see compile-cache/bootstrap.ts)
    'try{const B=p.resolve(b),m={exports:{}},T=f.readFileSync(B,"utf8");' +
      'globalThis[Symbol.for("devrites.source")]={filename:B,text:T};' +
      // only the code: the lazy parts after LAZY_PARTS_LINE are comments
      `const E=T.indexOf(${JSON.stringify(`\n${LAZY_PARTS_LINE}\n`)});` +
      'Q(E<0?T:T.slice(0,E+1),["module","exports","require","__filename","__dirname"],B,V)' +
      "(m,m.exports,require,B,p.dirname(B));const h=m.exports;" +
      'if(typeof h!=="function")x(b+" exports no hook function");const r=h(i);' +
      `if(r!==null&&typeof r==="object"&&typeof r.then==="function"){setTimeout(()=>x(b+" gave no answer within ${timeoutMs / 1000} s"),${timeoutMs});r.then(y,z)}` +
      "else y(r)}catch(q){z(q)}",
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
