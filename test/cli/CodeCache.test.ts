import { execFile, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cachePaths, enableNodeCompileCache, loadBundle, pruneOtherBuilds } from "../../src/cli/CodeCache.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { startMockAnthropicServer } from "../../src/testing/MockAnthropicServer.js"
import { tempDir, write } from "../support/TempFiles.js"
import { binary, repoRoot, requireBinary } from "../e2e/harness.js"

/** What the launcher passes as the bundle's `require` (its own). */
const requireBuiltin = createRequire(import.meta.url)

/** A small CommonJS "application" that records that it ran, with what require and paths it was given. */
const app = (dir: string) => {
  const path = join(dir, "app.cjs")
  write(
    path,
    [
      `// ${dir}`,
      "const { join } = require('node:path')",
      "function square(n) { return n * n }",
      "globalThis.__codeCacheTestRuns = (globalThis.__codeCacheTestRuns ?? 0) + 1",
      "module.exports.value = square(7)",
      "globalThis.__codeCacheTestSeen = { filename: __filename, dirname: __dirname, joined: join('a', 'b'), value: module.exports.value }"
    ].join("\n")
  )
  return path
}

const seen = () => (globalThis as unknown as { __codeCacheTestSeen: Record<string, unknown> }).__codeCacheTestSeen

// V8 keeps every compiled script in a per-process compilation cache keyed by its source, and a hit there skips the
// code cache altogether: each bundle below is unique (its directory is part of it), and whether a cache is
// accepted is checked in a fresh process.
describe("CodeCache.loadBundle", () => {
  const inFreshProcess = (bundle: string, ...caches: ReadonlyArray<string>) => {
    const module = join(repoRoot, "dist/lib/cli/CodeCache.js")
    const candidates = caches.map((path, i) => ({ source: i === 0 ? "user" : "shipped", path }))
    const script = `import(${JSON.stringify(module)}).then((m) => console.log(m.loadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(candidates)}, require).source, globalThis.__codeCacheTestSeen.value))`
    const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" })
    expect(result.stderr).toBe("")
    return result.stdout.trim()
  }

  it("runs the bundle as a CommonJS module; its saved cache is accepted by V8 in the next process", () => {
    requireBinary()
    const dir = tempDir()
    const bundle = app(dir)
    const first = loadBundle(bundle, [{ source: "user", path: join(dir, "missing.codecache") }], requireBuiltin)
    expect(first.source).toBe("none")
    expect(seen()).toEqual({ filename: bundle, dirname: dir, joined: join("a", "b"), value: 49 })

    const cache = join(dir, "cache", "app.codecache")
    expect(first.save(cache)).toBe(true)
    expect(statSync(cache).size).toBeGreaterThan(0)
    expect(readdirSync(join(dir, "cache"))).toEqual(["app.codecache"]) // no temporary file left behind
    expect(inFreshProcess(bundle, cache)).toBe("user 49")
  })

  it("ignores a cache V8 rejects (another source's, or garbage) and still runs the bundle", () => {
    requireBinary()
    const dir = tempDir()
    const bundle = app(dir)
    const other = join(dir, "other.cjs")
    write(other, `module.exports.other = ${JSON.stringify(dir)}`)
    const otherCache = join(dir, "other.codecache")
    expect(loadBundle(other, [], requireBuiltin).save(otherCache)).toBe(true)
    expect(inFreshProcess(bundle, otherCache)).toBe("none 49")

    const garbage = join(dir, "garbage.codecache")
    writeFileSync(garbage, Buffer.from("garbage bytes"))
    expect(inFreshProcess(bundle, garbage)).toBe("none 49")

    // Missing files are skipped; the first one that exists decides, even when rejected (the source is compiled by then).
    const good = join(dir, "good.codecache")
    expect(loadBundle(bundle, [], requireBuiltin).save(good)).toBe(true)
    expect(inFreshProcess(bundle, join(dir, "missing.codecache"), good)).toBe("shipped 49")
    expect(inFreshProcess(bundle, garbage, good)).toBe("none 49")
  })

  it("stack traces name the bundle file, not the folder the cache was made in", () => {
    requireBinary()
    const built = tempDir()
    const installed = tempDir()
    const bundle = join(built, "thrower.cjs")
    write(bundle, `// ${built}\nglobalThis.__codeCacheTestFrame = new Error("where").stack.split("\\n")[1]\n`)
    const cache = join(built, "thrower.codecache")
    expect(loadBundle(bundle, [], requireBuiltin).save(cache)).toBe(true)
    const moved = join(installed, "thrower.cjs")
    copyFileSync(bundle, moved)
    const module = join(repoRoot, "dist/lib/cli/CodeCache.js")
    const candidates = [{ source: "shipped", path: cache }]
    const script = `import(${JSON.stringify(module)}).then((m) => console.log(m.loadBundle(${JSON.stringify(moved)}, ${JSON.stringify(candidates)}, require).source, globalThis.__codeCacheTestFrame.trim()))`
    const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" })
    expect(result.stderr).toBe("")
    const [source, ...frame] = result.stdout.trim().split(" ")
    expect(source).toBe("shipped")
    expect(frame.join(" ")).toMatch(/^at (.* \()?thrower\.cjs:2:\d+\)?$/)
  })

  it("a cache written after a V8 flag was set is accepted by a run without it only if flagsToRestore undid the flag", () => {
    requireBinary()
    const dir = tempDir()
    const bundle = app(dir)
    const module = join(repoRoot, "dist/lib/cli/CodeCache.js")
    // What ShellSyntax does on a run's first Bash call, then the user cache written at exit.
    const saveAfterFlag = (cache: string, restore: boolean) => {
      const script = [
        `import(${JSON.stringify(module)}).then((m) => {`,
        `  const loaded = m.loadBundle(${JSON.stringify(bundle)}, [], require)`,
        `  require("node:v8").setFlagsFromString("--liftoff-only")`,
        restore ? `  globalThis[m.flagsToRestore] = "--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering"` : "",
        `  console.log(loaded.save(${JSON.stringify(cache)}))`,
        "})"
      ].join("\n")
      const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" })
      expect(result.stderr).toBe("")
      expect(result.stdout.trim()).toBe("true")
    }
    saveAfterFlag(join(dir, "restored.codecache"), true)
    expect(inFreshProcess(bundle, join(dir, "restored.codecache"))).toBe("user 49")
    // Why the restore is needed: V8 stamps the cache with the flags in force when it is written.
    saveAfterFlag(join(dir, "stamped.codecache"), false)
    expect(inFreshProcess(bundle, join(dir, "stamped.codecache"))).toBe("none 49")
  })

  it("save reports false where it cannot write, and leaves nothing behind", () => {
    const dir = tempDir()
    const loaded = loadBundle(app(dir), [], requireBuiltin)
    write(join(dir, "file"), "a file where a directory should be")
    expect(loaded.save(join(dir, "file", "cache.codecache"))).toBe(false)
    expect(readdirSync(dir).sort()).toEqual(["app.cjs", "file"])
  })
})

describe("CodeCache.enableNodeCompileCache", () => {
  it("turns on Node's own compile cache from Node.js 22 (for what Node's loader compiles), and does nothing before", () => {
    const calls: Array<string> = []
    const fakeRequire = (id: string) => (id === "node:module" ? { enableCompileCache: (dir: string) => void calls.push(dir) } : {})
    const enabled = enableNodeCompileCache("/home/u/.weft/cache/node", fakeRequire)
    const modern = Number(process.versions.node.split(".")[0]) >= 22
    expect(enabled).toBe(modern)
    expect(calls).toEqual(modern ? ["/home/u/.weft/cache/node"] : [])
    expect(enableNodeCompileCache("/x", () => ({}))).toBe(false)
    expect(
      enableNodeCompileCache("/x", () => {
        throw new Error("no such module")
      })
    ).toBe(false)
  })
})

describe("CodeCache paths", () => {
  it("keys caches by build hash, Node.js version and architecture; the user's under $WEFT_HOME/cache", () => {
    const paths = cachePaths("/opt/weft/bin/weft-app.cjs", "0123abcd", { WEFT_HOME: "/home/u/.w" })
    expect(paths.shipped).toBe(`/opt/weft/bin/weft-app.0123abcd.${process.version}-${process.arch}.codecache`)
    expect(paths.user).toBe(`/home/u/.w/cache/weft-app.0123abcd.${process.version}-${process.arch}.codecache`)
    expect(cachePaths("/opt/weft/bin/weft-app.cjs", "ffff0000", { WEFT_HOME: "/home/u/.w" }).user).not.toBe(paths.user)
    expect(cachePaths("/b/weft-app.cjs", "0123abcd", { WEFT_HOME: "" }).user).toMatch(/[/\\]\.weft[/\\]cache[/\\]weft-app\.0123abcd\./)
  })

  it("pruning removes other builds' caches only", () => {
    const dir = tempDir()
    const keep = join(dir, `weft-app.aaaa.${process.version}-${process.arch}.codecache`)
    const keepOtherNode = join(dir, "weft-app.aaaa.v18.0.0-x64.codecache")
    const stale = join(dir, `weft-app.bbbb.${process.version}-${process.arch}.codecache`)
    const unrelated = join(dir, "notes.txt")
    for (const file of [keep, keepOtherNode, stale, unrelated]) write(file, "x")
    pruneOtherBuilds(keep, "aaaa")
    expect(readdirSync(dir).sort()).toEqual([keepOtherNode, keep, unrelated].map((file) => file.slice(dir.length + 1)).sort())
  })
})

describe("the weft launcher and its caches (dist/bin/weft.cjs)", () => {
  /** The built launcher beside a small stand-in application, so each run is quick and observable. */
  const install = () => {
    requireBinary()
    const root = tempDir()
    const bin = join(root, "bin")
    mkdirSync(bin)
    copyFileSync(binary, join(bin, "weft.cjs"))
    write(join(bin, "weft-app.cjs"), "process.stdout.write('app ' + JSON.stringify(process.argv.slice(2)) + '\\n')\n")
    return { launcher: join(bin, "weft.cjs"), home: join(root, "home") }
  }
  const run = (launcher: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
    const result = spawnSync(process.execPath, [launcher, ...args], { env: { ...process.env, ...env }, encoding: "utf8" })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    return result.stdout
  }
  const userCaches = (home: string) => (existsSync(join(home, "cache")) ? readdirSync(join(home, "cache")) : [])

  it("a print run without a usable cache writes the user's cache once; later runs use it", () => {
    const { launcher, home } = install()
    expect(run(launcher, ["-p", "hello"], { WEFT_HOME: home })).toBe('app ["-p","hello"]\n')
    const caches = userCaches(home)
    expect(caches).toHaveLength(1)
    expect(caches[0]).toMatch(new RegExp(`^weft-app\\.[0-9a-f]{16}\\.${process.version.replace(/\./g, "\\.")}-${process.arch}\\.codecache$`))
    const file = join(home, "cache", caches[0] ?? "")
    const before = statSync(file)

    expect(run(launcher, ["-p", "again"], { WEFT_HOME: home })).toBe('app ["-p","again"]\n')
    const after = statSync(file)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
  })

  it("a rejected user cache is replaced; other commands, --version and WEFT_CODE_CACHE=0 write none", () => {
    const { launcher, home } = install()
    expect(run(launcher, ["--help"], { WEFT_HOME: home })).toBe('app ["--help"]\n')
    expect(run(launcher, ["--version"], { WEFT_HOME: home })).toMatch(/^\d+\.\d+\.\d+ \(weft\)\n$/)
    expect(run(launcher, ["-p", "x"], { WEFT_HOME: home, WEFT_CODE_CACHE: "0" })).toBe('app ["-p","x"]\n')
    expect(userCaches(home)).toEqual([])

    run(launcher, ["-p", "x"], { WEFT_HOME: home })
    const file = join(home, "cache", userCaches(home)[0] ?? "")
    writeFileSync(file, "garbage")
    expect(run(launcher, ["-p", "y"], { WEFT_HOME: home })).toBe('app ["-p","y"]\n')
    expect(readFileSync(file).length).toBeGreaterThan("garbage".length)
  })

  it("where the shipped cache is rejected (other V8 flags, say), the user's cache is written and then preferred", () => {
    const { launcher, home } = install()
    const hash = /weft-app\.([0-9a-f]{16})\./.exec(readdirSync(join(repoRoot, "dist/bin")).join(" "))?.[1]
    expect(hash).toBeDefined()
    writeFileSync(join(launcher, "..", `weft-app.${hash}.${process.version}-${process.arch}.codecache`), "garbage")
    run(launcher, ["-p", "x"], { WEFT_HOME: home })
    expect(userCaches(home)).toEqual([`weft-app.${hash}.${process.version}-${process.arch}.codecache`])
    const file = join(home, "cache", userCaches(home)[0] ?? "")
    const before = statSync(file)
    run(launcher, ["-p", "y"], { WEFT_HOME: home })
    const after = statSync(file)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
  })

  it("a Bash session's user cache (written after the parser set its V8 flag) is accepted by the next run", async () => {
    requireBinary()
    const root = tempDir()
    const bin = join(root, "bin")
    mkdirSync(bin)
    // The real binary without its shipped cache, as where the Node.js running weft is not the one that built it.
    for (const name of readdirSync(join(repoRoot, "dist/bin")).filter((name) => !name.endsWith(".codecache"))) {
      copyFileSync(join(repoRoot, "dist/bin", name), join(bin, name))
    }
    const project = join(root, "project")
    write(join(project, "notes.txt"), "one\ntwo\n")
    const home = join(root, "home")
    const bashSession = async () => {
      const server = await startMockAnthropicServer({
        script: [ScriptTurn.blocks([toolUse("Bash", { command: "wc -l notes.txt | cat" }, "c1")]), textTurn("done")]
      })
      try {
        // Asynchronously: the mock server answers from this process.
        const result = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
          const child = execFile(
            process.execPath,
            [join(bin, "weft.cjs"), "-p", "go"],
            { cwd: project, env: { ...process.env, WEFT_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "test-key" } },
            (error, stdout, stderr) => (error === null ? resolve({ stdout, stderr }) : reject(error))
          )
          child.stdin?.end()
        })
        expect(result.stderr).toBe("")
        expect(result.stdout).toBe("done\n")
        // The command was checked (parser loaded, flag set) and ran.
        expect(JSON.stringify(server.requests().at(-1))).toContain("2 notes.txt")
      } finally {
        await server.close()
      }
    }
    await bashSession()
    const caches = userCaches(home)
    expect(caches).toHaveLength(1)
    const file = join(home, "cache", caches[0] ?? "")
    const before = statSync(file)
    await bashSession()
    const after = statSync(file)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
  })

  it("the build ships a trained cache that this Node.js accepts: a real print run writes no user cache", () => {
    requireBinary()
    const shipped = readdirSync(join(repoRoot, "dist/bin")).filter((name) => name.endsWith(".codecache"))
    expect(shipped).toHaveLength(1)
    const home = tempDir()
    // No credentials: the run ends early with its message, but only after the whole print path has loaded.
    const result = spawnSync(process.execPath, [binary, "-p", "hello"], {
      env: { ...process.env, WEFT_HOME: home, ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "", ANTHROPIC_BASE_URL: "" },
      encoding: "utf8",
      cwd: tempDir()
    })
    expect(result.stdout + result.stderr).toContain("ANTHROPIC_API_KEY")
    expect(userCaches(home)).toEqual([])
  })
})
