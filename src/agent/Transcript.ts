/**
 * The loop's view of the session record: append the messages of a run as linked entries (each entry's
 * parentUuid is the previous entry's uuid) and answer the uuid of what was written. Backed by SessionStore; a
 * failure to record is logged and never stops the run (the user's work matters more than its record).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { SessionStore } from "../session/SessionStore.js"

export interface Interface {
  readonly user: (sessionId: string, message: MessageParam, toolUseResult?: unknown) => Effect.Effect<string>
  readonly assistant: (sessionId: string, message: AssistantMessage, costUSD?: number) => Effect.Effect<string>
  /** Continue a resumed session's chain after its last entry. */
  readonly setParent: (uuid: string | null) => Effect.Effect<void>
}

export interface Options {
  readonly cwd: string
  readonly version: string
}

export class Transcript extends Context.Tag("weft/agent/Transcript")<Transcript, Interface>() {
  /** Records nothing (a throwaway run); uuids are still issued so events can be told apart. */
  static layerNone = Layer.succeed(Transcript, {
    user: () => Effect.sync(() => crypto.randomUUID()),
    assistant: () => Effect.sync(() => crypto.randomUUID()),
    setParent: () => Effect.void
  })

  /** Appends to the SessionStore. */
  static layer = (options: Options) =>
    Layer.effect(
      Transcript,
      Effect.gen(function* () {
        const store = yield* SessionStore
        let parent: string | null = null
        const write = (make: (envelope: Envelope) => TranscriptEntry) =>
          Effect.gen(function* () {
            const uuid = crypto.randomUUID()
            const envelope: Envelope = {
              uuid,
              parentUuid: parent,
              timestamp: new Date().toISOString(),
              cwd: options.cwd,
              version: options.version
            }
            parent = uuid
            yield* store.append(make(envelope)).pipe(
              Effect.catchAll((error) => Effect.logWarning(`weft: could not record the session: ${error.message}`))
            )
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
          setParent: (uuid) => Effect.sync(() => void (parent = uuid))
        }
      })
    )
}

interface Envelope {
  readonly uuid: string
  readonly parentUuid: string | null
  readonly timestamp: string
  readonly cwd: string
  readonly version: string
}
