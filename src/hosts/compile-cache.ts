/**
 * A V8 code cache for the hook bundles, as JavaScript source the launcher embeds in its bootstrap. Node 20 has
 * no compile cache of its own (`module.enableCompileCache` came with Node 22), and a hook pays for compiling its
 * bundle on every tool call: with the cache, the shell classifier a leaf's `Bash` call needs is neither parsed
 * nor lazily compiled again (see `docs/hooks.md`, Speed).
 *
 * `COMPILE_CACHE_JS` defines two bindings in the bootstrap's scope:
 * - `Q(text, params, name, variant?)`: compiles `text` as the body of a function of `params` (what `new Function`
 *   does) and returns the function, using and later refreshing a cache entry. An entry holds the functions V8
 *   had compiled when it was made, so the launcher keeps one per kind of caller (`variant`: a root call runs
 *   little of the guard, a leaf's call much more, and each would otherwise compile what the other's entry
 *   lacks on every call);
 * - `QS()`: writes the entries this process compiled without a usable cache; the launcher calls it after the
 *   answer is printed, so writing never delays or changes a decision.
 * It also publishes `Q` as `globalThis[Symbol.for("devrites.compile")]` for the bundle's lazily loaded parts.
 *
 * Where and how an entry is kept, and why that is safe for a security hook:
 * - in `<os tmpdir>/devrites-compile-cache-<uid>/`, a directory that must be a real directory (not a link)
 *   owned by this user with no group or other permissions; anything else and nothing is cached (Windows, with
 *   no uid, never caches);
 * - one entry per compiled name and variant (the bundle's path, or its path and lazy part), named by a 64-bit
 *   FNV-1a of the Node version, architecture, parameters, name and variant. The entry holds a tag, the exact
 *   text it was made from and V8's data, and is used only when its text equals, byte for byte, the text being
 *   compiled: a changed bundle is never offered another text's code, whatever the lengths (V8 itself checks
 *   only the length). V8 also rejects data from another V8 version or other flags, and the function is then
 *   compiled from its text as if no entry existed;
 * - read through `O_NOFOLLOW`, only when it is a regular file owned by this user; written to a private
 *   temporary file and renamed into place, so a reader never sees half an entry;
 * - anything that goes wrong around the cache (unreadable, unwritable, full disk) leaves the function compiled
 *   from its text; only the text decides what runs. Whoever can write this directory runs as the same user and
 *   could as well rewrite the bundle itself; the guard denies every leaf write outside its allowlist.
 * - no `crypto`: loading it costs about 2 ms of a hook's start, more than everything the cache saves on a
 *   root call; the name only picks the entry, the byte comparison decides whether it is used.
 * - bounded: names include the bundle's path, so every repository (and every throwaway one: tests, doctor's
 *   scratch repositories) adds entries of up to a megabyte each. After writing an entry, a directory holding
 *   more than `COMPILE_CACHE_MAX_ENTRIES` entries loses its least recently written ones (and any temporary file
 *   a killed writer left); this happens only on a miss, after the answer is printed;
 * - `DEVRITES_NO_COMPILE_CACHE=1` turns it off (for debugging and the bench's comparison).
 *
 * No single quotes: the launcher's bootstrap is single-quoted for the shell.
 */

/** The first bytes of every entry; a file without them (another format, a torn write) is never used. */
export const COMPILE_CACHE_TAG = "devrites-code-cache/v2\n";

/** The most entries the cache directory keeps (a project uses two to four: root and leaf, and lazy parts). */
export const COMPILE_CACHE_MAX_ENTRIES = 64;

export const COMPILE_CACHE_JS = [
  `const QV=require("vm"),QP=[],QT=Buffer.from(${JSON.stringify(COMPILE_CACHE_TAG)})`,
  "const QU=process.getuid?process.getuid():-1",
  'let QD;try{if(QU>=0&&process.env.DEVRITES_NO_COMPILE_CACHE!=="1"){' +
    // os.tmpdir() on POSIX, without loading `os`
    'const v=process.env,m=v.TMPDIR||v.TMP||v.TEMP||"/tmp",d=p.join(m.length>1&&m.endsWith("/")?m.slice(0,-1):m,"devrites-compile-cache-"+QU);' +
    "let t=f.lstatSync(d,{throwIfNoEntry:false});if(t===undefined){try{f.mkdirSync(d,{mode:448})}catch{}t=f.lstatSync(d)}" +
    "if(t.isDirectory()&&t.uid===QU&&(t.mode&63)===0)QD=d}}catch{QD=undefined}",
  "const QR=k=>{let fd;try{fd=f.openSync(k,f.constants.O_RDONLY|(f.constants.O_NOFOLLOW||0));" +
    "const t=f.fstatSync(fd);return t.isFile()&&t.uid===QU&&t.size<67108864?f.readFileSync(fd):undefined}" +
    "catch{return undefined}finally{if(fd!==undefined)try{f.closeSync(fd)}catch{}}}",
  // 64-bit FNV-1a of a short string, as 16 hex digits (two 32-bit halves with different offsets)
  "const QH=s=>{let a=2166136261,b=3735928559;for(let i=0;i<s.length;i++){const c=s.charCodeAt(i);" +
    'a=Math.imul(a^c,16777619);b=Math.imul(b^c,16777619)}return(a>>>0).toString(16).padStart(8,"0")+(b>>>0).toString(16).padStart(8,"0")}',
  // an entry: tag, the text's byte length (4 bytes), the text, V8's data; the data only when the text matches
  "const QE=(c,x)=>{const h=QT.length+4;return c&&c.length>=h&&c.subarray(0,QT.length).equals(QT)&&" +
    "c.readUInt32LE(QT.length)===x.length&&c.length>=h+x.length&&c.subarray(h,h+x.length).equals(x)?c.subarray(h+x.length):undefined}",
  'const Q=(t,a,n,u)=>{const j=a.join(",");' +
    'const k=QD&&p.join(QD,QH(process.version+"\\0"+process.arch+"\\0"+j+"\\0"+n+"\\0"+(u||""))+".bin");' +
    "const x=k?Buffer.from(t):undefined,c=k?QE(QR(k),x):undefined;" +
    'const s=new QV.Script("(function("+j+"){"+t+"\\n})",{filename:n,cachedData:c});' +
    "const r=s.runInThisContext();" +
    'if(k&&(c===undefined||s.cachedDataRejected))QP.push(()=>{const w=k+"."+process.pid+".tmp";' +
    'try{const l=Buffer.alloc(4);l.writeUInt32LE(x.length);f.writeFileSync(w,Buffer.concat([QT,l,x,s.createCachedData()]),{mode:384,flag:"wx"});f.renameSync(w,k)}catch{try{f.unlinkSync(w)}catch{}}});' +
    "return r}",
  // keep the newest entries; temporary files older than a minute are a killed writer's and go too
  "const QX=()=>{try{const e=f.readdirSync(QD);if(e.length<=" +
    String(COMPILE_CACHE_MAX_ENTRIES) +
    ")return;const b=[],n=Date.now();for(const x of e){const y=p.join(QD,x);let t;try{t=f.lstatSync(y)}catch{continue}" +
    'if(!t.isFile()||t.uid!==QU)continue;if(x.endsWith(".bin"))b.push([t.mtimeMs,y]);else if(x.endsWith(".tmp")&&n-t.mtimeMs>6e4)try{f.unlinkSync(y)}catch{}}' +
    "b.sort((i,j)=>j[0]-i[0]);for(const [,y] of b.slice(" +
    String(COMPILE_CACHE_MAX_ENTRIES) +
    "))try{f.unlinkSync(y)}catch{}}catch{}}",
  'globalThis[Symbol.for("devrites.compile")]=Q',
  "const QS=()=>{const w=QP.splice(0);for(const x of w)x();if(w.length>0)QX()}",
].join(";");
