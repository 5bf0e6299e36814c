/**
 * Content blocks of the Messages API. The encoded form of every schema is exactly the API's JSON; fields a
 * block may carry that weft does not model (cache_control, caller, ...) are kept by the record index, and a
 * block of a type weft does not know yet is kept whole as an `UnknownBlock`.
 */
import * as Schema from "effect/Schema"
import { knownTypes } from "./ContentGuards.js"

export * from "./ContentGuards.js"

const Extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const Citation = Schema.Struct({ type: Schema.String }, Extra)
export type Citation = typeof Citation.Type

export const TextBlock = Schema.Struct(
  {
    type: Schema.Literal("text"),
    text: Schema.String,
    citations: Schema.optional(Schema.NullOr(Schema.Array(Citation)))
  },
  Extra
)
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
export const OtherSource = Schema.Struct({ type: Schema.String }, Extra)

export const ImageBlock = Schema.Struct(
  { type: Schema.Literal("image"), source: Schema.Union(Base64Source, UrlSource, OtherSource) },
  Extra
)
export type ImageBlock = typeof ImageBlock.Type

export const DocumentBlock = Schema.Struct(
  {
    type: Schema.Literal("document"),
    source: Schema.Union(Base64Source, UrlSource, TextSource, OtherSource),
    title: Schema.optional(Schema.NullOr(Schema.String)),
    context: Schema.optional(Schema.NullOr(Schema.String))
  },
  Extra
)
export type DocumentBlock = typeof DocumentBlock.Type

export const ToolUseBlock = Schema.Struct(
  {
    type: Schema.Literal("tool_use"),
    id: Schema.String,
    name: Schema.String,
    input: Schema.Unknown
  },
  Extra
)
export type ToolUseBlock = typeof ToolUseBlock.Type

/** What a tool_result may carry besides a plain string. */
export const ToolResultContent = Schema.Union(TextBlock, ImageBlock, DocumentBlock)
export type ToolResultContent = typeof ToolResultContent.Type

export const ToolResultBlock = Schema.Struct(
  {
    type: Schema.Literal("tool_result"),
    tool_use_id: Schema.String,
    content: Schema.optional(Schema.Union(Schema.String, Schema.Array(ToolResultContent))),
    is_error: Schema.optional(Schema.Boolean)
  },
  Extra
)
export type ToolResultBlock = typeof ToolResultBlock.Type

export const ThinkingBlock = Schema.Struct(
  { type: Schema.Literal("thinking"), thinking: Schema.String, signature: Schema.String },
  Extra
)
export type ThinkingBlock = typeof ThinkingBlock.Type

export const RedactedThinkingBlock = Schema.Struct(
  { type: Schema.Literal("redacted_thinking"), data: Schema.String },
  Extra
)
export type RedactedThinkingBlock = typeof RedactedThinkingBlock.Type

export const ServerToolUseBlock = Schema.Struct(
  {
    type: Schema.Literal("server_tool_use"),
    id: Schema.String,
    name: Schema.String,
    input: Schema.Unknown
  },
  Extra
)
export type ServerToolUseBlock = typeof ServerToolUseBlock.Type

export const WebSearchToolResultBlock = Schema.Struct(
  {
    type: Schema.Literal("web_search_tool_result"),
    tool_use_id: Schema.String,
    content: Schema.Unknown
  },
  Extra
)
export type WebSearchToolResultBlock = typeof WebSearchToolResultBlock.Type

/** A block of a type this version of weft does not know: kept whole and sent back as it came. */
export const UnknownBlock = Schema.Struct({ type: Schema.String }, Extra).pipe(
  Schema.filter((block) => !knownTypes.has(block.type), { identifier: "UnknownBlock" })
)
export type UnknownBlock = typeof UnknownBlock.Type

export const KnownBlock = Schema.Union(
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  WebSearchToolResultBlock
)
export type KnownBlock = typeof KnownBlock.Type

export const ContentBlock = Schema.Union(KnownBlock, UnknownBlock)
/**
 * Narrow with the guards (`isToolUse(block)`, from ContentGuards.ts, re-exported here): `UnknownBlock.type` is
 * any string, so a plain `block.type === "tool_use"` check does not narrow the union on its own.
 */
export type ContentBlock = typeof ContentBlock.Type
