/**
 * The JSONL store's listings: the sessions of a project folder (or all) summarized newest first (`list`), and the
 * newest session started in a directory (`latest`, what `--continue` resumes), read without holding a file.
 */
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { probe } from "../platform/FileProbe.js"
import { mayCountBytes } from "./LineMarkers.js"
import { ioError, type SessionStoreError } from "./SessionErrors.js"
import type { SessionFiles } from "./SessionFiles.js"
import { cwdSlug, validSessionId } from "./SessionIds.js"
import { type SessionReader, transcripts } from "./SessionReader.js"
import type { SessionInfo } from "./SessionStore.js"
import { newestFirst, newSummary, scanLine } from "./SessionSummary.js"

export interface SessionListing {
  readonly list: (cwd?: string) => Effect.Effect<ReadonlyArray<SessionInfo>, SessionStoreError>
  readonly latest: (cwd: string) => Effect.Effect<Option.Option<string>, SessionStoreError>
}

interface Candidate {
  readonly sessionId: string
  readonly file: string
  readonly mtime: Date
}

// Distinct cwds can share a slug (`/a-b`, `/a/b`): a session belongs to the cwd its first entry names.
const belongsTo = (cwd: string | undefined) => (info: SessionInfo | undefined): info is SessionInfo =>
  info !== undefined && (cwd === undefined || info.cwd === cwd)

export const makeSessionListing = (
  fs: FileSystem.FileSystem,
  path: Path.Path,
  files: SessionFiles,
  reader: SessionReader
): SessionListing => {
  const { projectsDir, fileIn, projectDirs } = files
  const { fileLines, itemsOf } = reader

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

  return { list, latest }
}
