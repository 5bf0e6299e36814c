/**
 * Compaction in the loop, against ScriptedModel: the threshold from the model table, the auto-compaction step
 * (PreCompact hooks, the summary request, the boundary and summary in the transcript, the Compacted event, the
 * tools forgetting what the model had seen), `prompt is too long` compacted and retried once, and a resumed
 * transcript starting from the summary.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Agent from "../../src/agent/Agent.js"
import * as Compaction from "../../src/agent/Compaction.js"
import * as Request from "../../src/agent/Request.js"
import { Transcript } from "../../src/agent/Transcript.js"
import type { AgentEvent, Compacted } from "../../src/domain/AgentEvent.js"
import * as Content from "../../src/domain/ContentGuards.js"
import type { MessageParam } from "../../src/domain/Message.js"
import { isSystem, isUser } from "../../src/domain/TranscriptGuards.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import { InvalidRequestError, isPromptTooLong, promptTokensOf, ServerError } from "../../src/model/ApiError.js"
import * as Models from "../../src/model/Models.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import * as SessionState from "../../src/session/SessionState.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { errorBody, ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { PromptCache } from "../../src/testing/PromptCache.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import { FileState } from "../../src/tools/FileState.js"
import * as Tool from "../../src/tools/Tool.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { resultOf } from "./events.js"

/** Records a read of `path` in the session's FileState (as Read does). */
const Remember = Tool.fromEffect({
  name: "Remember",
  description: "Marks a file as read.",
  input: Schema.Struct({ path: Schema.String }),
  readOnly: true,
  run: ({ path }) =>
    FileState.use((files) => files.recordRead(path, { mtimeMs: 1, size: 1 })).pipe(Effect.as(Tool.result("remembered")))
})

/** Says whether FileState still knows `path` (as Edit asks before it edits). */
const Known = Tool.fromEffect({
  name: "Known",
  description: "Tells whether a file was read.",
  input: Schema.Struct({ path: Schema.String }),
  readOnly: true,
  run: ({ path }) =>
    FileState.use((files) => files.get(path)).pipe(Effect.map((record) => Tool.result(Option.isSome(record) ? "known" : "never read")))
})

/** Answers 40,000 characters (some 10k tokens by the loop's estimate). */
const Big = Tool.fromEffect({
  name: "Big",
  description: "Answers a large result.",
  input: Schema.Struct({}),
  readOnly: true,
  run: () => Effect.succeed(Tool.result("x".repeat(40_000)))
})

const layers = (script: Script, hooks: Layer.Layer<Hooks> = Hooks.layerNone) =>
  Layer.mergeAll(
    ScriptedModel.layer(script),
    ToolRegistry.layer(Remember, Known, Big).pipe(Layer.provide(FileState.layer)),
    Permissions.layerPermissive(),
    hooks,
    Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(SessionStore.layerMemory()))
  )

const collect = (options: Partial<Agent.RunOptions> = {}) =>
  Agent.run({ prompt: "go", cwd: "/project", systemPrompt: "test", sessionId: "s-compact", streamDeltas: false, ...options }).pipe(Stream.runCollect)

const compactedOf = (events: ReadonlyArray<AgentEvent>): ReadonlyArray<Compacted> =>
  events.filter((event): event is Compacted => event._tag === "Compacted")

const textOf = (message: MessageParam | undefined): string =>
  message === undefined ? "" : typeof message.content === "string" ? message.content : Content.joinText(message.content)

/** A response that reports a context of `tokens` (what a nearly full conversation reports). */
const near = (tokens: number) => ({ usage: { input_tokens: tokens - 1_000, cache_read_input_tokens: 1_000 } })

const summaryTurn = textTurn("<analysis>thinking it over</analysis>\n<summary>The user asked to go; Remember ran on a.txt.</summary>")
const tooLong = ScriptTurn.status(400, { body: errorBody(400, "prompt is too long: 210000 tokens > 200000 maximum") })

describe("the context window and the threshold", () => {
  it("takes the window from the model table: 1M for [1m], 200k for every other model, known or not", () => {
    expect(Models.contextWindowOf("claude-sonnet-5-5")).toBe(200_000)
    expect(Models.contextWindowOf(Models.resolve("sonnet[1m]"))).toBe(1_000_000)
    expect(Models.contextWindowOf("qwen2.5-coder:7b")).toBe(200_000)
  })
  it("compacts at the window less the next response's max_tokens and a 13k margin", () => {
    expect(Models.autoCompactThreshold(200_000, 32_000)).toBe(155_000)
    expect(Models.autoCompactThreshold(1_000_000, 32_000)).toBe(955_000)
    // A max_tokens larger than a quarter of the window counts as a quarter.
    expect(Models.autoCompactThreshold(200_000, 128_000)).toBe(137_000)
    expect(Agent.compactThreshold({}, "claude-opus-5-5[1m]")).toBe(955_000)
    expect(Agent.compactThreshold({ contextWindow: 100_000, maxTokens: 8_000 }, "claude-opus-5-5")).toBe(79_000)
  })
})

describe("telling a conversation too long for the window", () => {
  const fields = { status: 400, requestId: null }
  it("knows both of the API's refusals, and nothing else", () => {
    const tooLongPrompt = new InvalidRequestError({ ...fields, message: "400 invalid_request_error: prompt is too long: 210,000 tokens > 200000 maximum" })
    const noRoom = new InvalidRequestError({
      ...fields,
      message: "400 invalid_request_error: input length and `max_tokens` exceed context limit: 188000 + 32000 > 200000, decrease input length or `max_tokens` and try again"
    })
    expect([tooLongPrompt, noRoom].map(isPromptTooLong)).toEqual([true, true])
    expect([tooLongPrompt, noRoom].map((error) => promptTokensOf(error.message))).toEqual([210_000, 188_000])
    expect(isPromptTooLong(new InvalidRequestError({ ...fields, message: "400 invalid_request_error: messages: field required" }))).toBe(false)
    expect(isPromptTooLong(new ServerError({ ...fields, status: 500, message: "prompt is too long" }))).toBe(false)
  })
})

describe("the summary request's parts", () => {
  it("keeps a trailing prompt for after the summary and summarizes tool results with their calls", () => {
    const prompt: MessageParam = { role: "user", content: [Content.text("next")] }
    const answer: MessageParam = { role: "assistant", content: [Content.text("ok")] }
    expect(Compaction.split([prompt, answer, prompt])).toEqual({ summarized: [prompt, answer], pending: prompt })
    const results: MessageParam = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] }
    expect(Compaction.split([prompt, answer, results])).toEqual({ summarized: [prompt, answer, results], pending: undefined })
  })
  it("takes the <summary> out of the answer", () => {
    const message = { id: "m", type: "message" as const, role: "assistant" as const, model: "m", content: [Content.text("<analysis>a</analysis><summary>\nS\n</summary>")], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }
    expect(Compaction.extractSummary(message)).toBe("S")
    expect(Compaction.extractSummary({ ...message, content: [Content.text("<analysis>a</analysis>plain")] })).toBe("plain")
  })
  it("clears old tool results but the latest, and drops the oldest part at a user message", () => {
    const result = (id: string): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "big" }] })
    const call = (id: string): MessageParam => ({ role: "assistant", content: [toolUse("T", {}, id)] })
    const history = [{ role: "user" as const, content: "go" }, call("a"), result("a"), call("b"), result("b")]
    const cleared = Compaction.clearOldToolResults(history, 1)
    expect(JSON.stringify(cleared[2])).toContain(Compaction.clearedResultNote)
    expect(cleared[4]).toEqual(result("b"))
    const dropped = Compaction.dropOldest(history, 0.3)
    expect(dropped[0]?.role).toBe("user")
    expect(JSON.stringify(dropped[0])).not.toContain("tool_result")
    expect(dropped.slice(1)).toEqual([call("b"), result("b")])
  })
})

describe("auto-compaction in the loop", () => {
  it.effect("compacts when the last response reports a context past the threshold, then finishes from the summary", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      const result = resultOf(events)
      expect(result).toMatchObject({ subtype: "success", result: "done" })
      expect(compactedOf(events)).toEqual([{ _tag: "Compacted", uuid: expect.any(String), trigger: "auto", preTokens: expect.any(Number) }])
      expect(compactedOf(events)[0]?.preTokens).toBeGreaterThan(190_000)

      const requests = yield* (yield* ScriptedModel).requests
      expect(requests).toHaveLength(4)
      // The summary request: the conversation so far, the instruction at its end, the same system prompt and tools.
      const summaryRequest = requests[1]
      expect(summaryRequest?.messages).toHaveLength(3)
      expect(textOf(summaryRequest?.messages[2])).toContain("<summary>")
      expect(summaryRequest?.system).toEqual(requests[0]?.system)
      expect(summaryRequest?.tools).toEqual(requests[0]?.tools)
      expect(summaryRequest?.max_tokens).toBe(Compaction.summaryMaxTokens)
      // The run goes on from the summary alone; the tools forgot the file read before.
      const after = requests[2]?.messages ?? []
      expect(after).toHaveLength(1)
      expect(textOf(after[0])).toContain("The user asked to go; Remember ran on a.txt.")
      expect(textOf(after[0])).not.toContain("thinking it over")
      const known = events.filter((event) => event._tag === "ToolResults").at(-1)
      expect(JSON.stringify(known)).toContain("never read")
      // The summary's cost is counted, not as a turn.
      expect(result.numTurns).toBe(3)
      expect(result.usage.input_tokens).toBeGreaterThan(189_000 + (requests.length - 1))

      // The transcript: a boundary starting a fresh chain, the summary after it; resuming starts there.
      const entries = yield* (yield* SessionStore).load("s-compact")
      const boundaryIndex = entries.findIndex((entry) => isSystem(entry) && entry.subtype === "compact_boundary")
      const boundary = entries[boundaryIndex]
      expect(boundary).toMatchObject({
        parentUuid: null,
        logicalParentUuid: entries[boundaryIndex - 1]?.uuid,
        content: "Conversation compacted",
        compactMetadata: { trigger: "auto", preTokens: compactedOf(events)[0]?.preTokens },
        // The summary request's account, for a resumed session's totals.
        model: expect.any(String),
        costUSD: expect.any(Number)
      })
      expect(boundary?.uuid).toBe(compactedOf(events)[0]?.uuid)
      const summary = entries[boundaryIndex + 1]
      expect(summary !== undefined && isUser(summary) && summary["isCompactSummary"] === true && summary.parentUuid === boundary?.uuid).toBe(true)
      const resumed = SessionState.fromEntries(entries)
      expect(resumed.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"])
      expect(resumed.totalCostUSD).toBeCloseTo(result.totalCostUsd)
      // The request carries cache breakpoints; the stored conversation does not.
      expect(resumed.messages[0]).toEqual(Request.withoutCacheControl(after)[0])
      expect(textOf(resumed.messages.at(-1))).toBe("done")
      expect(JSON.stringify(resumed.messages)).not.toContain("\"go\"")
      expect((yield* (yield* SessionStore).resume("s-compact")).messages).toEqual(resumed.messages)
    }).pipe(
      Effect.provide(
        layers([
          ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(190_000)),
          summaryTurn,
          ScriptTurn.blocks([toolUse("Known", { path: "a.txt" })]),
          textTurn("done")
        ])
      )
    )
  )

  it.effect("the summary request reads the previous request's prefix from the prompt cache", () =>
    Effect.gen(function* () {
      yield* collect()
      const [turn, summary] = yield* (yield* ScriptedModel).requests
      if (turn === undefined || summary === undefined) throw new Error("two requests expected")
      const cache = new PromptCache()
      const first = cache.use({ ...turn })
      const read = cache.use({ ...summary })
      // Everything the turn wrote (tools, system prompt, its conversation) is read back; only what follows is new.
      expect(first.cache_creation_input_tokens).toBeGreaterThan(0)
      expect(read.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
    }).pipe(
      Effect.provide(
        layers([
          ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(190_000)),
          summaryTurn,
          textTurn("done")
        ])
      )
    )
  )

  it.effect("runs PreCompact hooks first (trigger auto); their instructions reach the summary request", () => {
    const seen: Array<{ trigger: string; customInstructions: string | null }> = []
    return Effect.gen(function* () {
      const result = resultOf(yield* collect())
      expect(result.subtype).toBe("success")
      expect(seen).toEqual([{ trigger: "auto", customInstructions: null }])
      const requests = yield* (yield* ScriptedModel).requests
      expect(textOf(requests[1]?.messages.at(-1))).toContain("Keep the release codename HERON.")
    }).pipe(
      Effect.provide(
        layers(
          [ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(170_000)), summaryTurn, textTurn("done")],
          Hooks.layerWith({
            handlers: {
              preCompact: (input) =>
                Effect.sync(() => {
                  seen.push({ trigger: input.trigger, customInstructions: input.customInstructions })
                  return { customInstructions: "Keep the release codename HERON." }
                })
            }
          })
        )
      )
    )
  })

  it.effect("counts the tool results sent back since the last response: large ones compact before the request", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      expect(compactedOf(events).map((event) => event.preTokens)).toEqual([expect.any(Number)])
      expect(compactedOf(events)[0]?.preTokens).toBeGreaterThan(155_000)
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "done" })
    }).pipe(Effect.provide(layers([ScriptTurn.blocks([toolUse("Big", {})], near(150_000)), summaryTurn, textTurn("done")])))
  )

  it.effect.each([
    { when: "below the threshold", reported: 150_000, options: {} },
    { when: "past it with auto-compaction off", reported: 190_000, options: { autoCompact: false } }
  ])("does not compact $when: the next request sends the whole conversation", ({ reported, options }) =>
    Effect.gen(function* () {
      const events = yield* collect(options)
      expect(compactedOf(events)).toEqual([])
      expect(resultOf(events).subtype).toBe("success")
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests).toHaveLength(2)
      expect(requests[1]?.messages).toHaveLength(3)
    }).pipe(
      Effect.provide(layers([ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(reported)), textTurn("done")]))
    )
  )

  it.effect("an unusable summary (no text) is still paid for: its usage and cost are counted once", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      expect(compactedOf(events)).toEqual([])
      const result = resultOf(events)
      expect(result).toMatchObject({ subtype: "success", result: "done", numTurns: 2 })
      // 189k of the nearly full turn, 50k of the summary request, 10 of the last turn.
      expect(result.usage.input_tokens).toBe(189_000 + 50_000 + 10)
      expect(Object.values(result.modelUsage).reduce((sum, usage) => sum + usage.inputTokens, 0)).toBe(189_000 + 50_000 + 10)
    }).pipe(
      Effect.provide(
        layers([
          ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(190_000)),
          textTurn("<analysis>nothing to say</analysis>", { usage: { input_tokens: 50_000 } }),
          textTurn("done", { usage: { input_tokens: 10 } })
        ])
      )
    )
  )

  it.effect("a failed summary request leaves the conversation as it was and the run goes on", () =>
    Effect.gen(function* () {
      const events = yield* collect()
      expect(compactedOf(events)).toEqual([])
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "done" })
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests[2]?.messages).toHaveLength(3)
    }).pipe(
      Effect.provide(
        layers([
          ScriptTurn.blocks([toolUse("Remember", { path: "a.txt" })], near(190_000)),
          ScriptTurn.status(500),
          textTurn("done")
        ])
      )
    )
  )
})

describe("prompt is too long", () => {
  it.effect("compacts and sends the request again, once", () =>
    Effect.gen(function* () {
      const history: ReadonlyArray<MessageParam> = [
        { role: "user", content: "earlier" },
        { role: "assistant", content: [Content.text("earlier answer")] }
      ]
      const events = yield* collect({ history, prompt: "the new prompt" })
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "done", numTurns: 1 })
      expect(compactedOf(events).map((event) => event.preTokens)).toEqual([210_000])
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests).toHaveLength(3)
      // The summary covers the earlier conversation; the waiting prompt follows the summary as it was.
      expect(requests[1]?.messages).toHaveLength(3)
      expect(textOf(requests[1]?.messages.at(-1))).not.toContain("the new prompt")
      const retried = requests[2]?.messages ?? []
      expect(retried).toHaveLength(1)
      expect(textOf(retried[0])).toContain("The user asked to go")
      expect(textOf(retried[0]).endsWith("the new prompt")).toBe(true)
      const resumed = SessionState.fromEntries(yield* (yield* SessionStore).load("s-compact"))
      expect(resumed.messages[0]).toEqual(Request.withoutCacheControl(retried)[0])
    }).pipe(Effect.provide(layers([tooLong, summaryTurn, textTurn("done")])))
  )

  it.effect("a second refusal ends the run with an error that says so", () =>
    Effect.gen(function* () {
      const history: ReadonlyArray<MessageParam> = [
        { role: "user", content: "earlier" },
        { role: "assistant", content: [Content.text("earlier answer")] }
      ]
      const result = resultOf(yield* collect({ history }))
      expect(result).toMatchObject({ subtype: "error_during_execution", isError: true })
      expect(result.result).toContain("prompt is too long")
      expect(result.result).toContain("compacted and the request was still too long")
      expect(yield* (yield* ScriptedModel).requests).toHaveLength(3)
    }).pipe(Effect.provide(layers([tooLong, summaryTurn, tooLong])))
  )

  it.effect("a refusal whose compaction fails ends the run with both reasons, the request not sent again", () =>
    Effect.gen(function* () {
      const history: ReadonlyArray<MessageParam> = [
        { role: "user", content: "earlier" },
        { role: "assistant", content: [Content.text("earlier answer")] }
      ]
      const events = yield* collect({ history })
      const result = resultOf(events)
      expect(result).toMatchObject({ subtype: "error_during_execution", isError: true, numTurns: 1 })
      expect(result.result).toMatch(/^API error: .*prompt is too long.*; compacting the conversation failed: /)
      expect(compactedOf(events)).toEqual([])
      expect(yield* (yield* ScriptedModel).requests).toHaveLength(2)
    }).pipe(Effect.provide(layers([tooLong, ScriptTurn.status(500), textTurn("never sent")])))
  )

  it.effect("a summary request that is itself too long is sent again smaller", () =>
    Effect.gen(function* () {
      const history: ReadonlyArray<MessageParam> = [
        { role: "user", content: "earlier" },
        { role: "assistant", content: [toolUse("Remember", { path: "a.txt" }, "r1")] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "r1", content: "a very long result" }] },
        { role: "assistant", content: [Content.text("earlier answer")] }
      ]
      const events = yield* collect({ history })
      expect(resultOf(events)).toMatchObject({ subtype: "success", result: "done" })
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests).toHaveLength(4)
      expect(JSON.stringify(requests[1]?.messages)).toContain("a very long result")
      expect(JSON.stringify(requests[2]?.messages)).not.toContain("a very long result")
      expect(JSON.stringify(requests[2]?.messages)).toContain(Compaction.clearedResultNote)
    }).pipe(Effect.provide(layers([tooLong, tooLong, summaryTurn, textTurn("done")])))
  )
})
