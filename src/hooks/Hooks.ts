/**
 * Lifecycle hooks around the loop (Claude Code's PreToolUse, PostToolUse, Stop, ...). SKELETON for the hooks
 * issue: the contract the loop calls at each point, and a layer that runs no hook. Every method answers what the
 * loop must do next, so command hooks from settings and in-process hooks plug in without touching the loop.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface ToolHookInput {
  readonly sessionId: string
  readonly cwd: string
  readonly toolName: string
  readonly toolUseId: string
  readonly toolInput: unknown
}

export interface PreToolUseOutcome {
  /** Set when a hook blocks the call: the reason goes to the model as an `is_error` tool_result. */
  readonly blocked?: string
  /** A hook's permission answer: "allow" skips the permission prompt, "deny" blocks, "ask" forces a prompt. */
  readonly permissionDecision?: "allow" | "deny" | "ask"
  /** A replacement input (re-validated against the tool's schema). */
  readonly updatedInput?: unknown
}

export interface PostToolUseOutcome {
  /** Text added for the model after the tool result. */
  readonly additionalContext?: string
  /** Set when a hook rejects the result: its reason is shown to the model. */
  readonly blocked?: string
}

export interface StopOutcome {
  /** Set when a hook refuses to let the agent stop: the reason is sent to the model and the loop goes on. */
  readonly continueWith?: string
}

export interface PromptOutcome {
  readonly blocked?: string
  readonly additionalContext?: string
}

export interface Interface {
  readonly sessionStart: (input: { readonly sessionId: string; readonly cwd: string; readonly source: "startup" | "resume" }) => Effect.Effect<PromptOutcome>
  readonly userPromptSubmit: (input: { readonly sessionId: string; readonly cwd: string; readonly prompt: string }) => Effect.Effect<PromptOutcome>
  readonly preToolUse: (input: ToolHookInput) => Effect.Effect<PreToolUseOutcome>
  readonly postToolUse: (input: ToolHookInput & { readonly toolResponse: unknown; readonly isError: boolean }) => Effect.Effect<PostToolUseOutcome>
  readonly stop: (input: { readonly sessionId: string; readonly cwd: string; readonly stopHookActive: boolean }) => Effect.Effect<StopOutcome>
  readonly sessionEnd: (input: { readonly sessionId: string; readonly cwd: string; readonly reason: string }) => Effect.Effect<void>
}

const none: Interface = {
  sessionStart: () => Effect.succeed({}),
  userPromptSubmit: () => Effect.succeed({}),
  preToolUse: () => Effect.succeed({}),
  postToolUse: () => Effect.succeed({}),
  stop: () => Effect.succeed({}),
  sessionEnd: () => Effect.void
}

export class Hooks extends Context.Tag("weft/Hooks")<Hooks, Interface>() {
  /** Runs no hook: every point continues unchanged. */
  static none: Interface = none
  static layerNone = Layer.succeed(Hooks, none)
  /** Hooks given as in-process functions; points left out continue unchanged. */
  static layerWith = (hooks: Partial<Interface>) => Layer.succeed(Hooks, { ...none, ...hooks })
}
