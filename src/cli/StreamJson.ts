/**
 * Claude Code's stream-json frames (the shapes the Claude Agent SDK reads), made from AgentEvents. One JSON object
 * per line on stdout. `toFrame` answers undefined for events that have no frame in a given mode.
 */
import type { AgentEvent, Result } from "../domain/AgentEvent.js"

export interface FrameOptions {
  readonly includePartialMessages: boolean
  readonly apiKeySource: string
  readonly version: string
}

export type Frame = Readonly<Record<string, unknown>>

const uuid = () => crypto.randomUUID()

/**
 * The last frame. An error result (is_error) also lists what went wrong in `errors`, as the Agent SDK's error
 * results do; `result` keeps the same text for readers of the older shape.
 */
export const resultFrame = (result: Result): Frame => ({
  type: "result",
  subtype: result.subtype,
  is_error: result.isError,
  duration_ms: result.durationMs,
  duration_api_ms: result.durationApiMs,
  num_turns: result.numTurns,
  result: result.result,
  ...(result.isError ? { errors: [result.result] } : {}),
  session_id: result.sessionId,
  total_cost_usd: result.totalCostUsd,
  usage: result.usage,
  modelUsage: result.modelUsage,
  permission_denials: result.permissionDenials,
  uuid: uuid()
})

export const toFrame = (event: AgentEvent, sessionId: string, options: FrameOptions): Frame | undefined => {
  switch (event._tag) {
    case "SessionStarted":
      return {
        type: "system",
        subtype: "init",
        cwd: event.cwd,
        session_id: event.sessionId,
        tools: event.tools,
        mcp_servers: event.mcpServers,
        model: event.model,
        permissionMode: event.permissionMode,
        slash_commands: [],
        apiKeySource: options.apiKeySource,
        claude_code_version: options.version,
        output_style: "default",
        agents: [],
        skills: [],
        plugins: [],
        uuid: uuid()
      }
    case "StreamDelta":
      return options.includePartialMessages
        ? { type: "stream_event", event: event.event, session_id: sessionId, parent_tool_use_id: null, uuid: uuid() }
        : undefined
    case "AssistantTurn":
      return {
        type: "assistant",
        message: event.message,
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: event.uuid
      }
    case "ToolResults":
      return {
        type: "user",
        message: event.message,
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: event.uuid
      }
    case "Result":
      return resultFrame(event)
    case "ToolProgress":
    case "TodosUpdated":
      return undefined
  }
}
