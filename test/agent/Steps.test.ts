/**
 * The loop's seams: failure kinds (to ToolResults and PostToolUse hooks), a tool's own event for renderers, the
 * run's account summed by SessionState, and abort as a tagged error.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Agent from "../../src/agent/Agent.js"
import { Transcript } from "../../src/agent/Transcript.js"
import type { AgentEvent, ToolResults } from "../../src/domain/AgentEvent.js"
import type { ToolFailureKind } from "../../src/domain/ToolFailure.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import * as SessionState from "../../src/session/SessionState.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Tool from "../../src/tools/Tool.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { resultOf } from "./events.js"

const Missing = Tool.fromEffect({
  name: "Missing",
  description: "Fails as a missing file does.",
  input: Schema.Struct({ path: Schema.String }),
  readOnly: true,
  run: ({ path }) => Effect.fail(Tool.fail("Missing", `File does not exist: ${path}`, "not_found"))
})

const Counter = Tool.fromEffect({
  name: "Counter",
  description: "Reports a count as its own event.",
  input: Schema.Struct({ count: Schema.Number }),
  run: ({ count }) =>
    Effect.succeed(Tool.result(`counted ${count}`, { count }, { _tag: "TodosUpdated", todos: [{ content: `count ${count}`, status: "pending", activeForm: "Counting" }] }))
})

const Forbidden = Tool.fromEffect({
  name: "Forbidden",
  description: "Denied by a rule.",
  input: Schema.Struct({}),
  run: () => Effect.succeed(Tool.result("ran"))
})

const layers = (script: Script, hookLog: Array<{ tool: string; kind: ToolFailureKind | undefined }>) =>
  Layer.mergeAll(
    ScriptedModel.layer(script),
    ToolRegistry.layer(Missing, Counter, Forbidden),
    Permissions.layerPermissive({ deniedRules: ["Forbidden"] }),
    Hooks.layerWith({
      handlers: {
        postToolUseFailure: (input) => Effect.sync(() => void hookLog.push({ tool: input.toolName, kind: input.failureKind })).pipe(Effect.as({}))
      }
    }),
    Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(SessionStore.layerMemory()))
  )

const collect = (options: Partial<Agent.RunOptions> = {}) =>
  Agent.run({ prompt: "go", cwd: "/project", systemPrompt: "test", sessionId: "s-steps", ...options }).pipe(Stream.runCollect)

describe("the loop's steps", () => {
  it.effect("a failed call's kind reaches the ToolResults event and the PostToolUseFailure hook", () => {
    const hookLog: Array<{ tool: string; kind: ToolFailureKind | undefined }> = []
    return Effect.gen(function* () {
      const events = yield* collect()
      const results = events.find((event): event is ToolResults => event._tag === "ToolResults")
      expect(results?.failures).toEqual({
        m1: { kind: "not_found", message: "File does not exist: /nowhere" },
        u1: { kind: "unknown_tool", message: expect.stringContaining("No such tool: Nope") },
        i1: { kind: "invalid_input", message: expect.stringContaining("Invalid input for Missing") },
        d1: { kind: "denied", message: expect.stringContaining("denied") }
      })
      // Only calls that ran reach PostToolUseFailure, with their kind.
      expect(hookLog).toEqual([{ tool: "Missing", kind: "not_found" }])
    }).pipe(
      Effect.provide(
        layers(
          [
            ScriptTurn.blocks([
              toolUse("Missing", { path: "/nowhere" }, "m1"),
              toolUse("Nope", {}, "u1"),
              toolUse("Missing", { path: 3 }, "i1"),
              toolUse("Forbidden", {}, "d1")
            ]),
            textTurn("done")
          ],
          hookLog
        )
      )
    )
  })

  it.effect("a tool's own event follows the turn's ToolResults; the loop does not know the tool", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      const tags = events.map((event) => event._tag).filter((tag) => tag !== "StreamDelta")
      expect(tags).toEqual(["SessionStarted", "AssistantTurn", "ToolResults", "TodosUpdated", "AssistantTurn", "Result"])
      expect(events.find((event) => event._tag === "TodosUpdated")).toEqual({
        _tag: "TodosUpdated",
        todos: [{ content: "count 2", status: "pending", activeForm: "Counting" }]
      })
    }).pipe(Effect.provide(layers([ScriptTurn.blocks([toolUse("Counter", { count: 2 }, "c1")]), textTurn("done")], [])))
  )

  it.effect("the Result's account is SessionState's sum of the recorded responses", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      const result = resultOf(events)
      const state = SessionState.fromEntries(yield* (yield* SessionStore).load("s-steps"))
      expect(result.numTurns).toBe(2)
      expect(state.turns).toBe(2)
      expect(result.totalCostUsd).toBeCloseTo(state.totalCostUSD, 12)
      expect(result.modelUsage).toEqual(state.modelUsage)
      expect(result.usage.input_tokens).toBe(state.usage.input_tokens)
      expect(result.usage.output_tokens).toBe(state.usage.output_tokens)
    }).pipe(
      Effect.provide(
        layers([ScriptTurn.blocks([text("counting"), toolUse("Counter", { count: 1 }, "c1")]), textTurn("done")], [])
      )
    )
  )

  it.effect("abort before the first response ends the run with an interrupted Result", () =>
    Effect.gen(function* () {
      const abort = yield* Deferred.make<void>()
      yield* Deferred.succeed(abort, undefined)
      const result = resultOf(yield* collect({ abort }))
      expect(result).toMatchObject({ subtype: "error_during_execution", isError: true, result: "Interrupted by the user." })
      expect(new Agent.Aborted({ message: "x" })._tag).toBe("Aborted")
    }).pipe(Effect.provide(layers([textTurn("never")], [])))
  )
})
