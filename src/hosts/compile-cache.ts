/**
 * A V8 code cache for the hook bundles, as JavaScript source the launcher embeds in its bootstrap. Node 20 has
 * no compile cache of its own (`module.enableCompileCache` came with Node 22), and a hook pays for compiling its
 * bundle on every tool call: with the cache, the shell classifier a leaf's `Bash` call needs is neither parsed
 * nor lazily compiled again (see `docs/hooks.md`, Speed).
 *
 * `COMPILE_CACHE_JS` defines two bindings in the bootstrap's scope:
 * - `Q(text, params, name)`: compiles `text` as the body of a function of `params` (what `new Function` does)
 *   and returns the function, using and later refreshing a cache entry;
 * - `QS()`: writes the entries this process compiled without a usable cache; the launcher calls it after the
 *   answer is printed, so writing never delays or changes a decision.
 * It also publishes `Q` as `globalThis[Symbol.for("devrites.compile")]` for the bundle's lazily loaded parts.
 *
 * Where and how an entry is kept, and why that is safe for a security hook:
 * - in `<os tmpdir>/devrites-compile-cache-<uid>/`, a directory that must be a real directory (not a link)
 *   owned by this user with no group or other permissions; anything else and nothing is cached (Windows, with
 *   no uid, never caches);
 * - named by the SHA-256 of the Node version, architecture, parameters and the text itself, so an entry is only
 *   ever offered to the exact code it was made from; V8 also rejects an entry from another V8 version, other
 *   flags or another source length, and the function is then compiled from its text as if no entry existed;
 * - read through `O_NOFOLLOW`, only when it is a regular file owned by this user; written to a private
 *   temporary file and renamed into place, so a reader never sees half an entry;
 * - anything that goes wrong around the cache (unreadable, unwritable, full disk) leaves the function compiled
 *   from its text; only the text decides what runs. Whoever can write this directory runs as the same user and
 *   could as well rewrite the bundle itself; the guard denies every leaf write outside its allowlist.
 * - `DEVRITES_NO_COMPILE_CACHE=1` turns it off (for debugging and the bench's comparison).
 *
 * No single quotes: the launcher's bootstrap is single-quoted for the shell.
 */
export const COMPILE_CACHE_JS = [
  'const QV=require("vm"),QC=require("crypto"),QP=[]',
  "const QU=process.getuid?process.getuid():-1",
  'let QD;try{if(QU>=0&&process.env.DEVRITES_NO_COMPILE_CACHE!=="1"){' +
    'const d=p.join(require("os").tmpdir(),"devrites-compile-cache-"+QU);' +
    "try{f.mkdirSync(d,{mode:448})}catch{}" +
    "const t=f.lstatSync(d);if(t.isDirectory()&&t.uid===QU&&(t.mode&63)===0)QD=d}}catch{QD=undefined}",
  "const QR=k=>{let fd;try{fd=f.openSync(k,f.constants.O_RDONLY|(f.constants.O_NOFOLLOW||0));" +
    "const t=f.fstatSync(fd);return t.isFile()&&t.uid===QU&&t.size<67108864?f.readFileSync(fd):undefined}" +
    "catch{return undefined}finally{if(fd!==undefined)try{f.closeSync(fd)}catch{}}}",
  'const Q=(t,a,n)=>{const j=a.join(",");' +
    'const k=QD&&p.join(QD,QC.createHash("sha256").update(process.version+"\\0"+process.arch+"\\0"+j+"\\0").update(t).digest("hex")+".bin");' +
    "const c=k?QR(k):undefined;" +
    'const s=new QV.Script("(function("+j+"){"+t+"\\n})",{filename:n,cachedData:c});' +
    "const r=s.runInThisContext();" +
    'if(k&&(c===undefined||s.cachedDataRejected))QP.push(()=>{const w=k+"."+process.pid+".tmp";' +
    'try{f.writeFileSync(w,s.createCachedData(),{mode:384,flag:"wx"});f.renameSync(w,k)}catch{try{f.unlinkSync(w)}catch{}}});' +
    "return r}",
  'globalThis[Symbol.for("devrites.compile")]=Q',
  "const QS=()=>{for(const w of QP.splice(0))w()}",
].join(";");
