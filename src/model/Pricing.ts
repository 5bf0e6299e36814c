/**
 * What a response cost, from its usage and the model's list prices (USD per million tokens). Unknown models are
 * priced as the Sonnet family, the common default, so a cost is never silently zero; the table is easy to extend.
 */
import type { Usage } from "../domain/Usage.js"

export interface Prices {
  readonly input: number
  readonly output: number
  readonly cacheWrite: number
  readonly cacheRead: number
}

const per = (input: number, output: number): Prices => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input * 0.1
})

/** Families by the words of a model id; the first whose every word appears in the id wins. */
const table: ReadonlyArray<readonly [ReadonlyArray<string>, Prices]> = [
  [["opus", "4-5"], per(5, 25)],
  [["opus", "4-6"], per(5, 25)],
  [["opus", "4-7"], per(5, 25)],
  [["opus"], per(15, 75)],
  [["haiku", "3-5"], per(0.8, 4)],
  [["haiku", "3"], per(0.25, 1.25)],
  [["haiku"], per(1, 5)],
  [["sonnet"], per(3, 15)]
]

const fallback = per(3, 15)
/** Web search is billed per request. */
const webSearchPerRequest = 0.01

export const pricesOf = (model: string): Prices => {
  const words = model.toLowerCase().split(/[^a-z0-9]+/)
  const text = words.join("-")
  for (const [keys, prices] of table) {
    if (keys.every((key) => (key.includes("-") ? text.includes(`-${key}`) || text.startsWith(key) : words.includes(key)))) {
      return prices
    }
  }
  return fallback
}

export const costOf = (model: string, usage: Usage): number => {
  const prices = pricesOf(model)
  const million = 1_000_000
  return (
    (usage.input_tokens * prices.input +
      usage.output_tokens * prices.output +
      (usage.cache_creation_input_tokens ?? 0) * prices.cacheWrite +
      (usage.cache_read_input_tokens ?? 0) * prices.cacheRead) /
      million +
    (usage.server_tool_use?.web_search_requests ?? 0) * webSearchPerRequest
  )
}
