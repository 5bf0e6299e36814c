/**
 * The loop's view of the session record: append the messages of a run as linked entries (each entry's
 * parentUuid is the previous entry's uuid) and answer the uuid at once. Backed by SessionStore, written in order
 * by one background fiber, so the loop does not wait for the disk between a model turn and the next request;
 * `flush` waits for what was recorded so far (the loop flushes before its Result, and closing the layer flushes).
 * A failure to record is logged once, and the run goes on without a record (the user's work matters more than its
 * record). Nothing is written before the model's first answer: a run that never got one (no credentials, a server
 * down) leaves no session file behind; the entries held until then are written with that answer.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"
import type { TranscriptEntry } from "../domain/Transcript.js"
import * as Uuid from "../platform/Uuid.js"
import { SessionStore } from "../session/SessionStore.js"

export interface Interface {
  readonly user: (sessionId: string, message: MessageParam, toolUseResult?: unknown) => Effect.Effect<string>
  readonly assistant: (sessionId: string, message: AssistantMessage, costUSD?: number) => Effect.Effect<string>
  /**
   * A `system` entry (`subtype`, `content`, and `extra` fields such as `compactMetadata`). With `freshChain` the
   * entry starts a new chain: its parentUuid is null and `logicalParentUuid` names the entry before it (a compact
   * boundary: a resumed session's history starts there), and the entries after it follow it.
   */
  readonly system: (
    sessionId: string,
    subtype: string,
    content: string,
    extra?: Readonly<Record<string, unknown>>,
    options?: { readonly freshChain?: boolean }
  ) => Effect.Effect<string>
  /**
   * A user entry with `extra` fields beside the message (e.g. `isCompactSummary: true` on the summary that follows a
   * compact boundary).
   */
  readonly userWith: (sessionId: string, message: MessageParam, extra: Readonly<Record<string, unknown>>) => Effect.Effect<string>
  /** Continue a resumed session's chain after its last entry. */
  readonly setParent: (uuid: string | null) => Effect.Effect<void>
  /** Completes once every entry recorded so far is written. */
  readonly flush: Effect.Effect<void>
}

export interface Options {
  readonly cwd: string
  readonly version: string
}

/** A transcript that records nothing; uuids are still issued so events can be told apart. */
export const none: Interface = {
  user: () => Uuid.v4,
  assistant: () => Uuid.v4,
  system: () => Uuid.v4,
  userWith: () => Uuid.v4,
  setParent: () => Effect.void,
  flush: Effect.void
}

export class Transcript extends Context.Service<Transcript, Interface>()("weft/agent/Transcript") {
  /** Records nothing (a throwaway run); uuids are still issued so events can be told apart. */
  static layerNone = Layer.succeed(Transcript, none)

  /** Appends to the SessionStore, in the background (see the module doc); closing the scope flushes. */
  static make = (options: Options): Effect.Effect<Interface, never, SessionStore | Scope.Scope> =>
    Effect.gen(function* () {
      const store = yield* SessionStore
      const pending = yield* Queue.unbounded<Pending>()
      // After a failure to record, nothing more is tried (and the warning is not repeated for every entry).
      let failed = false
      // A daemon, so that closing the scope does not interrupt it before the finalizer below flushes.
      const writer = yield* Queue.take(pending).pipe(
        Effect.flatMap((item) =>
          item._tag === "Flush"
            ? Deferred.succeed(item.done, undefined)
            : failed
              ? Effect.void
              : store.append(item.entry).pipe(
                  Effect.catch((error) => {
                    failed = true
                    return Effect.logWarning(`weft: could not record the session (${error.message}); going on without recording it.`)
                  })
                )
        ),
        Effect.forever,
        Effect.forkDetach
      )
      const flush = Effect.gen(function* () {
        const done = yield* Deferred.make<void>()
        yield* Queue.offer(pending, { _tag: "Flush", done })
        yield* Deferred.await(done)
      })
      yield* Effect.addFinalizer(() => flush.pipe(Effect.andThen(Fiber.interrupt(writer))))

      let parent: string | null = null
      // Entries held until the model's first answer (see the module doc).
      let answered = false
      const held: Array<TranscriptEntry> = []
      const write = (make: (envelope: Envelope) => TranscriptEntry, freshChain = false) =>
        Effect.gen(function* () {
          const uuid = yield* Uuid.v4
          const envelope: Envelope = {
            uuid,
            parentUuid: freshChain ? null : parent,
            ...(freshChain ? { logicalParentUuid: parent } : {}),
            timestamp: new Date(yield* Clock.currentTimeMillis).toISOString(),
            cwd: options.cwd,
            version: options.version
          }
          parent = uuid
          const entry = make(envelope)
          if (!answered && entry.type !== "assistant") {
            held.push(entry)
            return uuid
          }
          answered = true
          for (const earlier of held.splice(0)) yield* Queue.offer(pending, { _tag: "Entry", entry: earlier })
          yield* Queue.offer(pending, { _tag: "Entry", entry })
          return uuid
        })
      return {
        user: (sessionId, message, toolUseResult) =>
          write((envelope) => ({
            ...envelope,
            sessionId,
            type: "user",
            message,
            ...(toolUseResult === undefined ? {} : { toolUseResult })
          })),
        assistant: (sessionId, message, costUSD) =>
          write((envelope) => ({
            ...envelope,
            sessionId,
            type: "assistant",
            message,
            ...(costUSD === undefined ? {} : { costUSD })
          })),
        system: (sessionId, subtype, content, extra, systemOptions) =>
          write(
            (envelope) => ({ ...extra, ...envelope, sessionId, type: "system", subtype, content, level: "info" }),
            systemOptions?.freshChain ?? false
          ),
        userWith: (sessionId, message, extra) =>
          write((envelope) => ({ ...extra, ...envelope, sessionId, type: "user", message })),
        setParent: (uuid) => Effect.sync(() => void (parent = uuid)),
        flush
      }
    })

  /** `make` as a layer: closing the layer flushes. */
  static layer = (options: Options): Layer.Layer<Transcript, never, SessionStore> => Layer.effect(Transcript, Transcript.make(options))
}

type Pending =
  | { readonly _tag: "Entry"; readonly entry: TranscriptEntry }
  | { readonly _tag: "Flush"; readonly done: Deferred.Deferred<void> }

interface Envelope {
  readonly uuid: string
  readonly parentUuid: string | null
  /** A fresh chain's link to the entry before it, for readers that follow the whole session. */
  readonly logicalParentUuid?: string | null
  readonly timestamp: string
  readonly cwd: string
  readonly version: string
}

// The entry points at the module's top level: `import { Transcript } from "weft"` reads `Transcript.layer...(...)`, and
// `Transcript.Transcript` is the Tag (`yield* Transcript.Transcript`).
export const layerNone = Transcript.layerNone
export const make = Transcript.make
export const layer = Transcript.layer
