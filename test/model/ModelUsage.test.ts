import { describe, expect, it } from "vitest"
import * as ModelUsage from "../../src/model/ModelUsage.js"

describe("ModelUsage", () => {
  it("sums a model's responses, tokens, searches and cost", () => {
    const first = ModelUsage.add(undefined, "claude-sonnet-4-5", { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: null }, 0.5)
    const second = ModelUsage.add(
      first,
      "claude-sonnet-4-5",
      { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 7, cache_creation_input_tokens: 3, server_tool_use: { web_search_requests: 2 } },
      0.25
    )
    expect(second).toEqual({
      inputTokens: 11,
      outputTokens: 7,
      cacheReadInputTokens: 7,
      cacheCreationInputTokens: 3,
      webSearchRequests: 2,
      costUSD: 0.75,
      contextWindow: 200_000
    })
  })

  it("an unknown model stays unpriced, a known one priced, over every response; the context window is kept", () => {
    const usage = { input_tokens: 1, output_tokens: 1 }
    const responses = (model: string) =>
      [1, 2, 3].reduce<ReturnType<typeof ModelUsage.add> | undefined>((sum) => ModelUsage.add(sum, model, usage, 0), undefined)
    expect(responses("qwen2.5-coder:7b")).toMatchObject({ inputTokens: 3, unpriced: true, contextWindow: 200_000 })
    expect(responses("claude-sonnet-4-5")).not.toHaveProperty("unpriced")
    expect(responses("claude-sonnet-4-5[1m]")).toMatchObject({ inputTokens: 3, contextWindow: 1_000_000 })
  })

  it("records the 1M-token variants' context window", () => {
    const usage = { input_tokens: 1, output_tokens: 1 }
    expect(ModelUsage.add(undefined, "claude-sonnet-4-5[1m]", usage, 0).contextWindow).toBe(1_000_000)
    expect(ModelUsage.add(undefined, "claude-opus-4-1", usage, 0).contextWindow).toBe(200_000)
  })
})
