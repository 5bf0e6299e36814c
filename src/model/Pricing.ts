/**
 * What a response cost, from its usage and the model's list prices (USD per million tokens). Only models whose
 * prices are known are priced: an unknown model (a local server's, or one newer than this table) has an unknown
 * cost, reported as 0 and marked unpriced in `modelUsage`, never another model's prices. Prompt-cache tokens have
 * their own prices: writes 1.25x input for 5 minutes, 2x for 1 hour (by the usage's `cache_creation` counts),
 * reads 0.1x (less for some models).
 */
import type { Usage } from "../domain/Usage.js"
import { cacheWrites } from "../domain/UsageTotals.js"

export interface Prices {
  readonly input: number
  readonly output: number
  /** A token written to the cache for 5 minutes (the default lifetime): 1.25x input. */
  readonly cacheWrite5m: number
  /** A token written to the cache for 1 hour (`ttl: "1h"`): 2x input. */
  readonly cacheWrite1h: number
  /** A token read from the cache: 0.1x input, less for some models (0.05x Opus and Sonnet 5.5, 0.025x the 5.1s). */
  readonly cacheRead: number
  /**
   * Prices by prompt length (Haiku 5.5): a response whose prompt (input, cache reads and cache writes) is longer
   * than `aboveTokens` is priced at `prices`, every token of it, its output included.
   */
  readonly longPrompt?: { readonly aboveTokens: number; readonly prices: Prices }
}

const per = (input: number, output: number, cacheReadRatio = 0.1): Prices => ({
  input,
  output,
  cacheWrite5m: input * 1.25,
  cacheWrite1h: input * 2,
  cacheRead: input * cacheReadRatio
})

/**
 * List prices by model id (without date suffix), from Anthropic's pricing page (platform.claude.com/docs/en/
 * about-claude/pricing, as of 2026-10); aliases of one model share a line. Every id an alias of Models.ts can
 * resolve to has a line (test/model/Pricing.test.ts checks it).
 */
const table: ReadonlyMap<string, Prices> = new Map(
  (
    [
      [["claude-fable-5-1", "claude-mythos-5-1"], per(10, 50, 0.025)],
      [["claude-fable-5", "claude-mythos-5"], per(10, 50)],
      [["claude-opus-5-5"], per(4, 20, 0.05)],
      [["claude-opus-5", "claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5"], per(5, 25)],
      [["claude-opus-4-1", "claude-opus-4-0", "claude-opus-4", "claude-3-opus"], per(15, 75)],
      [["claude-sonnet-5-5"], per(2, 10, 0.05)],
      [["claude-sonnet-5"], per(2, 10)],
      [
        ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4-0", "claude-sonnet-4", "claude-3-7-sonnet", "claude-3-5-sonnet"],
        per(3, 15)
      ],
      [["claude-haiku-5-5"], { ...per(0.1, 0.5), longPrompt: { aboveTokens: 100_000, prices: per(0.5, 2.5) } }],
      [["claude-haiku-4-5"], per(1, 5)],
      [["claude-3-5-haiku"], per(0.8, 4)],
      [["claude-3-haiku"], per(0.25, 1.25)]
    ] as const
  ).flatMap(([ids, prices]) => ids.map((id) => [id, prices] as const))
)

/** Web search is billed per request. */
const webSearchPerRequest = 0.01

/**
 * The table's key for a model id as APIs and gateways spell it: lower case, without `[1m]`, a date or `-latest`
 * suffix, a Bedrock prefix and version (`anthropic.claude-...-v1:0`) or a Vertex `@date`.
 */
export const canonicalId = (model: string): string => {
  let id = model.trim().toLowerCase()
  if (id.endsWith("[1m]")) id = id.slice(0, -4)
  const at = id.indexOf("claude")
  if (at > 0) id = id.slice(at)
  id = id.replace(/@.*$/, "").replace(/-v\d+(:\d+)?$/, "").replace(/-(\d{8}|latest)$/, "")
  return id
}

/** The model's prices, or undefined when they are not known. */
export const pricesOf = (model: string): Prices | undefined => table.get(canonicalId(model))

export const isPriced = (model: string): boolean => pricesOf(model) !== undefined

/** The cost of one response; 0 for a model whose prices are not known (see `isPriced`). */
export const costOf = (model: string, usage: Usage): number => {
  const listed = pricesOf(model)
  if (listed === undefined) return 0
  const million = 1_000_000
  const writes = cacheWrites(usage)
  const prompt = usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + writes.fiveMinutes + writes.oneHour
  const prices = listed.longPrompt !== undefined && prompt > listed.longPrompt.aboveTokens ? listed.longPrompt.prices : listed
  return (
    (usage.input_tokens * prices.input +
      usage.output_tokens * prices.output +
      writes.fiveMinutes * prices.cacheWrite5m +
      writes.oneHour * prices.cacheWrite1h +
      (usage.cache_read_input_tokens ?? 0) * prices.cacheRead) /
      million +
    (usage.server_tool_use?.web_search_requests ?? 0) * webSearchPerRequest
  )
}
