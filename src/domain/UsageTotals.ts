/**
 * Adding up token usage (Usage.ts, which re-exports all of this, holds the schemas): what the loop needs on every
 * turn, without building a schema.
 */
import type { Usage } from "./Usage.js"

/** A mutable copy, for folds that build a usage incrementally. */
export type MutableUsage = { -readonly [K in keyof Usage]: Usage[K] }

export const empty: Usage = { input_tokens: 0, output_tokens: 0 }

/**
 * Applies a `message_delta` usage on top of the `message_start` one: the API sends cumulative counts, so each
 * field present in the delta replaces the earlier value (null means "not reported" and is ignored).
 */
export const mergeDelta = (base: Usage, delta: Readonly<Record<string, unknown>>): Usage => {
  const out: MutableUsage = { ...base }
  for (const key in delta) {
    const value = delta[key]
    if (value !== null && value !== undefined) out[key] = value
  }
  return out
}

const num = (value: unknown): number => (typeof value === "number" ? value : 0)

/** Tokens written to the prompt cache, by how long they stay there. */
export interface CacheWrites {
  readonly fiveMinutes: number
  readonly oneHour: number
}

/**
 * A response's cache writes by lifetime: the `cache_creation` object's counts when the API sent it; without it,
 * `cache_creation_input_tokens` are 5-minute writes (the default lifetime). Tokens the total counts beyond the
 * object's (an API that reports them inconsistently) are counted as 5-minute writes: the total is what is billed.
 */
export const cacheWrites = (usage: Usage): CacheWrites => {
  const total = num(usage.cache_creation_input_tokens)
  const detail = usage.cache_creation
  if (detail === undefined || detail === null) return { fiveMinutes: total, oneHour: 0 }
  const oneHour = num(detail.ephemeral_1h_input_tokens)
  return { fiveMinutes: Math.max(num(detail.ephemeral_5m_input_tokens), total - oneHour), oneHour }
}

/** Sums two usages (across the turns of a session). */
export const add = (a: Usage, b: Usage): Usage => {
  const writesA = cacheWrites(a)
  const writesB = cacheWrites(b)
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_creation_input_tokens: num(a.cache_creation_input_tokens) + num(b.cache_creation_input_tokens),
    cache_read_input_tokens: num(a.cache_read_input_tokens) + num(b.cache_read_input_tokens),
    cache_creation: {
      ephemeral_5m_input_tokens: writesA.fiveMinutes + writesB.fiveMinutes,
      ephemeral_1h_input_tokens: writesA.oneHour + writesB.oneHour
    },
    server_tool_use: {
      web_search_requests: num(a.server_tool_use?.web_search_requests) + num(b.server_tool_use?.web_search_requests),
      web_fetch_requests: num(a.server_tool_use?.web_fetch_requests) + num(b.server_tool_use?.web_fetch_requests)
    }
  }
}

/** The start of a sum: every field `add` reports, at zero (a session that made no request reports these). */
export const zero: Usage = add(empty, empty)
