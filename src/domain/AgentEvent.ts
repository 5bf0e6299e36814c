/**
 * What the loop emits. Every renderer (the terminal, `-p` text/json/stream-json, the SDK protocol) consumes this
 * one stream. Events are plain tagged data so they can be logged, compared in tests and serialised.
 */
import type { ContentBlock, ToolResultBlock } from "./Content.js"
import type { AssistantMessage, MessageParam } from "./Message.js"
import type { StreamEvent } from "./StreamEvent.js"
import type { ToolFailure } from "./ToolFailure.js"
import type { Hunk } from "./Patch.js"
import type { Usage } from "./Usage.js"

export interface SessionStarted {
  readonly _tag: "SessionStarted"
  readonly sessionId: string
  readonly cwd: string
  readonly model: string
  readonly tools: ReadonlyArray<string>
  readonly mcpServers: ReadonlyArray<{ readonly name: string; readonly status: string }>
  readonly permissionMode: string
}

/** A raw API event, for renderers that show text as it arrives (`--include-partial-messages`). */
export interface StreamDelta {
  readonly _tag: "StreamDelta"
  readonly event: StreamEvent
}

export interface AssistantTurn {
  readonly _tag: "AssistantTurn"
  readonly uuid: string
  readonly message: AssistantMessage
}

/** The user message that carries a turn's tool results back to the model. */
export interface ToolResults {
  readonly _tag: "ToolResults"
  readonly uuid: string
  readonly message: MessageParam
  /** Structured outputs by tool_use_id, for renderers (e.g. a todo list). */
  readonly data: Readonly<Record<string, unknown>>
  /** The calls that ended in an error, by tool_use_id: why (a kind for programs) and the message the model got. */
  readonly failures?: Readonly<Record<string, ToolFailure>>
}

export interface ToolProgress {
  readonly _tag: "ToolProgress"
  readonly toolUseId: string
  readonly toolName: string
  readonly text: string
}

/**
 * A model request failed before its response began and is about to be sent again (Claude Code's `api_retry`
 * system message). `category` is the Agent SDK's error category of the failure.
 */
export interface ApiRetry {
  readonly _tag: "ApiRetry"
  /** The retry about to be made, from 1. */
  readonly attempt: number
  readonly maxRetries: number
  readonly retryDelayMs: number
  /** The HTTP status of the failed attempt, or null when none came (connection error, timeout). */
  readonly errorStatus: number | null
  readonly category: "authentication_failed" | "billing_error" | "rate_limit" | "invalid_request" | "server_error" | "unknown"
  /** What failed, for people. */
  readonly message: string
}

/**
 * The conversation was compacted (Claude Code's `compact_boundary` system message): what came before is replaced by
 * a summary, and the run goes on from it.
 */
export interface Compacted {
  readonly _tag: "Compacted"
  /** The boundary entry's uuid in the transcript. */
  readonly uuid: string
  /** auto: the context neared the window, or the API said the prompt was too long; manual: asked for. */
  readonly trigger: "auto" | "manual"
  /** The size of the context before (tokens, from the last response's usage or the API's refusal). */
  readonly preTokens: number
}

export interface TodoItem {
  readonly content: string
  readonly status: "pending" | "in_progress" | "completed"
  readonly activeForm: string
}

export interface TodosUpdated {
  readonly _tag: "TodosUpdated"
  readonly todos: ReadonlyArray<TodoItem>
}

/** One command hook that ran: for `--verbose` and stream-json's hook frames (Claude Code's hook_started / hook_response). */
export interface HookActivity {
  readonly hookId: string
  /** The event and what its matcher was compared with, e.g. "PreToolUse:Bash", "SessionStart:startup". */
  readonly hookName: string
  readonly hookEvent: string
  readonly command: string
  /** Absent when the hook did not exit by itself (timed out, flooded its output, could not start). */
  readonly exitCode?: number
  readonly stdout: string
  readonly stderr: string
  /** success: exit 0; blocked: it blocked (exit 2 or a JSON decision); error: any other end, which weft goes past. */
  readonly outcome: "success" | "blocked" | "error"
  /** What weft made of it, for people (e.g. "did not answer within 60 s; went on without it"). */
  readonly note?: string
}

/** A command hook is starting (emitted just before its HookResponse; stream-json shows both for SessionStart). */
export interface HookStarted {
  readonly _tag: "HookStarted"
  readonly hookId: string
  readonly hookName: string
  readonly hookEvent: string
}

/** A command hook ran. */
export interface HookResponse {
  readonly _tag: "HookResponse"
  readonly activity: HookActivity
}

/** Something a hook tells the user (its `systemMessage`, why it stopped the run or blocked the prompt); never the model. */
export interface HookNotice {
  readonly _tag: "HookNotice"
  readonly hookEvent: string
  readonly text: string
}

/** A Session began working on a prompt (`turnId`: the number `submit` answered), or on a compaction asked for. */
export interface TurnStarted {
  readonly _tag: "TurnStarted"
  readonly turnId: number
  /** "tool": a call run on the user's behalf (Session.runTool). */
  readonly kind: "prompt" | "compact" | "tool"
}

/**
 * The turn is over: its Result was emitted just before (for a prompt), or the compaction asked for is done or
 * failed. The Session is ready for the next turn.
 */
export interface TurnEnded {
  readonly _tag: "TurnEnded"
  readonly turnId: number
  readonly interrupted: boolean
}

/** Text of the assistant's answer as it arrives (the content block's index in the message). */
export interface TextDelta {
  readonly _tag: "TextDelta"
  readonly index: number
  readonly text: string
}

/** The model's thinking as it arrives. */
export interface ThinkingDelta {
  readonly _tag: "ThinkingDelta"
  readonly index: number
  readonly thinking: string
}

/** A tool call begins (its input decoded or not: every tool_use gets a ToolStarted and a ToolEnded). */
export interface ToolStarted {
  readonly _tag: "ToolStarted"
  readonly toolUseId: string
  readonly toolName: string
  readonly input: unknown
}

/** A tool call ended: the result the model gets (the ToolResults of the turn follow once every call has ended). */
export interface ToolEnded {
  readonly _tag: "ToolEnded"
  readonly toolUseId: string
  readonly toolName: string
  readonly isError: boolean
  /** The tool_result block sent back. */
  readonly result: ToolResultBlock
  /** Why it failed, when it did. */
  readonly failure?: ToolFailure
  /** The file change it made (Edit, Write): line hunks as StructuredPatch makes them. */
  readonly patch?: ReadonlyArray<Hunk>
}

/** A suggestion a host may accept with an allow (Claude Code's PermissionUpdate). */
export type PermissionUpdate =
  | {
      readonly type: "addRules" | "replaceRules" | "removeRules"
      readonly rules: ReadonlyArray<{ readonly toolName: string; readonly ruleContent?: string }>
      readonly behavior: "allow" | "deny" | "ask"
      readonly destination: PermissionUpdateDestination
    }
  | { readonly type: "setMode"; readonly mode: string; readonly destination: PermissionUpdateDestination }
  | {
      readonly type: "addDirectories" | "removeDirectories"
      readonly directories: ReadonlyArray<string>
      readonly destination: PermissionUpdateDestination
    }

/** Where a permission update is kept: the session only, or the settings file of a scope (`.claude/settings.local.json`, ...). */
export type PermissionUpdateDestination = "session" | "cliArg" | "localSettings" | "projectSettings" | "userSettings"

/** A call must be asked about: the Prompter has the question (a host shows it and answers). */
export interface PermissionAsked {
  readonly _tag: "PermissionAsked"
  readonly toolUseId: string
  readonly toolName: string
  readonly input: unknown
  /** Why it is asked, for a person. */
  readonly reason: string
  /** The path outside the workspace (or protected) that made it ask, when one did. */
  readonly blockedPath?: string
  /** Rules that would let such calls run without asking. */
  readonly suggestions: ReadonlyArray<PermissionUpdate>
}

/** The Prompter answered (or the ask was cancelled with its turn). */
export interface PermissionAnswered {
  readonly _tag: "PermissionAnswered"
  readonly toolUseId: string
  readonly behavior: "allow" | "deny" | "cancelled"
  /** A denial's message for the model. */
  readonly message?: string
}

/** A compaction begins (the Compacted event, or a failure notice, follows). */
export interface CompactionStarted {
  readonly _tag: "CompactionStarted"
  readonly trigger: "auto" | "manual"
}

/** The permission mode in force changed (Session.setPermissionMode, or an allow that set it). */
export interface PermissionModeChanged {
  readonly _tag: "PermissionModeChanged"
  readonly mode: string
}

/** The model for the next requests changed (Session.setModel). */
export interface ModelChanged {
  readonly _tag: "ModelChanged"
  readonly model: string
}

/** The session ended: SessionEnd hooks ran and the transcript is flushed; nothing more is emitted. */
export interface SessionEnded {
  readonly _tag: "SessionEnded"
  readonly sessionId: string
  readonly reason: string
}

export interface PermissionDenial {
  readonly tool_name: string
  readonly tool_use_id: string
  readonly tool_input: unknown
}

export type ResultSubtype = "success" | "error_max_turns" | "error_during_execution"

/** What one model used over a session and what that cost (Claude Code's `modelUsage` entries). */
export interface ModelUsage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cacheReadInputTokens: number
  readonly cacheCreationInputTokens: number
  readonly webSearchRequests: number
  readonly costUSD: number
  readonly contextWindow: number
  /** Present (true) when the model's prices are not known: `costUSD` is then 0 for want of a price, not free. */
  readonly unpriced?: boolean
}

export interface Result {
  readonly _tag: "Result"
  readonly subtype: ResultSubtype
  readonly isError: boolean
  /** The final answer's text (success) or what went wrong. */
  readonly result: string
  readonly numTurns: number
  readonly durationMs: number
  readonly durationApiMs: number
  readonly totalCostUsd: number
  /** The session's usage, all models together. */
  readonly usage: Usage
  /** The same by model id (the model each response named). */
  readonly modelUsage: Readonly<Record<string, ModelUsage>>
  readonly sessionId: string
  readonly permissionDenials: ReadonlyArray<PermissionDenial>
  /** The last assistant content, when there was one. */
  readonly content?: ReadonlyArray<ContentBlock>
}

/** A subagent (an Agent tool call's child conversation) began. */
export interface SubagentStarted {
  readonly _tag: "SubagentStarted"
  /** The Agent tool_use that started it. */
  readonly parentToolUseId: string
  readonly agentId: string
  readonly agentType: string
  readonly description: string
  readonly prompt: string
  readonly background: boolean
}

/** An event of a subagent's conversation, as its parent's stream carries it. */
export interface SubagentEvent {
  readonly _tag: "SubagentEvent"
  readonly parentToolUseId: string
  readonly agentId: string
  readonly agentType: string
  readonly event: AgentEvent
}

/** A subagent's calls were answered: how far it has got (stream-json's `task_progress`). */
export interface SubagentProgress {
  readonly _tag: "SubagentProgress"
  readonly parentToolUseId: string
  readonly agentId: string
  readonly agentType: string
  readonly description: string
  readonly toolUses: number
  readonly totalTokens: number
  readonly lastToolName: string | undefined
}

/** A subagent ended: how, its answer, and what it used. */
export interface SubagentEnded {
  readonly _tag: "SubagentEnded"
  readonly parentToolUseId: string
  readonly agentId: string
  readonly agentType: string
  readonly description: string
  readonly status: "completed" | "failed" | "stopped"
  readonly result: string
  readonly background: boolean
  readonly totalTokens: number
  readonly toolUses: number
  readonly durationMs: number
  readonly costUsd: number
}

export type AgentEvent =
  | SubagentStarted
  | SubagentEvent
  | SubagentProgress
  | SubagentEnded
  | SessionStarted
  | StreamDelta
  | AssistantTurn
  | ToolResults
  | ToolProgress
  | TodosUpdated
  | HookStarted
  | HookResponse
  | HookNotice
  | ApiRetry
  | Compacted
  | Result
  | TurnStarted
  | TurnEnded
  | TextDelta
  | ThinkingDelta
  | ToolStarted
  | ToolEnded
  | PermissionAsked
  | PermissionAnswered
  | CompactionStarted
  | PermissionModeChanged
  | ModelChanged
  | SessionEnded
