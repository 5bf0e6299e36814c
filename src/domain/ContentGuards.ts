/**
 * What code that handles content blocks needs, without their schemas (Content.ts, which re-exports all of this):
 * guards, constructors, text. Building the schemas is about 3 ms of a start, and a `weft -p` run never decodes
 * a block: it only looks at the ones it is given.
 */
import type {
  ContentBlock,
  DocumentBlock,
  ImageBlock,
  KnownBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
  WebSearchToolResultBlock
} from "./Content.js"

/** The block types weft models; any other is an `UnknownBlock`. */
export const knownTypes: ReadonlySet<string> = new Set([
  "text",
  "image",
  "document",
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "web_search_tool_result"
])

const guard =
  <T extends KnownBlock>(type: T["type"]) =>
  (block: ContentBlock): block is T =>
    block.type === type

export const isText = guard<TextBlock>("text")
export const isImage = guard<ImageBlock>("image")
export const isDocument = guard<DocumentBlock>("document")
export const isToolUse = guard<ToolUseBlock>("tool_use")
export const isToolResult = guard<ToolResultBlock>("tool_result")
export const isThinking = guard<ThinkingBlock>("thinking")
export const isRedactedThinking = guard<RedactedThinkingBlock>("redacted_thinking")
export const isServerToolUse = guard<ServerToolUseBlock>("server_tool_use")
export const isWebSearchToolResult = guard<WebSearchToolResultBlock>("web_search_tool_result")
export const isKnown = (block: ContentBlock): block is KnownBlock => knownTypes.has(block.type)

export const text = (value: string): TextBlock => ({ type: "text", text: value })

/** A message's content as blocks (a string is one text block). */
export const blocksOf = (content: string | ReadonlyArray<ContentBlock>): ReadonlyArray<ContentBlock> =>
  typeof content === "string" ? [text(content)] : content

/** The concatenated text of a list of blocks (what `-p` prints as the result). */
export const joinText = (blocks: ReadonlyArray<ContentBlock>): string => {
  let out = ""
  for (const block of blocks) if (isText(block)) out += block.text
  return out
}

/** The text of a tool result's content, each non-text item as `[its type]`. */
export const toolResultText = (content: string | ReadonlyArray<ToolResultContent> | undefined): string =>
  typeof content === "string" ? content : (content ?? []).map((item) => (item.type === "text" ? item.text : `[${item.type}]`)).join("\n")
