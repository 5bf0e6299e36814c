import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { run } from "../../src/hooks/HookProcess.js"
import { isRunning } from "../../src/tools/shell/ProcessGroup.js"

const hook = (command: string) =>
  run({ command, cwd: process.cwd(), env: { PATH: process.env["PATH"] ?? "" }, stdin: "{}", timeoutMs: 60_000, maxOutputBytes: 65_536 })

describe("HookProcess output bound", () => {
  it.live("output that fills the bound exactly is kept whole and is not a flood", () =>
    Effect.gen(function* () {
      const result = yield* hook("head -c 65536 /dev/zero")
      expect(result.ending).toBe("exited")
      expect(result.stdout.length).toBe(65_536)
    })
  )

  // Pipes deliver 64 KiB chunks: the first fills the bound exactly, and the next one must still count as a flood.
  it.live("output past the bound is a flood, also after a chunk that met the bound exactly", () =>
    Effect.gen(function* () {
      const endless = yield* hook("yes flood")
      expect(endless.ending).toBe("flooded")
      expect(endless.stdout.length).toBe(65_536)
    })
  )
})

const hasSetsid = (process.env["PATH"] ?? "").split(":").some((dir) => existsSync(join(dir, "setsid")))

describe("HookProcess past its timeout", () => {
  // Every process the hook started, in its group or out of it (setsid), TERM-proof or not, is gone once run returns.
  it.live.skipIf(!hasSetsid && process.env["CI"] !== "true")("ends the hook and all it started, children that ignore TERM and left its group included", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "weft-hook-"))
      const pids = ["shell", "child", "stray"].map((name) => join(dir, `${name}.pid`))
      const command = [
        `trap 'echo term' TERM`,
        `sh -c 'trap "" TERM; exec sleep 300' &`,
        `echo $! > ${pids[1]}`,
        `setsid sh -c 'trap "" TERM; exec sleep 300' &`,
        `echo $! > ${pids[2]}`,
        `echo $$ > ${pids[0]}`,
        // Waits again after each TERM, so only KILL ends it.
        `while :; do wait; done`
      ].join("\n")
      const result = yield* run({ command, cwd: dir, env: { PATH: process.env["PATH"] ?? "" }, stdin: "{}", timeoutMs: 300, graceMs: 200 })
      expect(result.ending).toBe("timedOut")
      const started = pids.map((file) => Number(readFileSync(file, "utf8")))
      expect(started.every((pid) => pid > 0)).toBe(true)
      for (const pid of started) expect(isRunning(pid), `pid ${pid}`).toBe(false)
      rmSync(dir, { recursive: true, force: true })
    })
  )
})
