import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { run } from "../../src/hooks/HookProcess.js"

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
