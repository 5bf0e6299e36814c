/**
 * The body of every model request the loop sends (a turn, a compaction's summary request), built in one place so
 * that what precedes the conversation (tools, system prompt) is the same in all of them.
 *
 * Prompt caching, placed as Claude Code places it: the API caches a request's prefix up to a block that carries
 * `cache_control`, in the order tools -> system -> messages, and a later request that starts with the same bytes
 * reads it. A request carries at most four breakpoints:
 *   1. the last tool definition (the tools, stable for a session unless an MCP server's list changes),
 *   2. the system prompt, sent as one text block (built once per run: nothing in it changes between turns),
 *   3. the last block of the user message that ended the previous request (what the previous turn wrote to the
 *      cache, read back however many blocks the newest exchange added: the API looks back only 20 blocks from a
 *      breakpoint for an entry to read),
 *   4. the last block of the newest message, so the next turn reads this one's prefix.
 * The breakpoints are added to a copy: the conversation itself (the transcript, what a resume sends) stays
 * without them, and the messages that enter it from outside (a prompt's blocks, a resumed history) are cleaned
 * of any they carried, so a request never holds more than these four.
 */
import * as Effect from "effect/Effect"
import type { ContentBlock } from "../domain/Content.js"
import { blocksOf, isRedactedThinking, isText, isThinking, isToolResult } from "../domain/ContentGuards.js"
import type { MessageParam } from "../domain/Message.js"
import type { MessagesRequest, ToolDefinition } from "../domain/Request.js"
import * as Variables from "../platform/Variables.js"

export const defaultMaxTokens = 32_000

/** What a request is built from besides the conversation. */
export interface Settings {
  readonly model: string
  readonly maxTokens: number
  readonly systemPrompt: string
  /** The tool definitions, in the registry's order (none: the request has no `tools`). */
  readonly tools: ReadonlyArray<ToolDefinition>
  /** Whether the request carries cache breakpoints (see the module doc). */
  readonly promptCaching: boolean
}

/**
 * The history with a user message added. Roles alternate: after a user message (a resumed session that was stopped
 * after its tool results; a summary request's conversation ending with tool results), the new blocks join it, after
 * its own, as the API would merge them and as a transcript of the two entries is read back (SessionState).
 */
export const appendUser = (history: ReadonlyArray<MessageParam>, message: MessageParam): ReadonlyArray<MessageParam> => {
  const last = history[history.length - 1]
  if (last === undefined || last.role !== "user") return [...history, message]
  return [...history.slice(0, -1), { role: "user", content: [...blocksOf(last.content), ...blocksOf(message.content)] }]
}

/** The marker of a breakpoint: the default 5-minute cache. */
export const ephemeral = { type: "ephemeral" } as const

/** The most breakpoints the API accepts in one request. */
export const maxBreakpoints = 4

/** The request for `messages`, streamed. */
export const build = (settings: Settings, messages: ReadonlyArray<MessageParam>): MessagesRequest => {
  const { tools, systemPrompt } = settings
  if (!settings.promptCaching) {
    return {
      model: settings.model,
      max_tokens: settings.maxTokens,
      system: systemPrompt,
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      stream: true
    }
  }
  return {
    model: settings.model,
    max_tokens: settings.maxTokens,
    // An empty text block cannot be sent, let alone cached.
    system: systemPrompt === "" ? systemPrompt : [{ type: "text", text: systemPrompt, cache_control: ephemeral }],
    messages: withMessageBreakpoints(messages),
    ...(tools.length > 0 ? { tools: cachedTools(tools) } : {}),
    stream: true
  }
}

// The definitions array is the registry's own, rebuilt only when the tools change: its marked copy is kept with it.
const markedTools = new WeakMap<ReadonlyArray<ToolDefinition>, ReadonlyArray<ToolDefinition>>()

const cachedTools = (tools: ReadonlyArray<ToolDefinition>): ReadonlyArray<ToolDefinition> => {
  const known = markedTools.get(tools)
  if (known !== undefined) return known
  const marked = tools.map((tool, index) => (index === tools.length - 1 ? { ...tool, cache_control: ephemeral } : tool))
  markedTools.set(tools, marked)
  return marked
}

/**
 * `messages` with breakpoints 3 and 4 (module doc): on the newest message, and on the last user message before
 * the newest assistant message (the end of the previous request). Only those two messages are copied.
 */
const withMessageBreakpoints = (messages: ReadonlyArray<MessageParam>): ReadonlyArray<MessageParam> => {
  const last = messages.length - 1
  if (last < 0) return messages
  const out = messages.slice()
  const newest = out[last]
  if (newest !== undefined) out[last] = marked(newest)
  let assistant = last
  while (assistant >= 0 && out[assistant]?.role !== "assistant") assistant--
  for (let index = assistant - 1; index >= 0; index--) {
    const message = out[index]
    if (message?.role === "user") {
      out[index] = marked(message)
      break
    }
  }
  return out
}

/** Blocks the API lets carry `cache_control` (not thinking blocks, nor an empty text). */
const cacheable = (block: ContentBlock): boolean =>
  isText(block) ? block.text !== "" : !isThinking(block) && !isRedactedThinking(block)

/** The message with a breakpoint on its last block that can carry one (unchanged when none can). */
const marked = (message: MessageParam): MessageParam => {
  const content = message.content
  if (typeof content === "string") {
    return content === "" ? message : { ...message, content: [{ type: "text", text: content, cache_control: ephemeral }] }
  }
  for (let index = content.length - 1; index >= 0; index--) {
    const block = content[index]
    if (block !== undefined && cacheable(block)) {
      const blocks = content.slice()
      blocks[index] = { ...block, cache_control: ephemeral }
      return { ...message, content: blocks }
    }
  }
  return message
}

/**
 * The messages without any `cache_control` of their own (a prompt's blocks from an SDK, a history written by
 * another program): the builder places every breakpoint, so a request never holds more than four.
 */
export const withoutCacheControl = (messages: ReadonlyArray<MessageParam>): ReadonlyArray<MessageParam> =>
  messages.some(carriesCacheControl) ? messages.map(cleaned) : messages

const ownMarker = (block: object): boolean => "cache_control" in block

/** A block with `cache_control`, on itself or on a block of its content (a tool_result's text, image, document). */
const hasMarker = (block: ContentBlock): boolean =>
  ownMarker(block) || (isToolResult(block) && Array.isArray(block.content) && block.content.some(ownMarker))

const carriesCacheControl = (message: MessageParam): boolean =>
  typeof message.content !== "string" && message.content.some(hasMarker)

const cleaned = (message: MessageParam): MessageParam =>
  carriesCacheControl(message) && typeof message.content !== "string"
    ? { ...message, content: withoutMarkers(message.content) }
    : message

/** The blocks without `cache_control` (the same array when none has it). */
export const withoutMarkers = (blocks: ReadonlyArray<ContentBlock>): ReadonlyArray<ContentBlock> =>
  blocks.some(hasMarker)
    ? blocks.map((block) => {
        if (!hasMarker(block)) return block
        const { cache_control: _dropped, ...rest } = block
        if (!isToolResult(block) || !Array.isArray(block.content)) return rest
        return {
          ...rest,
          content: block.content.map((inner) => {
            if (!ownMarker(inner)) return inner
            const { cache_control: _innerDropped, ...plain } = inner
            return plain
          })
        }
      })
    : blocks

/**
 * Whether requests to `model` carry breakpoints: yes unless `DISABLE_PROMPT_CACHING` is set (or, as in Claude Code,
 * `DISABLE_PROMPT_CACHING_HAIKU` / `_SONNET` / `_OPUS` for a model of that family), read through Effect's Config.
 */
export const promptCachingFor = (model: string): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    if (yield* Variables.flag("DISABLE_PROMPT_CACHING")) return false
    const id = model.toLowerCase()
    for (const family of ["haiku", "sonnet", "opus"]) {
      if (id.includes(family) && (yield* Variables.flag(`DISABLE_PROMPT_CACHING_${family.toUpperCase()}`))) return false
    }
    return true
  })
