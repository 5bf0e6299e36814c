/** What the Session and Subagents tests build alike: two tools, and a Session over scripted services. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Session from "../../src/agent/Session.js"
import { Transcript } from "../../src/agent/Transcript.js"
import { Environment } from "../../src/context/Environment.js"
import { Memory } from "../../src/context/Memory.js"
import { Settings } from "../../src/context/Settings.js"
import type { AgentEvent } from "../../src/domain/AgentEvent.js"
import type { ContentBlock, ToolResultBlock } from "../../src/domain/Content.js"
import type { MessageParam } from "../../src/domain/Message.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import type { Handlers } from "../../src/hooks/Hooks.js"
import { McpClient } from "../../src/mcp/McpClient.js"
import { Permissions, type Options as PermissionsOptions } from "../../src/permissions/Permissions.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Tool from "../../src/tools/Tool.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"

export const Echo = Tool.fromEffect({
  name: "Echo",
  description: "Echoes its text.",
  input: Schema.Struct({ text: Schema.String }),
  readOnly: true,
  run: ({ text }) => Effect.succeed(Tool.result(`echo: ${text}`))
})

/** Not read-only: the real permissions ask about it in the default mode, plan mode refuses it. */
export const Shout = Tool.fromEffect({
  name: "Shout",
  description: "Shouts its text.",
  input: Schema.Struct({ text: Schema.String }),
  run: ({ text }) => Effect.succeed(Tool.result(`shout: ${text.toUpperCase()}`))
})

export interface Harness {
  readonly script: Script
  /** Default: Echo and Shout. */
  readonly tools?: ReadonlyArray<Tool.Tool<any, never>>
  readonly hooks?: Handlers
  /** Default: permissive. */
  readonly permissions?: Layer.Layer<Permissions>
  readonly options?: Partial<Session.Options>
}

/** The real permissions over settings given as a value, in `dir` (its `.claude` files are where rules are written). */
export const realPermissions = (dir: string, options: PermissionsOptions = {}) =>
  Permissions.layer(options).pipe(Layer.provide(Settings.layerFromValue({}, { projectDir: dir, home: dir })))

/** The services a Session needs, scripted or in memory. */
export const services = (harness: Harness) =>
  Layer.mergeAll(
    ScriptedModel.layer(harness.script),
    ToolRegistry.layer(...(harness.tools ?? [Echo, Shout])),
    harness.permissions ?? Permissions.layerPermissive(),
    Hooks.layerWith({ handlers: harness.hooks ?? {} }),
    Layer.succeed(McpClient, McpClient.none),
    Environment.layerStatic(),
    Memory.layerStatic([]),
    Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(SessionStore.layerMemory()))
  )

/** A Session in /project (id s-1) over `services`; `base` adds to the defaults, the harness's options win. */
export const sessionLayer = (harness: Harness, base: Partial<Session.Options> = {}) =>
  Session.layer({ cwd: "/project", systemPrompt: "You are a test.", sessionId: "s-1", ...base, ...harness.options }).pipe(
    Layer.provideMerge(services(harness))
  )

/** The tool_result blocks of a history, in order. */
export const toolResultsIn = (history: ReadonlyArray<MessageParam>): ReadonlyArray<ToolResultBlock> =>
  history.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.filter((block: ContentBlock): block is ToolResultBlock => block.type === "tool_result")
  )

/** Collects the session's events from now to its turn's end, in the background: join the fiber for them. */
export const collectTurn = (session: Session.Interface) =>
  Effect.flatMap(session.subscribe, (events) =>
    Effect.forkChild(Stream.runCollect(events.pipe(Stream.takeUntil((event: AgentEvent) => event._tag === "TurnEnded"))))
  )
