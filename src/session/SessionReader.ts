/**
 * Reading a session's file back: its entries streamed (`read`), loaded (`load`), or folded into what resuming it
 * needs (`resume`). JsonlReader.ts turns bytes into lines and entries; this module reads the files.
 *
 * Reading never holds a file: it is read through one buffer and split into lines (JsonlReader), each decoded on
 * its own; `resume` folds the entries as they come and keeps only the conversation since the last compact
 * boundary (SessionState.makeFold), so its memory follows the conversation, not the file. Resuming a 40 MB
 * transcript: `node scratchpad/bench/resume.mjs`.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { decodeLine, emptyReport, entries as entriesOf, type Item, type Line, lines, parseJson, record, type Report, type Select, view } from "./JsonlReader.js"
import { inBytes, mayCountBytes } from "./LineMarkers.js"
import { ioError, readWarnings, type SessionError, type SessionStoreError, warningsOf } from "./SessionErrors.js"
import type { SessionFiles } from "./SessionFiles.js"
import { isCompactBoundary, makeFold, makeTotalsFold, type SessionState, type TotalsFold } from "./SessionState.js"
import type { LoadResult, Resumed } from "./SessionStore.js"

/**
 * Transcript.ts, whose entry schemas reading a file needs: imported on the first read, so that a run which only
 * writes its transcript (every `weft -p`) never builds them (about 4 ms of a start).
 */
export const transcripts = Effect.promise(() => import("../domain/Transcript.js"))

export interface SessionReader {
  /** The lines of `file` from byte `from`, those `select` passes over left unread (see `makeSplitter`). */
  readonly fileLines: (file: string, chunkSize?: number, from?: number, select?: Select) => Stream.Stream<Line, SessionStoreError>
  /** The lines of `file` decoded (from byte `from`). */
  readonly itemsOf: (file: string, chunkSize?: number, from?: number) => Stream.Stream<Item, SessionStoreError>
  readonly read: (sessionId: string) => Stream.Stream<TranscriptEntry, SessionError>
  readonly resume: (sessionId: string) => Effect.Effect<Resumed, SessionError>
  readonly load: (sessionId: string) => Effect.Effect<ReadonlyArray<TranscriptEntry>, SessionError>
  readonly loadDetailed: (sessionId: string) => Effect.Effect<LoadResult, SessionError>
}

export const makeSessionReader = (fs: FileSystem.FileSystem, files: SessionFiles): SessionReader => {
  const { fileOf } = files

  // Read through one buffer of 256 KiB, reused: the file's bytes never pile up as garbage outside the heap
  // (a buffer per chunk is freed only when the garbage collector gets round to it). What is held is that buffer
  // and the line being joined.
  const fileLines = (
    file: string,
    chunkSize = 256 * 1024,
    from = 0,
    select?: Select
  ): Stream.Stream<Line, SessionStoreError> =>
    Stream.unwrap(
      Effect.gen(function* () {
        const handle = yield* fs.open(file, { flag: "r" })
        if (from > 0) yield* handle.seek(BigInt(from), "start")
        const buffer = new Uint8Array(chunkSize)
        // A read of no bytes is the end of the file: `Cause.done` ends the stream.
        const chunks = Stream.fromEffectRepeat(
          Effect.flatMap(handle.read(buffer), (size) => (size === 0 ? Cause.done() : Effect.succeed(buffer.subarray(0, size))))
        )
        return lines(chunks, { startOffset: from, select })
      })
    ).pipe(Stream.mapError(ioError("read", file)))

  const itemsOf = (file: string, chunkSize?: number, from?: number): Stream.Stream<Item, SessionStoreError> =>
    Stream.unwrap(
      Effect.map(transcripts, ({ decodeEntry }) => Stream.map(fileLines(file, chunkSize, from), decodeLine(decodeEntry)))
    )

  /** Runs `onEntry` on every entry of the file (from byte `from`), in order; what had to be left out. */
  const foldFile = (
    file: string,
    onEntry: (entry: TranscriptEntry) => void,
    from = 0
  ): Effect.Effect<Report, SessionStoreError> =>
    Effect.suspend(() => {
      const report = emptyReport()
      return Stream.runForEachArray(itemsOf(file, undefined, from), (chunk) =>
        Effect.sync(() => {
          for (const item of chunk) {
            const entry = record(report, item)
            if (entry !== undefined) onEntry(entry)
          }
        })
      ).pipe(Effect.as(report))
    })

  const logReport = (sessionId: string, file: string, report: Report) =>
    Effect.forEach(readWarnings(sessionId, file, report), (warning) => Effect.logWarning(warning), { discard: true })

  const read = (sessionId: string): Stream.Stream<TranscriptEntry, SessionError> =>
    Stream.unwrap(
      Effect.map(fileOf(sessionId), (file) => entriesOf(itemsOf(file), (report) => logReport(sessionId, file, report)))
    )

  /** Runs `onEntry` on the entries of the lines `select` lets through (see `makeSplitter`), up to byte `to`. */
  const selectedEntries = (file: string, select: Select, onEntry: (entry: TranscriptEntry, line: Line) => void, to?: number) =>
    Effect.gen(function* () {
      const { decodeEntry } = yield* transcripts
      const lines = fileLines(file, undefined, 0, select)
      yield* Stream.runForEachArray(to === undefined ? lines : Stream.takeWhile(lines, (line) => line.offset < to), (chunk) =>
        Effect.sync(() => {
          for (const line of chunk) {
            if (line.unread === true) continue
            const json = parseJson(line.text)
            const decoded = json === undefined ? undefined : decodeEntry(json)
            if (decoded !== undefined && Result.isSuccess(decoded)) onEntry(decoded.success, line)
          }
        })
      )
    })

  /** Where the file's last compact boundary starts, or 0: the lines are searched as bytes, boundaries alone decoded. */
  const lastBoundary = (file: string) =>
    Effect.gen(function* () {
      let boundary = 0
      yield* selectedEntries(
        file,
        (bytes) => inBytes.compact_boundary(view(bytes)),
        (entry, line) => {
          if (isCompactBoundary(entry)) boundary = line.offset
        }
      )
      return boundary
    })

  /** The conversation of the file from byte `from`, folded (its totals added to `totals`). */
  const foldFrom = (file: string, from: number, totals?: TotalsFold) =>
    Effect.gen(function* () {
      const fold = makeFold(totals)
      const report = yield* foldFile(file, fold.add, from)
      return { state: fold.result(), report }
    })

  // A file with a compact boundary is read in two parts: before its last boundary only what the totals count
  // (prompts and responses; the bulky tool results are never decoded), then the conversation folded from the
  // boundary. If nothing usable follows the boundary (a compaction cut short), the whole file is folded, as the
  // fold then keeps the conversation before it. Damaged lines before the boundary that are not decoded are not
  // noticed (they are no part of the conversation resumed).
  const resume = Effect.fn("SessionStore.resume")(function* (sessionId: string) {
    const file = yield* fileOf(sessionId)
    const boundary = yield* lastBoundary(file)
    let folded: { readonly state: SessionState; readonly report: Report } | undefined
    if (boundary > 0) {
      const totals = makeTotalsFold()
      yield* selectedEntries(file, mayCountBytes, totals.add, boundary)
      const fromBoundary = yield* foldFrom(file, boundary, totals)
      if (fromBoundary.state.messages.length > 0 && !fromBoundary.state.brokenChain) folded = fromBoundary
    }
    folded ??= yield* foldFrom(file, 0)
    const resumed: Resumed = { ...folded.state, warnings: warningsOf(sessionId, file, folded.report, folded.state) }
    return resumed
  })

  const loadDetailed = Effect.fn("SessionStore.loadDetailed")(function* (sessionId: string) {
    const file = yield* fileOf(sessionId)
    const entries: Array<TranscriptEntry> = []
    const report = yield* foldFile(file, (entry) => void entries.push(entry))
    yield* logReport(sessionId, file, report)
    const result: LoadResult = { entries, skippedLines: report.skippedLines, tornTail: report.tornTail }
    return result
  })

  const load = Effect.fn("SessionStore.load")(function* (sessionId: string) {
    return (yield* loadDetailed(sessionId)).entries
  })

  return { fileLines, itemsOf, read, resume, load, loadDetailed }
}
