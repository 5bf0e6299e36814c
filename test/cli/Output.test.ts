import { describe, expect, it } from "@effect/vitest"
import { afterEach, vi } from "vitest"
import * as Effect from "effect/Effect"

// The descriptor writes of Output, scripted: each call answers the next of `answers` (a byte count, or an error code).
const answers: Array<number | string> = []
const written: Array<string> = []
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>()
  return {
    ...actual,
    writeSync: (fd: number, buffer: Buffer, offset: number) => {
      const answer = answers.shift()
      if (answer === undefined) throw new Error(`unexpected write to ${fd}`)
      if (typeof answer === "string") throw Object.assign(new Error(answer), { code: answer })
      written.push(buffer.subarray(offset, offset + answer).toString())
      return answer
    }
  }
})

const Output = await import("../../src/cli/Output.js")

afterEach(() => {
  answers.length = 0
  written.length = 0
  vi.restoreAllMocks()
})

describe("Output", () => {
  it.effect("writes to the descriptor until all is written, a short write at a time", () =>
    Effect.gen(function* () {
      answers.push(3, 2)
      yield* Output.stderr("hello")
      expect(written).toEqual(["hel", "lo"])
    })
  )

  it.effect("a descriptor that would block hands the rest, and what follows, to Node's stream", () =>
    Effect.gen(function* () {
      const streamed: Array<string> = []
      vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array, callback?: (error?: Error | null) => void) => {
        streamed.push(chunk.toString())
        callback?.(null)
        return true
      }) as typeof process.stdout.write)
      answers.push(2, "EAGAIN")
      yield* Output.stdout("abcdef")
      yield* Output.stdout("ghi")
      expect(written).toEqual(["ab"])
      expect(streamed).toEqual(["cdef", "ghi"])
      expect(Output.madeStreams()).toContain("stdout")
    })
  )

  it.effect("a reader that went away (EPIPE) is OutputClosed, now and for every later write", () =>
    Effect.gen(function* () {
      answers.push("EPIPE")
      const error = yield* Effect.flip(Output.stderr("lost"))
      expect(error).toMatchObject({ _tag: "OutputClosed", message: "stderr was closed by its reader" })
      expect(Output.isClosed("stderr")).toBe(true)
      expect((yield* Effect.flip(Output.stderr("again")))._tag).toBe("OutputClosed")
      Output.stderrSync("never fails")
      expect(answers).toEqual([])
    })
  )
})

describe("Output.consoleToStderr", () => {
  it("what a library prints with console.log / info / debug goes to the given writer, not stdout; restored after", () => {
    const taken: Array<string> = []
    const saved = console.log
    const restore = Output.consoleToStderr((text) => void taken.push(text))
    try {
      console.debug("Client.listPrompts() called but server does not advertise prompts capability")
      console.log("a %s and %d", "string", 42)
      console.info({ a: 1 })
    } finally {
      restore()
    }
    expect(taken).toEqual([
      "Client.listPrompts() called but server does not advertise prompts capability\n",
      "a string and 42\n",
      "{ a: 1 }\n"
    ])
    expect(console.log).toBe(saved)
    // Nothing reached a descriptor.
    expect(written).toEqual([])
  })
})
