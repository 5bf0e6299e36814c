import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Request from "../../src/agent/Request.js"
import type { MessageParam } from "../../src/domain/Message.js"
import type { ToolDefinition } from "../../src/domain/Request.js"

const tools: ReadonlyArray<ToolDefinition> = [
  { name: "Read", description: "Reads.", input_schema: { type: "object" } },
  { name: "Glob", description: "Finds.", input_schema: { type: "object" } }
]

const settings: Request.Settings = { model: "claude-sonnet-4-5", maxTokens: 100, systemPrompt: "Be brief.", tools, promptCaching: true }

const marker = { type: "ephemeral" }

const conversation: ReadonlyArray<MessageParam> = [
  { role: "user", content: [{ type: "text", text: "look" }] },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hm", signature: "s" },
      { type: "tool_use", id: "t1", name: "Read", input: {} }
    ]
  },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "one" }] },
  {
    role: "assistant",
    content: [
      { type: "tool_use", id: "t2", name: "Glob", input: {} },
      { type: "tool_use", id: "t3", name: "Glob", input: {} }
    ]
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t2", content: "two" },
      { type: "tool_result", tool_use_id: "t3", content: "three" },
      { type: "text", text: "" }
    ]
  }
]

const markers = (value: unknown): number => JSON.stringify(value).split('"cache_control"').length - 1

describe("Request.build", () => {
  it("marks the last tool, the system prompt, the end of the previous request and the newest message's last block", () => {
    const request = Request.build(settings, conversation)
    expect(markers(request)).toBe(Request.maxBreakpoints)
    expect(request.tools?.map((tool) => tool["cache_control"])).toEqual([undefined, marker])
    expect(request.system).toEqual([{ type: "text", text: "Be brief.", cache_control: marker }])
    // The newest message: its last block that can carry a marker (not the empty text).
    expect(request.messages[4]?.content).toEqual([
      { type: "tool_result", tool_use_id: "t2", content: "two" },
      { type: "tool_result", tool_use_id: "t3", content: "three", cache_control: marker },
      { type: "text", text: "" }
    ])
    // The message that ended the previous request.
    expect(request.messages[2]?.content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "one", cache_control: marker }])
    expect(markers(request.messages.slice(0, 2))).toBe(0)
    expect(request).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true })
  })

  it("copies what it marks: the conversation and the registry's tools stay without markers", () => {
    const before = JSON.stringify([conversation, tools])
    const first = Request.build(settings, conversation)
    const second = Request.build(settings, conversation)
    expect(JSON.stringify([conversation, tools])).toBe(before)
    expect(second.tools).toBe(first.tools)
    expect(second.messages[0]).toBe(conversation[0])
  })

  it("a first request: the prompt alone is marked, a string content becomes a marked text block", () => {
    const request = Request.build(settings, [{ role: "user", content: "hello" }])
    expect(request.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hello", cache_control: marker }] }])
    expect(markers(request)).toBe(3)
  })

  it("without caching, nothing is marked and the system prompt is a string; no tools, no tools field", () => {
    const request = Request.build({ ...settings, promptCaching: false }, conversation)
    expect(markers(request)).toBe(0)
    expect(request.system).toBe("Be brief.")
    expect(request.messages).toBe(conversation)
    expect(Request.build({ ...settings, tools: [] }, conversation)).not.toHaveProperty("tools")
    expect(Request.build({ ...settings, systemPrompt: "" }, conversation).system).toBe("")
  })

  it("markers from outside are dropped before they enter the conversation", () => {
    const marked: ReadonlyArray<MessageParam> = [{ role: "user", content: [{ type: "text", text: "x", cache_control: marker }] }]
    expect(Request.withoutCacheControl(marked)).toEqual([{ role: "user", content: [{ type: "text", text: "x" }] }])
    expect(Request.withoutCacheControl(conversation)).toBe(conversation)
  })

  it("markers inside a tool result's content are dropped too: a resumed history never adds breakpoints past four", () => {
    const history: ReadonlyArray<MessageParam> = [
      { role: "user", content: [{ type: "text", text: "read it" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a", cache_control: marker }, { type: "text", text: "b", cache_control: marker }] }
        ]
      },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      { role: "user", content: [{ type: "text", text: "next" }] }
    ]
    const cleaned = Request.withoutCacheControl(history)
    expect(JSON.stringify(cleaned)).not.toContain("cache_control")
    expect(cleaned[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }]
    })
    expect(markers(Request.build(settings, cleaned))).toBeLessThanOrEqual(Request.maxBreakpoints)
  })
})

describe("Request.promptCachingFor", () => {
  const withEnv = (env: Record<string, string>, model: string) =>
    Request.promptCachingFor(model).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

  it.effect("on by default; DISABLE_PROMPT_CACHING turns it off, the per-family variables for their family", () =>
    Effect.gen(function* () {
      expect(yield* withEnv({}, "claude-sonnet-4-5")).toBe(true)
      expect(yield* withEnv({ DISABLE_PROMPT_CACHING: "1" }, "claude-sonnet-4-5")).toBe(false)
      expect(yield* withEnv({ DISABLE_PROMPT_CACHING: "true" }, "anything")).toBe(false)
      expect(yield* withEnv({ DISABLE_PROMPT_CACHING: "0" }, "claude-sonnet-4-5")).toBe(true)
      expect(yield* withEnv({ DISABLE_PROMPT_CACHING_HAIKU: "1" }, "claude-haiku-4-5")).toBe(false)
      expect(yield* withEnv({ DISABLE_PROMPT_CACHING_HAIKU: "1" }, "claude-sonnet-4-5")).toBe(true)
    })
  )
})

describe("Request.appendUser", () => {
  it("adds a message after an assistant one, and joins one that follows a user message, after its blocks", () => {
    const prompt: MessageParam = { role: "user", content: "next" }
    const answered: ReadonlyArray<MessageParam> = [
      { role: "user", content: "look" },
      { role: "assistant", content: [{ type: "text", text: "seen" }] }
    ]
    expect(Request.appendUser(answered, prompt)).toEqual([...answered, prompt])
    expect(Request.appendUser([], prompt)).toEqual([prompt])
    const results: MessageParam = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] }
    expect(Request.appendUser([answered[1] ?? prompt, results], prompt)).toEqual([
      answered[1],
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }, { type: "text", text: "next" }] }
    ])
  })
})
