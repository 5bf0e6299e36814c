/**
 * Session ids, which become file names, and the project folder a session's working directory names
 * (Claude Code's layout: `projects/<cwd-slug>/<session-id>.jsonl`).
 */
import * as Effect from "effect/Effect"
import { join, resolve } from "node:path"
import * as Uuid from "../platform/Uuid.js"
import { SessionStoreError } from "./SessionErrors.js"

/** Claude Code's project folder name: the absolute cwd with every non-alphanumeric character replaced by `-`. */
export const cwdSlug = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, "-")

/** The folder of the sessions run in `cwd`, under weft's home. */
export const projectDir = (weftHome: string, cwd: string): string => join(weftHome, "projects", cwdSlug(resolve(cwd)))

/** Where the JSONL store records a session run in `cwd`, under weft's home (a hook's `transcript_path`). */
export const transcriptPathIn =
  (weftHome: string) =>
  (sessionId: string, cwd: string): string =>
    join(projectDir(weftHome, cwd), `${sessionId}.jsonl`)

/** A fresh session id: a uuid drawn through effect's Random (reproducible under a seeded one). */
export const newSessionId: Effect.Effect<string> = Uuid.v4

// A session id becomes a file name: refuse anything that could leave the project folder.
export const validSessionId = (sessionId: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(sessionId)

/** A fork's id: `newId` when given (valid, and not a session yet), else a fresh uuid. */
export const forkIdFor = (newId: string | undefined, exists: (id: string) => Effect.Effect<boolean, SessionStoreError>) =>
  Effect.gen(function* () {
    if (newId === undefined) return yield* newSessionId
    if (!validSessionId(newId)) {
      return yield* new SessionStoreError({ message: `Invalid session id: ${JSON.stringify(newId)}` })
    }
    if (yield* exists(newId)) return yield* new SessionStoreError({ message: `Session ${newId} already exists` })
    return newId
  })
