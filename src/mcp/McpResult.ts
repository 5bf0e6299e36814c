/**
 * What an MCP server's answers become for the model: tool results as tool_result content, names as
 * `mcp__<server>__<tool>`. Pure functions (the library's types only, erased at build).
 */
import type { CallToolResult, ContentBlock, ReadResourceResult } from "@modelcontextprotocol/client"
import type { ToolResultContent } from "../domain/Content.js"
import * as Tokens from "../model/Tokens.js"

/** Claude Code's default bound on what one MCP call may give the model, in tokens (estimated: Tokens.ofChars). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000
/** Longest tool name the Messages API accepts. */
export const MAX_TOOL_NAME = 128

/** A name part as Claude Code writes it: every character outside `[A-Za-z0-9_-]` becomes `_`. */
export const normalize = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, "_")

/** `mcp__<server>__<tool>`, or undefined when that is over 128 characters (such a tool is not offered). */
export const toolName = (server: string, tool: string): string | undefined => {
  const name = `mcp__${normalize(server)}__${normalize(tool)}`
  return name.length > MAX_TOOL_NAME ? undefined : name
}

const describeResource = (resource: { readonly uri: string; readonly mimeType?: string | undefined }) =>
  `${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}`

/** One block of a result as tool_result content. */
export const contentBlock = (block: ContentBlock): ToolResultContent => {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text }
    case "image":
      return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } }
    case "audio":
      // The Messages API takes no audio in a tool_result: the model is told what there was.
      return { type: "text", text: `[Audio content: ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]` }
    case "resource_link":
      return {
        type: "text",
        text: `[Resource link: ${block.name} ${describeResource(block)}${block.description ? ` — ${block.description}` : ""}]`
      }
    case "resource": {
      const resource = block.resource
      return "text" in resource
        ? { type: "text", text: `[Resource ${describeResource(resource)}]\n${resource.text}` }
        : { type: "text", text: `[Resource ${describeResource(resource)}: binary, ${Math.floor((resource.blob.length * 3) / 4)} bytes]` }
    }
    default:
      return { type: "text", text: JSON.stringify(block) }
  }
}

export interface Mapped {
  readonly content: ReadonlyArray<ToolResultContent>
  readonly isError: boolean
  /** What renderers and SDK consumers get: the structured content and the raw blocks. */
  readonly data: { readonly structuredContent?: unknown; readonly content: ReadonlyArray<ContentBlock> }
}

/**
 * A tools/call result for the model. As in Claude Code: `structuredContent`, when present, is what the model gets
 * (as JSON) — a server sends its JSON text as well only for older clients; an error's texts are joined.
 */
export const mapCallResult = (result: CallToolResult, maxTokens: number): Mapped => {
  const blocks = result.content ?? []
  const isError = result.isError === true
  const data = result.structuredContent === undefined ? { content: blocks } : { structuredContent: result.structuredContent, content: blocks }
  const content: Array<ToolResultContent> =
    isError
      ? [{ type: "text", text: blocks.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join("\n") }]
      : result.structuredContent !== undefined
        ? [{ type: "text", text: JSON.stringify(result.structuredContent) }]
        : blocks.map(contentBlock)
  return { content: truncate(content, maxTokens), isError, data }
}

/** A resources/read result for the model: `{"contents": [...]}`, bounded as tool output is. */
export const mapReadResult = (result: ReadResourceResult, maxTokens: number): ReadonlyArray<ToolResultContent> =>
  truncate([{ type: "text", text: JSON.stringify({ contents: result.contents }) }], maxTokens)

const sizeOf = (block: ToolResultContent): number =>
  block.type === "text" ? block.text.length : block.type === "image" && "data" in block.source ? String(block.source.data).length : 0

/**
 * Content over `maxTokens` (characters / 4) cut to fit, with a note saying so. Text is cut at the bound; an image
 * that does not fit is left out whole.
 */
export const truncate = (content: ReadonlyArray<ToolResultContent>, maxTokens: number): ReadonlyArray<ToolResultContent> => {
  const maxChars = maxTokens * Tokens.charsPerToken
  const total = content.reduce((sum, block) => sum + sizeOf(block), 0)
  if (total <= maxChars) return content
  const kept: Array<ToolResultContent> = []
  let left = maxChars
  for (const block of content) {
    const size = sizeOf(block)
    if (size <= left) {
      kept.push(block)
      left -= size
    } else if (block.type === "text" && left > 0) {
      kept.push({ ...block, text: block.text.slice(0, left) })
      left = 0
    }
  }
  kept.push({
    type: "text",
    text: `[Output truncated: this MCP tool's output is about ${Tokens.ofChars(total)} tokens, over the limit of ${maxTokens} (MAX_MCP_OUTPUT_TOKENS). Ask for less, e.g. with a narrower query or paging, if the tool allows it.]`
  })
  return kept
}
