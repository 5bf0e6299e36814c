/**
 * Messages as the Messages API exchanges them. `AssistantMessage` is the full response object (the result of
 * folding a stream); `MessageParam` is what a request's `messages` array holds.
 */
import * as Schema from "effect/Schema"
import { ContentBlock } from "./Content.js"
import { Usage } from "./Usage.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

export const Role = Schema.Literals(["user", "assistant"])
export type Role = typeof Role.Type

export const MessageParam = Schema.Struct({
  role: Role,
  content: Schema.Union([Schema.String, Schema.Array(ContentBlock)])
})
export type MessageParam = typeof MessageParam.Type

/** Known stop reasons; the API may add more, so any string is accepted. */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded"
  | (string & {})

export const AssistantMessage = open({
  id: Schema.String,
  type: Schema.Literal("message"),
  role: Schema.Literal("assistant"),
  model: Schema.String,
  content: Schema.Array(ContentBlock),
  stop_reason: Schema.NullOr(Schema.String),
  stop_sequence: Schema.NullOr(Schema.String),
  usage: Usage
})
export type AssistantMessage = typeof AssistantMessage.Type

export const user = (content: string | ReadonlyArray<ContentBlock>): MessageParam => ({ role: "user", content })

export const fromAssistant = (message: AssistantMessage): MessageParam => ({
  role: "assistant",
  content: message.content
})
