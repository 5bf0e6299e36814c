import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { decodeEntry } from "../../src/domain/Transcript.js"
import { decodeLine, entries, type Item, type Line, lines, makeSplitter, type Report } from "../../src/session/JsonlReader.js"
import { conversation } from "./entries.js"

const bytes = (text: string) => new TextEncoder().encode(text)

/** `text`'s bytes cut into chunks of `size`. */
const chunked = (text: string, size: number): Stream.Stream<Uint8Array> => {
  const all = bytes(text)
  const chunks: Array<Uint8Array> = []
  for (let start = 0; start < all.length; start += size) chunks.push(all.slice(start, start + size))
  return Stream.fromIterable(chunks)
}

const collect = <A, E>(stream: Stream.Stream<A, E>) => Stream.runCollect(stream)

describe("JsonlReader.lines", () => {
  it.effect("splits lines across chunks of any size, a multi-byte character cut in two included", () =>
    Effect.gen(function* () {
      const text = "first\nsecond é ü 漢字\n\nlast without newline"
      // Offsets in bytes: "second é ü 漢字" is 19 bytes.
      const expected: ReadonlyArray<Line> = [
        { text: "first", terminated: true, offset: 0 },
        { text: "second é ü 漢字", terminated: true, offset: 6 },
        { text: "", terminated: true, offset: 26 },
        { text: "last without newline", terminated: false, offset: 27 }
      ]
      for (const size of [1, 2, 3, 7, 1000]) expect(yield* collect(lines(chunked(text, size)))).toEqual(expected)
      expect(yield* collect(lines(chunked("a\nb\n", 1)))).toEqual([
        { text: "a", terminated: true, offset: 0 },
        { text: "b", terminated: true, offset: 2 }
      ])
      expect(yield* collect(lines(Stream.empty))).toEqual([])
    })
  )
})

describe("JsonlReader.makeSplitter", () => {
  it("copies what it keeps of a chunk: the reader reuses one buffer for every read", () => {
    // Reading from byte 100 of a file.
    const splitter = makeSplitter(100)
    const buffer = new Uint8Array(8)
    buffer.set(bytes("ab\ncdef"))
    expect(splitter.push(buffer.subarray(0, 7))).toEqual([{ text: "ab", terminated: true, offset: 100 }])
    // The next read overwrites the buffer: the unfinished "cdef" must not change with it.
    buffer.set(bytes("gh\nXXXX"))
    expect(splitter.push(buffer.subarray(0, 3))).toEqual([{ text: "cdefgh", terminated: true, offset: 103 }])
    expect(splitter.end()).toBeUndefined()
    buffer.set(bytes("tail"))
    splitter.push(buffer.subarray(0, 4))
    buffer.set(bytes("ZZZZ"))
    expect(splitter.end()).toEqual({ text: "tail", terminated: false, offset: 110 })
  })
})

describe("JsonlReader: a line too long to hold", () => {
  it.effect("is let go as it is read and answered as one unreadable line (torn at the end); the lines around it are kept", () =>
    Effect.gen(function* () {
      const text = "short\n0123456789abcdef\nok\nexactly8\n0123456789"
      for (const size of [1, 3, 7, 1000]) {
        const splitter = makeSplitter(0, undefined, 8)
        const out: Array<Line> = []
        for (const chunk of yield* collect(chunked(text, size))) out.push(...splitter.push(chunk))
        const tail = splitter.end()
        expect([...out, ...(tail === undefined ? [] : [tail])]).toEqual([
          { text: "short", terminated: true, offset: 0 },
          { text: "", terminated: true, offset: 6, tooLong: true },
          { text: "ok", terminated: true, offset: 23 },
          { text: "exactly8", terminated: true, offset: 26 },
          { text: "", terminated: false, offset: 35, tooLong: true }
        ])
      }
      const decode = decodeLine(decodeEntry)
      expect(decode({ text: "", terminated: true, offset: 0, tooLong: true })).toEqual({ _tag: "Skipped" })
      expect(decode({ text: "", terminated: false, offset: 0, tooLong: true })).toEqual({ _tag: "Torn" })
    })
  )
})

describe("JsonlReader.decodeLine", () => {
  const decode = decodeLine(decodeEntry)
  const [entry] = conversation("s", "/w", "p")
  const json = JSON.stringify(entry)

  it("tells entries, blank lines, corrupt lines, a torn tail and other writers' metadata apart", () => {
    expect(decode({ text: json, terminated: true, offset: 0 })).toEqual({ _tag: "Entry", entry })
    // A hand-written file without a final newline: its last line is a whole entry.
    expect(decode({ text: json, terminated: false, offset: 0 })).toEqual({ _tag: "Entry", entry })
    expect(decode({ text: "  \r", terminated: true, offset: 0 })._tag).toBe("Blank")
    expect(decode({ text: "{not json", terminated: true, offset: 0 })._tag).toBe("Skipped")
    expect(decode({ text: `{"type":"user","uuid":"bad"}`, terminated: true, offset: 0 })._tag).toBe("Skipped")
    expect(decode({ text: json.slice(0, 30), terminated: false, offset: 0 })._tag).toBe("Torn")
    // Claude Code's lines that are no link of the conversation (no uuid): left out quietly.
    expect(decode({ text: `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`, terminated: true, offset: 0 })._tag).toBe("Ignored")
    expect(decode({ text: `{"type":"summary","summary":"Fixing the bug","leafUuid":"u-9"}`, terminated: true, offset: 0 })._tag).toBe("Ignored")
  })

  it("keeps an entry of an unknown type, and unknown fields of a known one, whole", () => {
    const unknown = { uuid: "x", parentUuid: null, timestamp: "t", sessionId: "s", cwd: "/w", type: "queue-operation", operation: "enqueue" }
    expect(decode({ text: JSON.stringify(unknown), terminated: true, offset: 0 })).toEqual({ _tag: "Entry", entry: unknown })
    const newer = { ...entry, gitBranch: "main", futureField: { nested: [1, 2] } }
    expect(decode({ text: JSON.stringify(newer), terminated: true, offset: 0 })).toEqual({ _tag: "Entry", entry: newer })
  })
})

describe("JsonlReader.entries", () => {
  it.effect("passes the entries on and reports what was left out once the stream ends", () =>
    Effect.gen(function* () {
      const [a, b] = conversation("s", "/w", "p")
      if (a === undefined || b === undefined) throw new Error("fixture")
      const items: Array<Item> = [
        { _tag: "Entry", entry: a },
        { _tag: "Skipped" },
        { _tag: "Blank" },
        { _tag: "Ignored" },
        { _tag: "Skipped" },
        { _tag: "Entry", entry: b },
        { _tag: "Torn" }
      ]
      const reports: Array<Report> = []
      const out = yield* collect(entries(Stream.fromIterable(items), (report) => Effect.sync(() => void reports.push({ ...report }))))
      expect(out).toEqual([a, b])
      expect(reports).toEqual([{ skippedLines: 2, tornTail: true }])
    })
  )
})
