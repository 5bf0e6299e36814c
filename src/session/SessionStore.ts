/**
 * Append-only session transcripts. The default layer keeps Claude Code's layout: one JSONL file per session
 * under `$WEFT_HOME/projects/<cwd-slug>/<session-id>.jsonl` (default `~/.weft`), one line per entry.
 *
 * Durability: each entry is one whole line handed to the kernel by one write on a file opened with O_APPEND
 * and kept open for the session. Once that write returns, the line is in the page cache, which outlives the
 * process: a kill -9 at any moment loses no completed entry, and at worst leaves a torn last line, which load
 * skips. fsync would also survive a power loss or kernel crash, but costs a few milliseconds per entry (much
 * more on some disks) and Claude Code does not do it either, so it is off by default: `fsync: true` turns it on.
 *
 * Writing is synchronous (node:fs, not FileSystem): a session writes a handful of lines of a few KB each to the
 * page cache, microseconds each, while each asynchronous open, mkdir, stat and write is a round trip through
 * libuv's thread pool and a suspended fiber. Measured on the 2-turn session bench: the asynchronous path cost
 * about 8 M instructions (callgrind, main thread) for 4 entries. Only `fsync`, which waits for the disk, stays
 * asynchronous.
 *
 * Reading never holds a file: it is read through one buffer and split into lines (JsonlReader), each decoded on
 * its own; `resume` folds the entries as they come and keeps only the conversation since the last compact
 * boundary (SessionState.makeFold), so its memory follows the conversation, not the file. Resuming a 40 MB
 * transcript: `node scratchpad/bench/resume.mjs`.
 */
import * as Context from "effect/Context"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { randomUUID } from "node:crypto"
import * as NodeFs from "node:fs"
import type { ParsedTranscript, TranscriptEntry } from "../domain/Transcript.js"
import { isAssistant, promptText } from "../domain/TranscriptGuards.js"
import type { Decode } from "./JsonlReader.js"
import { probe } from "../platform/FileProbe.js"
import * as Variables from "../platform/Variables.js"
import { Credentials } from "../platform/Credentials.js"
import { contains, view, decodeLine, emptyReport, entries as entriesOf, type Item, type Line, lines, parseJson, record, type Report, type Select } from "./JsonlReader.js"
import { fromEntries, isCompactBoundary, makeFold, makeTotalsFold, type SessionState, startsExchange, summaryCostOf, type TotalsFold } from "./SessionState.js"

// ---------------------------------------------------------------------------------------------------------
// Errors

/** No transcript with that session id exists (or the id is not a valid one). */
export class SessionNotFound extends Data.TaggedError("SessionNotFound")<{ readonly sessionId: string; readonly message: string }> {}

/** Reading or writing the store failed (permissions, disk full, ...). */
export class SessionStoreError extends Data.TaggedError("SessionStoreError")<{ readonly message: string; readonly path?: string }> {}

export type SessionError = SessionNotFound | SessionStoreError

// ---------------------------------------------------------------------------------------------------------
// Contract

export interface SessionInfo {
  readonly sessionId: string
  /** The working directory the session started in (its first entry's `cwd`). */
  readonly cwd: string
  /** The first typed prompt, on one line and cut to `firstPromptLength` characters; "" when there is none. */
  readonly firstPrompt: string
  readonly lastModified: Date
  /**
   * Entries in the session. The JSONL layer counts lines without parsing the bulky ones (tool results), so a
   * damaged tool result line in the middle of a file is counted too.
   */
  readonly entryCount: number
  /** Model responses recorded (each API response once). */
  readonly turns: number
  /** The recorded cost of those responses, in US dollars. */
  readonly costUSD: number
}

/**
 * A session read back to go on with it: the conversation from its last compact boundary, where to continue the
 * chain, its totals, and what reading it had to leave out (a torn last line, skipped lines, a broken chain), one
 * sentence each, naming the file.
 */
export interface Resumed extends SessionState {
  readonly warnings: ReadonlyArray<string>
}

/** A loaded transcript, with what had to be left out. */
export type LoadResult = ParsedTranscript

export interface Interface {
  /** Appends one entry to the session named by `entry.sessionId`, creating it (under `entry.cwd`) if new. */
  readonly append: (entry: TranscriptEntry) => Effect.Effect<void, SessionStoreError>
  /** The session's entries in the order they were appended, streamed; unreadable lines are skipped (and logged). */
  readonly read: (sessionId: string) => Stream.Stream<TranscriptEntry, SessionError>
  /** What resuming the session needs (see `Resumed`), folded from `read`. */
  readonly resume: (sessionId: string) => Effect.Effect<Resumed, SessionError>
  /** The session's entries in the order they were appended. */
  readonly load: (sessionId: string) => Effect.Effect<ReadonlyArray<TranscriptEntry>, SessionError>
  /** `load`, also telling how many lines were skipped. */
  readonly loadDetailed: (sessionId: string) => Effect.Effect<LoadResult, SessionError>
  /** Sessions (all, or those started in `cwd`) newest first; sessions without entries are left out. */
  readonly list: (cwd?: string) => Effect.Effect<ReadonlyArray<SessionInfo>, SessionStoreError>
  /** The most recently modified session started in `cwd` (what `--continue` resumes). */
  readonly latest: (cwd: string) => Effect.Effect<Option.Option<string>, SessionStoreError>
  /**
   * Copies a session under a new id (each entry's `sessionId` rewritten) and returns that id: `newId` if given
   * (it must be a valid id no session has yet), else a fresh uuid.
   */
  readonly fork: (sessionId: string, newId?: string) => Effect.Effect<string, SessionError>
}

export interface JsonlOptions {
  /** The store's root; default `$WEFT_HOME`, else `~/.weft`. */
  readonly home?: string
  /** fsync after every entry (survives power loss; costs milliseconds per entry). Default false. */
  readonly fsync?: boolean
  /** How many session files stay open at once; the least recently written is closed first. Default 16. */
  readonly maxOpenFiles?: number
}

// ---------------------------------------------------------------------------------------------------------
// Pure helpers

/** Claude Code's project folder name: the absolute cwd with every non-alphanumeric character replaced by `-`. */
export const cwdSlug = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, "-")

export const newSessionId = (): string => randomUUID()

export const firstPromptLength = 100

// A session id becomes a file name: refuse anything that could leave the project folder.
const validSessionId = (sessionId: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(sessionId)

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > firstPromptLength ? flat.slice(0, firstPromptLength - 1) + "…" : flat
}

const summarize = (
  sessionId: string,
  entries: ReadonlyArray<TranscriptEntry>,
  lastModified: Date
): SessionInfo | undefined => {
  const first = entries[0]
  if (first === undefined) return undefined
  let firstPrompt = ""
  for (const entry of entries) {
    const prompt = promptText(entry)
    if (prompt !== undefined) {
      firstPrompt = oneLine(prompt)
      break
    }
  }
  const state = fromEntries(entries)
  return {
    sessionId,
    cwd: first.cwd,
    firstPrompt,
    lastModified,
    entryCount: entries.length,
    turns: state.turns,
    costUSD: state.totalCostUSD
  }
}

/** What reading `where` left out, one sentence each. */
const readWarnings = (sessionId: string, where: string, report: Report): Array<string> => {
  const warnings: Array<string> = []
  if (report.tornTail) {
    warnings.push(`Session ${sessionId}: the last line of ${where} was cut short (an interrupted write) and was skipped.`)
  }
  if (report.skippedLines > 0) {
    warnings.push(`Session ${sessionId}: skipped ${report.skippedLines} unreadable line(s) in ${where}.`)
  }
  return warnings
}

const warningsOf = (sessionId: string, where: string, report: Report, state: SessionState): Array<string> => {
  const warnings = readWarnings(sessionId, where, report)
  if (state.brokenChain) {
    warnings.push(`Session ${sessionId}: the conversation in ${where} names an entry that is missing; it resumes after the gap.`)
  }
  return warnings
}

/** A fork's id: `newId` when given (valid, and not a session yet), else a fresh uuid. */
const forkIdFor = (newId: string | undefined, exists: (id: string) => Effect.Effect<boolean, SessionStoreError>) =>
  Effect.gen(function* () {
    if (newId === undefined) return newSessionId()
    if (!validSessionId(newId)) {
      return yield* new SessionStoreError({ message: `Invalid session id: ${JSON.stringify(newId)}` })
    }
    if (yield* exists(newId)) return yield* new SessionStoreError({ message: `Session ${newId} already exists` })
    return newId
  })

/** What `list` gathers from a file's lines. */
interface Summary {
  cwd: string | undefined
  firstPrompt: string | undefined
  entryCount: number
  turns: number
  /** Response ids of the current exchange (see SessionState.makeFold). */
  readonly responses: Set<string>
  costUSD: number
}

const newSummary = (): Summary => ({
  cwd: undefined,
  firstPrompt: undefined,
  entryCount: 0,
  turns: 0,
  responses: new Set(),
  costUSD: 0
})

/** The JSON strings `mayCount` looks for, each made into what a search of a line's text or bytes needs. */
const byMarker = <A>(make: (quoted: string) => A) => ({
  assistant: make('"assistant"'),
  compact_boundary: make('"compact_boundary"'),
  user: make('"user"'),
  tool_result: make('"tool_result"')
})
type Marker = keyof ReturnType<typeof byMarker>
const inText = byMarker((quoted) => quoted)
// Searched natively in the line's bytes, without decoding it.
const inBytes = byMarker(contains)

/**
 * Whether a line may be an entry the totals count or a prompt (what starts an exchange): an assistant response, a
 * compact boundary (it records its summary request's cost), or a user entry that is no tool result, told by `has`
 * (whether the line holds a marker). The test is on the JSON: a string value `"user"`, `"assistant"` or
 * `"tool_result"` cannot occur inside another string (its quotes would be escaped), so no such entry is missed; a
 * line it lets through is parsed and looked at. One rule for a line's text and for its bytes, so the two agree.
 */
const mayCountBy = (has: (marker: Marker) => boolean): boolean =>
  has("assistant") || has("compact_boundary") || (has("user") && !has("tool_result"))

const mayCount = (text: string): boolean => mayCountBy((marker) => text.includes(inText[marker]))

// `mayCount` on a line's bytes, before (instead of) decoding it.
const mayCountBytes = (bytes: Uint8Array): boolean => {
  const buffer = view(bytes)
  return mayCountBy((marker) => inBytes[marker](buffer))
}

/**
 * Counts one line into `summary`, parsing it only when it can matter: the first entry (its cwd), a user entry
 * that is no tool result (a prompt: the first one is shown, and each starts an exchange), an assistant entry.
 * The bulky lines, tool results, are only split, never parsed (see `mayCount`). A complete line that is not
 * parsed is counted as an entry: `entryCount` counts a damaged tool result line too.
 */
const scanLine = (summary: Summary, line: Line, decode: Decode): void => {
  if (line.unread === true) {
    summary.entryCount++
    return
  }
  if (!/\S/.test(line.text)) return
  const needsCwd = summary.cwd === undefined
  if (!needsCwd && !mayCount(line.text) && line.terminated) {
    summary.entryCount++
    return
  }
  const json = parseJson(line.text)
  const decoded = json === undefined ? undefined : decode(json)
  if (decoded === undefined || Result.isFailure(decoded)) return
  const entry = decoded.success
  summary.entryCount++
  if (needsCwd) summary.cwd = entry.cwd
  if (summary.firstPrompt === undefined) {
    const prompt = promptText(entry)
    if (prompt !== undefined) summary.firstPrompt = oneLine(prompt)
  }
  if (startsExchange(entry)) summary.responses.clear()
  summary.costUSD += summaryCostOf(entry)?.costUSD ?? 0
  if (isAssistant(entry)) {
    // One response split over several entries shares its message id: one turn (as SessionState counts them).
    if (!summary.responses.has(entry.message.id)) summary.turns++
    summary.responses.add(entry.message.id)
    summary.costUSD += entry.costUSD ?? 0
  }
}

/**
 * Transcript.ts, whose entry schemas reading a file needs: imported on the first read, so that a run which only
 * writes its transcript (every `weft -p`) never builds them (about 4 ms of a start).
 */
const transcripts = Effect.promise(() => import("../domain/Transcript.js"))

const newestFirst = (a: SessionInfo, b: SessionInfo): number =>
  b.lastModified.getTime() - a.lastModified.getTime() || (a.sessionId < b.sessionId ? -1 : 1)

const notFound = (sessionId: string) =>
  new SessionNotFound({ sessionId, message: `No session with id ${sessionId}` })

// ---------------------------------------------------------------------------------------------------------
// JSONL layer

/** A session file kept open for appending: its descriptor, and its path for error messages. */
interface OpenSession {
  readonly fd: number
  readonly file: string
}

const NEWLINE = 0x0a

const makeJsonl = (options: JsonlOptions) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const home = path.resolve(
      options.home ?? (yield* Variables.weftHomeOf(yield* Variables.home))
    )
    const projectsDir = path.join(home, "projects")
    const fsync = options.fsync ?? false
    const maxOpenFiles = Math.max(1, options.maxOpenFiles ?? 16)
    const encoder = new TextEncoder()
    // weft's credentials never reach the file, whatever a tool or the model printed.
    const { redactJson } = yield* Credentials

    // sessionId -> its file, learned on write or lookup (a resumed session keeps its original folder even
    // when a later entry has another cwd, as in Claude Code).
    const locations = new Map<string, string>()
    // Open files in least-recently-written order (Map keeps insertion order); bounded by maxOpenFiles.
    const openFiles = new Map<string, OpenSession>()

    const closeFile = (open: OpenSession): void => {
      try {
        NodeFs.closeSync(open.fd)
      } catch {
        // Closing an append-only descriptor loses nothing already written; there is nothing to do about it.
      }
    }

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const open of openFiles.values()) closeFile(open)
        openFiles.clear()
      })
    )

    const ioError =
      (what: string, file: string) =>
      (cause: { readonly message: string }): SessionStoreError =>
        new SessionStoreError({ message: `Cannot ${what} ${file}: ${cause.message}`, path: file })

    const fileIn = (dir: string, sessionId: string) => path.join(dir, `${sessionId}.jsonl`)

    /** Runs one synchronous file system step; what it throws becomes the SessionStoreError `what file: ...`. */
    const attempt = <A>(what: string, file: string, step: () => A): A => {
      try {
        return step()
      } catch (cause) {
        throw ioError(what, file)(cause instanceof Error ? cause : { message: String(cause) })
      }
    }

    /** A synchronous step of the store as an Effect: the SessionStoreError it threw, or one naming what else did. */
    const run = <A>(step: () => A): Effect.Effect<A, SessionStoreError> =>
      Effect.try({
        try: step,
        catch: (cause) => (cause instanceof SessionStoreError ? cause : new SessionStoreError({ message: String(cause) }))
      })

    // Synchronous, as FileProbe's probes: an absent path makes no error object, and a new session's first write
    // looks for its id in every project folder (one listing and one stat each, microseconds, where a round trip
    // through libuv's thread pool and a suspended fiber costs more than the call).
    const projectDirsNow = (): ReadonlyArray<string> => {
      const names = attempt("read", projectsDir, () => {
        try {
          return NodeFs.readdirSync(projectsDir)
        } catch (error) {
          // No store yet (or a file in its place): no projects.
          if (error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR")) return []
          throw error
        }
      })
      return names.map((name) => path.join(projectsDir, name))
    }
    const projectDirs = run(projectDirsNow)

    // As FileProbe.probe: a path that cannot be reached (an entry of the projects folder that is a file) is no session.
    const isFile = (file: string): boolean => {
      try {
        return NodeFs.statSync(file, { throwIfNoEntry: false })?.isFile() === true
      } catch {
        return false
      }
    }

    /** Where an existing session's file is, if anywhere (see `projectDirsNow`). */
    const locateNow = (sessionId: string): string | undefined => {
      if (!validSessionId(sessionId)) return undefined
      const known = locations.get(sessionId)
      if (known !== undefined) return known
      for (const dir of projectDirsNow()) {
        const file = fileIn(dir, sessionId)
        if (isFile(file)) {
          locations.set(sessionId, file)
          return file
        }
      }
      return undefined
    }

    /** Where an existing session's file is, if anywhere. */
    const locate = (sessionId: string): Effect.Effect<Option.Option<string>, SessionStoreError> =>
      run(() => Option.fromNullishOr(locateNow(sessionId)))

    /** The open file of `entry`'s session, opened (its folder made) on the session's first entry. */
    const openNow = (entry: TranscriptEntry): OpenSession => {
      const sessionId = entry.sessionId
      const cached = openFiles.get(sessionId)
      if (cached !== undefined) {
        openFiles.delete(sessionId)
        openFiles.set(sessionId, cached)
        return cached
      }
      if (!validSessionId(sessionId)) {
        throw new SessionStoreError({ message: `Invalid session id: ${JSON.stringify(sessionId)}` })
      }
      const file = locateNow(sessionId) ?? fileIn(path.join(projectsDir, cwdSlug(path.resolve(entry.cwd))), sessionId)
      const dir = path.dirname(file)
      // Transcripts hold prompts, file contents and command output: private to the user.
      attempt("create", dir, () => NodeFs.mkdirSync(dir, { recursive: true, mode: 0o700 }))
      while (openFiles.size >= maxOpenFiles) {
        const oldest = openFiles.entries().next().value
        if (oldest === undefined) break
        openFiles.delete(oldest[0])
        closeFile(oldest[1])
      }
      const open = attempt("open", file, (): OpenSession => {
        const fd = NodeFs.openSync(file, "a+", 0o600)
        try {
          repairTornTail(fd)
        } catch (error) {
          NodeFs.closeSync(fd)
          throw error
        }
        return { fd, file }
      })
      locations.set(sessionId, file)
      openFiles.set(sessionId, open)
      return open
    }

    // A file whose last write was cut by a crash ends mid-line: end that line first, so the torn fragment
    // stays one skipped line instead of corrupting the next entry written after it.
    const repairTornTail = (fd: number): void => {
      const size = NodeFs.fstatSync(fd).size
      if (size === 0) return
      const last = new Uint8Array(1)
      NodeFs.readSync(fd, last, 0, 1, size - 1)
      if (last[0] !== NEWLINE) writeAllSync(fd, Uint8Array.of(NEWLINE))
    }

    // O_APPEND puts each write at the end; a short write (a full disk, a signal) is continued from where it stopped.
    const writeAllSync = (fd: number, bytes: Uint8Array): void => {
      let offset = 0
      while (offset < bytes.length) {
        const written = NodeFs.writeSync(fd, bytes, offset, bytes.length - offset)
        if (written === 0) throw new Error("write returned 0 bytes written")
        offset += written
      }
    }

    const syncFile = (open: OpenSession) =>
      Effect.callback<void, SessionStoreError>((resume) => {
        NodeFs.fsync(open.fd, (error) => resume(error === null ? Effect.void : Effect.fail(ioError("sync", open.file)(error))))
      })

    // Serializing, locating, opening and writing run as one synchronous step (see the module doc): appends cannot
    // interleave (a fiber yields only between steps), so the entries of a session stay in order and its file is
    // opened once, without a lock.
    const append = Effect.fn("SessionStore.append")(function* (entry: TranscriptEntry) {
      const open = yield* run(() => {
        let line: Uint8Array
        try {
          line = encoder.encode(redactJson(JSON.stringify(entry)) + "\n")
        } catch (cause) {
          throw new SessionStoreError({ message: `Cannot serialize the entry: ${String(cause)}` })
        }
        const open = openNow(entry)
        // One write of the whole line: O_APPEND puts it at the end in one piece.
        attempt("write", open.file, () => writeAllSync(open.fd, line))
        return open
      })
      if (fsync) yield* syncFile(open)
    })

    const fileOf = (sessionId: string): Effect.Effect<string, SessionError> =>
      Effect.flatMap(
        locate(sessionId),
        Option.match({ onNone: () => Effect.fail(notFound(sessionId)), onSome: Effect.succeed })
      )

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

    interface Candidate {
      readonly sessionId: string
      readonly file: string
      readonly mtime: Date
    }

    const candidatesIn = (dir: string): Effect.Effect<ReadonlyArray<Candidate>, SessionStoreError> =>
      Effect.gen(function* () {
        if ((yield* probe(dir)) !== "Directory") return []
        const names = yield* fs.readDirectory(dir).pipe(Effect.mapError(ioError("read", dir)))
        const ids = names.filter((name) => name.endsWith(".jsonl")).map((name) => name.slice(0, -".jsonl".length))
        const found = yield* Effect.forEach(
          ids.filter(validSessionId),
          (sessionId) => {
            const file = fileIn(dir, sessionId)
            return fs.stat(file).pipe(
              Effect.map((info): Candidate | undefined =>
                info.type === "File"
                  ? { sessionId, file, mtime: Option.getOrElse(info.mtime, () => new Date(0)) }
                  : undefined
              ),
              // Removed between readDirectory and stat: not a session any more.
              Effect.orElseSucceed(() => undefined)
            )
          },
          { concurrency: 8 }
        )
        return found.filter((candidate) => candidate !== undefined)
      })

    // A summary without holding the file: every line is split, but only the lines that can matter are parsed
    // (the first entry, prompts until the first, and assistant responses, for turns and cost).
    const infoOf = (candidate: Candidate): Effect.Effect<SessionInfo | undefined, SessionStoreError> =>
      Effect.gen(function* () {
        const { decodeEntry } = yield* transcripts
        const summary = newSummary()
        // Short lines (blank ones) are decoded, so that they are not counted.
        const select = (bytes: Uint8Array) => summary.cwd === undefined || bytes.length < 2 || mayCountBytes(bytes)
        yield* Stream.runForEachArray(fileLines(candidate.file, undefined, 0, select), (chunk) =>
          Effect.sync(() => {
            for (const line of chunk) scanLine(summary, line, decodeEntry)
          })
        )
        if (summary.cwd === undefined) return undefined
        const info: SessionInfo = {
          sessionId: candidate.sessionId,
          cwd: summary.cwd,
          firstPrompt: summary.firstPrompt ?? "",
          lastModified: candidate.mtime,
          entryCount: summary.entryCount,
          turns: summary.turns,
          costUSD: summary.costUSD
        }
        return info
      })

    /** The cwd of a file's first entry (what `latest` needs): reads the file's head only. */
    const cwdOf = (file: string): Effect.Effect<Option.Option<string>, SessionStoreError> =>
      itemsOf(file, 16 * 1024).pipe(
        Stream.filterMap((item) => (item._tag === "Entry" ? Result.succeed(item.entry.cwd) : Result.failVoid)),
        Stream.runHead
      )

    // Distinct cwds can share a slug (`/a-b`, `/a/b`): a session belongs to the cwd its first entry names.
    const belongsTo = (cwd: string | undefined) => (info: SessionInfo | undefined): info is SessionInfo =>
      info !== undefined && (cwd === undefined || info.cwd === cwd)

    const list = Effect.fn("SessionStore.list")(function* (cwd?: string) {
      const wanted = cwd === undefined ? undefined : path.resolve(cwd)
      const dirs = wanted === undefined ? yield* projectDirs : [path.join(projectsDir, cwdSlug(wanted))]
      const candidates = (yield* Effect.forEach(dirs, candidatesIn, { concurrency: 4 })).flat()
      const infos = yield* Effect.forEach(candidates, infoOf, { concurrency: 8 })
      return infos.filter(belongsTo(wanted)).sort(newestFirst)
    })

    const latest = Effect.fn("SessionStore.latest")(function* (cwd: string) {
      // On the `--continue` start-up path: stat every file, then read only the newest until one fits.
      const wanted = path.resolve(cwd)
      const candidates = [...(yield* candidatesIn(path.join(projectsDir, cwdSlug(wanted))))].sort(
        (a, b) => b.mtime.getTime() - a.mtime.getTime() || (a.sessionId < b.sessionId ? -1 : 1)
      )
      for (const candidate of candidates) {
        const cwdOfCandidate = yield* cwdOf(candidate.file)
        if (Option.contains(cwdOfCandidate, wanted)) return Option.some(candidate.sessionId)
      }
      return Option.none<string>()
    })

    const fork = Effect.fn("SessionStore.fork")(function* (sessionId: string, newId?: string) {
      const source = yield* fileOf(sessionId)
      const forkId = yield* forkIdFor(newId, (id) => Effect.map(locate(id), Option.isSome))
      const target = fileIn(path.dirname(source), forkId)
      // Written aside and renamed, so a crash never leaves a half-copied fork behind; copied entry by entry.
      const temporary = `${target}.tmp`
      yield* itemsOf(source).pipe(
        Stream.filterMap((item) => (item._tag === "Entry" ? Result.succeed(item.entry) : Result.failVoid)),
        Stream.map((entry) => encoder.encode(redactJson(JSON.stringify({ ...entry, sessionId: forkId })) + "\n")),
        Stream.run(Sink.mapError(fs.sink(temporary, { flag: "w", mode: 0o600 }), ioError("write", temporary))),
        Effect.tapError(() => Effect.ignore(fs.remove(temporary)))
      )
      yield* fs.rename(temporary, target).pipe(Effect.mapError(ioError("write", target)))
      locations.set(forkId, target)
      return forkId
    })

    const store: Interface = { append, read, resume, load, loadDetailed, list, latest, fork }
    return store
  })

// ---------------------------------------------------------------------------------------------------------
// Memory layer

/** A store in memory (see `SessionStore.layerMemory`). */
export const makeMemory = (): Interface => {
  interface Stored {
    readonly entries: Array<TranscriptEntry>
    lastModified: number
    sequence: number
  }
  const sessions = new Map<string, Stored>()
  let sequence = 0

  const find = (sessionId: string) => {
    const stored = sessions.get(sessionId)
    return stored === undefined ? Effect.fail(notFound(sessionId)) : Effect.succeed(stored)
  }

  const infos = (cwd: string | undefined): Array<SessionInfo> => {
    const out: Array<{ info: SessionInfo; sequence: number }> = []
    for (const [sessionId, stored] of sessions) {
      const info = summarize(sessionId, stored.entries, new Date(stored.lastModified))
      if (info !== undefined && (cwd === undefined || info.cwd === cwd)) out.push({ info, sequence: stored.sequence })
    }
    // Same clock tick (TestClock): the later write is the newer.
    return out
      .sort((a, b) => b.info.lastModified.getTime() - a.info.lastModified.getTime() || b.sequence - a.sequence)
      .map(({ info }) => info)
  }

  const append = Effect.fn("SessionStore.append")(function* (entry: TranscriptEntry) {
    if (!validSessionId(entry.sessionId)) {
      return yield* new SessionStoreError({ message: `Invalid session id: ${JSON.stringify(entry.sessionId)}` })
    }
    const now = yield* Clock.currentTimeMillis
    // A copy, as the file store keeps: later mutation of the caller's object cannot reach the store.
    const copy = structuredClone(entry)
    const stored = sessions.get(entry.sessionId)
    if (stored === undefined) {
      sessions.set(entry.sessionId, { entries: [copy], lastModified: now, sequence: ++sequence })
    } else {
      stored.entries.push(copy)
      stored.lastModified = now
      stored.sequence = ++sequence
    }
  })

  const loadDetailed = Effect.fn("SessionStore.loadDetailed")(function* (sessionId: string) {
    const stored = yield* find(sessionId)
    const result: LoadResult = { entries: [...stored.entries], skippedLines: 0, tornTail: false }
    return result
  })

  const load = Effect.fn("SessionStore.load")(function* (sessionId: string) {
    return (yield* loadDetailed(sessionId)).entries
  })

  // The entries as they are when the stream starts (later appends are not seen, as with a file read to its end).
  const read = (sessionId: string): Stream.Stream<TranscriptEntry, SessionError> =>
    Stream.unwrap(Effect.map(find(sessionId), (stored) => Stream.fromIterable([...stored.entries])))

  const resume = Effect.fn("SessionStore.resume")(function* (sessionId: string) {
    const stored = yield* find(sessionId)
    const state = fromEntries(stored.entries)
    const resumed: Resumed = { ...state, warnings: warningsOf(sessionId, `session ${sessionId}`, emptyReport(), state) }
    return resumed
  })

  const list = Effect.fn("SessionStore.list")(function* (cwd?: string) {
    return infos(cwd)
  })

  const latest = Effect.fn("SessionStore.latest")(function* (cwd: string) {
    return Option.map(Option.fromNullishOr(infos(cwd)[0]), (info) => info.sessionId)
  })

  const fork = Effect.fn("SessionStore.fork")(function* (sessionId: string, newId?: string) {
    const stored = yield* find(sessionId)
    const forkId = yield* forkIdFor(newId, (id) => Effect.succeed(sessions.has(id)))
    const now = yield* Clock.currentTimeMillis
    sessions.set(forkId, {
      entries: stored.entries.map((entry) => ({ ...entry, sessionId: forkId })),
      lastModified: now,
      sequence: ++sequence
    })
    return forkId
  })

  const store: Interface = { append, read, resume, load, loadDetailed, list, latest, fork }
  return store
}

// ---------------------------------------------------------------------------------------------------------

export class SessionStore extends Context.Service<SessionStore, Interface>()("weft/SessionStore") {
  /** JSONL files under `$WEFT_HOME/projects/<cwd-slug>/`; open files are closed when the scope ends. */
  static makeJsonl = (
    options: JsonlOptions = {}
  ): Effect.Effect<Interface, never, FileSystem.FileSystem | Path.Path | Credentials | Scope.Scope> => makeJsonl(options)

  /** `makeJsonl` as a layer: open files are closed when the layer's scope ends. */
  static layerJsonl = (
    options: JsonlOptions = {}
  ): Layer.Layer<SessionStore, never, FileSystem.FileSystem | Path.Path | Credentials> =>
    Layer.effect(SessionStore, makeJsonl(options))

  /** `layerJsonl` on Node's file system, redacting this process's credentials. */
  static layerJsonlLive = (options: JsonlOptions = {}): Layer.Layer<SessionStore> =>
    SessionStore.layerJsonl(options).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer, Credentials.layer]))

  /**
   * In memory, for tests: the same semantics without files (nothing is ever torn or skipped). Each call makes a
   * new, empty store; the layer it returns shares that one store wherever it is provided (a run, then a resume).
   */
  static layerMemory = (): Layer.Layer<SessionStore> => Layer.succeed(SessionStore, makeMemory())
}

// The entry points at the module's top level: `import { SessionStore } from "weft"` reads `SessionStore.layer...(...)`, and
// `SessionStore.SessionStore` is the Tag (`yield* SessionStore.SessionStore`).
export const layerJsonl = SessionStore.layerJsonl
export const layerJsonlLive = SessionStore.layerJsonlLive
export const layerMemory = SessionStore.layerMemory
