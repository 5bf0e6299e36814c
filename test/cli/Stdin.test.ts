import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
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

describe("Stdin.lines", () => {
  const collect = (stream: PassThrough, maxLineBytes = 16) => Stream.runCollect(Stdin.lines(stream, maxLineBytes))

  it.live("reads lines as they come, across chunks (a character split between them too), CRLF and a last line without its newline", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      const euro = Buffer.from("€")
      stream.write("one\ntw")
      stream.write(Buffer.concat([Buffer.from("o "), euro.subarray(0, 1)]))
      stream.write(Buffer.concat([euro.subarray(1), Buffer.from("\r\n\nlast")]))
      stream.end()
      expect(yield* collect(stream)).toEqual([
        { _tag: "Line", text: "one" },
        { _tag: "Line", text: "two €" },
        { _tag: "Line", text: "" },
        { _tag: "Line", text: "last" }
      ])
    })
  )

  it.live("a line over the bound is dropped and counted; the lines after it are read", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      stream.write("short\n0123456789")
      stream.write("0123456789\nafter\n")
      stream.end()
      expect(yield* collect(stream)).toEqual([
        { _tag: "Line", text: "short" },
        { _tag: "TooLong", bytes: 20 },
        { _tag: "Line", text: "after" }
      ])
    })
  )

  it.live("delivers each line while the stream stays open: a line written later still comes", () =>
    Effect.gen(function* () {
      const stream = new PassThrough()
      const seen = yield* Queue.unbounded<string>()
      const reading = yield* Effect.forkChild(
        Stream.runForEach(Stdin.lines(stream, 1024), (line) => Queue.offer(seen, line._tag === "Line" ? line.text : ""))
      )
      stream.write("first\n")
      // Taken before anything more is written: the reader did not wait for the end of the stream.
      expect(yield* Queue.take(seen)).toBe("first")
      stream.end("second\n")
      yield* Fiber.join(reading)
      expect(yield* Queue.take(seen)).toBe("second")
    })
  )
})
