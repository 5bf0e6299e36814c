/**
 * The body of every model request the loop sends (a turn, a compaction's summary request), built in one place so
 * that what precedes the conversation (tools, system prompt) is the same in all of them.
 */
import type { MessageParam } from "../domain/Message.js"
import type { MessagesRequest, ToolDefinition } from "../domain/Request.js"

export const defaultMaxTokens = 32_000

/** What a request is built from besides the conversation. */
export interface Settings {
  readonly model: string
  readonly maxTokens: number
  readonly systemPrompt: string
  /** The tool definitions, in the registry's order (none: the request has no `tools`). */
  readonly tools: ReadonlyArray<ToolDefinition>
}

/** The request for `messages`, streamed. */
export const build = (settings: Settings, messages: ReadonlyArray<MessageParam>): MessagesRequest => ({
  model: settings.model,
  max_tokens: settings.maxTokens,
  system: settings.systemPrompt,
  messages,
  ...(settings.tools.length > 0 ? { tools: settings.tools } : {}),
  stream: true
})
