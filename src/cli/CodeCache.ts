/**
 * Runs weft's application bundle (one CommonJS file) through V8's code cache, so a start does not parse and
 * compile the ~700 KB of effect, @effect/* and weft that a command runs: the bytecode of every function the
 * cached run executed is deserialized instead (measured: a 2-turn `weft -p` session goes from about 4.7× to about
 * 3× the wall time of `node -e 0`; see scratchpad/bench/session.mjs).
 *
 * Where the cache comes from (each named `weft-app.<hash>.<node version>-<arch>.codecache`):
 * - the user's, in `$WEFT_HOME/cache/` (default `~/.weft/cache`), written at the exit of the first print run
 *   (`-p`) that had no usable cache. Only print runs write it: the cache holds what the run compiled, and `--help`
 *   would leave the print path out of it for good. It is tried first: it exists only where the shipped one was
 *   missing or rejected.
 * - the shipped one, beside the bundle, written at build time by a training run (the demo session, see
 *   scripts/build-bin.mjs): used when the Node.js running weft is the one that built it, with the same V8 flags.
 *
 * Node.js 22 and later have a compile cache of their own (`module.enableCompileCache`), but it does not replace this
 * one: it holds the code V8 compiles when a module loads, not the functions a run goes on to compile, so a 2-turn
 * `weft -p` on Node.js 24 counts ~800 M instructions with it against ~470 M with this module's trained cache (~1000 M
 * with none; callgrind, scratchpad/bench/session.mjs). It is enabled beside this one (under `$WEFT_HOME/cache/node`)
 * for what the application loads through Node's own loader: the MCP client bundle (weft-mcp.cjs, ~1 MB) of sessions
 * with MCP servers. On Node.js 20 there is no such cache, and that bundle compiles from source.
 *
 * `<hash>` is the bundle's content hash: V8 itself checks only the source's length (and its own version and
 * flags), so a cache is never paired with another build's source. A cache V8 rejects is ignored (and, for the
 * user's cache, replaced); a cache that cannot be read or written is skipped: a start never fails because of it.
 * `WEFT_CODE_CACHE=0` turns all of it off.
 *
 * This module is the launcher's (src/cli/bin.ts): Node built-ins only, no effect, nothing that costs start-up.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { basename, dirname, join } from "node:path"
import { Script } from "node:vm"

export interface CachePaths {
  /** The cache written at build time, beside the bundle. */
  readonly shipped: string
  /** The user's cache, for this build, Node.js version and architecture. */
  readonly user: string
}

const cachePrefix = "weft-app."
const cacheSuffix = ".codecache"

/** `$WEFT_HOME` (when set and not empty) or `~/.weft`: the same home as the session store's. */
export const weftHome = (env: NodeJS.ProcessEnv = process.env): string => {
  const home = env["WEFT_HOME"]
  return home !== undefined && home !== "" ? home : join(homedir(), ".weft")
}

/** `weft-app.<hash>.<node version>-<arch>.codecache`: the Node.js that wrote a cache is the only one to accept it. */
export const cacheName = (hash: string): string => `${cachePrefix}${hash}.${process.version}-${process.arch}${cacheSuffix}`

export const cachePaths = (bundlePath: string, hash: string, env: NodeJS.ProcessEnv = process.env): CachePaths => ({
  shipped: join(dirname(bundlePath), cacheName(hash)),
  user: join(weftHome(env), "cache", cacheName(hash))
})

export type CacheSource = "shipped" | "user" | "none"

export interface LoadedBundle {
  /** Which cache V8 accepted ("none": the bundle was compiled from source). */
  readonly source: CacheSource
  /** Serializes the bytecode compiled so far (at load, and by every function run since) to `path`. */
  readonly save: (path: string) => boolean
}

const readIfPresent = (path: string): Buffer | undefined => {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}

/** The CommonJS wrapper, on the bundle's first line so that its line numbers stay as they are. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`

/**
 * Compiles the bundle with the first of `candidates` that exists, then runs it as a CommonJS module whose
 * `require` is `requireBuiltin`: a bundle holds all of its code and requires only Node.js built-ins, so the
 * caller's own `require` serves (the launcher's: `createRequire` would load node:module, and with it Node's ES
 * module loader, for nothing). Only one candidate is tried: V8 compiles the source when it rejects a cache, and a
 * second attempt in the same process would be answered from V8's in-memory compilation cache whatever the file held.
 */
export const loadBundle = (
  bundlePath: string,
  candidates: ReadonlyArray<{ readonly source: CacheSource; readonly path: string }>,
  requireBuiltin: NodeJS.Require
): LoadedBundle => {
  const source = wrap(readFileSync(bundlePath, "utf8"))
  // The script's name in stack traces. A script built from a cache keeps the name it had when the cache was made
  // (V8 11), so an absolute path would name the build machine's folder wherever weft is installed.
  const filename = basename(bundlePath)
  let script: Script | undefined
  let accepted: CacheSource = "none"
  for (const candidate of candidates) {
    const cachedData = readIfPresent(candidate.path)
    if (cachedData === undefined) continue
    script = new Script(source, { filename, cachedData })
    if (script.cachedDataRejected !== true) accepted = candidate.source
    break
  }
  const compiled = script ?? new Script(source, { filename })
  const run = compiled.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string
  ) => void
  const module = { exports: {} }
  run.call(module.exports, module.exports, requireBuiltin, module, bundlePath, dirname(bundlePath))
  return {
    source: accepted,
    save: (path) =>
      writeAtomically(path, () => {
        restoreFlags(requireBuiltin)
        return compiled.createCachedData()
      })
  }
}

/**
 * Set on globalThis by code that changes V8's flags after start (permissions/ShellSyntax.ts: `--liftoff-only` on the
 * first Bash call checked): the flags that undo the change. V8 stamps a cache with a hash of the flags in force when
 * it is written and rejects it where they differ when it is read, so a cache written at exit without undoing them
 * would be refused by every later run (which starts without the flag) and written again by each. `--no-liftoff-only`
 * alone is not enough: the flag also turned off the WebAssembly tiering flags, which stay in the hash.
 */
export const flagsToRestore: unique symbol = Symbol.for("weft.codeCacheFlagsToRestore")

const restoreFlags = (requireBuiltin: (id: string) => unknown): void => {
  const flags: unknown = Reflect.get(globalThis, flagsToRestore)
  if (typeof flags !== "string") return
  Reflect.deleteProperty(globalThis, flagsToRestore)
  try {
    const v8: unknown = requireBuiltin("node:v8")
    const setFlags: unknown = typeof v8 === "object" && v8 !== null ? Reflect.get(v8, "setFlagsFromString") : undefined
    if (typeof setFlags === "function") Reflect.apply(setFlags, v8, [flags])
  } catch {
    // The cache is written with the flags as they are: the next run rejects it and writes another.
  }
}

/** Writes through a temporary file and a rename (a concurrent start never reads half a cache); false on any error. */
const writeAtomically = (path: string, data: () => Buffer): boolean => {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(temporary, data())
    renameSync(temporary, path)
    return true
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // The directory could not be made: there is no temporary file either.
    }
    return false
  }
}

/** Removes the user caches of other builds (other hashes) from the cache directory of `current`. */
export const pruneOtherBuilds = (current: string, hash: string): void => {
  try {
    const directory = dirname(current)
    for (const name of readdirSync(directory)) {
      if (name.startsWith(cachePrefix) && name.endsWith(cacheSuffix) && !name.startsWith(`${cachePrefix}${hash}.`)) {
        rmSync(join(directory, name), { force: true })
      }
    }
  } catch {
    // Nothing to prune, or not ours to prune.
  }
}

export interface StartOptions {
  readonly bundlePath: string
  readonly hash: string
  /** Whether this run may write the user's cache at exit (print runs: see the module doc). */
  readonly writesUserCache: boolean
  /** The `require` the bundle gets (see `loadBundle`). */
  readonly require: NodeJS.Require
  readonly env?: NodeJS.ProcessEnv
}

/**
 * Set on globalThis while this process trains the code cache. V8 stamps a cache with the flags in force, so a flag
 * set during training (permissions/ShellSyntax.ts sets one) would make every later run refuse the cache.
 */
export const trainingMark: unique symbol = Symbol.for("weft.codeCacheTraining")

/**
 * Node.js 22 and later: their own compile cache for the modules their loader compiles (see the module doc), in
 * `directory`. Quietly nothing where it is missing or refuses (Node.js 20, an unwritable home).
 */
export const enableNodeCompileCache = (directory: string, requireBuiltin: (id: string) => unknown): boolean => {
  if (Number(process.versions.node.split(".")[0]) < 22) return false
  try {
    const nodeModule: unknown = requireBuiltin("node:module")
    const enable: unknown = typeof nodeModule === "object" && nodeModule !== null ? Reflect.get(nodeModule, "enableCompileCache") : undefined
    if (typeof enable !== "function") return false
    Reflect.apply(enable, nodeModule, [directory])
    return true
  } catch {
    return false
  }
}

/**
 * Loads and runs the bundle with the best cache available. `WEFT_CODE_CACHE_TRAIN=<path>` (used by the build)
 * compiles from source and writes the cache of this run to `<path>` at exit, if `writesUserCache` (the print run
 * of the demo; the demo process itself passes the variable on to it).
 */
export const start = (options: StartOptions): LoadedBundle => {
  const env = options.env ?? process.env
  if (env["WEFT_CODE_CACHE"] === "0") return loadBundle(options.bundlePath, [], options.require)
  const train = env["WEFT_CODE_CACHE_TRAIN"]
  if (train !== undefined && train !== "") {
    const loaded = loadBundle(options.bundlePath, [], options.require)
    if (options.writesUserCache) {
      // Code that would change V8's flags (the Bash parser's) must not while a cache is trained: see trainingMark.
      Reflect.set(globalThis, trainingMark, true)
      delete env["WEFT_CODE_CACHE_TRAIN"]
      process.once("exit", () => void loaded.save(train))
    }
    return loaded
  }
  enableNodeCompileCache(join(weftHome(env), "cache", "node"), options.require)
  // The user's cache first: it exists only where the shipped one was missing or rejected (V8 flags, say).
  const paths = cachePaths(options.bundlePath, options.hash, env)
  const loaded = loadBundle(
    options.bundlePath,
    [
      { source: "user", path: paths.user },
      { source: "shipped", path: paths.shipped }
    ],
    options.require
  )
  if (loaded.source === "none" && options.writesUserCache) {
    process.once("exit", () => {
      if (loaded.save(paths.user)) pruneOtherBuilds(paths.user, options.hash)
    })
  }
  return loaded
}

