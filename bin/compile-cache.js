'use strict';
/**
 * Keeps V8's compiled code of dist/bundle/ between runs, so a start does not parse and compile
 * the same half megabyte of JavaScript again each time (about a third of a one-shot's start).
 * Node 22 does this itself (`module.enableCompileCache`); Node 20 does not, so this does it for
 * CommonJS files the way `v8-compile-cache` does: each file is compiled with the cached data of
 * its exact text, and files without one get it written when the process exits, after the run
 * compiled what it used.
 *
 * The cache is a folder of the user's own (`ZHIXING_CACHE_DIR`, else `cache/` in
 * `$ZHIXING_HOME`, where everything Zhixing writes lives), 0700; one that anyone else could write to is not used, since what is in it runs.
 * `ZHIXING_CACHE_DIR=off` turns it off. Any failure only means a start without the cache.
 */
const Module = require('node:module');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** `import(` as code: not a method (`.import(`), a longer name, or the text of a string that starts there. */
const MAY_IMPORT = /(?:^|[^\w$.'"`])import\s*\(/m;

/** Where the cache goes, or undefined for none. */
function cacheDir(env) {
  const chosen = env.ZHIXING_CACHE_DIR;
  if (chosen !== undefined && chosen.trim() !== '')
    return chosen.trim() === 'off' ? undefined : path.resolve(chosen.trim());
  // Inside the home, like everything else Zhixing writes (a test's or a user's own ZHIXING_HOME).
  const home =
    env.ZHIXING_HOME && env.ZHIXING_HOME.trim() !== '' ? env.ZHIXING_HOME.trim() : path.join(os.homedir(), '.zhixing');
  return path.join(path.resolve(home.replace(/^~(?=$|\/)/, os.homedir())), 'cache');
}

/** True for a folder of this user's that only this user can write to (made so if missing). */
function isPrivate(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return st.uid === process.getuid() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * From now on, CommonJS files under `bundleDir` are compiled with the cache. Returns the cache
 * folder, or undefined when there is none (turned off, not private, or a Node that cannot).
 */
function install(bundleDir, env = process.env) {
  const dir = cacheDir(env);
  if (!dir) return undefined;
  if (typeof Module.enableCompileCache === 'function') {
    // Node 22 and later: the built-in cache, for ES modules too.
    const result = isPrivate(dir) ? Module.enableCompileCache(dir) : undefined;
    return result && result.directory ? dir : undefined;
  }
  if (!isPrivate(dir)) return undefined;

  const bundle = path.resolve(bundleDir);
  const inBundle = bundle + path.sep;
  // One folder per Node and bundle folder; in it one entry per file, named by the file and its text.
  const own = path.join(
    dir,
    createHash('sha256').update(`${process.version} ${process.arch}\0${bundle}`).digest('hex').slice(0, 16),
  );
  const unwritten = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename, ...rest) {
    // A script made here cannot import() (Node 20 has no stable way to give it a loader): a file that
    // may is compiled as usual. The bundle's lazy chunks are loaded with require().
    if (typeof filename !== 'string' || !filename.startsWith(inBundle) || MAY_IMPORT.test(content)) {
      return compile.call(this, content, filename, ...rest);
    }
    // A changed file never meets its old entry.
    const name = `${path.basename(filename)}.${createHash('sha256').update(content).digest('hex').slice(0, 32)}.code`;
    let cachedData;
    try {
      cachedData = fs.readFileSync(path.join(own, name));
    } catch {
      // Not cached yet.
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) unwritten.push({ script, name });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, Module.createRequire(filename), this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (unwritten.length === 0) return;
    try {
      fs.mkdirSync(own, { mode: 0o700 });
    } catch {
      // Already there (or not possible: then the writes below fail quietly).
    }
    for (const { script, name } of unwritten) {
      const file = path.join(own, name);
      const temp = `${file}.${process.pid}.tmp`;
      try {
        // Written whole, then renamed: another process reads all of it or nothing.
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temp, file);
      } catch {
        fs.rmSync(temp, { force: true });
      }
    }
    prune(own, bundle);
  });
  return dir;
}

/** Drops the entries of files the bundle no longer has, and of older texts of the files it has. */
function prune(own, bundle) {
  try {
    const files = new Set(fs.readdirSync(bundle));
    const entries = fs.readdirSync(own).filter((n) => n.endsWith('.code'));
    const newest = new Map();
    for (const n of entries) {
      const base = n.slice(0, n.lastIndexOf('.', n.length - '.code'.length - 1));
      const mtime = fs.statSync(path.join(own, n)).mtimeMs;
      if (!files.has(base)) fs.rmSync(path.join(own, n), { force: true });
      else if (!newest.has(base) || newest.get(base).mtime < mtime) newest.set(base, { n, mtime });
    }
    for (const n of entries) {
      const base = n.slice(0, n.lastIndexOf('.', n.length - '.code'.length - 1));
      if (files.has(base) && newest.get(base).n !== n) fs.rmSync(path.join(own, n), { force: true });
    }
  } catch {
    // A tidier cache next time.
  }
}

module.exports = { install, cacheDir };
