/**
 * Token usage as the Messages API reports it. Fields the API may add later are kept as they arrive
 * (the record index), so a usage object round-trips unchanged.
 */
import * as Schema from "effect/Schema"

export const ServerToolUsage = Schema.Struct(
  {
    web_search_requests: Schema.optional(Schema.Number),
    web_fetch_requests: Schema.optional(Schema.Number)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type ServerToolUsage = typeof ServerToolUsage.Type

export const Usage = Schema.Struct(
  {
    input_tokens: Schema.Number,
    output_tokens: Schema.Number,
    cache_creation_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
    cache_read_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
    server_tool_use: Schema.optional(Schema.NullOr(ServerToolUsage)),
    service_tier: Schema.optional(Schema.NullOr(Schema.String))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type Usage = typeof Usage.Type

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

/** Sums two usages (across the turns of a session). */
export const add = (a: Usage, b: Usage): Usage => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  cache_creation_input_tokens: num(a.cache_creation_input_tokens) + num(b.cache_creation_input_tokens),
  cache_read_input_tokens: num(a.cache_read_input_tokens) + num(b.cache_read_input_tokens),
  server_tool_use: {
    web_search_requests: num(a.server_tool_use?.web_search_requests) + num(b.server_tool_use?.web_search_requests),
    web_fetch_requests: num(a.server_tool_use?.web_fetch_requests) + num(b.server_tool_use?.web_fetch_requests)
  }
})
