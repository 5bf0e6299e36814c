/**
 * Content blocks of the Messages API. The encoded form of every schema is exactly the API's JSON; fields a
 * block may carry that weft does not model (cache_control, caller, ...) are kept by the record index, and a
 * block of a type weft does not know yet is kept whole as an `UnknownBlock`.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { knownTypes } from "./ContentGuards.js"

export * from "./ContentGuards.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

/**
 * A field that may hold anything. A block that leaves it out is still accepted (as it always was: the key reads as
 * undefined) rather than refused for a missing key.
 */
const AnyValue = Schema.Unknown.pipe(Schema.withDecodingDefaultKey(Effect.succeed(undefined)))

export const Citation = open({ type: Schema.String })
export type Citation = typeof Citation.Type

export const TextBlock = open({
  type: Schema.Literal("text"),
  text: Schema.String,
  citations: Schema.optional(Schema.NullOr(Schema.Array(Citation)))
})
export type TextBlock = typeof TextBlock.Type

export const Base64Source = Schema.Struct({
  type: Schema.Literal("base64"),
  media_type: Schema.String,
  data: Schema.String
})
export const UrlSource = Schema.Struct({ type: Schema.Literal("url"), url: Schema.String })
export const TextSource = Schema.Struct({
  type: Schema.Literal("text"),
  media_type: Schema.String,
  data: Schema.String
})
export const OtherSource = open({ type: Schema.String })

export const ImageBlock = open({
  type: Schema.Literal("image"),
  source: Schema.Union([Base64Source, UrlSource, OtherSource])
})
export type ImageBlock = typeof ImageBlock.Type

export const DocumentBlock = open({
  type: Schema.Literal("document"),
  source: Schema.Union([Base64Source, UrlSource, TextSource, OtherSource]),
  title: Schema.optional(Schema.NullOr(Schema.String)),
  context: Schema.optional(Schema.NullOr(Schema.String))
})
export type DocumentBlock = typeof DocumentBlock.Type

export const ToolUseBlock = open({
  type: Schema.Literal("tool_use"),
  id: Schema.String,
  name: Schema.String,
  input: AnyValue
})
export type ToolUseBlock = typeof ToolUseBlock.Type

/** What a tool_result may carry besides a plain string. */
export const ToolResultContent = Schema.Union([TextBlock, ImageBlock, DocumentBlock])
export type ToolResultContent = typeof ToolResultContent.Type

export const ToolResultBlock = open({
  type: Schema.Literal("tool_result"),
  tool_use_id: Schema.String,
  content: Schema.optional(Schema.Union([Schema.String, Schema.Array(ToolResultContent)])),
  is_error: Schema.optional(Schema.Boolean)
})
export type ToolResultBlock = typeof ToolResultBlock.Type

export const ThinkingBlock = open({ type: Schema.Literal("thinking"), thinking: Schema.String, signature: Schema.String })
export type ThinkingBlock = typeof ThinkingBlock.Type

export const RedactedThinkingBlock = open({ type: Schema.Literal("redacted_thinking"), data: Schema.String })
export type RedactedThinkingBlock = typeof RedactedThinkingBlock.Type

export const ServerToolUseBlock = open({
  type: Schema.Literal("server_tool_use"),
  id: Schema.String,
  name: Schema.String,
  input: AnyValue
})
export type ServerToolUseBlock = typeof ServerToolUseBlock.Type

export const WebSearchToolResultBlock = open({
  type: Schema.Literal("web_search_tool_result"),
  tool_use_id: Schema.String,
  content: AnyValue
})
export type WebSearchToolResultBlock = typeof WebSearchToolResultBlock.Type

/** A block of a type this version of weft does not know: kept whole and sent back as it came. */
export const UnknownBlock = open({ type: Schema.String }).check(
  Schema.makeFilter((block) => !knownTypes.has(block.type), { identifier: "UnknownBlock" })
)
export type UnknownBlock = typeof UnknownBlock.Type

export const KnownBlock = Schema.Union([
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  WebSearchToolResultBlock
])
export type KnownBlock = typeof KnownBlock.Type

export const ContentBlock = Schema.Union([KnownBlock, UnknownBlock])
/**
 * Narrow with the guards (`isToolUse(block)`, from ContentGuards.ts, re-exported here): `UnknownBlock.type` is
 * any string, so a plain `block.type === "tool_use"` check does not narrow the union on its own.
 */
export type ContentBlock = typeof ContentBlock.Type
