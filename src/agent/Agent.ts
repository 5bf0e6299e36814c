/**
 * The agent loop as a Stream of AgentEvents. One turn: build the request (system prompt, history, tool
 * definitions) -> ApiClient.stream -> Accumulator folds it into the assistant message while raw events go out for
 * renderers -> record it -> if the model asked for tools, run them (ToolExecution) and send one user message of
 * tool_results -> next turn; otherwise Stop hooks and the Result.
 *
 * Interrupting the consuming fiber cancels the HTTP request and kills running processes (their scopes close).
 * `abort` is the graceful form (Ctrl-C in the CLI): work in flight is interrupted the same way, unfinished tool
 * calls are answered as cancelled so the transcript stays valid, and the stream still ends with a Result.
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import * as Take from "effect/Take"
import type { AgentEvent, ModelUsage as ModelUsageEntry, PermissionDenial, Result, ResultSubtype, TodoItem } from "../domain/AgentEvent.js"
import type { ContentBlock } from "../domain/Content.js"
import * as Content from "../domain/ContentGuards.js"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"
import * as Usage from "../domain/UsageTotals.js"
import { Hooks } from "../hooks/Hooks.js"
import * as Accumulator from "../model/Accumulator.js"
import { ApiClient, retryEvent } from "../model/ApiClient.js"
import * as ModelUsage from "../model/ModelUsage.js"
import * as Pricing from "../model/Pricing.js"
import { Permissions } from "../permissions/Permissions.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import * as HookReport from "./HookReport.js"
import { Transcript } from "./Transcript.js"
import { type CallOutcome, executeTurn } from "./ToolExecution.js"

export interface RunOptions {
  readonly prompt: string | ReadonlyArray<ContentBlock>
  readonly cwd: string
  readonly systemPrompt: string
  readonly sessionId?: string
  /** Defaults to the ApiClient's default model. */
  readonly model?: string
  /** Model requests allowed in this run; past it the run ends with `error_max_turns`. */
  readonly maxTurns?: number
  readonly maxTokens?: number
  /** Earlier conversation (resume / continue). */
  readonly history?: ReadonlyArray<MessageParam>
  /** Completing it stops the run gracefully: see the module doc. */
  readonly abort?: Deferred.Deferred<void>
  readonly mcpServers?: ReadonlyArray<{ readonly name: string; readonly status: string }>
  /**
   * Whether to emit a StreamDelta for every raw event of the model's stream (default true). A consumer that only
   * wants whole messages (`weft -p` except stream-json with --include-partial-messages) turns it off, and the
   * loop then folds each response without queueing the dozens of events per turn it would drop.
   */
  readonly streamDeltas?: boolean
}

export const defaultMaxTokens = 32_000

/** How many times in a run a blocking Stop hook is honoured before the run may stop anyway (Claude Code: 9). */
export const maxStopHookBlocks = 9

/** Bound on events waiting for a slow consumer; the loop waits when it is full (raw SSE events dominate). */
const eventBuffer = 1024

class Aborted {
  readonly _tag = "Aborted"
}

const isTodoList = (value: unknown): value is ReadonlyArray<TodoItem> =>
  Array.isArray(value) && value.every((item) => typeof item === "object" && item !== null && "content" in item && "status" in item)

/** TodoWrite's structured result is Claude Code's `{ oldTodos, newTodos }`. */
const todosOf = (data: unknown): ReadonlyArray<TodoItem> | undefined =>
  typeof data === "object" && data !== null && "newTodos" in data && isTodoList(data.newTodos) ? data.newTodos : undefined

export const run = (options: RunOptions) =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const queue = yield* Queue.bounded<Take.Take<AgentEvent, never>>(eventBuffer)
      const emit = (event: AgentEvent) => Queue.offer(queue, Take.of(event)).pipe(Effect.asVoid)
      yield* loop(options, emit).pipe(
        Effect.exit,
        Effect.flatMap((exit) => Queue.offer(queue, Exit.isSuccess(exit) ? Take.end : Take.failCause(exit.cause))),
        Effect.forkScoped
      )
      return Stream.fromQueue(queue).pipe(Stream.flattenTake)
    })
  )

const loop = (options: RunOptions, emit: (event: AgentEvent) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const api = yield* ApiClient
    const registry = yield* ToolRegistry
    const permissions = yield* Permissions
    const hooks = yield* Hooks
    const transcript = yield* Transcript
    const startedAt = Date.now()
    const sessionId = options.sessionId ?? crypto.randomUUID()
    const model = api.resolveModel(options.model ?? api.defaultModel)
    const abort = options.abort ?? (yield* Deferred.make<void>())
    const maxTurns = options.maxTurns ?? Number.POSITIVE_INFINITY
    const streamDeltas = options.streamDeltas ?? true
    const context = { sessionId, cwd: options.cwd, emit }
    const permissionMode = permissions.mode

    const history: Array<MessageParam> = [...(options.history ?? [])]
    const denials: Array<PermissionDenial> = []
    let usage = Usage.zero
    const modelUsage: Record<string, ModelUsageEntry> = {}
    let cost = 0
    let apiMs = 0
    let turns = 0
    let lastAssistant: AssistantMessage | undefined

    const finish = (subtype: ResultSubtype, text: string, isError: boolean) =>
      Effect.gen(function* () {
        const result: Result = {
          _tag: "Result",
          subtype,
          isError,
          result: text,
          numTurns: turns,
          durationMs: Date.now() - startedAt,
          durationApiMs: apiMs,
          totalCostUsd: cost,
          usage,
          modelUsage,
          sessionId,
          permissionDenials: denials,
          ...(lastAssistant ? { content: lastAssistant.content } : {})
        }
        // Claude Code's reason for a session that ends because its work is done (under -p): "other".
        yield* Effect.flatMap(hooks.sessionEnd({ sessionId, cwd: options.cwd, reason: "other" }), (ended) =>
          HookReport.report(emit, "SessionEnd", ended ?? {})
        )
        // The record is complete when the Result is out (a `--resume` right after sees the whole session).
        yield* transcript.flush
        yield* emit(result)
      })

    /** Runs `effect` unless `abort` completes first, which interrupts it. */
    const abortable = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.raceFirst(
        effect,
        Deferred.await(abort).pipe(Effect.zipRight(Effect.fail(new Aborted())))
      )

    yield* emit({
      _tag: "SessionStarted",
      sessionId,
      cwd: options.cwd,
      model,
      tools: registry.tools.map((tool) => tool.name),
      mcpServers: options.mcpServers ?? [],
      permissionMode: permissions.mode
    })
    const source = options.history ? "resume" : "startup"
    const started = yield* hooks.sessionStart({ sessionId, cwd: options.cwd, source })
    yield* HookReport.report(emit, "SessionStart", started)
    if (started.stopRun !== undefined) return yield* finish("success", started.stopRun, false)

    const promptText = typeof options.prompt === "string" ? options.prompt : Content.joinText(options.prompt)
    const submitted = yield* hooks.userPromptSubmit({ sessionId, cwd: options.cwd, permissionMode, prompt: promptText })
    yield* HookReport.report(emit, "UserPromptSubmit", submitted)
    // A blocked prompt is erased: nothing is sent or recorded, and the user is told why (Claude Code's result is a success).
    const refusal = submitted.blocked ?? submitted.stopRun
    if (refusal !== undefined) {
      yield* emit({ _tag: "HookNotice", hookEvent: "UserPromptSubmit", text: `blocked the prompt: ${refusal}` })
      return yield* finish("success", `Prompt blocked by a UserPromptSubmit hook: ${refusal}`, false)
    }
    const promptBlocks: ReadonlyArray<ContentBlock> =
      typeof options.prompt === "string" ? [Content.text(options.prompt)] : options.prompt
    const userMessage: MessageParam = {
      role: "user",
      content: [
        ...(started.additionalContext === undefined
          ? []
          : [Content.text(HookReport.additionalContext(`SessionStart:${source}`, started.additionalContext))]),
        ...promptBlocks,
        ...(submitted.additionalContext === undefined
          ? []
          : [Content.text(HookReport.additionalContext("UserPromptSubmit", submitted.additionalContext))])
      ]
    }
    history.push(userMessage)
    yield* transcript.user(sessionId, userMessage)

    let stopHookActive = false
    let stopHookBlocks = 0

    /** One model request, folded; returns the message and the calls whose input was cut or malformed. */
    const modelTurn = Effect.gen(function* () {
      // Read for every request: the registry may change during a session (an MCP server's tools list changed).
      const tools = registry.definitions
      const request = {
        model,
        max_tokens: options.maxTokens ?? defaultMaxTokens,
        system: options.systemPrompt,
        messages: [...history],
        ...(tools.length > 0 ? { tools } : {}),
        stream: true
      }
      const requestStarted = Date.now()
      const outputs = Accumulator.fold(api.stream(request, { onRetry: (notice) => emit(retryEvent(notice)) }))
      const none = Option.none<Accumulator.Output & { _tag: "Complete" }>()
      const complete = yield* (
        streamDeltas
          ? Stream.runFoldEffect(outputs, none, (last, output) =>
              output._tag === "Event"
                ? Effect.as(emit({ _tag: "StreamDelta", event: output.event }), last)
                : Effect.succeed(Option.some(output))
            )
          : Stream.runFold(outputs, none, (last, output) => (output._tag === "Event" ? last : Option.some(output)))
      ).pipe(Effect.ensuring(Effect.sync(() => (apiMs += Date.now() - requestStarted))))
      if (Option.isNone(complete)) return yield* Effect.dieMessage("Accumulator.fold ended without a Complete output")
      return complete.value
    })

    const turns$ = Effect.gen(function* () {
      while (true) {
        if (turns >= maxTurns) {
          return yield* finish("error_max_turns", `Reached the maximum number of turns (${options.maxTurns}).`, true)
        }
        turns++
        const turn = yield* Effect.either(abortable(modelTurn))
        if (turn._tag === "Left") {
          const error = turn.left
          if (error instanceof Aborted) return yield* finish("error_during_execution", "Interrupted by the user.", true)
          return yield* finish("error_during_execution", `API error: ${error.message}`, true)
        }
        const { message, incompleteToolInputs } = turn.right
        lastAssistant = message
        usage = Usage.add(usage, message.usage)
        const turnModel = message.model || model
        const turnCost = Pricing.costOf(turnModel, message.usage)
        cost += turnCost
        modelUsage[turnModel] = ModelUsage.add(modelUsage[turnModel], turnModel, message.usage, turnCost)
        history.push({ role: "assistant", content: message.content })
        const assistantUuid = yield* transcript.assistant(sessionId, message, turnCost)
        yield* emit({ _tag: "AssistantTurn", uuid: assistantUuid, message })

        const uses = message.content.filter(Content.isToolUse)
        if (uses.length === 0) {
          const stop = yield* hooks.stop({
            sessionId,
            cwd: options.cwd,
            permissionMode,
            stopHookActive,
            lastAssistantMessage: Content.joinText(message.content)
          })
          yield* HookReport.report(emit, "Stop", stop)
          // A Stop hook that blocks makes the loop go on, a bounded number of times (a hook that always blocks would
          // otherwise hold the session for ever); `stop_hook_active` tells it that it already did.
          if (stop.stopRun === undefined && stop.continueWith !== undefined && stopHookBlocks < maxStopHookBlocks) {
            stopHookActive = true
            stopHookBlocks++
            const nudge: MessageParam = { role: "user", content: [Content.text(`Stop hook feedback:\n${stop.continueWith}`)] }
            history.push(nudge)
            yield* transcript.user(sessionId, nudge)
            continue
          }
          return yield* finish("success", Content.joinText(message.content), false)
        }

        const preset = new Map(
          incompleteToolInputs.map((incomplete) => [
            incomplete.id,
            {
              type: "tool_result" as const,
              tool_use_id: incomplete.id,
              is_error: true,
              content:
                incomplete.reason === "truncated"
                  ? `The input of this ${incomplete.name} call was cut off (the response reached max_tokens) and was not run. Send the call again, smaller if it was large.`
                  : `The input of this ${incomplete.name} call was not valid JSON and was not run. Send the call again with valid JSON input.`
            }
          ])
        )
        const cancelledRef = yield* Ref.make<ReadonlyArray<CallOutcome> | undefined>(undefined)
        const outcome = yield* Effect.either(
          abortable(executeTurn(uses, preset, context, (outcomes) => Ref.set(cancelledRef, outcomes)))
        )
        const outcomes = outcome._tag === "Right" ? outcome.right : ((yield* Ref.get(cancelledRef)) ?? [])
        const data: Record<string, unknown> = {}
        for (const item of outcomes) {
          if (item.denial) denials.push(item.denial)
          if (item.data !== undefined) data[item.block.tool_use_id] = item.data
        }
        // Hooks' texts for the model follow the tool results, in the same user message.
        const results: MessageParam = {
          role: "user",
          content: [
            ...outcomes.map((item) => item.block),
            ...outcomes.flatMap((item) => item.context ?? []).map((reminder) => Content.text(reminder))
          ]
        }
        history.push(results)
        const resultsUuid = yield* transcript.user(sessionId, results, Object.keys(data).length > 0 ? data : undefined)
        yield* emit({ _tag: "ToolResults", uuid: resultsUuid, message: results, data })
        for (const use of uses) {
          const todos = use.name === "TodoWrite" ? todosOf(data[use.id]) : undefined
          if (todos !== undefined) yield* emit({ _tag: "TodosUpdated", todos })
        }
        if (outcome._tag === "Left") return yield* finish("error_during_execution", "Interrupted by the user.", true)
        const stopped = outcomes.find((item) => item.stopRun !== undefined)
        if (stopped?.stopRun !== undefined) return yield* finish("success", stopped.stopRun, false)
      }
    })
    yield* turns$.pipe(
      Effect.catchAllDefect((defect) =>
        finish("error_during_execution", `Internal error: ${Cause.pretty(Cause.die(defect))}`, true)
      )
    )
  })
