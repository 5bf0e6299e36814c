/**
 * The SSE decoder against a plain reading of the WHATWG rules (`reference` below: whole text, split into lines, one
 * line at a time), over random streams cut into random chunks: line ends of every kind split between chunks (a CR
 * ending one chunk and an LF starting the next are one line end), fields with and without the space after the
 * colon, comments, ids, multi-byte characters cut between chunks, empty chunks. Then the cases the random streams
 * may miss, the frame bound, and how `events` runs over a stream of chunks.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { ParseError } from "../../src/model/ApiError.js"
import * as Sse from "../../src/model/Sse.js"

const encoder = new TextEncoder()
const frame = (data: string, event?: string, id?: string): Sse.Frame => ({ event, data, id })

/**
 * The frames of a whole stream, by the spec's steps: weft's two deliberate differences are that a frame with a
 * `data:` line is dispatched even when its data is empty, and that the last frame is dispatched at the end of the
 * stream without a blank line.
 */
const reference = (bytes: Uint8Array): Array<Sse.Frame> => {
  const text = new TextDecoder().decode(bytes) // drops a leading BOM, as the spec says
  const lines = text.split(/\r\n|\n|\r/)
  // A last line without a line end is still read; the split leaves an empty string after a final line end.
  if (lines.at(-1) === "") lines.pop()
  const out: Array<Sse.Frame> = []
  let data: Array<string> = []
  let event = ""
  let id: string | undefined = undefined
  const dispatch = () => {
    if (data.length > 0) out.push({ event: event === "" ? undefined : event, data: data.join("\n"), id })
    data = []
    event = ""
  }
  for (const line of lines) {
    if (line === "") {
      dispatch()
      continue
    }
    if (line.startsWith(":")) continue
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.startsWith(" ")) value = value.slice(1)
    if (field === "data") data.push(value)
    else if (field === "event") event = value
    else if (field === "id" && !value.includes("\u0000")) id = value
  }
  dispatch()
  return out
}

const decodeChunks = (chunks: ReadonlyArray<Uint8Array>, options?: Sse.DecoderOptions): Array<Sse.Frame> => {
  const decoder = new Sse.Decoder(options)
  const out: Array<Sse.Frame> = []
  for (const chunk of chunks) out.push(...decoder.push(chunk))
  out.push(...decoder.end())
  return out
}

/** A small deterministic generator (LCG), so a failure repeats. */
const random = (seed: number) => () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32

const tokens = [
  "data", "data:", "data: ", "data:  ", "dat", "datum: x", "event", "event:", "event: ", "event:ab", "event: abc", "event: ab",
  "id", "id:", "id: 7", "id:x\u0000y", "retry: 10", ":", ": comment", "foo:bar", "x", "ab", "abc", " ", ":x", "a:b",
  "é", "中", "😀", "\u0000", "{\"type\":\"ping\"}", "\r", "\n", "\r\n", "\r\n", "\n\n", "\r\r", "\r\n\r\n", "\n\r"
]

/** Cuts bytes at random places, sometimes adding an empty chunk. */
const cut = (bytes: Uint8Array, next: () => number): Array<Uint8Array> => {
  const chunks: Array<Uint8Array> = []
  let at = 0
  while (at < bytes.length) {
    if (next() < 0.1) chunks.push(new Uint8Array(0))
    const size = 1 + Math.floor(next() * Math.min(8, bytes.length - at))
    chunks.push(bytes.subarray(at, at + size))
    at += size
  }
  if (next() < 0.3) chunks.push(new Uint8Array(0))
  return chunks
}

describe("Sse.Decoder agrees with the spec's steps on random streams", () => {
  it("in random chunks, line ends of every kind split anywhere", () => {
    const next = random(20250101)
    for (let round = 0; round < 4000; round++) {
      const count = Math.floor(next() * 24)
      let text = next() < 0.05 ? "\ufeff" : ""
      for (let i = 0; i < count; i++) text += tokens[Math.floor(next() * tokens.length)]!
      const bytes = encoder.encode(text)
      const expected = reference(bytes)
      expect(decodeChunks([bytes]), JSON.stringify(text)).toEqual(expected)
      expect(decodeChunks(cut(bytes, next)), JSON.stringify(text)).toEqual(expected)
      expect(Sse.decode(bytes), JSON.stringify(text)).toEqual(expected)
    }
  })

  it("byte by byte, with an empty chunk after every byte", () => {
    const next = random(7)
    for (let round = 0; round < 300; round++) {
      let text = ""
      for (let i = 0; i < 16; i++) text += tokens[Math.floor(next() * tokens.length)]!
      const bytes = encoder.encode(text)
      const chunks: Array<Uint8Array> = []
      for (let i = 0; i < bytes.length; i++) chunks.push(bytes.subarray(i, i + 1), new Uint8Array(0))
      expect(decodeChunks(chunks), JSON.stringify(text)).toEqual(reference(bytes))
    }
  })
})

describe("Sse.Decoder line ends split across chunks", () => {
  it("a CR at the end of one chunk and an LF at the start of the next are one line end", () => {
    expect(decodeChunks([encoder.encode("data: a\r"), encoder.encode("\ndata: b\r\n\r"), encoder.encode("\n")])).toEqual([frame("a\nb")])
  })

  it("an empty chunk between the CR and the LF changes nothing", () => {
    const chunks = [encoder.encode("data: a\r"), new Uint8Array(0), encoder.encode("\ndata: b\n\n")]
    expect(decodeChunks(chunks)).toEqual([frame("a\nb")])
  })

  it("a CR, then a chunk that starts with something else: the CR alone was the line end", () => {
    expect(decodeChunks([encoder.encode("data: a\r"), encoder.encode("\rdata: b\n\n")])).toEqual([frame("a"), frame("b")])
    expect(decodeChunks([encoder.encode("data: a\r"), encoder.encode("data: b\r"), encoder.encode("\r")])).toEqual([frame("a\nb")])
  })

  it("a CR followed by LF inside one chunk, and a CR that ends a chunk with text before it", () => {
    expect(decodeChunks([encoder.encode("data: a\r\ndata: b\r\r\ndata: c\r"), encoder.encode("\n\n")])).toEqual([frame("a\nb"), frame("c")])
  })

  it("a line in pieces, its line end split from it", () => {
    expect(decodeChunks(["da", "ta", ": ", "long", " line", "\r", "\n", "\r", "\n"].map((s) => encoder.encode(s)))).toEqual([frame("long line")])
  })
})

describe("Sse.Decoder fields", () => {
  it("reads event: without a space after the colon, and drops only one space", () => {
    expect(decodeChunks([encoder.encode("event:tight\ndata:1\n\nevent:  two\ndata: 2\n\n")])).toEqual([frame("1", "tight"), frame("2", " two")])
  })

  it("reads each event name afresh, a longer or shorter one with the same start included", () => {
    const text = "event: ab\ndata: 1\n\nevent: abc\ndata: 2\n\nevent: ab\ndata: 3\n\nevent: xy\ndata: 4\n\nevent: xy\ndata: 5\n\n"
    expect(decodeChunks([encoder.encode(text)])).toEqual([frame("1", "ab"), frame("2", "abc"), frame("3", "ab"), frame("4", "xy"), frame("5", "xy")])
  })

  it("an event name that is the end of the text before it is still read", () => {
    // ":" ends "event:", the text before the name.
    expect(decodeChunks([encoder.encode("event::\ndata: 1\n\nevent:x\ndata: 2\n\n")])).toEqual([frame("1", ":"), frame("2", "x")])
  })

  it("an `event` line without a colon empties the name", () => {
    expect(decodeChunks([encoder.encode("event: a\nevent\ndata: x\n\n")])).toEqual([frame("x")])
  })

  it("a field name without a colon on the last line of a chunk is still that field", () => {
    expect(decodeChunks([encoder.encode("data: a\ndata"), encoder.encode("\nid"), encoder.encode("\n\n")])).toEqual([frame("a\n", undefined, "")])
  })

  it("the colon of a later line is not this line's", () => {
    expect(decodeChunks([encoder.encode("data\nid: 5\ndata: b\n\n")])).toEqual([frame("\nb", undefined, "5")])
    expect(decodeChunks([encoder.encode("event\ndata:x\n\n")])).toEqual([frame("x")])
  })

  it("a value that is one space, or starts with a space after the colon's space", () => {
    expect(decodeChunks([encoder.encode("data: \ndata:  \nfoo: \nid: \n\n")])).toEqual([frame("\n ", undefined, "")])
    expect(decodeChunks([encoder.encode("id:  9\ndata\n\n")])).toEqual([frame("", undefined, " 9")])
  })
})

describe("Sse.Decoder at the end of the stream", () => {
  it("an incomplete UTF-8 character at the end is decoded as a replacement character", () => {
    const bytes = encoder.encode("data: aé")
    expect(decodeChunks([bytes.subarray(0, bytes.length - 1)])).toEqual([frame("a\ufffd")])
  })

  it("a last line without a line end completes the frame", () => {
    expect(decodeChunks([encoder.encode("data: a\ndata: b")])).toEqual([frame("a\nb")])
    expect(decodeChunks([encoder.encode("data: a\r")])).toEqual([frame("a")])
  })
})

describe("Sse.Decoder frame bound", () => {
  it("counts the data read so far and the unfinished line together", () => {
    const at = (chunks: ReadonlyArray<string>) => {
      const decoder = new Sse.Decoder({ maxFrameLength: 12 })
      const out = chunks.flatMap((chunk) => [...decoder.push(encoder.encode(chunk))])
      return { out, error: decoder.error }
    }
    // 5 characters of data, then a 7-character unfinished line: 12, within the bound.
    expect(at(["data: 12345\n", "data: x"]).error).toBeUndefined()
    // One more character: past it.
    expect(at(["data: 12345\n", "data: xy"]).error).toMatch(/longer than 12 characters/)
    // Data of exactly the bound is fine; one more is not.
    expect(at(["data: 123456789012\n\n"])).toEqual({ out: [frame("123456789012")], error: undefined })
    expect(at(["data: 1234567890123\n\n"])).toEqual({ out: [], error: expect.stringMatching(/longer than 12/) })
  })

  it("nothing is read after the bound is passed, within the same chunk or later", () => {
    const decoder = new Sse.Decoder({ maxFrameLength: 10 })
    expect(decoder.push(encoder.encode("data: ok\n\ndata: 0123456789AB\ndata: x\n\ndata: y\n\n"))).toEqual([frame("ok")])
    expect(decoder.error).toMatch(/longer than 10/)
    expect(decoder.push(encoder.encode("data: z\n\n"))).toEqual([])
    // A line per chunk: still nothing.
    expect(decoder.push(encoder.encode("data: z\n"))).toEqual([])
    expect(decoder.push(encoder.encode("\n"))).toEqual([])
    expect(decoder.end()).toEqual([])
  })

  it("an unfinished line past the bound at the end is not dispatched", () => {
    const decoder = new Sse.Decoder({ maxFrameLength: 10 })
    expect(decoder.push(encoder.encode("data: 0123456789"))).toEqual([])
    expect(decoder.end()).toEqual([])
    expect(decoder.error).toMatch(/longer than 10/)
  })

  it("the replacement character of a cut UTF-8 character at the end counts toward the bound", () => {
    const bytes = encoder.encode("data: 1234é")
    const decoder = new Sse.Decoder({ maxFrameLength: 10 })
    expect(decoder.push(bytes.subarray(0, bytes.length - 1))).toEqual([])
    expect(decoder.error).toBeUndefined()
    expect(decoder.end()).toEqual([])
    expect(decoder.error).toMatch(/longer than 10/)
  })

  it("the default bound is 16 Mi characters", () => {
    expect(Sse.defaultMaxFrameLength).toBe(16 * 1024 * 1024)
    const decoder = new Sse.Decoder()
    decoder.push(encoder.encode(`data: ${"x".repeat(Sse.defaultMaxFrameLength - 6)}`))
    expect(decoder.error).toBeUndefined()
    decoder.push(encoder.encode("x"))
    expect(decoder.error).toMatch(/longer than 16777216 characters/)
  })
})

describe("Sse.toEvent error messages", () => {
  const messageOf = (data: string, event?: string) => {
    const result = Sse.toEvent(frame(data, event))
    return Result.isFailure(result) ? result.failure.message : "no error"
  }

  it("quote a frame's data up to 200 characters, and name the frame's event", () => {
    const exact = `{${"x".repeat(198)}}`
    expect(messageOf(exact, "ping").endsWith(exact)).toBe(true)
    expect(messageOf(exact, "ping")).toContain("ping")
    const long = `{${"y".repeat(300)}}`
    const message = messageOf(long)
    expect(message).toContain("y".repeat(199))
    expect(message).not.toContain("y".repeat(200))
    expect(message).toContain("message")
  })

  it("say why the data is not an event, naming the frame's event", () => {
    expect(messageOf("[1]", "custom_evt")).toMatch(/not an event/)
    expect(messageOf("[1]", "custom_evt")).toContain("custom_evt")
    expect(messageOf("[1]")).toContain("message")
    expect(messageOf("{oops", "ev")).toMatch(/invalid JSON/)
  })
})

describe("Sse.toEvent hot deltas", () => {
  it("read the index and the text of text and input_json deltas", () => {
    const text = '{"type":"content_block_delta","index":42,"delta":{"type":"text_delta","text":"a\\"b\\\\c\\u00e9"}}'
    expect(Sse.toEvent(frame(text))).toEqual(Result.succeed({ type: "content_block_delta", index: 42, delta: { type: "text_delta", text: 'a"b\\cé' } }))
    const json = '{"type":"content_block_delta","index":7,"delta":{"type":"input_json_delta","partial_json":"{\\"k\\": 1"}}'
    expect(Sse.toEvent(frame(json))).toEqual(
      Result.succeed({ type: "content_block_delta", index: 7, delta: { type: "input_json_delta", partial_json: '{"k": 1' } })
    )
  })

  it("an index too long to be read exactly digit by digit is JSON.parse's number", () => {
    const data = '{"type":"content_block_delta","index":12345678901234567890,"delta":{"type":"text_delta","text":"a"}}'
    const result = Sse.toEvent(frame(data))
    expect(Result.isSuccess(result) && result.success).toStrictEqual(JSON.parse(data))
  })

  it("another delta whose string starts where partial_json's would is not read as an input_json delta", () => {
    // `,"delta":{"type":"thinking_delta","thinking":"ABCD\"` puts an escaped quote where partial_json's opening quote is.
    const data = '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"ABCD\\"hello"}}'
    expect(Sse.toEvent(frame(data))).toEqual(Result.succeed(JSON.parse(data)))
    expect(Sse.toEvent(frame(data))).toEqual(
      Result.succeed({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: 'ABCD"hello' } })
    )
  })

  it("another event type of the same length is not read as a delta", () => {
    const data = '{"type":"content_block_delte","index":0,"delta":{"type":"text_delta","text":"a"}}'
    expect(Sse.toEvent(frame(data))).toEqual(Result.succeed(JSON.parse(data)))
    const other = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delte","text":"a"}}'
    expect(Sse.toEvent(frame(other))).toEqual(Result.succeed(JSON.parse(other)))
  })
})

describe("Sse.events over a stream of chunks", () => {
  const body = 'event: a\ndata: {"type":"a"}\n\ndata: {"type":"b"}\n\n'
  const bad = 'data: {oops}\n\ndata: {"type":"c"}\n\n'

  it.effect("one byte per chunk and many bytes per chunk give the same events", () =>
    Effect.gen(function* () {
      const bytes = encoder.encode(body)
      const single = Stream.fromIterable(Array.from(bytes, (byte) => new Uint8Array([byte]))).pipe(Stream.rechunk(1))
      const many = Stream.fromIterable([bytes.subarray(0, 5), bytes.subarray(5, 20), bytes.subarray(20)])
      const expected = [{ type: "a" }, { type: "b" }]
      expect(yield* Stream.runCollect(Sse.events(single))).toEqual(expected)
      expect(yield* Stream.runCollect(Sse.events(many))).toEqual(expected)
      expect(yield* Stream.runCollect(Sse.decode(many))).toEqual([frame('{"type":"a"}', "a"), frame('{"type":"b"}')])
    }))

  it.effect("a bad frame fails at once: the byte stream's later error is not reached", () =>
    Effect.gen(function* () {
      const then = <A>(stream: Stream.Stream<A>) => Stream.concat(stream, Stream.fail("connection reset" as const))
      // The bad frame in a chunk of several byte arrays, and in a chunk of one.
      const inMany = Stream.fromIterable([encoder.encode(body), encoder.encode(bad), encoder.encode(body)])
      const inOne = Stream.make(encoder.encode(body + bad))
      for (const bytes of [inMany, inOne]) {
        const seen: Array<unknown> = []
        const error = yield* Sse.events(then(bytes)).pipe(
          Stream.runForEach((event) => Effect.sync(() => seen.push(event))),
          Effect.flip
        )
        expect(error).toBeInstanceOf(ParseError)
        expect(seen).toEqual([{ type: "a" }, { type: "b" }])
      }
    }))

  it.effect("an over-long frame in a chunk of several byte arrays fails after the frames before it", () =>
    Effect.gen(function* () {
      const bytes = Stream.fromIterable([encoder.encode("data: ok\n\n"), encoder.encode(`data: ${"x".repeat(40)}\n\n`), encoder.encode("data: no\n\n")])
      const seen: Array<Sse.Frame> = []
      const error = yield* Sse.decode(Stream.concat(bytes, Stream.fail("later" as const)), { maxFrameLength: 20 }).pipe(
        Stream.runForEach((f) => Effect.sync(() => seen.push(f))),
        Effect.flip
      )
      expect(seen).toEqual([frame("ok")])
      expect(error).toBeInstanceOf(ParseError)
    }))

  it.effect("a bad last frame without a blank line fails at the end", () =>
    Effect.gen(function* () {
      const error = yield* Sse.events(Stream.make(encoder.encode(`${body}data: {oops}`))).pipe(Stream.runCollect, Effect.flip)
      expect(error).toBeInstanceOf(ParseError)
      expect(error.message).toMatch(/invalid JSON/)
    }))
})
