/**
 * The loop's view of the session record: append the messages of a run as linked entries (each entry's
 * parentUuid is the previous entry's uuid) and answer the uuid of what was written. Backed by SessionStore.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"

export interface Interface {
  readonly user: (sessionId: string, message: MessageParam) => Effect.Effect<string>
  readonly assistant: (sessionId: string, message: AssistantMessage) => Effect.Effect<string>
}

export class Transcript extends Context.Tag("weft/agent/Transcript")<Transcript, Interface>() {
  /** Records nothing (a throwaway run); uuids are still issued so events can be told apart. */
  static layerNone = Layer.succeed(Transcript, {
    user: () => Effect.sync(() => crypto.randomUUID()),
    assistant: () => Effect.sync(() => crypto.randomUUID())
  })
}
