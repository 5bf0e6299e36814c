import { describe, expect, it } from "vitest"
import { PromptCache } from "../../src/testing/PromptCache.js"

const marker = { type: "ephemeral" }
const text = (value: string, marked = false) => ({ type: "text", text: value, ...(marked ? { cache_control: marker } : {}) })

describe("PromptCache (the mock server's model of the API's cache)", () => {
  it("writes at breakpoints, reads the longest prefix written before, whatever the markers", () => {
    const cache = new PromptCache()
    const system = [text("s".repeat(400), true)]
    const first = cache.use({ model: "m", system, messages: [{ role: "user", content: [text("a".repeat(40), true)] }] })
    expect(first.cache_read_input_tokens).toBe(0)
    expect(first.cache_creation_input_tokens).toBeGreaterThan(100)
    expect(first.input_tokens).toBe(0)
    const written = first.cache_creation_input_tokens
    // The next request: the old last block unmarked, a new one marked.
    const second = cache.use({
      model: "m",
      system,
      messages: [
        { role: "user", content: [text("a".repeat(40))] },
        { role: "assistant", content: [text("b".repeat(40))] },
        { role: "user", content: [text("c".repeat(40), true)] }
      ]
    })
    expect(second.cache_read_input_tokens).toBe(written)
    expect(second.cache_creation_input_tokens).toBeGreaterThan(20)
    expect(second.cache_creation).toEqual({ ephemeral_5m_input_tokens: second.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 })
    // Another model has its own cache; a changed system prompt reads nothing.
    expect(cache.use({ model: "other", system, messages: [] }).cache_read_input_tokens).toBe(0)
    expect(cache.use({ model: "m", system: [text("t".repeat(400), true)], messages: [] }).cache_read_input_tokens).toBe(0)
  })

  it("a 1-hour breakpoint's writes are reported as such; without breakpoints everything is input", () => {
    const cache = new PromptCache()
    const usage = cache.use({ model: "m", system: [{ ...text("x".repeat(80)), cache_control: { type: "ephemeral", ttl: "1h" } }], messages: [] })
    expect(usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: usage.cache_creation_input_tokens })
    const plain = cache.use({ model: "m", system: "hello there", messages: [{ role: "user", content: "hi" }] })
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })
    expect(plain.input_tokens).toBeGreaterThan(0)
  })
})
