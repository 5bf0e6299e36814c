/**
 * Where the JSONL store's session files are: `<projects>/<cwd-slug>/<session-id>.jsonl`, found by id across the
 * project folders and remembered once found or written (a resumed session keeps its original folder even when a
 * later entry has another cwd, as in Claude Code).
 *
 * Synchronous, as FileProbe's probes: an absent path makes no error object, and a new session's first write looks
 * for its id in every project folder (one listing and one stat each, microseconds, where a round trip through
 * libuv's thread pool and a suspended fiber costs more than the call).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import * as NodeFs from "node:fs"
import { attempt, notFound, run, type SessionError, type SessionStoreError } from "./SessionErrors.js"
import { validSessionId } from "./SessionIds.js"

export interface SessionFiles {
  /** `<home>/projects`: one folder per working directory. */
  readonly projectsDir: string
  /** The file of session `sessionId` in the project folder `dir`. */
  readonly fileIn: (dir: string, sessionId: string) => string
  /** The project folders (none before the store's first write). */
  readonly projectDirs: Effect.Effect<ReadonlyArray<string>, SessionStoreError>
  /** Where an existing session's file is, if anywhere (synchronous: throws a SessionStoreError). */
  readonly locateNow: (sessionId: string) => string | undefined
  /** Where an existing session's file is, if anywhere. */
  readonly locate: (sessionId: string) => Effect.Effect<Option.Option<string>, SessionStoreError>
  /** An existing session's file, or SessionNotFound. */
  readonly fileOf: (sessionId: string) => Effect.Effect<string, SessionError>
  /** Notes that session `sessionId` is written to `file`. */
  readonly remember: (sessionId: string, file: string) => void
}

export const makeSessionFiles = (path: Path.Path, projectsDir: string): SessionFiles => {
  // sessionId -> its file, learned on write or lookup.
  const locations = new Map<string, string>()

  const fileIn = (dir: string, sessionId: string) => path.join(dir, `${sessionId}.jsonl`)

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

  // As FileProbe.probe: a path that cannot be reached (an entry of the projects folder that is a file) is no session.
  const isFile = (file: string): boolean => {
    try {
      return NodeFs.statSync(file, { throwIfNoEntry: false })?.isFile() === true
    } catch {
      return false
    }
  }

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

  const locate = (sessionId: string): Effect.Effect<Option.Option<string>, SessionStoreError> =>
    run(() => Option.fromNullishOr(locateNow(sessionId)))

  const fileOf = (sessionId: string): Effect.Effect<string, SessionError> =>
    Effect.flatMap(
      locate(sessionId),
      Option.match({ onNone: () => Effect.fail(notFound(sessionId)), onSome: Effect.succeed })
    )

  return {
    projectsDir,
    fileIn,
    projectDirs: run(projectDirsNow),
    locateNow,
    locate,
    fileOf,
    remember: (sessionId, file) => void locations.set(sessionId, file)
  }
}
