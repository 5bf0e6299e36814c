/**
 * Runs the tool calls of one assistant turn. A call goes through five steps (`executeCall`): decode (the tool and
 * its input), PreToolUse (hooks), authorize (Permissions, asking if it must), invoke (the tool), PostToolUse
 * (hooks); a step may answer the call itself (an invalid input, a denial), which ends it. Every tool_use gets exactly
 * one tool_result, whatever happens (invalid input, denial, failure, interruption), so the history stays valid for
 * the API. Read-only calls that stand next to each other run
 * concurrently; any other call waits for the ones before it and is waited for by the ones after it.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { absurd } from "effect/Function"
import * as Option from "effect/Option"
import type { ToolResultBlock, ToolUseBlock } from "../domain/Content.js"
import type { AgentEvent, PermissionDenial } from "../domain/AgentEvent.js"
import { toolResultText } from "../domain/ContentGuards.js"
import { Hooks, type PreToolUseOutcome } from "../hooks/Hooks.js"
import { allow, type CheckRequest, type Decision, deny, Permissions, suggestionsFor } from "../permissions/Permissions.js"
import type { ToolFailure, ToolFailureKind } from "../domain/ToolFailure.js"
import { type AnyTool, failureKind, outcome, type PreparedCall, type ToolContext, type ToolResult } from "../tools/Tool.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import type { Hunk } from "../domain/Patch.js"
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
  /** The person who denied the call asked for the turn to end. */
  readonly interrupt?: boolean
  /** Model responses the call paid for (see ToolResult.spent). */
  readonly spent?: ToolResult["spent"]
  /** The file change a call made, as line hunks (Edit / Write's `structuredPatch`), for renderers. */
  readonly patch?: ReadonlyArray<Hunk>
}

export interface ExecutionContext {
  readonly sessionId: string
  readonly cwd: string
  readonly emit: (event: AgentEvent) => Effect.Effect<void>
  /** Ends the turn (a person denied a call with `interrupt`); the calls still running are cancelled. */
  readonly interrupt?: Effect.Effect<void>
  /**
   * Where the events only a host renders go (each call's start and end, permission asks and answers); absent,
   * they are not made (`Agent.run`'s stream keeps its shape).
   */
  readonly detail?: (event: AgentEvent) => Effect.Effect<void>
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

/** One call as its steps see it: the tool_use, where it runs, the services it goes through. */
interface Call {
  readonly use: ToolUseBlock
  readonly context: ExecutionContext
  readonly toolContext: ToolContext
  /** What every hook of this call is told about it. */
  readonly hookBase: {
    readonly sessionId: string
    readonly cwd: string
    readonly permissionMode: string
    readonly toolName: string
    readonly toolUseId: string
  }
  readonly permissions: Permissions["Service"]
  readonly hooks: Hooks["Service"]
  /** Texts for the model from hooks (system reminders), sent after the turn's tool results; the steps add to it. */
  readonly reminders: Array<string>
}

/** What a step hands the next one: the call going on (Proceed), or the call's outcome when the step answered it. */
interface Proceed<A> {
  readonly _tag: "Proceed"
  readonly value: A
}
interface Answered {
  readonly _tag: "Answered"
  readonly outcome: CallOutcome
}

const proceed = <A>(value: A): Proceed<A> => ({ _tag: "Proceed", value })
const answered = (outcome: CallOutcome): Answered => ({ _tag: "Answered", outcome })

/** The call's outcome: its result block, with the hooks' reminders gathered so far. */
const outcomeOf = (
  call: Call,
  block: ToolResultBlock,
  data: unknown,
  extra: Partial<Pick<CallOutcome, "denial" | "stopRun" | "event" | "failure" | "interrupt" | "spent" | "patch">> = {}
): CallOutcome => ({
  block,
  data,
  ...extra,
  ...(call.reminders.length > 0 ? { context: call.reminders } : {})
})

/** An error outcome: the message for the model, the kind for hooks and hosts. */
const failed = (
  call: Call,
  kind: ToolFailureKind,
  message: string,
  extra: Partial<Pick<CallOutcome, "denial" | "stopRun" | "interrupt">> = {}
): CallOutcome => outcomeOf(call, errorResult(call.use.id, message), undefined, { ...extra, failure: { kind, message } })

/** What the calls' permission denials record: the tool, the call, and the input it was refused with. */
const denialOf = (call: Call, prepared: PreparedCall): PermissionDenial => ({
  tool_name: call.use.name,
  tool_use_id: call.use.id,
  tool_input: prepared.input
})

/** A tool and a call of it whose input has been decoded. */
interface Decoded {
  readonly tool: AnyTool
  readonly prepared: PreparedCall
}

/** Decode: the tool named, and the input decoded by it (an unknown tool or an invalid input answers the call). */
const decode = Effect.fn("ToolExecution.decode")(function* (call: Call) {
  const registry = yield* ToolRegistry
  const tool = yield* Effect.result(registry.get(call.use.name))
  if (tool._tag === "Failure") return answered(failed(call, "unknown_tool", tool.failure.message))
  const prepared = yield* Effect.result(tool.success.prepare(call.use.input, call.toolContext))
  if (prepared._tag === "Failure") return answered(failed(call, "invalid_input", prepared.failure.message))
  return proceed<Decoded>({ tool: tool.success, prepared: prepared.success })
})

/** What authorizing a call takes from its PreToolUse hooks. */
interface Screened extends Decoded {
  readonly permissionDecision: PreToolUseOutcome["permissionDecision"]
  readonly permissionDecisionReason: string | undefined
}

/**
 * PreToolUse hooks: they may stop the run, block or deny the call (each answers it), add context for the model,
 * and replace the whole input (not merged), which is then decoded and checked like the model's own.
 */
const preToolUse = Effect.fn("ToolExecution.preToolUse")(function* (call: Call, { tool, prepared }: Decoded) {
  const label = call.use.name
  const pre = yield* call.hooks.preToolUse({ ...call.hookBase, toolInput: prepared.input })
  yield* HookReport.report(call.context.emit, "PreToolUse", pre)
  if (pre.additionalContext !== undefined) {
    call.reminders.push(HookReport.additionalContext(`PreToolUse:${label}`, pre.additionalContext))
  }
  if (pre.stopRun !== undefined) {
    return answered(failed(call, "blocked_by_hook", `PreToolUse:${label} hook stopped the run: ${pre.stopRun}`, { stopRun: pre.stopRun }))
  }
  if (pre.blocked !== undefined) return answered(failed(call, "blocked_by_hook", `PreToolUse:${label} hook error: ${pre.blocked}`))
  if (pre.permissionDecision === "deny") {
    const reason = pre.permissionDecisionReason === undefined ? "." : `: ${pre.permissionDecisionReason}`
    return answered(failed(call, "denied", `PreToolUse:${label} hook denied this call${reason}`, { denial: denialOf(call, prepared) }))
  }
  const screened = { tool, permissionDecision: pre.permissionDecision, permissionDecisionReason: pre.permissionDecisionReason }
  if (pre.updatedInput === undefined) return proceed<Screened>({ ...screened, prepared })
  const updated = yield* Effect.result(tool.prepare(pre.updatedInput, call.toolContext))
  if (updated._tag === "Failure") return answered(failed(call, "invalid_input", updated.failure.message))
  return proceed<Screened>({ ...screened, prepared: updated.success })
})

const checkRequestOf = (call: Call, tool: AnyTool, prepared: PreparedCall): CheckRequest => ({
  toolName: call.use.name,
  toolUseId: call.use.id,
  input: prepared.input,
  target: prepared.target,
  readOnly: tool.readOnly
})

/** A permission decision, and the call it is about (a PermissionRequest hook may have replaced the input). */
interface Authorization {
  readonly decision: Decision
  readonly prepared: PreparedCall
}

/**
 * A call that would be asked about: PermissionRequest hooks may answer in place of a person (an allow with a new
 * input has that input checked again, where a deny rule still wins); else the user is notified and the Prompter
 * asked (nobody answers under -p: the call is refused with the reason).
 */
const ask = Effect.fn("ToolExecution.ask")(function* (call: Call, tool: AnyTool, prepared: PreparedCall, reason: string) {
  const answer = yield* call.hooks.permissionRequest({ ...call.hookBase, toolInput: prepared.input })
  yield* HookReport.report(call.context.emit, "PermissionRequest", answer)
  const decision = answer.decision
  if (decision?.behavior === "deny") {
    const refusal = decision.message ?? `A PermissionRequest hook denied permission to use ${call.use.name}.`
    return { decision: deny(refusal), prepared } satisfies Authorization
  }
  if (decision?.behavior === "allow") {
    if (decision.updatedInput === undefined) return { decision: allow, prepared } satisfies Authorization
    const again = yield* Effect.result(tool.prepare(decision.updatedInput, call.toolContext))
    if (again._tag === "Failure") return { decision: deny(again.failure.message), prepared } satisfies Authorization
    const checked = yield* call.permissions.check(checkRequestOf(call, tool, again.success))
    return { decision: checked._tag === "Deny" ? checked : allow, prepared: again.success } satisfies Authorization
  }
  const notified = yield* call.hooks.notification({
    sessionId: call.context.sessionId,
    cwd: call.context.cwd,
    permissionMode: call.permissions.mode,
    message: `weft needs your permission to use ${call.use.name}`,
    notificationType: "permission_prompt"
  })
  yield* HookReport.report(call.context.emit, "Notification", notified)
  const request = checkRequestOf(call, tool, prepared)
  const blockedPath = blockedPathOf(prepared)
  const suggestions = suggestionsFor(request)
  const detail = call.context.detail ?? (() => Effect.void)
  yield* detail({
    _tag: "PermissionAsked",
    toolUseId: call.use.id,
    toolName: call.use.name,
    input: prepared.input,
    reason,
    ...(blockedPath === undefined ? {} : { blockedPath }),
    suggestions
  })
  const answered = yield* call.permissions.prompt(request, reason, { ...(blockedPath === undefined ? {} : { blockedPath }), suggestions }).pipe(
    Effect.onInterrupt(() => detail({ _tag: "PermissionAnswered", toolUseId: call.use.id, behavior: "cancelled" }))
  )
  yield* detail({
    _tag: "PermissionAnswered",
    toolUseId: call.use.id,
    behavior: answered._tag === "Allow" ? "allow" : "deny",
    ...(answered._tag === "Deny" ? { message: answered.reason } : {})
  })
  if (answered._tag !== "Allow" || answered.updatedInput === undefined) return { decision: answered, prepared } satisfies Authorization
  // The input the person approved in place of the model's: decoded by the tool and checked again (a deny rule wins).
  const again = yield* Effect.result(tool.prepare(answered.updatedInput, call.toolContext))
  if (again._tag === "Failure") return { decision: deny(again.failure.message), prepared } satisfies Authorization
  const checked = yield* call.permissions.check(checkRequestOf(call, tool, again.success))
  return { decision: checked._tag === "Deny" ? checked : allow, prepared: again.success } satisfies Authorization
})

/** The path a call would touch, shown with its permission prompt. */
const blockedPathOf = (prepared: PreparedCall): string | undefined =>
  prepared.target._tag === "Path" ? prepared.target.path : undefined

/**
 * Authorize: the rules decide, with the PreToolUse hooks' word. Deny always wins: a hook's "allow" only skips
 * asking, it never overrides a deny from the rules; its "ask" asks even where the rules allow. A refusal answers
 * the call, with the reason the model gets.
 */
const authorize = Effect.fn("ToolExecution.authorize")(function* (call: Call, screened: Screened) {
  const { tool, prepared, permissionDecision, permissionDecisionReason } = screened
  const checked = yield* call.permissions.check(checkRequestOf(call, tool, prepared))
  let authorization: Authorization
  switch (checked._tag) {
    case "Deny":
      authorization = { decision: checked, prepared }
      break
    case "Ask":
      authorization = permissionDecision === "allow"
        ? { decision: allow, prepared }
        : yield* ask(call, tool, prepared, permissionDecision === "ask" ? (permissionDecisionReason ?? checked.reason) : checked.reason)
      break
    case "Allow":
      authorization = permissionDecision === "ask"
        ? yield* ask(call, tool, prepared, permissionDecisionReason ?? `A PreToolUse hook asks for approval of this ${call.use.name} call.`)
        : { decision: allow, prepared }
      break
    default:
      return absurd<never>(checked)
  }
  const { decision } = authorization
  if (decision._tag !== "Deny") return proceed(authorization.prepared)
  // A hook that asked says why; whoever refused (nobody can answer under -p), the model gets that reason.
  const hookReason = permissionDecision === "ask" ? permissionDecisionReason : undefined
  const reason =
    hookReason === undefined || decision.reason.includes(hookReason)
      ? decision.reason
      : `${decision.reason} PreToolUse:${call.use.name} hook: ${hookReason}`
  return answered(
    failed(call, "denied", reason, {
      denial: denialOf(call, authorization.prepared),
      ...(decision._tag === "Deny" && decision.interrupt === true ? { interrupt: true } : {})
    })
  )
})

/** A call run: its result, why it failed when it did, and how long it took. */
interface Invoked {
  readonly result: ToolResult
  /** A tool that failed (rather than answering with an error result) says why, as a kind. */
  readonly kind: ToolFailureKind | undefined
  readonly durationMs: number
}

/**
 * Invoke: the call run to its result, progress going out as events. A tool's failure becomes an error result;
 * an interruption or a defect passes through.
 */
const invoke = Effect.fn("ToolExecution.invoke")(function* (call: Call, prepared: PreparedCall) {
  const { use, context } = call
  const [elapsed, exit] = yield* Effect.timed(
    Effect.exit(outcome(prepared, use.name, (text) => context.emit({ _tag: "ToolProgress", toolUseId: use.id, toolName: use.name, text })))
  )
  const durationMs = Math.round(Duration.toMillis(elapsed))
  if (Exit.isSuccess(exit)) return { result: exit.value, kind: undefined, durationMs } satisfies Invoked
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isNone(failure)) return yield* Effect.failCause(exit.cause)
  const result: ToolResult = { _tag: "ToolResult", content: failure.value.message, isError: true }
  return { result, kind: failureKind(failure.value), durationMs } satisfies Invoked
})

/**
 * PostToolUse (PostToolUseFailure after an error result): the hooks may reject the result or add context for the
 * model, or stop the run after this turn; then the call's outcome.
 */
const postToolUse = Effect.fn("ToolExecution.postToolUse")(function* (
  call: Call,
  prepared: PreparedCall,
  { result, kind, durationMs }: Invoked
) {
  const isError = result.isError === true
  const after = isError
    ? yield* call.hooks.postToolUseFailure({
        ...call.hookBase,
        toolInput: prepared.input,
        error: toolResultText(result.content),
        isInterrupt: false,
        failureKind: kind ?? "failed"
      })
    : yield* call.hooks.postToolUse({
        ...call.hookBase,
        toolInput: prepared.input,
        toolResponse: result.toolResponse ?? result.data ?? result.content,
        durationMs
      })
  const event = isError ? "PostToolUseFailure" : "PostToolUse"
  const label = `${event}:${call.use.name}`
  yield* HookReport.report(call.context.emit, event, after)
  if (after.blocked !== undefined) call.reminders.push(HookReport.blockingFeedback(label, after.blocked))
  if (after.additionalContext !== undefined) call.reminders.push(HookReport.additionalContext(label, after.additionalContext))
  const patch = isError ? undefined : patchOf(result.toolResponse)
  return outcomeOf(call, toBlock(call.use.id, result), result.data, {
    ...(patch === undefined ? {} : { patch }),
    ...(after.stopRun === undefined ? {} : { stopRun: after.stopRun }),
    ...(result.event === undefined ? {} : { event: result.event }),
    ...(result.spent === undefined ? {} : { spent: result.spent }),
    ...(isError ? { failure: { kind: kind ?? "failed", message: toolResultText(result.content) } } : {})
  })
})

/** The `structuredPatch` of a tool's response (Edit, Write), when it has one. */
const patchOf = (response: unknown): ReadonlyArray<Hunk> | undefined => {
  if (typeof response !== "object" || response === null || !("structuredPatch" in response)) return undefined
  const hunks = response.structuredPatch
  return Array.isArray(hunks) ? hunks.filter(isHunk) : undefined
}

const isHunk = (value: unknown): value is Hunk =>
  typeof value === "object" && value !== null && "oldStart" in value && typeof value.oldStart === "number" &&
  "newStart" in value && typeof value.newStart === "number" && "lines" in value && Array.isArray(value.lines)

/**
 * One call, start to end, in its steps: decode, PreToolUse, authorize, invoke, PostToolUse. Never fails: every
 * failure becomes an `is_error` tool_result.
 */
export const executeCall = Effect.fn("ToolExecution.executeCall")(function* (use: ToolUseBlock, context: ExecutionContext) {
  const permissions = yield* Permissions
  const call: Call = {
    use,
    context,
    toolContext: { toolUseId: use.id, sessionId: context.sessionId, cwd: context.cwd },
    hookBase: {
      sessionId: context.sessionId,
      cwd: context.cwd,
      permissionMode: permissions.mode,
      toolName: use.name,
      toolUseId: use.id
    },
    permissions,
    hooks: yield* Hooks,
    reminders: []
  }
  const detail = context.detail
  if (detail === undefined) return yield* steps(call)
  yield* detail({ _tag: "ToolStarted", toolUseId: use.id, toolName: use.name, input: use.input })
  const outcome = yield* steps(call)
  yield* detail({
    _tag: "ToolEnded",
    toolUseId: use.id,
    toolName: use.name,
    isError: outcome.block.is_error === true,
    result: outcome.block,
    ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
    ...(outcome.patch === undefined ? {} : { patch: outcome.patch })
  })
  return outcome
})

/** The steps of one call, the first that answers it ending it. */
const steps = (call: Call) =>
  Effect.gen(function* () {
    const decoded = yield* decode(call)
    if (decoded._tag === "Answered") return decoded.outcome
    const screened = yield* preToolUse(call, decoded.value)
    if (screened._tag === "Answered") return screened.outcome
    const authorized = yield* authorize(call, screened.value)
    if (authorized._tag === "Answered") return authorized.outcome
    const invoked = yield* invoke(call, authorized.value)
    return yield* postToolUse(call, authorized.value, invoked)
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
          (use) =>
            Effect.tap(executeCall(use, context), (outcome) =>
              Effect.sync(() => done.set(use.id, outcome)).pipe(
                Effect.andThen(outcome.interrupt === true && context.interrupt !== undefined ? context.interrupt : Effect.void)
              )
            ),
          { concurrency: "unbounded", discard: true }
        ),
      { discard: true }
    ).pipe(Effect.onInterrupt(() => onCancel(ordered())))
    return ordered()
  })
