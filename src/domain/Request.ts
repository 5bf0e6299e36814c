/**
 * The body of a Messages API request (`POST /v1/messages`), as weft builds it. Fields weft does not model are
 * carried by the record index, so a caller can pass any newer parameter through.
 */
import * as Schema from "effect/Schema"
import { TextBlock } from "./Content.js"
import { MessageParam } from "./Message.js"

const Extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const ToolDefinition = Schema.Struct(
  {
    name: Schema.String,
    description: Schema.optional(Schema.String),
    input_schema: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  },
  Extra
)
export type ToolDefinition = typeof ToolDefinition.Type

export const MessagesRequest = Schema.Struct(
  {
    model: Schema.String,
    max_tokens: Schema.Number,
    messages: Schema.Array(MessageParam),
    system: Schema.optional(Schema.Union(Schema.String, Schema.Array(TextBlock))),
    tools: Schema.optional(Schema.Array(ToolDefinition)),
    tool_choice: Schema.optional(Extra),
    thinking: Schema.optional(Extra),
    temperature: Schema.optional(Schema.Number),
    stop_sequences: Schema.optional(Schema.Array(Schema.String)),
    metadata: Schema.optional(Extra),
    stream: Schema.optional(Schema.Boolean)
  },
  Extra
)
export type MessagesRequest = typeof MessagesRequest.Type
