// weft as a user gets it: `npm pack`, the tarball installed into a new project that depends on effect, and the
// programs README and docs/library.md show (their `ts` code blocks, taken from the files themselves) typechecked
// there and run, on the node running this test. Installed with `npm ci --offline` from a lock file made of this repository's own (the same
// versions, fetched by integrity from npm's cache, which `npm ci` here filled): no network.
import { execFile, execFileSync, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Script from "../../src/testing/Script.js"
import { ScriptTurn } from "../../src/testing/Script.js"
import { startMockAnthropicServer, type StartedMockServer } from "../../src/testing/MockAnthropicServer.js"

const root = resolve(import.meta.dirname, "../..")
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"))
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

/** Runs a program to its end without blocking this process (the mock server answers from here). */
const run = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }) =>
  promisify(execFile)(process.execPath, [...args], { ...options, encoding: "utf8" }).catch(
    (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: `${error.stderr}\n${String(error)}` })
  )

/** The `ts` code blocks of README.md, then of docs/library.md (the fakes, a conversation), in order. */
const readmePrograms = (): ReadonlyArray<string> =>
  ["README.md", "docs/library.md"].flatMap((file) =>
    [...readFileSync(join(root, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
  )

/** The entries of this repository's lock that `names` need (their dependencies and peers, transitively). */
const lockEntries = (names: ReadonlyArray<string>): Record<string, unknown> => {
  const packages: Record<string, { dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; optional?: boolean; dev?: boolean }> =
    lock.packages
  const entries: Record<string, unknown> = {}
  const visit = (name: string, from: string) => {
    // Node's lookup: the nearest node_modules folder up from the dependant that holds the name.
    let key: string | undefined
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
      const candidate = `${base === "" ? "" : `${base}/`}node_modules/${name}`
      if (candidate in packages) {
        key = candidate
        break
      }
      if (base === "") break
    }
    if (key === undefined || key in entries) return
    const { dev: _dev, ...entry } = packages[key]!
    // Where npm's cache has the tarball, by its address (this repository's lock leaves the address out).
    const scoped = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length)
    const version = (entry as { version: string }).version
    entries[key] = { ...entry, resolved: `https://registry.npmjs.org/${scoped}/-/${scoped.split("/").at(-1)}-${version}.tgz` }
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.peerDependencies })) visit(dependency, key)
  }
  for (const name of names) visit(name, "")
  return entries
}

describe("the packed package, installed into a project of its own", () => {
  let dir: string
  let server: StartedMockServer
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "weft-package-"))
    const packed = JSON.parse(execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: root, encoding: "utf8" }))
    const tarball = join(dir, packed[0].filename as string)
    const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`
    const dependencies = { weft: `file:${packed[0].filename}`, effect: manifest.devDependencies.effect, "@types/node": lock.packages["node_modules/@types/node"].version }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "an-agent", private: true, type: "module", dependencies }, null, 2))
    const weftEntry = {
      version: manifest.version,
      resolved: `file:${packed[0].filename}`,
      integrity,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      engines: manifest.engines,
      bin: manifest.bin
    }
    const shared = lockEntries([...Object.keys(manifest.dependencies), "effect", "@types/node"])
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        name: "an-agent",
        lockfileVersion: 3,
        requires: true,
        packages: { "": { name: "an-agent", dependencies }, "node_modules/weft": weftEntry, ...shared }
      })
    )
    execFileSync(npm, ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, encoding: "utf8" })
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: false,
          types: ["node"]
        },
        include: ["*.ts"]
      })
    )
    writeFileSync(join(dir, "README.md"), "the quick brown fox jumps over the lazy dog\n")
    server = await startMockAnthropicServer({
      script: [
        ScriptTurn.blocks([Script.toolUse("Read", { file_path: join(dir, "README.md") })]),
        ScriptTurn.blocks([Script.toolUse("WordCount", { text: "the quick brown fox jumps over the lazy dog" })]),
        Script.textTurn("README.md has 9 words.")
      ]
    })
  }, 180_000)
  afterAll(async () => {
    await server?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("holds one copy of effect, the project's", () => {
    const copies = spawnSync(npm, ["ls", "effect", "--all", "--parseable"], { cwd: dir, encoding: "utf8" }).stdout.trim().split("\n")
    expect(new Set(copies)).toEqual(new Set([join(dir, "node_modules/effect")]))
  })

  it("typechecks and runs README's programs: a custom tool beside the built-in Read, against a model; and the same agent on the scripted fake", async () => {
    const programs = readmePrograms()
    expect(programs.length).toBeGreaterThanOrEqual(3)
    programs.forEach((program, index) => writeFileSync(join(dir, `program${index}.ts`), program))
    const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" })
    expect(tsc.stdout + tsc.stderr).toBe("")
    expect(tsc.status).toBe(0)

    const env = { PATH: process.env.PATH ?? "", HOME: dir, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "test-key" }
    const live = await run(["program0.ts"], { cwd: dir, env })
    expect(live.stderr).toBe("")
    expect(live.stdout.trim()).toBe("README.md has 9 words.")
    // What the custom tool answered, as the model received it.
    const bodies = server.requests().map((request) => JSON.stringify(request.body))
    expect(bodies).toHaveLength(3)
    expect(bodies[2]).toContain('"content":"9"')

    const scripted = await run(["program1.ts"], { cwd: dir, env: { PATH: env.PATH, HOME: dir } })
    expect(scripted.stderr).toBe("")
    expect(scripted.stdout.trim()).toBe("It has 4 words.")

    // A conversation: two user turns, the Write asked about and allowed by the host's Effect, a hook added at run time.
    const conversation = await run(["program2.ts"], { cwd: dir, env: { PATH: env.PATH, HOME: dir } })
    expect(conversation.stderr).toBe("")
    expect(conversation.stdout.trim().split("\n")).toEqual(["hook: Write", "asked: Write", "Wrote hello.txt.", "You're welcome.", "hello"])
  })
})
