import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import * as UsageTotals from "../../src/domain/UsageTotals.js"
import { Accumulator } from "../../src/model/Accumulator.js"
import * as Models from "../../src/model/Models.js"
import * as Pricing from "../../src/model/Pricing.js"
import * as Sse from "../../src/model/Sse.js"

/** The message a recorded response folds into. */
const recorded = (name: string) => {
  const accumulator = new Accumulator()
  const bytes = readFileSync(new URL(`../fixtures/anthropic-sse/${name}`, import.meta.url))
  for (const frame of Sse.decode(bytes)) {
    const event = Sse.toEvent(frame)
    if (event._tag === "Success") accumulator.push(event.success)
  }
  const result = accumulator.result()
  if (result._tag === "Failure") throw new Error(result.failure.message)
  return result.success.message
}

const million = 1_000_000

describe("Pricing: prompt-cache tokens", () => {
  it("prices 5-minute writes at 1.25x input, 1-hour writes at 2x, reads at 0.1x (sonnet 4.5: $3 in, $15 out)", () => {
    const usage = {
      input_tokens: million,
      output_tokens: million,
      cache_read_input_tokens: 10 * million,
      cache_creation_input_tokens: 3 * million,
      cache_creation: { ephemeral_5m_input_tokens: 2 * million, ephemeral_1h_input_tokens: million }
    }
    // 3 + 15 + 2 x 3.75 + 1 x 6 + 10 x 0.3
    expect(Pricing.costOf("claude-sonnet-4-5", usage)).toBeCloseTo(3 + 15 + 7.5 + 6 + 3, 12)
  })

  it("a real response's usage (the cache_creation object, all zero) is priced as input and output", () => {
    const message = recorded("real-parallel-tool-use.0.sse")
    expect(message.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 })
    const { input_tokens: input, output_tokens: output } = message.usage
    expect(Pricing.costOf(message.model, message.usage)).toBeCloseTo((input * 3 + output * 15) / million, 15)
    expect(UsageTotals.add(UsageTotals.zero, message.usage)).toMatchObject({
      input_tokens: input,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
    })
  })

  it("without the cache_creation object, cache_creation_input_tokens are 5-minute writes", () => {
    const usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 4 * million, cache_read_input_tokens: null }
    expect(Pricing.costOf("claude-opus-4-7", usage)).toBeCloseTo(4 * 5 * 1.25, 12)
    expect(UsageTotals.cacheWrites(usage)).toEqual({ fiveMinutes: 4 * million, oneHour: 0 })
  })

  it("a total beyond the object's counts is billed as 5-minute writes", () => {
    const usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 7,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 }
    }
    expect(UsageTotals.cacheWrites(usage)).toEqual({ fiveMinutes: 7, oneHour: 0 })
  })

  it("the session's usage sums the writes by lifetime", () => {
    const sum = UsageTotals.add(
      UsageTotals.add(UsageTotals.zero, { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 5 }),
      { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 9, cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 6 } }
    )
    expect(sum).toMatchObject({
      cache_creation_input_tokens: 14,
      cache_creation: { ephemeral_5m_input_tokens: 8, ephemeral_1h_input_tokens: 6 }
    })
  })
})

describe("Pricing: every model an alias names is priced", () => {
  it("opus, sonnet and haiku (and their [1m] forms) resolve to ids the price table knows", () => {
    for (const alias of Object.keys(Models.aliasDefaults)) {
      for (const name of [alias, `${alias}[1m]`]) {
        const id = Models.resolve(name)
        expect(Pricing.isPriced(id), `${name} -> ${id}`).toBe(true)
        expect(Pricing.costOf(id, { input_tokens: million, output_tokens: 0 }), id).toBeGreaterThan(0)
      }
    }
  })

  it("the 5.5 models at their list prices: cache reads 0.05x for Opus and Sonnet 5.5", () => {
    const usage = { input_tokens: million, output_tokens: million, cache_read_input_tokens: million }
    expect(Pricing.costOf("claude-opus-5-5", usage)).toBeCloseTo(4 + 20 + 0.2, 12)
    expect(Pricing.costOf("claude-sonnet-5-5[1m]", usage)).toBeCloseTo(2 + 10 + 0.1, 12)
    expect(Pricing.costOf("claude-opus-4-8", usage)).toBeCloseTo(5 + 25 + 0.5, 12)
    expect(Pricing.costOf("claude-fable-5-1", usage)).toBeCloseTo(10 + 50 + 0.25, 12)
  })

  it("Haiku 5.5 is priced by prompt length: past 100,000 prompt tokens every token at the higher price", () => {
    const short = { input_tokens: 40_000, output_tokens: 1_000, cache_read_input_tokens: 60_000 }
    expect(Pricing.costOf("claude-haiku-5-5", short)).toBeCloseTo((40_000 * 0.1 + 1_000 * 0.5 + 60_000 * 0.01) / million, 15)
    const long = { ...short, cache_creation_input_tokens: 1 }
    expect(Pricing.costOf("claude-haiku-5-5", long)).toBeCloseTo((40_000 * 0.5 + 1_000 * 2.5 + 60_000 * 0.05 + 0.625) / million, 15)
  })
})
