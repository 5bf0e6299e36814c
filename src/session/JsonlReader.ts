/**
 * Reading a JSONL transcript as a stream: byte chunks split into lines (a line spanning chunks is joined once,
 * when its newline arrives), each line decoded into an entry or counted as left out. No file system here: the
 * bytes come from whoever streams the file, so a whole file is never held, only the line being read.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { Buffer } from "node:buffer"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { isRecord } from "../domain/Json.js"

/** One line of the file, without its newline; `terminated` false for a last line the file does not end. */
export interface Line {
  readonly text: string
  readonly terminated: boolean
  /** Where the line starts in the file, in bytes. */
  readonly offset: number
  /** True for a line the splitter's `select` passed over: its `text` is "" (it was never decoded). */
  readonly unread?: true
  /** Longer than the splitter holds (see `maxLineBytes`): its bytes were let go, `text` is "". */
  readonly tooLong?: true
}

/**
 * The longest line kept, in bytes (128 MiB, far above any entry weft writes). A longer one (a file that is not
 * JSONL, say gigabytes without a newline) is let go as it is read and counted as unreadable, instead of being
 * gathered whole (the process would run out of memory, or past the longest string V8 can make).
 */
export const maxLineBytes = 128 * 1024 * 1024

const NEWLINE = 0x0a

const concat = (pieces: ReadonlyArray<Uint8Array>): Uint8Array => {
  if (pieces.length === 1 && pieces[0] !== undefined) return pieces[0]
  let length = 0
  for (const piece of pieces) length += piece.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const piece of pieces) {
    out.set(piece, offset)
    offset += piece.length
  }
  return out
}

/** Cuts bytes into lines, across chunks. */
export interface Splitter {
  /** The lines `bytes` completes. What is kept of `bytes` is copied: the caller may reuse its buffer. */
  readonly push: (bytes: Uint8Array) => Array<Line>
  /** The unterminated last line, if the bytes did not end with a newline. */
  readonly end: () => Line | undefined
}

/** A test on a line's bytes (valid during the call only: the buffer is reused). */
export type Select = (bytes: Uint8Array) => boolean

/**
 * What is held between chunks is the unfinished line only, as bytes (decoded once it is whole, so a multi-byte
 * character cut by a chunk boundary decodes correctly). With `select`, a complete line it refuses is not decoded
 * (no string is made of it: decoding every line of a big file is most of what reading it costs, in time and in
 * garbage): it comes out `unread`.
 */
export const makeSplitter = (startOffset = 0, select?: Select, maxBytes: number = maxLineBytes): Splitter => {
  const decoder = new TextDecoder()
  let pending: Array<Uint8Array> = []
  let pendingBytes = 0
  // The current line passed `maxBytes`: its bytes are dropped until its newline.
  let overflow = false
  // The file offset of the first byte of the next chunk, and of the line being joined.
  let chunkOffset = startOffset
  let lineOffset = startOffset
  const push = (bytes: Uint8Array): Array<Line> => {
    const out: Array<Line> = []
    let start = 0
    let newline = bytes.indexOf(NEWLINE)
    while (newline !== -1) {
      const piece = bytes.subarray(start, newline)
      if (overflow || pendingBytes + piece.length > maxBytes) {
        out.push({ text: "", terminated: true, offset: lineOffset, tooLong: true })
      } else {
        const whole = pending.length === 0 ? piece : concat([...pending, piece])
        out.push(
          select === undefined || select(whole)
            ? { text: decoder.decode(whole), terminated: true, offset: lineOffset }
            : { text: "", terminated: true, offset: lineOffset, unread: true }
        )
      }
      pending = []
      pendingBytes = 0
      overflow = false
      start = newline + 1
      lineOffset = chunkOffset + start
      newline = bytes.indexOf(NEWLINE, start)
    }
    if (start < bytes.length && !overflow) {
      pendingBytes += bytes.length - start
      if (pendingBytes > maxBytes) {
        pending = []
        pendingBytes = 0
        overflow = true
      } else {
        pending.push(bytes.slice(start))
      }
    }
    chunkOffset += bytes.length
    return out
  }
  const end = (): Line | undefined => {
    if (overflow) {
      overflow = false
      return { text: "", terminated: false, offset: lineOffset, tooLong: true }
    }
    if (pending.length === 0) return undefined
    const text = decoder.decode(concat(pending))
    pending = []
    pendingBytes = 0
    return { text, terminated: false, offset: lineOffset }
  }
  return { push, end }
}

/**
 * The lines of a byte stream (`startOffset`: where its first byte is in the file; `select`: see `makeSplitter`).
 * Each chunk is split as it arrives, before the next is pulled, so its buffer may be reused for the next read.
 */
export const lines = <E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  options: { readonly startOffset?: number; readonly select?: Select | undefined } = {}
): Stream.Stream<Line, E, R> =>
  Stream.suspend(() => {
    const splitter = makeSplitter(options.startOffset, options.select)
    const tail = Stream.suspend(() => Stream.fromIterable(Option.toArray(Option.fromNullishOr(splitter.end()))))
    return Stream.concat(Stream.flattenIterable(Stream.map(bytes, splitter.push)), tail)
  })

/** A line's bytes as a Buffer (a view, not a copy), to search them natively without decoding them. */
export const view = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Whether `bytes` hold `pattern` (an ASCII string). */
export const contains = (pattern: string): ((bytes: Buffer) => boolean) => {
  const needle = Buffer.from(pattern, "latin1")
  return (bytes) => bytes.indexOf(needle) !== -1
}

/** What a line turned out to be. */
export type Item =
  | { readonly _tag: "Entry"; readonly entry: TranscriptEntry }
  /** A complete line that is not an entry: corrupt JSON, or a known type with missing fields. */
  | { readonly _tag: "Skipped" }
  /** An unterminated last line that is not an entry: a write cut short by a crash. */
  | { readonly _tag: "Torn" }
  /**
   * A JSON object of another writer that is no link of the conversation (Claude Code's `file-history-snapshot`
   * and title lines carry no `uuid`): left out without a warning.
   */
  | { readonly _tag: "Ignored" }
  | { readonly _tag: "Blank" }

/** Decodes a parsed line; why a value is no entry is never looked at, so any failure type will do. */
export type Decode = (input: unknown) => Result.Result<TranscriptEntry, unknown>

const SKIPPED: Item = { _tag: "Skipped" }
const TORN: Item = { _tag: "Torn" }
const IGNORED: Item = { _tag: "Ignored" }
const BLANK: Item = { _tag: "Blank" }

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Decodes one line (see `Item`). */
export const decodeLine =
  (decode: Decode) =>
  (line: Line): Item => {
    if (line.tooLong === true) return line.terminated ? SKIPPED : TORN
    if (line.unread === true || !/\S/.test(line.text)) return BLANK
    const json = parseJson(line.text)
    const decoded = json === undefined ? undefined : decode(json)
    if (decoded !== undefined && Result.isSuccess(decoded)) return { _tag: "Entry", entry: decoded.success }
    if (!line.terminated) return TORN
    if (isRecord(json) && typeof json["type"] === "string" && !("uuid" in json)) return IGNORED
    return SKIPPED
  }

/** What reading a file had to leave out. */
export interface Report {
  skippedLines: number
  tornTail: boolean
}

export const emptyReport = (): Report => ({ skippedLines: 0, tornTail: false })

/** Counts an item into `report`; the entry it holds, if any. */
export const record = (report: Report, item: Item): TranscriptEntry | undefined => {
  switch (item._tag) {
    case "Entry":
      return item.entry
    case "Skipped":
      report.skippedLines++
      return undefined
    case "Torn":
      report.tornTail = true
      return undefined
    default:
      return undefined
  }
}

/** The entries of `items`; `onEnd` is told what was left out once the stream has been read to its end. */
export const entries = <E, R, E2, R2>(
  items: Stream.Stream<Item, E, R>,
  onEnd: (report: Report) => Effect.Effect<void, E2, R2>
): Stream.Stream<TranscriptEntry, E | E2, R | R2> =>
  Stream.suspend(() => {
    const report = emptyReport()
    return Stream.concat(
      Stream.filterMap(items, (item) => {
        const entry = record(report, item)
        return entry === undefined ? Result.failVoid : Result.succeed(entry)
      }),
      Stream.fromEffectDrain(Effect.suspend(() => onEnd(report)))
    )
  })
