import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Session from "../../src/agent/Session.js"
import { Transcript } from "../../src/agent/Transcript.js"
import { Environment } from "../../src/context/Environment.js"
import { Memory } from "../../src/context/Memory.js"
import type { AgentEvent } from "../../src/domain/AgentEvent.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import type { Handlers } from "../../src/hooks/Hooks.js"
import { McpClient } from "../../src/mcp/McpClient.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { textTurn } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Tool from "../../src/tools/Tool.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"

const Echo = Tool.fromEffect({
  name: "Echo",
  description: "Echoes its text.",
  input: Schema.Struct({ text: Schema.String }),
  readOnly: true,
  run: ({ text }) => Effect.succeed(Tool.result(`echo: ${text}`))
})

interface Harness {
  readonly script: Script
  readonly tools?: ReadonlyArray<Tool.Tool<any, never>>
  readonly hooks?: Handlers
  readonly permissions?: Layer.Layer<Permissions>
  readonly options?: Partial<Session.Options>
}

const services = (harness: Harness) =>
  Layer.mergeAll(
    ScriptedModel.layer(harness.script),
    ToolRegistry.layer(...(harness.tools ?? [Echo])),
    harness.permissions ?? Permissions.layerPermissive(),
    Hooks.layerWith({ handlers: harness.hooks ?? {} }),
    Layer.succeed(McpClient, McpClient.none),
    Environment.layerStatic(),
    Memory.layerStatic([]),
    Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(SessionStore.layerMemory()))
  )

const sessionLayer = (harness: Harness) =>
  Session.layer({ cwd: "/project", systemPrompt: "You are a test.", sessionId: "s-1", ...harness.options }).pipe(
    Layer.provideMerge(services(harness))
  )

/** The events' tags, raw stream events left out and a run of the same tag (text deltas) counted once. */
const tagsOf = (events: ReadonlyArray<AgentEvent>) =>
  events
    .filter((event) => event._tag !== "StreamDelta")
    .map((event) => event._tag)
    .filter((tag, i, all) => i === 0 || all[i - 1] !== tag)

/** Submits `prompt` and collects the session's events up to its turn's end. */
const turnEvents = (session: Session.Interface, prompt: string) =>
  Effect.gen(function* () {
    const events = yield* session.subscribe
    const collecting = yield* Effect.forkChild(
      Stream.runCollect(events.pipe(Stream.takeUntil((event: AgentEvent) => event._tag === "TurnEnded")))
    )
    const turn = yield* session.submit(prompt)
    const result = yield* turn.result
    return { result, events: yield* Fiber.join(collecting) }
  })

describe("Session", () => {
  it.effect("answers prompts in turn, each with the conversation so far; SessionStart runs once", () => {
    let starts = 0
    return Effect.gen(function* () {
      const session = yield* Session.Session
      const first = yield* turnEvents(session, "one")
      expect(first.result).toMatchObject({ _tag: "Result", subtype: "success", result: "first answer" })
      expect(tagsOf(first.events)).toEqual(["TurnStarted", "SessionStarted", "TextDelta", "AssistantTurn", "Result", "TurnEnded"])
      const second = yield* turnEvents(session, "two")
      expect(second.result.result).toBe("second answer")
      expect(second.events.map((event) => event._tag)).not.toContain("SessionStarted")
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests[1]?.messages.map((message: { readonly role: string }) => message.role)).toEqual(["user", "assistant", "user"])
      expect((yield* session.history).length).toBe(4)
      expect(starts).toBe(1)
      const status = yield* session.status
      expect(status).toMatchObject({ busy: false, queued: 0, sessionId: "s-1" })
      expect(status.totals.responses).toBe(2)
    }).pipe(
      Effect.provide(
        sessionLayer({
          script: [textTurn("first answer"), textTurn("second answer")],
          hooks: { sessionStart: () => Effect.sync(() => void starts++).pipe(Effect.as({})) }
        })
      )
    )
  })
})
