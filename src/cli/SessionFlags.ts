/**
 * The session flags of `weft -p`, as Claude Code has them: `--resume <id>` / `-r`, `--continue` / `-c` (the latest
 * session of this directory), `--fork-session` (go on under a new id, leaving the session as it was),
 * `--session-id <uuid>` (the new session's id) and `--no-session-persistence` (nothing recorded).
 *
 * `conflict` checks the flags against each other (pure, before anything is read); `resolve` turns them into the
 * run's start: which session id is in force, and for a resumed run the conversation to send again and where the
 * parentUuid chain goes on. A resumed run is recorded in the same file under the same id; a fork first copies the
 * session under its new id (SessionStore.fork), so that the fork can itself be resumed. `--continue` with no session
 * in this directory starts a new one; `--resume` of a session of another directory goes on in this one.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import type { MessageParam } from "../domain/Message.js"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { newSessionId } from "../session/SessionIds.js"
import type * as SessionStore from "../session/SessionStore.js"
import type { PrintOptions } from "./CliOptions.js"
import { RunError, UsageError } from "./Outcome.js"

type Store = SessionStore.Interface
type SessionError = SessionStore.SessionError

export type SessionFlags = Pick<PrintOptions, "resume" | "continueSession" | "forkSession" | "sessionId" | "noSessionPersistence">

/** What is wrong with the combination of session flags, if anything. */
export const conflict = (flags: SessionFlags): string | undefined => {
  if (flags.resume !== undefined && flags.continueSession) {
    return "--resume and --continue both name the session to resume: give one (--continue is the latest of this directory)."
  }
  const resuming = flags.resume !== undefined || flags.continueSession
  if (flags.forkSession && !resuming) {
    return "--fork-session goes with --resume <id> or --continue: it names no session by itself."
  }
  if (flags.sessionId !== undefined && resuming && !flags.forkSession && flags.sessionId !== flags.resume) {
    return (
      "--session-id names a new session, but --resume/--continue go on in an existing one under its own id. " +
      "Add --fork-session to go on under the id given."
    )
  }
  return undefined
}

/** Whether any flag needs the session store before the run (to read a session, or check an id). */
export const needsStore = (flags: SessionFlags): boolean =>
  flags.resume !== undefined || flags.continueSession || flags.sessionId !== undefined

/** How the run starts. */
export interface Start {
  /** The session id in force (the init frame's and the result's); undefined: a new random one. */
  readonly sessionId: string | undefined
  /** For a resumed (or forked) run: what it goes on from. */
  readonly resumed?: {
    /** The session it was resumed from (for a fork: the original). */
    readonly from: string
    /** The conversation to send again, as stored. */
    readonly history: ReadonlyArray<MessageParam>
    /** The entry the new entries follow in the parentUuid chain. */
    readonly leafUuid: string | null
    /** What the session's recorded responses cost so far, in US dollars (the result's total counts them). */
    readonly costUSD: number
  }
  /** For stderr: where a session of another directory came from, what reading it had to leave out or repair. */
  readonly warnings: ReadonlyArray<string>
}

const listHint = "`weft sessions` lists the sessions of this directory."

/** The session's first entry (only it is read): where the session was started; none for an empty file. */
const firstEntry = (store: Store, sessionId: string): Effect.Effect<Option.Option<TranscriptEntry>, SessionError> =>
  Stream.runHead(store.read(sessionId))

const storeFailure = (error: { readonly message: string }) => new RunError({ message: error.message })

/** The flags (checked by `conflict`) resolved against the store, for a run in `cwd`. */
export const resolve = (
  flags: SessionFlags,
  context: { readonly cwd: string; readonly store: Store }
): Effect.Effect<Start, UsageError | RunError> =>
  Effect.gen(function* () {
    const { store } = context
    const cwd = nodePath.resolve(context.cwd)
    const exists = (sessionId: string) =>
      firstEntry(store, sessionId).pipe(
        Effect.as(true),
        Effect.catchTag("SessionNotFound", () => Effect.succeed(false)),
        Effect.mapError(storeFailure)
      )
    const checkUnused = (sessionId: string) =>
      Effect.flatMap(exists(sessionId), (used) =>
        used
          ? Effect.fail(
              new UsageError({
                message: `--session-id ${sessionId} is already used by a session. To go on in it: weft -p --resume ${sessionId} "...".`
              })
            )
          : Effect.void
      )

    let source: string
    if (flags.resume !== undefined) source = flags.resume
    else if (flags.continueSession) {
      const latest = yield* store.latest(cwd).pipe(Effect.mapError(storeFailure))
      if (Option.isSome(latest)) source = latest.value
      else {
        // Nothing to continue here: a new session, as in Claude Code (`weft -c -p` in a loop from the first run on).
        if (flags.sessionId !== undefined) yield* checkUnused(flags.sessionId)
        return { sessionId: flags.sessionId, warnings: [] }
      }
    } else {
      if (flags.sessionId !== undefined) yield* checkUnused(flags.sessionId)
      return { sessionId: flags.sessionId, warnings: [] }
    }

    const notFound = () =>
      Effect.fail(new UsageError({ message: `--resume: no session with id ${JSON.stringify(source)}. ${listHint}` }))
    const first = yield* firstEntry(store, source).pipe(
      Effect.catchTag("SessionNotFound", notFound),
      Effect.mapError((error) => (error._tag === "UsageError" ? error : storeFailure(error)))
    )
    // A session of another directory goes on here, as in Claude Code (SDK hosts resume by id alone): the run's
    // tools, settings and trust are this directory's; its entries go on in the session's file, under its id.
    const elsewhere =
      Option.isSome(first) && nodePath.resolve(first.value.cwd) !== cwd
        ? [`session ${source} was recorded in ${first.value.cwd}; it goes on in this directory (${cwd}).`]
        : []
    const state = yield* store.resume(source).pipe(
      Effect.catchTag("SessionNotFound", notFound),
      Effect.mapError((error) => (error._tag === "UsageError" ? error : storeFailure(error)))
    )
    const resumed = { from: source, history: state.messages, leafUuid: state.leafUuid, costUSD: state.totalCostUSD }
    const warnings = [...elsewhere, ...state.warnings]
    if (!flags.forkSession) return { sessionId: source, resumed, warnings }

    // A fork: a new id (checked unused), and, when the run is recorded, the session copied under it first.
    const forkId = flags.sessionId ?? (yield* newSessionId)
    if (flags.sessionId !== undefined) yield* checkUnused(flags.sessionId)
    if (!flags.noSessionPersistence) {
      yield* store.fork(source, forkId).pipe(Effect.mapError(storeFailure))
    }
    return { sessionId: forkId, resumed, warnings }
  })
