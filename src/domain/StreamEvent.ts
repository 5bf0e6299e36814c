/**
 * The server-sent events of a streaming Messages API response. Unknown event types and unknown delta types
 * are part of the union (kept whole) so a newer API never breaks an older weft.
 */
import * as Schema from "effect/Schema"
import { Citation, ContentBlock } from "./Content.js"
import { AssistantMessage } from "./Message.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

export const TextDelta = Schema.Struct({ type: Schema.Literal("text_delta"), text: Schema.String })
export const InputJsonDelta = Schema.Struct({
  type: Schema.Literal("input_json_delta"),
  partial_json: Schema.String
})
export const ThinkingDelta = Schema.Struct({ type: Schema.Literal("thinking_delta"), thinking: Schema.String })
export const SignatureDelta = Schema.Struct({ type: Schema.Literal("signature_delta"), signature: Schema.String })
export const CitationsDelta = Schema.Struct({ type: Schema.Literal("citations_delta"), citation: Citation })
const knownDeltas = new Set(["text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta"])
export const UnknownDelta = open({ type: Schema.String }).check(
  Schema.makeFilter((delta) => !knownDeltas.has(delta.type), { identifier: "UnknownDelta" })
)

export const BlockDelta = Schema.Union([TextDelta, InputJsonDelta, ThinkingDelta, SignatureDelta, CitationsDelta, UnknownDelta])
export type BlockDelta = typeof BlockDelta.Type
export type TextDelta = typeof TextDelta.Type
export type InputJsonDelta = typeof InputJsonDelta.Type
export type ThinkingDelta = typeof ThinkingDelta.Type
export type SignatureDelta = typeof SignatureDelta.Type
export type CitationsDelta = typeof CitationsDelta.Type

export const MessageStart = Schema.Struct({ type: Schema.Literal("message_start"), message: AssistantMessage })
export const ContentBlockStart = Schema.Struct({
  type: Schema.Literal("content_block_start"),
  index: Schema.Number,
  content_block: ContentBlock
})
export const ContentBlockDelta = Schema.Struct({
  type: Schema.Literal("content_block_delta"),
  index: Schema.Number,
  delta: BlockDelta
})
export const ContentBlockStop = Schema.Struct({ type: Schema.Literal("content_block_stop"), index: Schema.Number })
export const MessageDelta = Schema.Struct({
  type: Schema.Literal("message_delta"),
  delta: open({
    stop_reason: Schema.optional(Schema.NullOr(Schema.String)),
    stop_sequence: Schema.optional(Schema.NullOr(Schema.String))
  }),
  usage: Schema.optional(Schema.NullOr(Extra))
})
export const MessageStop = Schema.Struct({ type: Schema.Literal("message_stop") })
export const Ping = Schema.Struct({ type: Schema.Literal("ping") })
export const ErrorEvent = Schema.Struct({
  type: Schema.Literal("error"),
  error: open({ type: Schema.String, message: Schema.String })
})
const knownEvents = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
  "error"
])
export const UnknownEvent = open({ type: Schema.String }).check(
  Schema.makeFilter((event) => !knownEvents.has(event.type), { identifier: "UnknownEvent" })
)

export const StreamEvent = Schema.Union([
  MessageStart,
  ContentBlockStart,
  ContentBlockDelta,
  ContentBlockStop,
  MessageDelta,
  MessageStop,
  Ping,
  ErrorEvent,
  UnknownEvent
])
export type StreamEvent = typeof StreamEvent.Type
export type MessageStart = typeof MessageStart.Type
export type ContentBlockStart = typeof ContentBlockStart.Type
export type ContentBlockDelta = typeof ContentBlockDelta.Type
export type ContentBlockStop = typeof ContentBlockStop.Type
export type MessageDelta = typeof MessageDelta.Type
export type MessageStop = typeof MessageStop.Type
export type Ping = typeof Ping.Type
export type ErrorEvent = typeof ErrorEvent.Type
export type UnknownEvent = typeof UnknownEvent.Type
