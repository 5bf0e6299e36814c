/**
 * Appending entries to session files.
 *
 * Durability: each entry is one whole line handed to the kernel by one write on a file opened with O_APPEND
 * and kept open for the session. Once that write returns, the line is in the page cache, which outlives the
 * process: a kill -9 at any moment loses no completed entry, and at worst leaves a torn last line, which load
 * skips. fsync would also survive a power loss or kernel crash, but costs a few milliseconds per entry (much
 * more on some disks) and Claude Code does not do it either, so it is off by default: `fsync: true` turns it on.
 *
 * Writing is synchronous (node:fs, not FileSystem): a session writes a handful of lines of a few KB each to the
 * page cache, microseconds each, while each asynchronous open, mkdir, stat and write is a round trip through
 * libuv's thread pool and a suspended fiber (docs/performance.md). Only `fsync`, which waits for the disk, stays
 * asynchronous.
 */
import * as Effect from "effect/Effect"
import type * as Path from "effect/Path"
import type * as Scope from "effect/Scope"
import * as NodeFs from "node:fs"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { attempt, ioError, run, SessionStoreError } from "./SessionErrors.js"
import type { SessionFiles } from "./SessionFiles.js"
import { cwdSlug, validSessionId } from "./SessionIds.js"

export interface WriterOptions {
  /** fsync after every entry. */
  readonly fsync: boolean
  /** How many session files stay open at once; the least recently written is closed first. */
  readonly maxOpenFiles: number
  /** Replaces the credentials in a JSON text (weft's credentials never reach the file). */
  readonly redactJson: (json: string) => string
}

export interface JsonlWriter {
  /** Appends one entry to the session named by `entry.sessionId`, creating it (under `entry.cwd`) if new. */
  readonly append: (entry: TranscriptEntry) => Effect.Effect<void, SessionStoreError>
}

/** A session file kept open for appending: its descriptor, and its path for error messages. */
interface OpenSession {
  readonly fd: number
  readonly file: string
}

const NEWLINE = 0x0a

const closeFile = (open: OpenSession): void => {
  try {
    NodeFs.closeSync(open.fd)
  } catch {
    // Closing an append-only descriptor loses nothing already written; there is nothing to do about it.
  }
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

/** The writer of the store's files; the files it keeps open are closed when the scope ends. */
export const makeJsonlWriter = (
  files: SessionFiles,
  path: Path.Path,
  options: WriterOptions
): Effect.Effect<JsonlWriter, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { fsync, maxOpenFiles, redactJson } = options
    const encoder = new TextEncoder()
    // Open files in least-recently-written order (Map keeps insertion order); bounded by maxOpenFiles.
    const openFiles = new Map<string, OpenSession>()

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const open of openFiles.values()) closeFile(open)
        openFiles.clear()
      })
    )

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
      const file =
        files.locateNow(sessionId) ?? files.fileIn(path.join(files.projectsDir, cwdSlug(path.resolve(entry.cwd))), sessionId)
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
      files.remember(sessionId, file)
      openFiles.set(sessionId, open)
      return open
    }

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

    return { append }
  })
