/**
 * The body of a Messages API request (`POST /v1/messages`), as weft builds it. Fields weft does not model are
 * carried by the record index, so a caller can pass any newer parameter through.
 */
import * as Schema from "effect/Schema"
import { TextBlock } from "./Content.js"
import { MessageParam } from "./Message.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

export const ToolDefinition = open({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  input_schema: Extra
})
export type ToolDefinition = typeof ToolDefinition.Type

export const MessagesRequest = open({
  model: Schema.String,
  max_tokens: Schema.Number,
  messages: Schema.Array(MessageParam),
  system: Schema.optional(Schema.Union([Schema.String, Schema.Array(TextBlock)])),
  tools: Schema.optional(Schema.Array(ToolDefinition)),
  tool_choice: Schema.optional(Extra),
  thinking: Schema.optional(Extra),
  temperature: Schema.optional(Schema.Number),
  stop_sequences: Schema.optional(Schema.Array(Schema.String)),
  metadata: Schema.optional(Extra),
  stream: Schema.optional(Schema.Boolean)
})
export type MessagesRequest = typeof MessagesRequest.Type
