/**
 * Claude Code's stream-json frames (the shapes the Claude Agent SDK reads), made from AgentEvents. One JSON object
 * per line on stdout. `toFrame` answers undefined for events that have no frame in a given mode.
 */
import type { AgentEvent, Result } from "../domain/AgentEvent.js"

export interface FrameOptions {
  readonly includePartialMessages: boolean
  readonly apiKeySource: string
  readonly version: string
  /** Hook frames are shown only with --verbose. */
  readonly verbose?: boolean
  /** The custom commands and skills the init frame lists (`slash_commands`, `skills`). */
  readonly slashCommands?: ReadonlyArray<string>
  readonly skills?: ReadonlyArray<string>
  /** The agents the init frame lists (the Agent tool's types). */
  readonly agents?: ReadonlyArray<string>
}

export type Frame = Readonly<Record<string, unknown>>

/**
 * The last frame. An error result (is_error) also lists what went wrong in `errors`, as the Agent SDK's error
 * results do; `result` keeps the same text for readers of the older shape.
 */
export const resultFrame = (result: Result, uuid: () => string): Frame => ({
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

/** `uuid` makes the frames' own ids (Print draws them through effect's Random: Uuid.maker). */
export const toFrame = (event: AgentEvent, sessionId: string, options: FrameOptions, uuid: () => string): Frame | undefined => {
  switch (event._tag) {
    case "SessionStarted":
      return {
        type: "system",
        subtype: "init",
        cwd: event.cwd,
        session_id: event.sessionId,
        // Claude Code lists the Agent tool under its former name.
        tools: event.tools.map((tool) => (tool === "Agent" ? "Task" : tool)),
        mcp_servers: event.mcpServers,
        model: event.model,
        permissionMode: event.permissionMode,
        slash_commands: options.slashCommands ?? [],
        apiKeySource: options.apiKeySource,
        claude_code_version: options.version,
        output_style: "default",
        agents: options.agents ?? [],
        skills: options.skills ?? [],
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
    case "ApiRetry":
      return {
        type: "system",
        subtype: "api_retry",
        attempt: event.attempt,
        max_retries: event.maxRetries,
        retry_delay_ms: event.retryDelayMs,
        error_status: event.errorStatus,
        error: event.category,
        session_id: sessionId,
        uuid: uuid()
      }
    case "Compacted":
      return {
        type: "system",
        subtype: "compact_boundary",
        session_id: sessionId,
        uuid: event.uuid,
        compact_metadata: { trigger: event.trigger, pre_tokens: event.preTokens }
      }
    case "Result":
      return resultFrame(event, uuid)
    // Claude Code shows hook activity only for SessionStart hooks, and only with --verbose.
    case "HookStarted":
      return options.verbose === true && event.hookEvent === "SessionStart"
        ? {
            type: "system",
            subtype: "hook_started",
            hook_id: event.hookId,
            hook_name: event.hookName,
            hook_event: event.hookEvent,
            uuid: uuid(),
            session_id: sessionId
          }
        : undefined
    case "HookResponse":
      return options.verbose === true && event.activity.hookEvent === "SessionStart"
        ? {
            type: "system",
            subtype: "hook_response",
            hook_id: event.activity.hookId,
            hook_name: event.activity.hookName,
            hook_event: event.activity.hookEvent,
            output: event.activity.stdout + event.activity.stderr,
            stdout: event.activity.stdout,
            stderr: event.activity.stderr,
            exit_code: event.activity.exitCode ?? null,
            outcome: event.activity.outcome,
            uuid: uuid(),
            session_id: sessionId
          }
        : undefined
    case "SubagentEvent": {
      // A child's frames as its parent's stream carries them: tagged with the Agent call that started it.
      const inner = toFrame(event.event, sessionId, options, uuid)
      if (inner === undefined || inner["type"] === "result") return undefined
      return { ...inner, parent_tool_use_id: event.parentToolUseId, agent_id: event.agentId, subagent_type: event.agentType }
    }
    case "SubagentStarted":
      return {
        type: "system",
        subtype: "task_started",
        task_id: event.agentId,
        tool_use_id: event.parentToolUseId,
        description: event.description,
        subagent_type: event.agentType,
        task_type: event.background ? "background" : "foreground",
        session_id: sessionId,
        uuid: uuid()
      }
    case "SubagentProgress":
      return {
        type: "system",
        subtype: "task_progress",
        task_id: event.agentId,
        tool_use_id: event.parentToolUseId,
        description: event.description,
        subagent_type: event.agentType,
        usage: { total_tokens: event.totalTokens, tool_uses: event.toolUses },
        ...(event.lastToolName === undefined ? {} : { last_tool_name: event.lastToolName }),
        session_id: sessionId,
        uuid: uuid()
      }
    case "SubagentEnded":
      return {
        type: "system",
        subtype: "task_notification",
        task_id: event.agentId,
        tool_use_id: event.parentToolUseId,
        status: event.status,
        summary: `Agent "${event.description}" ${event.status}`,
        subagent_type: event.agentType,
        usage: { total_tokens: event.totalTokens, tool_uses: event.toolUses, duration_ms: event.durationMs },
        session_id: sessionId,
        uuid: uuid()
      }
    case "ToolProgress":
    case "TodosUpdated":
    case "HookNotice":
    case "TurnStarted":
    case "TurnEnded":
    case "TextDelta":
    case "ThinkingDelta":
    case "ToolStarted":
    case "ToolEnded":
    case "PermissionAsked":
    case "PermissionAnswered":
    case "CompactionStarted":
    case "PermissionModeChanged":
    case "ModelChanged":
    case "SessionEnded":
      return undefined
  }
}
