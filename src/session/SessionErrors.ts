/**
 * What can go wrong in a session store: its errors, the synchronous file steps that raise them, and the warnings
 * of a read that had to leave something out (a torn last line, skipped lines, a broken chain).
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { Report } from "./JsonlReader.js"
import type { SessionState } from "./SessionState.js"

/** No transcript with that session id exists (or the id is not a valid one). */
export class SessionNotFound extends Data.TaggedError("SessionNotFound")<{ readonly sessionId: string; readonly message: string }> {}

/** Reading or writing the store failed (permissions, disk full, ...). */
export class SessionStoreError extends Data.TaggedError("SessionStoreError")<{ readonly message: string; readonly path?: string }> {}

export type SessionError = SessionNotFound | SessionStoreError

export const notFound = (sessionId: string) =>
  new SessionNotFound({ sessionId, message: `No session with id ${sessionId}` })

/** The error of a failed `what` (read, write, open, ...) on `file`. */
export const ioError =
  (what: string, file: string) =>
  (cause: { readonly message: string }): SessionStoreError =>
    new SessionStoreError({ message: `Cannot ${what} ${file}: ${cause.message}`, path: file })

/** Runs one synchronous file system step; what it throws becomes the SessionStoreError `what file: ...`. */
export const attempt = <A>(what: string, file: string, step: () => A): A => {
  try {
    return step()
  } catch (cause) {
    throw ioError(what, file)(cause instanceof Error ? cause : { message: String(cause) })
  }
}

/** A synchronous step of the store as an Effect: the SessionStoreError it threw, or one naming what else did. */
export const run = <A>(step: () => A): Effect.Effect<A, SessionStoreError> =>
  Effect.try({
    try: step,
    catch: (cause) => (cause instanceof SessionStoreError ? cause : new SessionStoreError({ message: String(cause) }))
  })

/** What reading `where` left out, one sentence each. */
export const readWarnings = (sessionId: string, where: string, report: Report): Array<string> => {
  const warnings: Array<string> = []
  if (report.tornTail) {
    warnings.push(`Session ${sessionId}: the last line of ${where} was cut short (an interrupted write) and was skipped.`)
  }
  if (report.skippedLines > 0) {
    warnings.push(`Session ${sessionId}: skipped ${report.skippedLines} unreadable line(s) in ${where}.`)
  }
  return warnings
}

/** `readWarnings`, and a conversation that names a missing entry. */
export const warningsOf = (sessionId: string, where: string, report: Report, state: SessionState): Array<string> => {
  const warnings = readWarnings(sessionId, where, report)
  if (state.brokenChain) {
    warnings.push(`Session ${sessionId}: the conversation in ${where} names an entry that is missing; it resumes after the gap.`)
  }
  return warnings
}
