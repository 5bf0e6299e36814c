import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/testing/TestClock"
import { PassThrough } from "node:stream"
import * as Stdin from "../../src/cli/Stdin.js"

describe("Stdin.readAll", () => {
  it.effect("reads the stream to its end", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      stream.end("ERROR: disk full\nline 2\n")
      expect(yield* Stdin.readAll(stream, { maxBytes: 100 })).toBe("ERROR: disk full\nline 2\n")
    })
  )

  it.effect("gives up on a silent stream after firstDataWithin, and stops listening to it", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      const fiber = yield* Effect.forkChild(Stdin.readAll(stream, { maxBytes: 100, firstDataWithin: "3 seconds" }))
      yield* TestClock.adjust("2999 millis")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBeUndefined()
      expect(stream.listenerCount("data")).toBe(0)
    })
  )

  it.effect("once data came, waits for the end however long it takes", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      const fiber = yield* Effect.forkChild(Stdin.readAll(stream, { maxBytes: 100, firstDataWithin: "3 seconds" }))
      stream.write("first ")
      yield* TestClock.adjust("1 minute")
      expect(fiber.pollUnsafe()).toBeUndefined()
      stream.end("and last")
      expect(yield* Fiber.join(fiber)).toBe("first and last")
    })
  )

  it.effect("an empty stream that ends at once is an empty input, not a timeout", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      stream.end()
      expect(yield* Stdin.readAll(stream, { maxBytes: 100, firstDataWithin: "3 seconds" })).toBe("")
    })
  )

  it.effect("fails past maxBytes", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      stream.end("x".repeat(101))
      const error = yield* Effect.flip(Stdin.readAll(stream, { maxBytes: 100 }))
      expect(error.message).toBe("the input on stdin is larger than 100 bytes")
    })
  )
})

describe("Stdin.combinePrompt", () => {
  it("puts the argument first and what was piped after it, leaving out what is missing or blank", () => {
    expect(Stdin.combinePrompt("explain this log", "ERROR: disk full\n")).toBe("explain this log\n\nERROR: disk full\n")
    expect(Stdin.combinePrompt("explain", undefined)).toBe("explain")
    expect(Stdin.combinePrompt("explain", " \n")).toBe("explain")
    expect(Stdin.combinePrompt(undefined, "what is 2+2?")).toBe("what is 2+2?")
    expect(Stdin.combinePrompt(undefined, "")).toBe("")
  })
})
