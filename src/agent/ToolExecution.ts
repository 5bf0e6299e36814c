/**
 * Runs the tool calls of one assistant turn: decode the input, ask Permissions, run PreToolUse hooks, run the tool,
 * run PostToolUse hooks. Every tool_use gets exactly one tool_result, whatever happens (invalid input, denial,
 * failure, interruption), so the history stays valid for the API. Read-only calls that stand next to each other run
 * concurrently; any other call waits for the ones before it and is waited for by the ones after it.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type { ToolResultBlock, ToolUseBlock } from "../domain/Content.js"
import type { AgentEvent, PermissionDenial } from "../domain/AgentEvent.js"
import { Hooks } from "../hooks/Hooks.js"
import { allow, deny, Permissions } from "../permissions/Permissions.js"
import type { ToolFailure, ToolFailureKind } from "../domain/ToolFailure.js"
import { failureKind, outcome, type PreparedCall, type ToolContext, type ToolResult } from "../tools/Tool.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import * as HookReport from "./HookReport.js"

export interface CallOutcome {
  readonly block: ToolResultBlock
  readonly data: unknown
  readonly denial?: PermissionDenial
  /** Text for the model from hooks (system reminders), sent after the turn's tool results. */
  readonly context?: ReadonlyArray<string>
  /** A hook stopped the run (`continue: false`): its reason, for the user. The loop ends after this turn. */
  readonly stopRun?: string
  /** Why the call ended in an error (the block's content is the message the model got). */
  readonly failure?: ToolFailure
  /** The tool's event for renderers (see ToolResult.event). */
  readonly event?: AgentEvent
}

export interface ExecutionContext {
  readonly sessionId: string
  readonly cwd: string
  readonly emit: (event: AgentEvent) => Effect.Effect<void>
}

/** Why a call in flight was cancelled, as the model reads it. */
export const cancelledMessage = "The user interrupted this tool call before it finished; it may have had partial effects."

const errorResult = (toolUseId: string, message: string): ToolResultBlock => ({
  type: "tool_result",
  tool_use_id: toolUseId,
  content: message,
  is_error: true
})

/** A call that ended in an error before or instead of a result. */
export const failedOutcome = (toolUseId: string, kind: ToolFailureKind, message: string): CallOutcome => ({
  block: errorResult(toolUseId, message),
  data: undefined,
  failure: { kind, message }
})

const toBlock = (toolUseId: string, result: ToolResult): ToolResultBlock =>
  result.isError
    ? { type: "tool_result", tool_use_id: toolUseId, content: result.content, is_error: true }
    : { type: "tool_result", tool_use_id: toolUseId, content: result.content }

/** Runs a prepared call's stream: progress goes out as events, the last ToolResult is the outcome. */
const runPrepared = (call: PreparedCall, use: ToolUseBlock, context: ExecutionContext) =>
  outcome(call, use.name, (text) => context.emit({ _tag: "ToolProgress", toolUseId: use.id, toolName: use.name, text }))

/** The text of a result's content, as a PostToolUseFailure hook's `error`. */
const contentText = (content: ToolResult["content"]): string =>
  typeof content === "string" ? content : content.map((item) => (item.type === "text" ? item.text : `[${item.type}]`)).join("\n")

/** One call, start to end; never fails: every failure becomes an `is_error` tool_result. */
export const executeCall = Effect.fn("ToolExecution.executeCall")(function* (use: ToolUseBlock, context: ExecutionContext) {
  const registry = yield* ToolRegistry
  const permissions = yield* Permissions
  const hooks = yield* Hooks
  const toolContext: ToolContext = { toolUseId: use.id, sessionId: context.sessionId, cwd: context.cwd }
  const hookBase = {
    sessionId: context.sessionId,
    cwd: context.cwd,
    permissionMode: permissions.mode,
    toolName: use.name,
    toolUseId: use.id
  }
  const label = use.name
  // Texts for the model from hooks (system reminders), sent after the turn's tool results.
  const reminders: Array<string> = []
  const outcome = (
    block: ToolResultBlock,
    data: unknown,
    extra: Partial<Pick<CallOutcome, "denial" | "stopRun" | "event">> = {}
  ): CallOutcome => ({
    block,
    data,
    ...extra,
    ...(reminders.length > 0 ? { context: reminders } : {})
  })
  /** An error outcome: the message for the model, the kind for hooks and hosts. */
  const failed = (kind: ToolFailureKind, message: string, extra: Partial<Pick<CallOutcome, "denial" | "stopRun">> = {}) => ({
    ...outcome(errorResult(use.id, message), undefined, extra),
    failure: { kind, message }
  })

  const tool = yield* Effect.result(registry.get(use.name))
  if (tool._tag === "Failure") return failed("unknown_tool", tool.failure.message)

  let prepared = yield* Effect.result(tool.success.prepare(use.input, toolContext))
  if (prepared._tag === "Failure") return failed("invalid_input", prepared.failure.message)

  const pre = yield* hooks.preToolUse({ ...hookBase, toolInput: prepared.success.input })
  yield* HookReport.report(context.emit, "PreToolUse", pre)
  if (pre.additionalContext !== undefined) reminders.push(HookReport.additionalContext(`PreToolUse:${label}`, pre.additionalContext))
  if (pre.stopRun !== undefined) {
    return failed("blocked_by_hook", `PreToolUse:${label} hook stopped the run: ${pre.stopRun}`, { stopRun: pre.stopRun })
  }
  if (pre.blocked !== undefined) return failed("blocked_by_hook", `PreToolUse:${label} hook error: ${pre.blocked}`)
  if (pre.permissionDecision === "deny") {
    return failed(
      "denied",
      `PreToolUse:${label} hook denied this call${pre.permissionDecisionReason === undefined ? "." : `: ${pre.permissionDecisionReason}`}`,
      { denial: { tool_name: use.name, tool_use_id: use.id, tool_input: prepared.success.input } }
    )
  }
  // The whole input is replaced (not merged), then decoded and checked like the model's own.
  if (pre.updatedInput !== undefined) {
    prepared = yield* Effect.result(tool.success.prepare(pre.updatedInput, toolContext))
    if (prepared._tag === "Failure") return failed("invalid_input", prepared.failure.message)
  }
  let call = prepared.success

  const requestOf = (call: PreparedCall) => ({
    toolName: use.name,
    toolUseId: use.id,
    input: call.input,
    target: call.target,
    readOnly: tool.success.readOnly
  })
  /**
   * A call that would be asked about: PermissionRequest hooks may answer in place of a person (an allow with a new
   * input has that input checked again, where a deny rule still wins); else the user is notified and the Prompter
   * asked (nobody answers under -p: the call is refused with the reason).
   */
  const ask = (reason: string) =>
    Effect.gen(function* () {
      const answer = yield* hooks.permissionRequest({ ...hookBase, toolInput: call.input })
      yield* HookReport.report(context.emit, "PermissionRequest", answer)
      const decision = answer.decision
      if (decision?.behavior === "deny") {
        return deny(decision.message ?? `A PermissionRequest hook denied permission to use ${use.name}.`)
      }
      if (decision?.behavior === "allow") {
        if (decision.updatedInput === undefined) return allow
        const again = yield* Effect.result(tool.success.prepare(decision.updatedInput, toolContext))
        if (again._tag === "Failure") return deny(again.failure.message)
        call = again.success
        const checked = yield* permissions.check(requestOf(call))
        return checked._tag === "Deny" ? checked : allow
      }
      const notified = yield* hooks.notification({
        sessionId: context.sessionId,
        cwd: context.cwd,
        permissionMode: permissions.mode,
        message: `weft needs your permission to use ${use.name}`,
        notificationType: "permission_prompt"
      })
      yield* HookReport.report(context.emit, "Notification", notified)
      return yield* permissions.prompt(requestOf(call), reason)
    })

  // Deny always wins: a hook's "allow" only skips asking, it never overrides a deny from the rules.
  const checked = yield* permissions.check(requestOf(call))
  const decision =
    checked._tag === "Ask" && pre.permissionDecision !== "allow"
      ? yield* ask(pre.permissionDecision === "ask" && pre.permissionDecisionReason !== undefined ? pre.permissionDecisionReason : checked.reason)
      : checked._tag === "Allow" && pre.permissionDecision === "ask"
        ? yield* ask(pre.permissionDecisionReason ?? `A PreToolUse hook asks for approval of this ${use.name} call.`)
        : checked
  if (decision._tag === "Deny") {
    // A hook that asked says why; whoever refused (nobody can answer under -p), the model gets that reason.
    const hookReason = pre.permissionDecision === "ask" ? pre.permissionDecisionReason : undefined
    const reason =
      hookReason === undefined || decision.reason.includes(hookReason)
        ? decision.reason
        : `${decision.reason} PreToolUse:${label} hook: ${hookReason}`
    return failed("denied", reason, {
      denial: { tool_name: use.name, tool_use_id: use.id, tool_input: call.input }
    })
  }

  const startedAt = Date.now()
  const exit = yield* Effect.exit(runPrepared(call, use, context))
  let result: ToolResult
  // A tool that failed (rather than answering with an error result) says why, as a kind.
  let kind: ToolFailureKind | undefined
  if (Exit.isSuccess(exit)) result = exit.value
  else {
    const failure = Cause.findErrorOption(exit.cause)
    if (Option.isNone(failure)) return yield* Effect.failCause(exit.cause)
    result = { _tag: "ToolResult", content: failure.value.message, isError: true }
    kind = failureKind(failure.value)
  }
  const after =
    result.isError === true
      ? yield* hooks.postToolUseFailure({
          ...hookBase,
          toolInput: call.input,
          error: contentText(result.content),
          isInterrupt: false,
          failureKind: kind ?? "failed"
        })
      : yield* hooks.postToolUse({
          ...hookBase,
          toolInput: call.input,
          toolResponse: result.data ?? result.content,
          durationMs: Date.now() - startedAt
        })
  const event = result.isError === true ? "PostToolUseFailure" : "PostToolUse"
  yield* HookReport.report(context.emit, event, after)
  if (after.blocked !== undefined) reminders.push(HookReport.blockingFeedback(`${event}:${label}`, after.blocked))
  if (after.additionalContext !== undefined) reminders.push(HookReport.additionalContext(`${event}:${label}`, after.additionalContext))
  const ended = outcome(toBlock(use.id, result), result.data, {
    ...(after.stopRun === undefined ? {} : { stopRun: after.stopRun }),
    ...(result.event === undefined ? {} : { event: result.event })
  })
  return result.isError === true ? { ...ended, failure: { kind: kind ?? "failed", message: contentText(result.content) } } : ended
})

/** Groups calls into batches: consecutive read-only calls share a batch, every other call is a batch of its own. */
export const batches = (
  uses: ReadonlyArray<ToolUseBlock>,
  isReadOnly: (name: string) => boolean
): ReadonlyArray<ReadonlyArray<ToolUseBlock>> => {
  const out: Array<Array<ToolUseBlock>> = []
  let current: Array<ToolUseBlock> | undefined
  for (const use of uses) {
    if (isReadOnly(use.name)) {
      if (current === undefined) {
        current = []
        out.push(current)
      }
      current.push(use)
    } else {
      current = undefined
      out.push([use])
    }
  }
  return out
}

/**
 * Runs all the calls of a turn and returns one outcome per call, in the calls' order. `presetResults` holds calls
 * already answered (e.g. inputs cut off by max_tokens). If interrupted, the calls that did not finish are answered
 * with `cancelledMessage` through `onCancel`, so the caller can still record a valid history.
 */
export const executeTurn = (
  uses: ReadonlyArray<ToolUseBlock>,
  presetResults: ReadonlyMap<string, CallOutcome>,
  context: ExecutionContext,
  onCancel: (outcomes: ReadonlyArray<CallOutcome>) => Effect.Effect<void>
) =>
  Effect.gen(function* () {
    const registry = yield* ToolRegistry
    const readOnly = new Set(registry.tools.filter((tool) => tool.readOnly).map((tool) => tool.name))
    const done = new Map<string, CallOutcome>()
    const toRun = uses.filter((use) => {
      const preset = presetResults.get(use.id)
      if (preset !== undefined) done.set(use.id, preset)
      return preset === undefined
    })
    const ordered = () =>
      uses.map((use) => done.get(use.id) ?? failedOutcome(use.id, "cancelled", cancelledMessage))
    yield* Effect.forEach(
      batches(toRun, (name) => readOnly.has(name)),
      (batch) =>
        Effect.forEach(
          batch,
          (use) => Effect.tap(executeCall(use, context), (outcome) => Effect.sync(() => done.set(use.id, outcome))),
          { concurrency: "unbounded", discard: true }
        ),
      { discard: true }
    ).pipe(Effect.onInterrupt(() => onCancel(ordered())))
    return ordered()
  })
