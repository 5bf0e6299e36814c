import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Agent from "../../src/agent/Agent.js"
import { Transcript } from "../../src/agent/Transcript.js"
import type { AgentEvent, ToolResults } from "../../src/domain/AgentEvent.js"
import type { ToolResultBlock } from "../../src/domain/Content.js"
import { isToolResult, isToolUse } from "../../src/domain/Content.js"
import * as TranscriptEntry from "../../src/domain/Transcript.js"
import type { StreamEvent } from "../../src/domain/StreamEvent.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import type { Interface as HooksInterface } from "../../src/hooks/Hooks.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Tool from "../../src/tools/Tool.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { resultOf } from "./events.js"
import { Echo } from "./support.js"

const Fail = Tool.fromEffect({
  name: "Fail",
  description: "Always fails.",
  input: Schema.Struct({}),
  run: () => Effect.fail(Tool.fail("Fail", "it failed, as it always does"))
})

/** A tool whose call never ends: `started` completes when it runs, `interrupted` when it is interrupted. */
const hangingTool = (name: string, started: Deferred.Deferred<void>, interrupted: Deferred.Deferred<void>) =>
  Tool.fromEffect({
    name,
    description: "never ends",
    input: Schema.Struct({}),
    run: () =>
      Deferred.succeed(started, undefined).pipe(
        Effect.andThen(Effect.never),
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
  })

interface Harness {
  readonly script: Script
  readonly tools?: ReadonlyArray<Tool.Tool<any, never>>
  readonly denied?: ReadonlyArray<string>
  readonly hooks?: Partial<HooksInterface>
  readonly options?: Partial<Agent.RunOptions>
}

const layers = (harness: Harness) =>
  Layer.mergeAll(
    ScriptedModel.layer(harness.script),
    ToolRegistry.layer(...(harness.tools ?? [Echo, Fail])),
    Permissions.layerPermissive({ deniedRules: harness.denied ?? [] }),
    Hooks.layerWith({ handlers: harness.hooks ?? {} }),
    Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(SessionStore.layerMemory()))
  )

// Requests are compared as the conversation holds them: the cache breakpoints are Request.test.ts's subject.
const runAgent = (harness: Harness) =>
  Agent.run({
    prompt: "hello",
    cwd: "/project",
    systemPrompt: "You are a test.",
    sessionId: "s-1",
    promptCaching: false,
    ...harness.options
  }).pipe(Stream.runCollect)

const toolResultsOf = (events: ReadonlyArray<AgentEvent>): ReadonlyArray<ToolResultBlock> =>
  events
    .filter((event): event is ToolResults => event._tag === "ToolResults")
    .flatMap((event) => (typeof event.message.content === "string" ? [] : event.message.content.filter(isToolResult)))

describe("Agent.run", () => {
  it.effect("answers a prompt with text in one turn", () =>
    Effect.gen(function* () {
      const events = yield* runAgent({ script: [textTurn("Hi there.")] })
      expect(events[0]?._tag).toBe("SessionStarted")
      expect(events.some((event) => event._tag === "StreamDelta")).toBe(true)
      const result = resultOf(events)
      expect(result).toMatchObject({ subtype: "success", isError: false, result: "Hi there.", numTurns: 1, sessionId: "s-1" })
      expect(result.usage.output_tokens).toBeGreaterThan(0)
      expect(result.totalCostUsd).toBeGreaterThan(0)
    }).pipe(Effect.provide(layers({ script: [textTurn("Hi there.")] })))
  )

  it.effect("with streamDeltas off, emits the same events without the raw stream's", () => {
    const script = [ScriptTurn.blocks([text("Echoing."), toolUse("Echo", { text: "ping" }, "t1")]), textTurn("Done.")]
    return Effect.gen(function* () {
      // The same seed gives both runs the same uuids; the TestClock, the same durations.
      const withDeltas = yield* runAgent({ script }).pipe(Effect.provide(layers({ script })), Random.withSeed("deltas"))
      const without = yield* runAgent({ script, options: { streamDeltas: false } }).pipe(
        Effect.provide(layers({ script })),
        Random.withSeed("deltas")
      )
      expect(withDeltas.filter((event) => event._tag === "StreamDelta").length).toBeGreaterThan(5)
      expect(without.some((event) => event._tag === "StreamDelta")).toBe(false)
      const withoutDeltas = (events: ReadonlyArray<AgentEvent>) => events.filter((event) => event._tag !== "StreamDelta")
      expect(without).toEqual(withoutDeltas(withDeltas))
      expect(resultOf(without)).toMatchObject({ subtype: "success", result: "Done.", numTurns: 2 })
    })
  })

  it.effect("runs a tool and sends its result back in the next request", () => {
    const script = [ScriptTurn.blocks([text("Echoing."), toolUse("Echo", { text: "ping" }, "t1")]), textTurn("Done.")]
    return Effect.gen(function* () {
      const events = yield* runAgent({ script })
      expect(toolResultsOf(events)).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "echo: ping" }])
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "Done.", numTurns: 2 })
      const requests = yield* ScriptedModel.use((model) => model.requests)
      expect(requests).toHaveLength(2)
      expect(requests[0]?.system).toBe("You are a test.")
      expect(requests[0]?.tools?.map((tool) => tool.name)).toEqual(["Echo", "Fail"])
      expect(requests[0]?.tools?.[0]?.input_schema).toMatchObject({ type: "object", required: ["text"] })
      const second = requests[1]?.messages ?? []
      expect(second.map((message) => message.role)).toEqual(["user", "assistant", "user"])
      expect(second[2]?.content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "echo: ping" }])
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("answers schema-violating input, unknown tools and tool errors with is_error results, and goes on", () => {
    const script = [
      ScriptTurn.blocks([
        toolUse("Echo", { text: 42 }, "bad"),
        toolUse("Nope", {}, "unknown"),
        toolUse("Fail", {}, "fails")
      ]),
      textTurn("Recovered.")
    ]
    return Effect.gen(function* () {
      const events = yield* runAgent({ script })
      const results = toolResultsOf(events)
      expect(results.map((block) => [block.tool_use_id, block.is_error])).toEqual([
        ["bad", true],
        ["unknown", true],
        ["fails", true]
      ])
      expect(results[0]?.content).toMatch(/Invalid input for Echo: text: Expected string, actual 42/)
      expect(results[1]?.content).toMatch(/No such tool: Nope/)
      expect(results[2]?.content).toBe("it failed, as it always does")
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "Recovered." })
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("runs adjacent read-only calls concurrently and the others in order", () =>
    Effect.gen(function* () {
      const a = yield* Deferred.make<void>()
      const b = yield* Deferred.make<void>()
      const log: Array<string> = []
      // Each waits for the other: run one after the other, they would never finish.
      const waiter = (name: string, mine: Deferred.Deferred<void>, theirs: Deferred.Deferred<void>) =>
        Tool.fromEffect({
          name,
          description: name,
          input: Schema.Struct({}),
          readOnly: true,
          run: () =>
            Effect.gen(function* () {
              log.push(`${name} start`)
              yield* Deferred.succeed(mine, undefined)
              yield* Deferred.await(theirs)
              log.push(`${name} end`)
              return Tool.result(name)
            })
        })
      const writer = Tool.fromEffect({
        name: "Writer",
        description: "writes",
        input: Schema.Struct({}),
        run: () => Effect.sync(() => (log.push("Writer"), Tool.result("written")))
      })
      const script = [
        ScriptTurn.blocks([toolUse("A", {}, "a"), toolUse("B", {}, "b"), toolUse("Writer", {}, "w"), toolUse("A2", {}, "a2")]),
        textTurn("ok")
      ]
      const a2 = Tool.fromEffect({
        name: "A2",
        description: "after",
        input: Schema.Struct({}),
        readOnly: true,
        run: () => Effect.sync(() => (log.push("A2"), Tool.result("a2")))
      })
      const events = yield* runAgent({ script }).pipe(
        Effect.provide(layers({ script, tools: [waiter("A", a, b), waiter("B", b, a), writer, a2] }))
      )
      expect(log.slice(0, 2).sort()).toEqual(["A start", "B start"])
      expect(log.slice(4)).toEqual(["Writer", "A2"])
      expect(toolResultsOf(events).map((block) => block.content)).toEqual(["A", "B", "written", "a2"])
    })
  )

  it.effect("ends with error_max_turns, still answering the last turn's calls", () => {
    const script = [ScriptTurn.blocks([toolUse("Echo", { text: "x" }, "t1")]), textTurn("never reached")]
    return Effect.gen(function* () {
      const events = yield* runAgent({ script, options: { maxTurns: 1 } })
      expect(toolResultsOf(events).map((block) => block.tool_use_id)).toEqual(["t1"])
      expect(resultOf(events)).toMatchObject({ subtype: "error_max_turns", isError: true, numTurns: 1 })
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("denies calls the rules deny, reports them, and goes on", () => {
    const script = [ScriptTurn.blocks([toolUse("Echo", { text: "x" }, "t1")]), textTurn("ok")]
    return Effect.gen(function* () {
      const events = yield* runAgent({ script })
      const [denied] = toolResultsOf(events)
      expect(denied).toMatchObject({ tool_use_id: "t1", is_error: true })
      expect(denied?.content).toMatch(/denied/)
      expect(resultOf(events).permissionDenials).toEqual([{ tool_name: "Echo", tool_use_id: "t1", tool_input: { text: "x" } }])
    }).pipe(Effect.provide(layers({ script, denied: ["Echo"] })))
  })

  it.effect("applies PreToolUse blocks and updated input, and a Stop hook that asks to go on", () => {
    const script = [
      ScriptTurn.blocks([toolUse("Echo", { text: "blocked" }, "t1"), toolUse("Echo", { text: "original" }, "t2")]),
      textTurn("first stop"),
      textTurn("second stop")
    ]
    const hooks: Partial<HooksInterface> = {
      preToolUse: (input) =>
        Effect.succeed(
          input.toolUseId === "t1" ? { blocked: "not this one" } : { updatedInput: { text: "rewritten" } }
        ),
      stop: ({ stopHookActive }) => Effect.succeed(stopHookActive ? {} : { continueWith: "Check your work once more." })
    }
    return Effect.gen(function* () {
      const events = yield* runAgent({ script })
      const results = toolResultsOf(events)
      expect(results[0]).toMatchObject({ tool_use_id: "t1", is_error: true })
      expect(results[0]?.content).toMatch(/not this one/)
      expect(results[1]).toEqual({ type: "tool_result", tool_use_id: "t2", content: "echo: rewritten" })
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "second stop", numTurns: 3 })
      const requests = yield* ScriptedModel.use((model) => model.requests)
      expect(requests[2]?.messages.at(-1)).toEqual({
        role: "user",
        content: [{ type: "text", text: "Stop hook feedback:\nCheck your work once more." }]
      })
    }).pipe(Effect.provide(layers({ script, hooks })))
  })

  it.effect("turns an API error into an error result", () => {
    const script = [ScriptTurn.status(400)]
    return Effect.gen(function* () {
      const events = yield* runAgent({ script })
      const result = resultOf(events)
      expect(result).toMatchObject({ subtype: "error_during_execution", isError: true })
      expect(result.result).toMatch(/API error/)
      // No response: every usage field a reader may sum is there, at zero, and no model is listed.
      expect(result.usage).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })
      expect(result.modelUsage).toEqual({})
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("answers a tool call whose input was cut off by max_tokens without running it", () => {
    const events: ReadonlyArray<StreamEvent> = [
      {
        type: "message_start",
        message: {
          id: "m1",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 }
        }
      },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "cut", name: "Echo", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"text": "unfinis' } },
      { type: "message_delta", delta: { stop_reason: "max_tokens", stop_sequence: null }, usage: { output_tokens: 10 } },
      { type: "message_stop" }
    ]
    const script = [ScriptTurn.events(events), textTurn("ok")]
    return Effect.gen(function* () {
      const out = yield* runAgent({ script })
      const [cut] = toolResultsOf(out)
      expect(cut).toMatchObject({ tool_use_id: "cut", is_error: true })
      expect(cut?.content).toMatch(/cut off/)
      expect(resultOf(out).subtype).toBe("success")
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("abort during a tool call: the call is interrupted, answered as cancelled, and a result still comes", () =>
    Effect.gen(function* () {
      const started = yield* Deferred.make<void>()
      const released = yield* Deferred.make<void>()
      const Hang = hangingTool("Hang", started, released)
      const abort = yield* Deferred.make<void>()
      const script = [ScriptTurn.blocks([toolUse("Hang", {}, "h1")]), textTurn("never")]
      const fiber = yield* runAgent({ script, options: { abort } }).pipe(
        Effect.provide(layers({ script, tools: [Hang] })),
        Effect.forkChild
      )
      yield* Deferred.await(started)
      yield* Deferred.succeed(abort, undefined)
      const events = yield* Fiber.join(fiber)
      yield* Deferred.await(released) // the call was interrupted (the test times out if it never is)
      const [cancelled] = toolResultsOf(events)
      expect(cancelled).toMatchObject({ tool_use_id: "h1", is_error: true })
      expect(resultOf(events)).toMatchObject({ subtype: "error_during_execution", isError: true, result: "Interrupted by the user." })
    })
  )

  it.effect("records the run in the session store as a chain where every tool_use has its tool_result", () => {
    const script = [ScriptTurn.blocks([toolUse("Echo", { text: "x" }, "t1")]), textTurn("Done.")]
    return Effect.gen(function* () {
      yield* runAgent({ script })
      const entries = yield* SessionStore.use((store) => store.load("s-1"))
      expect(entries.map((entry) => entry.type)).toEqual(["user", "assistant", "user", "assistant"])
      entries.forEach((entry, i) => expect(entry.parentUuid).toBe(i === 0 ? null : entries[i - 1]?.uuid))
      const toolUses = entries.flatMap((entry) =>
        TranscriptEntry.isAssistant(entry) ? entry.message.content.filter(isToolUse).map((block) => block.id) : []
      )
      const answered = entries.flatMap((entry) =>
        TranscriptEntry.isUser(entry) && typeof entry.message.content !== "string"
          ? entry.message.content.filter(isToolResult).map((block) => block.tool_use_id)
          : []
      )
      expect(answered).toEqual(toolUses)
      expect(toolUses).toEqual(["t1"])
      expect(Option.isSome(yield* SessionStore.use((store) => store.latest("/project")))).toBe(true)
    }).pipe(Effect.provide(layers({ script })))
  })

  it.effect("resumes a recorded session: the stored history sent, its chain continued, SessionStart told `resume`", () => {
    // The first run records a call and its result, then the API fails: the session ends with a user message.
    const script = [ScriptTurn.blocks([toolUse("Echo", { text: "x" }, "t1")]), ScriptTurn.status(400), textTurn("Resumed.")]
    const sources: Array<string> = []
    const hooks = { sessionStart: (input: { readonly source: string }) => Effect.sync(() => void sources.push(input.source)).pipe(Effect.as({})) }
    return Effect.gen(function* () {
      yield* runAgent({ script })
      const store = yield* SessionStore
      const stored = yield* store.resume("s-1")
      expect(stored.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"])

      const events = yield* runAgent({
        script,
        options: { prompt: "go on", history: stored.messages, resume: { leafUuid: stored.leafUuid } }
      })
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "Resumed.", sessionId: "s-1", numTurns: 1 })
      expect(sources).toEqual(["startup", "resume"])
      // The prompt joins the stored tool results: roles still alternate.
      const sent = (yield* ScriptedModel.use((model) => model.requests))[2]?.messages
      expect(sent?.slice(0, 2)).toEqual(stored.messages.slice(0, 2))
      expect(sent?.[2]).toEqual({
        role: "user",
        content: [expect.objectContaining({ type: "tool_result", tool_use_id: "t1", content: "echo: x" }), text("go on")]
      })
      expect(sent).toHaveLength(3)
      const entries = yield* store.load("s-1")
      const added = entries.slice(3)
      expect(added.map((entry) => entry.type)).toEqual(["user", "assistant"])
      expect(added[0]?.parentUuid).toBe(stored.leafUuid)
      // Read back, the session is the conversation the model saw, then its answer.
      expect((yield* store.resume("s-1")).messages).toEqual([...(sent ?? []), { role: "assistant", content: [text("Resumed.")] }])
    }).pipe(Effect.provide(layers({ script, hooks })))
  })

  it.effect("a resumed run's totalCostUsd is the session's whole cost; usage and numTurns are this run's", () => {
    const script = [textTurn("One."), textTurn("Two.")]
    return Effect.gen(function* () {
      const first = resultOf(yield* runAgent({ script }))
      const stored = yield* (yield* SessionStore).resume("s-1")
      expect(stored.totalCostUSD).toBeCloseTo(first.totalCostUsd, 12)
      const events = yield* runAgent({
        script,
        options: { prompt: "go on", history: stored.messages, resume: { leafUuid: stored.leafUuid, costUSD: stored.totalCostUSD } }
      })
      const second = resultOf(events)
      const after = yield* (yield* SessionStore).resume("s-1")
      const thisRun = after.totalCostUSD - stored.totalCostUSD
      expect(thisRun).toBeGreaterThan(0)
      expect(second.totalCostUsd).toBeCloseTo(stored.totalCostUSD + thisRun, 12)
      expect(second.numTurns).toBe(1)
      expect(second.usage.input_tokens).toBe(after.usage.input_tokens - first.usage.input_tokens)
    }).pipe(Effect.provide(layers({ script })))
  })
})

describe("Agent.run's time", () => {
  it.effect("durations are the Clock's: the Result's, the API's and PostToolUse's, to the millisecond", () => {
    const script = [ScriptTurn.blocks([toolUse("Slow", {}, "s1")]), ScriptTurn.blocks([text("Done.")], { delay: "100 millis" })]
    const Slow = Tool.fromEffect({
      name: "Slow",
      description: "takes three seconds",
      input: Schema.Struct({}),
      run: () => Effect.as(Effect.sleep("3 seconds"), Tool.result("slept"))
    })
    const posted: Array<number | undefined> = []
    const hooks = { postToolUse: (input: { readonly durationMs?: number }) => Effect.sync(() => void posted.push(input.durationMs)).pipe(Effect.as({})) }
    return Effect.gen(function* () {
      const running = yield* Effect.forkChild(runAgent({ script }))
      yield* TestClock.adjust("1 minute")
      const events = yield* Fiber.join(running)
      // The second response's events each come 100 ms after the one before; the first response's come at once.
      const turns = events.filter((event) => event._tag === "StreamDelta" || event._tag === "AssistantTurn")
      const secondTurn = turns.slice(turns.findIndex((event) => event._tag === "AssistantTurn") + 1)
      const delayed = secondTurn.filter((event) => event._tag === "StreamDelta").length
      expect(delayed).toBeGreaterThan(3)
      expect(posted).toEqual([3000])
      expect(resultOf(events)).toMatchObject({ durationMs: 3000 + delayed * 100, durationApiMs: delayed * 100 })
    }).pipe(Effect.provide(layers({ script, tools: [Slow], hooks })))
  })

  it.effect("the transcript's timestamps are the Clock's", () => {
    const script = [textTurn("Hi.")]
    return Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 9, 1, 12, 0, 0))
      yield* runAgent({ script })
      const entries = yield* SessionStore.use((store) => store.load("s-1"))
      expect(entries.map((entry) => entry.timestamp)).toEqual(["2026-10-01T12:00:00.000Z", "2026-10-01T12:00:00.000Z"])
    }).pipe(Effect.provide(layers({ script })))
  })
})

describe("Agent.run consumed event by event", () => {
  const options = { prompt: "hello", cwd: "/project", systemPrompt: "You are a test.", sessionId: "s-1", promptCaching: false }

  it.effect("a consumer that fails stops the run (its tool call interrupted) and is the failure", () => {
    const script = [ScriptTurn.blocks([toolUse("Wait", {}, "w1")]), textTurn("never")]
    return Effect.gen(function* () {
      const running = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const Wait = hangingTool("Wait", running, interrupted)
      const handed: Array<string> = []
      // The handler fails on the turn that asked for the tool, once the loop (running ahead) has started it.
      const failure = yield* Stream.runForEach(Agent.run(options), (event) => {
        handed.push(event._tag)
        return event._tag === "AssistantTurn" ? Deferred.await(running).pipe(Effect.andThen(Effect.fail("reader gone" as const))) : Effect.void
      }).pipe(Effect.flip, Effect.provide(layers({ script, tools: [Wait] })))
      expect(failure).toBe("reader gone")
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
      expect(handed).not.toContain("Result")
    })
  })
})
