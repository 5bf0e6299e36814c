/**
 * What a command hook reads on stdin and may print on stdout, with Claude Code's field names, so hook scripts
 * written for Claude Code run unchanged. Inputs are the JSON weft writes (one Schema per event, all sharing the
 * common fields); the output is what weft accepts back from a hook that exits 0 with JSON on stdout.
 *
 * Unknown keys are kept on decoding (hooks written for newer versions may print more) and ignored.
 */
import * as Schema from "effect/Schema"

export const eventNames = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "SessionStart",
  "SessionEnd",
  "Notification",
  "PreCompact",
  "PermissionRequest"
] as const

export type EventName = (typeof eventNames)[number]

export const EventName = Schema.Literals(eventNames)

export const isEventName = (name: string): name is EventName => (eventNames as ReadonlyArray<string>).includes(name)

export const PermissionMode = Schema.Literals(["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"])

/** Fields every event carries. `permission_mode` is absent on SessionStart and SessionEnd, as in Claude Code. */
const common = {
  session_id: Schema.String,
  transcript_path: Schema.String,
  cwd: Schema.String
}
const withMode = { ...common, permission_mode: PermissionMode }

const toolFields = {
  ...withMode,
  tool_name: Schema.String,
  tool_input: Schema.Unknown,
  tool_use_id: Schema.String
}

export const PreToolUseInput = Schema.Struct({ hook_event_name: Schema.Literal("PreToolUse"), ...toolFields })

export const PostToolUseInput = Schema.Struct({
  hook_event_name: Schema.Literal("PostToolUse"),
  ...toolFields,
  tool_response: Schema.Unknown,
  duration_ms: Schema.optional(Schema.Number)
})

export const PostToolUseFailureInput = Schema.Struct({
  hook_event_name: Schema.Literal("PostToolUseFailure"),
  ...toolFields,
  error: Schema.String,
  /** weft's addition: why the tool failed (a ToolFailureKind). */
  error_kind: Schema.optional(Schema.String),
  is_interrupt: Schema.Boolean
})

export const PermissionRequestInput = Schema.Struct({
  hook_event_name: Schema.Literal("PermissionRequest"),
  ...toolFields,
  permission_suggestions: Schema.optional(Schema.Array(Schema.Unknown))
})

export const UserPromptSubmitInput = Schema.Struct({
  hook_event_name: Schema.Literal("UserPromptSubmit"),
  ...withMode,
  prompt: Schema.String
})

export const StopInput = Schema.Struct({
  hook_event_name: Schema.Literal("Stop"),
  ...withMode,
  stop_hook_active: Schema.Boolean,
  last_assistant_message: Schema.optional(Schema.String)
})

export const SubagentStopInput = Schema.Struct({
  hook_event_name: Schema.Literal("SubagentStop"),
  ...withMode,
  stop_hook_active: Schema.Boolean,
  last_assistant_message: Schema.optional(Schema.String),
  agent_id: Schema.optional(Schema.String),
  agent_type: Schema.optional(Schema.String),
  agent_transcript_path: Schema.optional(Schema.String)
})

export const SubagentStartInput = Schema.Struct({
  hook_event_name: Schema.Literal("SubagentStart"),
  ...withMode,
  agent_id: Schema.String,
  agent_type: Schema.String
})

export const SessionStartSource = Schema.Literals(["startup", "resume", "clear", "compact"])
export type SessionStartSource = typeof SessionStartSource.Type

export const SessionStartInput = Schema.Struct({
  hook_event_name: Schema.Literal("SessionStart"),
  ...common,
  source: SessionStartSource,
  model: Schema.optional(Schema.String)
})

export const SessionEndInput = Schema.Struct({
  hook_event_name: Schema.Literal("SessionEnd"),
  ...common,
  reason: Schema.String
})

export const NotificationInput = Schema.Struct({
  hook_event_name: Schema.Literal("Notification"),
  ...withMode,
  message: Schema.String,
  title: Schema.optional(Schema.String),
  notification_type: Schema.optional(Schema.String)
})

export const CompactTrigger = Schema.Literals(["manual", "auto"])
export type CompactTrigger = typeof CompactTrigger.Type

export const PreCompactInput = Schema.Struct({
  hook_event_name: Schema.Literal("PreCompact"),
  ...withMode,
  trigger: CompactTrigger,
  custom_instructions: Schema.NullOr(Schema.String)
})

/** Any event's input, told apart by `hook_event_name`. */
export const HookInput = Schema.Union([
  PreToolUseInput,
  PostToolUseInput,
  PostToolUseFailureInput,
  PermissionRequestInput,
  UserPromptSubmitInput,
  StopInput,
  SubagentStopInput,
  SubagentStartInput,
  SessionStartInput,
  SessionEndInput,
  NotificationInput,
  PreCompactInput
])
export type HookInput = typeof HookInput.Type

/** The decision a PermissionRequest hook gives in place of asking a person. */
export const PermissionRequestDecision = Schema.Union([
  Schema.Struct({
    behavior: Schema.Literal("allow"),
    updatedInput: Schema.optional(Schema.Unknown)
  }),
  Schema.Struct({
    behavior: Schema.Literal("deny"),
    message: Schema.optional(Schema.String),
    interrupt: Schema.optional(Schema.Boolean)
  })
])
export type PermissionRequestDecision = typeof PermissionRequestDecision.Type

export const HookSpecificOutput = Schema.Struct({
  hookEventName: Schema.optional(Schema.String),
  permissionDecision: Schema.optional(Schema.Literals(["allow", "deny", "ask"])),
  permissionDecisionReason: Schema.optional(Schema.String),
  updatedInput: Schema.optional(Schema.Unknown),
  additionalContext: Schema.optional(Schema.String),
  /** PermissionRequest only. */
  decision: Schema.optional(PermissionRequestDecision),
  /** PreCompact only: what the summary of the conversation must keep or stress (added to the summary request). */
  customInstructions: Schema.optional(Schema.String)
})
export type HookSpecificOutput = typeof HookSpecificOutput.Type

/**
 * A hook's JSON answer. `decision: "approve"` is the older spelling of a PreToolUse allow, still accepted by
 * Claude Code; `"block"` blocks wherever the event can block.
 */
export const HookOutput = Schema.Struct({
  continue: Schema.optional(Schema.Boolean),
  stopReason: Schema.optional(Schema.String),
  suppressOutput: Schema.optional(Schema.Boolean),
  systemMessage: Schema.optional(Schema.String),
  decision: Schema.optional(Schema.Literals(["approve", "block"])),
  reason: Schema.optional(Schema.String),
  hookSpecificOutput: Schema.optional(HookSpecificOutput)
})
export type HookOutput = typeof HookOutput.Type
