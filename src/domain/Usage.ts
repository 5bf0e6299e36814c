/**
 * Token usage as the Messages API reports it. Fields the API may add later are kept as they arrive
 * (the record index), so a usage object round-trips unchanged.
 */
import * as Schema from "effect/Schema"

export * from "./UsageTotals.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

export const ServerToolUsage = open({
  web_search_requests: Schema.optional(Schema.Number),
  web_fetch_requests: Schema.optional(Schema.Number)
})
export type ServerToolUsage = typeof ServerToolUsage.Type

/** The cache writes of a response by lifetime (the API reports both when it reports this object). */
export const CacheCreation = open({
  ephemeral_5m_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
  ephemeral_1h_input_tokens: Schema.optional(Schema.NullOr(Schema.Number))
})
export type CacheCreation = typeof CacheCreation.Type

export const Usage = open({
  input_tokens: Schema.Number,
  output_tokens: Schema.Number,
  cache_creation_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
  cache_read_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
  cache_creation: Schema.optional(Schema.NullOr(CacheCreation)),
  server_tool_use: Schema.optional(Schema.NullOr(ServerToolUsage)),
  service_tier: Schema.optional(Schema.NullOr(Schema.String))
})
export type Usage = typeof Usage.Type
