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
import * as Stream from "effect/Stream"
import type { ToolResultBlock, ToolUseBlock } from "../domain/Content.js"
import type { AgentEvent, PermissionDenial } from "../domain/AgentEvent.js"
import { Hooks } from "../hooks/Hooks.js"
import { Permissions } from "../permissions/Permissions.js"
import type { PreparedCall, ToolContext, ToolResult } from "../tools/Tool.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"

export interface CallOutcome {
  readonly block: ToolResultBlock
  readonly data: unknown
  readonly denial?: PermissionDenial
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

const toBlock = (toolUseId: string, result: ToolResult, additionalContext: string | undefined): ToolResultBlock => {
  const content =
    additionalContext === undefined
      ? result.content
      : typeof result.content === "string"
        ? `${result.content}\n\n${additionalContext}`
        : [...result.content, { type: "text" as const, text: additionalContext }]
  return result.isError
    ? { type: "tool_result", tool_use_id: toolUseId, content, is_error: true }
    : { type: "tool_result", tool_use_id: toolUseId, content }
}

/** Runs a prepared call's stream: progress goes out as events, the last ToolResult is the outcome. */
const runPrepared = (call: PreparedCall, use: ToolUseBlock, context: ExecutionContext) =>
  call.run().pipe(
    Stream.runFoldEffect(Option.none<ToolResult>(), (last, output) =>
      output._tag === "ToolProgress"
        ? Effect.as(
            context.emit({ _tag: "ToolProgress", toolUseId: use.id, toolName: use.name, text: output.text }),
            last
          )
        : Effect.succeed(Option.some(output))
    ),
    Effect.map(Option.getOrElse((): ToolResult => ({ _tag: "ToolResult", content: `${use.name} produced no result.`, isError: true })))
  )

/** One call, start to end; never fails: every failure becomes an `is_error` tool_result. */
export const executeCall = Effect.fn("ToolExecution.executeCall")(function* (use: ToolUseBlock, context: ExecutionContext) {
  const registry = yield* ToolRegistry
  const permissions = yield* Permissions
  const hooks = yield* Hooks
  const toolContext: ToolContext = { toolUseId: use.id, sessionId: context.sessionId, cwd: context.cwd }
  const hookBase = { sessionId: context.sessionId, cwd: context.cwd, toolName: use.name, toolUseId: use.id }

  const tool = yield* Effect.either(registry.get(use.name))
  if (tool._tag === "Left") return { block: errorResult(use.id, tool.left.message), data: undefined }

  let prepared = yield* Effect.either(tool.right.prepare(use.input, toolContext))
  if (prepared._tag === "Left") return { block: errorResult(use.id, prepared.left.message), data: undefined }

  const pre = yield* hooks.preToolUse({ ...hookBase, toolInput: prepared.right.input })
  if (pre.blocked !== undefined) {
    return { block: errorResult(use.id, `PreToolUse hook blocked this call: ${pre.blocked}`), data: undefined }
  }
  if (pre.updatedInput !== undefined) {
    prepared = yield* Effect.either(tool.right.prepare(pre.updatedInput, toolContext))
    if (prepared._tag === "Left") return { block: errorResult(use.id, prepared.left.message), data: undefined }
  }
  const call = prepared.right

  // Deny always wins: a hook's "allow" only skips asking, it never overrides a deny from the rules.
  const request = { toolName: use.name, toolUseId: use.id, input: call.input, target: call.target, readOnly: tool.right.readOnly }
  const checked = yield* permissions.check(request)
  // An ask (from the rules, or forced by a hook's "ask") goes to the Prompter unless a hook allowed the call.
  const decision =
    checked._tag === "Ask" && pre.permissionDecision !== "allow" && pre.permissionDecision !== "deny"
      ? yield* permissions.prompt(request, checked.reason)
      : checked._tag === "Allow" && pre.permissionDecision === "ask"
        ? yield* permissions.prompt(request, `A PreToolUse hook asks for approval of this ${use.name} call.`)
        : checked
  const denied =
    decision._tag === "Deny"
      ? decision.reason
      : pre.permissionDecision === "deny"
        ? `A PreToolUse hook denied permission to use ${use.name}.`
        : undefined
  if (denied !== undefined) {
    return {
      block: errorResult(use.id, denied),
      data: undefined,
      denial: { tool_name: use.name, tool_use_id: use.id, tool_input: call.input }
    }
  }

  const exit = yield* Effect.exit(runPrepared(call, use, context))
  if (Exit.isFailure(exit)) {
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure)) return yield* Effect.failCause(exit.cause)
    const message = failure.value.message
    yield* hooks.postToolUse({ ...hookBase, toolInput: call.input, toolResponse: message, isError: true })
    return { block: errorResult(use.id, message), data: undefined }
  }
  const result = exit.value
  const post = yield* hooks.postToolUse({
    ...hookBase,
    toolInput: call.input,
    toolResponse: result.data ?? result.content,
    isError: result.isError === true
  })
  const context2 = post.blocked !== undefined ? `PostToolUse hook feedback: ${post.blocked}` : post.additionalContext
  return { block: toBlock(use.id, result, context2), data: result.data }
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
  presetResults: ReadonlyMap<string, ToolResultBlock>,
  context: ExecutionContext,
  onCancel: (outcomes: ReadonlyArray<CallOutcome>) => Effect.Effect<void>
) =>
  Effect.gen(function* () {
    const registry = yield* ToolRegistry
    const readOnly = new Set(registry.tools.filter((tool) => tool.readOnly).map((tool) => tool.name))
    const done = new Map<string, CallOutcome>()
    const toRun = uses.filter((use) => {
      const preset = presetResults.get(use.id)
      if (preset !== undefined) done.set(use.id, { block: preset, data: undefined })
      return preset === undefined
    })
    const ordered = () =>
      uses.map((use) => done.get(use.id) ?? { block: errorResult(use.id, cancelledMessage), data: undefined })
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
