/**
 * kill -9 at any moment loses no completed entry: a child process appends through the real JSONL store in a
 * loop and is SIGKILLed; every line that ends in "\n" must be a valid entry, and every entry the child saw
 * acknowledged must load.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { build } from "esbuild"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodeEntry } from "../../src/domain/Transcript.js"
import { cwdSlug, SessionStore } from "../../src/session/SessionStore.js"

const here = path.dirname(fileURLToPath(import.meta.url))
let workDir = ""
let appender = ""

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "weft-crash-")))
  appender = path.join(workDir, "appender.mjs")
  await build({
    entryPoints: [path.join(here, "fixtures", "appender.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: appender,
    logLevel: "warning"
  })
})

afterAll(() => {
  if (workDir !== "") fs.rmSync(workDir, { recursive: true, force: true })
})

/** Runs the appender until it acknowledged `count` entries, then SIGKILLs it; resolves the highest index acknowledged. */
const runAndKill = (home: string, sessionId: string, cwd: string, count: number) =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [appender, home, sessionId, cwd], { stdio: ["ignore", "pipe", "pipe"] })
    let acknowledged = -1
    let pending = ""
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) acknowledged = Math.max(acknowledged, Number(line))
      if (acknowledged + 1 >= count && !child.killed) child.kill("SIGKILL")
    })
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(acknowledged)
      else reject(new Error(`appender exited with ${code}: ${stderr}`))
    })
  })

describe("SessionStore.layer under kill -9", () => {
  it("loses no completed entry", async () => {
    const home = path.join(workDir, "home")
    const cwd = "/w/crash"
    for (const [round, count] of [20, 120, 300].entries()) {
      const sessionId = `crash-${round}`
      const acknowledged = await runAndKill(home, sessionId, cwd, count)
      expect(acknowledged + 1).toBeGreaterThanOrEqual(count)

      const text = fs.readFileSync(path.join(home, "projects", cwdSlug(cwd), `${sessionId}.jsonl`), "utf8")
      const complete = text.split("\n").slice(0, -1)
      for (const line of complete) expect(Result.isSuccess(decodeEntry(JSON.parse(line)))).toBe(true)

      const loaded = await Effect.runPromise(
        SessionStore.use((store) => store.loadDetailed(sessionId)).pipe(
          Effect.provide(SessionStore.layerNode({ home }))
        )
      )
      expect(loaded.skippedLines).toBe(0)
      expect(loaded.entries.length).toBe(complete.length)
      expect(loaded.entries.length).toBeGreaterThanOrEqual(acknowledged + 1)
      expect(loaded.entries.map((entry) => entry.uuid)).toEqual(complete.map((_, index) => `u-${index}`))
    }
  }, 60_000)
})
