import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { ParseError } from "../../src/model/ApiError.js"
import * as Sse from "../../src/model/Sse.js"

const encoder = new TextEncoder()

/** Splits bytes into pieces of `size` bytes (the last may be shorter). */
const pieces = (bytes: Uint8Array, size: number): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size))
  return out
}

const decodeAll = (chunks: ReadonlyArray<Uint8Array>, options?: Sse.DecoderOptions): Array<Sse.Frame> => {
  const decoder = new Sse.Decoder(options)
  const frames: Array<Sse.Frame> = []
  for (const chunk of chunks) frames.push(...decoder.push(chunk))
  frames.push(...decoder.end())
  return frames
}

/** The frames of `text`, checked to be the same whole, in 1-byte chunks and split at every position. */
const frames = (text: string): Array<Sse.Frame> => {
  const bytes = encoder.encode(text)
  const whole = decodeAll([bytes])
  expect(decodeAll(pieces(bytes, 1))).toEqual(whole)
  for (let at = 0; at <= bytes.length; at++) {
    expect(decodeAll([bytes.subarray(0, at), bytes.subarray(at)])).toEqual(whole)
  }
  return whole
}

const frame = (data: string, event?: string, id?: string): Sse.Frame => ({ event, data, id })

describe("Sse.Decoder", () => {
  it("reads event and data fields, a blank line dispatching each frame", () => {
    expect(frames("event: ping\ndata: {\"type\":\"ping\"}\n\nevent: x\ndata: 1\n\n")).toEqual([
      frame("{\"type\":\"ping\"}", "ping"),
      frame("1", "x")
    ])
  })

  it("joins data lines with \\n and strips exactly one leading space", () => {
    expect(frames("data: a\ndata:b\ndata:  c\ndata:\ndata\n\n")).toEqual([frame("a\nb\n c\n\n")])
    expect(frames("data:\n\n")).toEqual([frame("")])
  })

  it("accepts CRLF, CR and LF line ends, mixed", () => {
    expect(frames("event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n")).toEqual([
      frame("1", "a"),
      frame("2", "b"),
      frame("3")
    ])
  })

  it("treats a CR ending one chunk and an LF starting the next as one line end", () => {
    const decoder = new Sse.Decoder()
    expect(decoder.push(encoder.encode("data: a\r"))).toEqual([])
    // Were the LF a second line end, this blank line would dispatch "a" alone.
    expect(decoder.push(encoder.encode("\ndata: b\r"))).toEqual([])
    expect(decoder.push(encoder.encode("\n\r"))).toEqual([frame("a\nb")])
    expect(decoder.push(encoder.encode("\ndata: c\r\n\r\n"))).toEqual([frame("c")])
    expect(decoder.end()).toEqual([])
  })

  it("ignores comments, retry and unknown fields", () => {
    expect(frames(": keep-alive\n\nretry: 3000\n\nevent: e\n: inside\nfoo: bar\nretry: 1\ndata: x\n...\n\n")).toEqual([
      frame("x", "e")
    ])
  })

  it("does not dispatch frames without data lines, and dispatches data without an event line", () => {
    expect(frames("event: nothing\n\nevent: also-nothing\nid: 1\n\ndata: {}\n\n")).toEqual([frame("{}", undefined, "1")])
  })

  it("keeps the last event id for later frames, as the spec says", () => {
    expect(frames("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: x\u0000y\ndata: d\n\n")).toEqual([
      frame("a", undefined, "7"),
      frame("b", undefined, "7"),
      frame("c", undefined, ""),
      frame("d", undefined, "")
    ])
  })

  it("resets the event name after each frame; an empty event name is no name", () => {
    expect(frames("event: a\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n")).toEqual([
      frame("1", "a"),
      frame("2"),
      frame("3")
    ])
  })

  it("dispatches a last frame not followed by a blank line, and a last line without a line end", () => {
    expect(frames("event: a\ndata: 1\n")).toEqual([frame("1", "a")])
    expect(frames("event: a\ndata: 1")).toEqual([frame("1", "a")])
    expect(frames("event: a\n")).toEqual([])
    expect(frames("")).toEqual([])
  })

  it("decodes UTF-8 characters split between chunks, at every byte", () => {
    const text = "data: é中😀 — ok\n\n"
    const bytes = encoder.encode(text)
    expect(decodeAll(pieces(bytes, 1))).toEqual([frame("é中😀 — ok")])
    expect(frames(text)).toEqual([frame("é中😀 — ok")])
  })

  it("drops a leading byte order mark", () => {
    expect(decodeAll([new Uint8Array([0xef, 0xbb]), encoder.encode("\xbfdata: x\n\n").subarray(1)])).toEqual([frame("x")])
    expect(decodeAll([new Uint8Array([0xef, 0xbb, 0xbf]), encoder.encode("data: x\n\n")])).toEqual([frame("x")])
  })

  it("joins a long line arriving in many chunks", () => {
    const data = "x".repeat(100_000)
    expect(decodeAll(pieces(encoder.encode(`data: ${data}\n\n`), 1000))).toEqual([frame(data)])
  })

  it("stops with an error past the frame bound, keeping the frames before it", () => {
    const decoder = new Sse.Decoder({ maxFrameLength: 10 })
    // "data: 0123" is 10 characters of an unfinished line: still within the bound.
    expect(decoder.push(encoder.encode("data: 0123456789\n\ndata: 0123"))).toEqual([frame("0123456789")])
    expect(decoder.error).toBeUndefined()
    expect(decoder.push(encoder.encode("4"))).toEqual([])
    expect(decoder.error).toMatch(/longer than 10 characters/)
    expect(decoder.push(encoder.encode("\n\ndata: 1\n\n"))).toEqual([])
    expect(decoder.end()).toEqual([])
    // Many data lines count too.
    const lines = new Sse.Decoder({ maxFrameLength: 10 })
    lines.push(encoder.encode("data: 012345\ndata: 012345\n"))
    expect(lines.error).toMatch(/longer than 10/)
  })

  it("decodes a whole body at once with decode(bytes)", () => {
    expect(Sse.decode(encoder.encode("data: 1\n\ndata: 2"))).toEqual([frame("1"), frame("2")])
  })
})

describe("Sse.toEvent", () => {
  it("parses the data of a frame", () => {
    expect(Sse.toEvent(frame("{\"type\":\"message_stop\"}", "message_stop"))).toEqual(Result.succeed({ type: "message_stop" }))
  })

  it("passes unknown event types through whole", () => {
    expect(Sse.toEvent(frame("{\"type\":\"future_event\",\"foo\":[1]}"))).toEqual(
      Result.succeed({ type: "future_event", foo: [1] })
    )
  })

  it("takes the event name as the type when the data has none", () => {
    expect(Sse.toEvent(frame("{\"a\":1}", "custom"))).toEqual(Result.succeed({ a: 1, type: "custom" }))
  })

  it("fails with a ParseError (no status, no request id) on bad JSON or a non-event", () => {
    for (const bad of [frame("{\"type\":", "x"), frame(""), frame("[1]", "x"), frame("\"s\"", "x"), frame("{\"a\":1}"), frame("{\"type\":1}", "e")]) {
      const result = Sse.toEvent(bad)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) {
        expect(result.failure).toBeInstanceOf(ParseError)
        expect(result.failure.status).toBeNull()
        expect(result.failure.requestId).toBeNull()
        expect(result.failure.message).toContain(bad.data.slice(0, 5))
      }
    }
  })
})

describe("Sse.toEvent on the hot deltas (read without a full JSON.parse)", () => {
  /** toEvent must give exactly what JSON.parse gives (same keys in the same order), and fail where it fails. */
  const agrees = (data: string) => {
    const result = Sse.toEvent(frame(data))
    let expected: unknown
    try {
      expected = JSON.parse(data)
    } catch {
      expect(Result.isFailure(result), data).toBe(true)
      return
    }
    const isEvent = typeof expected === "object" && expected !== null && "type" in expected && typeof expected.type === "string"
    expect(Result.isSuccess(result), data).toBe(isEvent)
    if (Result.isSuccess(result)) {
      expect(result.success, data).toStrictEqual(expected)
      expect(JSON.stringify(result.success), data).toBe(JSON.stringify(expected))
    }
  }
  const text = (t: string, index = "0", tail = "}}") =>
    `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"${t}"${tail}`
  const json = (t: string, tail = "}}") =>
    `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"${t}"${tail}`
  const cases = [
    text("Hello"),
    text(""),
    text(" there! \\\"quoted\\\" \\n new\\tline"),
    text("\\u00e9\\ud83d\\ude00 é 日本語 🎉"),
    text("a", "0", "}         }"),
    text("a", "0", "}\n\t }  \r\n"),
    text("a", "0", " }}"),
    text("a", "10"),
    text("a", "123456789"),
    text("a", "1234567890"),
    text("a", "01"),
    text("a", "-1"),
    text("a", "1.5"),
    text("a", ""),
    text("raw \u0001 control"),
    text("raw \" quote"),
    text("trailing \\"),
    text("bad \\x escape"),
    text("a\",\"x\":\"b"),
    text("a\",\"x\":1", "}}"),
    text("a", "0", "}}}"),
    text("a", "0", "}"),
    text("a", "0", "}}x"),
    text("a", "0", ""),
    text("}}", "0", ""),
    json(""),
    json("{\\\"path\\\": \\\"src/ma"),
    json("in.ts\\\"}"),
    `{"type":"content_block_delta","delta":{"type":"text_delta","text":"a"},"index":0}`,
    `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":1}}`,
    `{"type":"content_block_delta","index":0,"delta":{"text":"a","type":"text_delta"}}`,
    `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"a"}}`,
    `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}`,
    `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`,
    `{"type":"content_block_delta","index":0,`
  ]

  it("agrees with JSON.parse on the exact shape and on every near miss", () => {
    for (const data of cases) agrees(data)
  })

  it("agrees with JSON.parse on random corruptions of a delta", () => {
    let seed = 12345
    const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const alphabet = ["\"", "\\", "}", "{", " ", "\n", "\u0001", "a", "0", "9", ",", ":", "é", "u"]
    const bases = [text("Hello, \\\"world\\\"", "3", "}   }"), json("{\\\"a\\\": [1, 2")]
    for (let round = 0; round < 3000; round++) {
      const base = bases[round % bases.length]!
      const at = Math.floor(next() * base.length)
      const mutated =
        next() < 0.5
          ? base.slice(0, at) + alphabet[Math.floor(next() * alphabet.length)] + base.slice(at + 1)
          : base.slice(0, at) + alphabet[Math.floor(next() * alphabet.length)] + base.slice(at)
      agrees(mutated)
    }
  })
})

describe("Sse streams", () => {
  const body = "event: a\ndata: {\"type\":\"a\"}\n\ndata: {\"type\":\"b\",\"x\":\"é\"}\n\n"

  it.effect("decode and events work chunk by chunk", () =>
    Effect.gen(function* () {
      const bytes = encoder.encode(body)
      const whole = yield* Stream.runCollect(Sse.decode(Stream.make(bytes)))
      const oneByte = yield* Stream.runCollect(Sse.decode(Stream.fromIterable(pieces(bytes, 1))))
      expect(whole).toEqual([frame("{\"type\":\"a\"}", "a"), frame("{\"type\":\"b\",\"x\":\"é\"}")])
      expect(oneByte).toEqual(whole)
      const events = yield* Stream.runCollect(Sse.events(Stream.fromIterable(pieces(bytes, 3))))
      expect(events).toEqual([{ type: "a" }, { type: "b", x: "é" }])
    }))

  it.effect("events emits the events before a bad frame, then fails with its ParseError", () =>
    Effect.gen(function* () {
      const seen: Array<unknown> = []
      const error = yield* Sse.events(Stream.make(encoder.encode(`${body}data: {oops}\n\ndata: {"type":"c"}\n\n`))).pipe(
        Stream.runForEach((event) => Effect.sync(() => seen.push(event))),
        Effect.flip
      )
      expect(seen).toEqual([{ type: "a" }, { type: "b", x: "é" }])
      expect(error).toBeInstanceOf(ParseError)
      expect(error.message).toMatch(/invalid JSON/)
    }))

  it.effect("an unterminated last frame is emitted when the bytes end", () =>
    Effect.gen(function* () {
      const events = yield* Stream.runCollect(Sse.events(Stream.make(encoder.encode("data: {\"type\":\"z\"}"))))
      expect(events).toEqual([{ type: "z" }])
    }))

  it.effect("passes the byte stream's own error through unchanged", () =>
    Effect.gen(function* () {
      const error = yield* Sse.events(
        Stream.concat(Stream.make(encoder.encode(body)), Stream.fail("connection reset" as const))
      ).pipe(Stream.runCollect, Effect.flip)
      expect(error).toBe("connection reset")
    }))

  it.effect("an over-long frame fails the stream with a ParseError", () =>
    Effect.gen(function* () {
      const error = yield* Sse.events(Stream.make(encoder.encode(`data: ${"x".repeat(100)}`)), { maxFrameLength: 50 }).pipe(
        Stream.runCollect,
        Effect.flip
      )
      expect(error).toBeInstanceOf(ParseError)
      expect(error).toMatchObject({ status: null, requestId: null })
      const frames: Array<Sse.Frame> = []
      const decodeError = yield* Sse.decode(Stream.make(encoder.encode(`data: ok\n\ndata: ${"x".repeat(100)}`)), {
        maxFrameLength: 50
      }).pipe(
        Stream.runForEach((f) => Effect.sync(() => frames.push(f))),
        Effect.flip
      )
      expect(frames).toEqual([frame("ok")])
      expect(decodeError).toBeInstanceOf(ParseError)
      expect(decodeError.message).toMatch(/longer than 50 characters/)
    }))
})
