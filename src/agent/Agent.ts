/**
 * The agent loop as a Stream of AgentEvents. One turn: build the request (system prompt, history, tool
 * definitions) -> ApiClient.stream -> Accumulator folds it into the assistant message while raw events go out for
 * renderers -> record it -> if the model asked for tools, run them (ToolExecution) and send one user message of
 * tool_results -> next turn; otherwise Stop hooks and the Result.
 *
 * Before a request, a conversation that nears the model's context window is compacted (Compaction: a summary
 * replaces it), and a request the API refuses as too long is compacted and sent again, once.
 *
 * `run` is one prompt from the session's announcement (SessionStart) to its end (SessionEnd); a Session
 * (Session.ts) announces once (`announceSession`), answers each prompt with `runTurn` on the conversation it keeps
 * (`Conversation`), compacts on request (`compactConversation`) and ends once (`endSession`).
 *
 * Interrupting the consuming fiber cancels the HTTP request and kills running processes (their scopes close).
 * `abort` is the graceful form (Ctrl-C in the CLI): work in flight is interrupted the same way, unfinished tool
 * calls are answered as cancelled so the transcript stays valid, and the stream still ends with a Result.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { absurd } from "effect/Function"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type { AgentEvent, PermissionDenial, Result as AgentResult, ResultSubtype } from "../domain/AgentEvent.js"
import type { ContentBlock, ToolUseBlock } from "../domain/Content.js"
import * as Content from "../domain/ContentGuards.js"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"
import type { MessagesRequest } from "../domain/Request.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import type { Usage } from "../domain/Usage.js"
import { isRecord } from "../domain/Json.js"
import type { ToolFailure } from "../domain/ToolFailure.js"
import { Hooks } from "../hooks/Hooks.js"
import * as Accumulator from "../model/Accumulator.js"
import { ApiClient, retryEvent } from "../model/ApiClient.js"
import { type ApiError, isPromptTooLong, promptTokensOf } from "../model/ApiError.js"
import * as Models from "../model/Models.js"
import * as Pricing from "../model/Pricing.js"
import * as Tokens from "../model/Tokens.js"
import { Permissions } from "../permissions/Permissions.js"
import * as Uuid from "../platform/Uuid.js"
import * as SessionState from "../session/SessionState.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import * as Compaction from "./Compaction.js"
import * as HookReport from "./HookReport.js"
import * as Request from "./Request.js"
import { Transcript } from "./Transcript.js"
import { type CallOutcome, executeTurn, failedOutcome } from "./ToolExecution.js"

export interface RunOptions {
  readonly prompt: string | ReadonlyArray<ContentBlock>
  /**
   * Texts for the model sent after the prompt in its message, each as a system reminder (the agents and skills
   * listings, plan mode, a note on an unknown command): not the user's words, so UserPromptSubmit hooks do not see them.
   */
  readonly reminders?: ReadonlyArray<string>
  /**
   * Work the model started that answers later (background subagents): when the model would stop, the loop waits
   * for it and goes on with what it answers (a user message of task notifications, and what they cost); undefined:
   * nothing is pending.
   */
  readonly awaitTasks?: Effect.Effect<Notified | undefined>
  readonly cwd: string
  readonly systemPrompt: string
  readonly sessionId?: string
  /** Defaults to the ApiClient's default model. */
  readonly model?: string
  /** Model requests allowed in this run; past it the run ends with `error_max_turns`. */
  readonly maxTurns?: number
  readonly maxTokens?: number
  /** Earlier conversation (resume / continue), sent before the prompt as it is. */
  readonly history?: ReadonlyArray<MessageParam>
  /**
   * Going on with a recorded session (resume / continue; `sessionId` is then its id, or a fork's): the new entries
   * continue its parentUuid chain after `leafUuid`, and SessionStart hooks get `source: "resume"`. `costUSD`, what
   * the session cost before this run, is counted in the Result's `totalCostUsd` (Claude Code's `total_cost_usd` is
   * the session's whole cost); its `usage` and `numTurns` stay this run's.
   */
  readonly resume?: { readonly leafUuid: string | null; readonly costUSD?: number }
  /** Completing it stops the run gracefully: see the module doc. */
  readonly abort?: Deferred.Deferred<void>
  readonly mcpServers?: ReadonlyArray<{ readonly name: string; readonly status: string }>
  /**
   * Whether to emit a StreamDelta for every raw event of the model's stream (default true). A consumer that only
   * wants whole messages (`weft -p` except stream-json with --include-partial-messages) turns it off, and the
   * loop then folds each response without queueing the dozens of events per turn it would drop.
   */
  readonly streamDeltas?: boolean
  /**
   * Whether requests carry prompt-cache breakpoints (Request.ts). Default: on, unless DISABLE_PROMPT_CACHING (or
   * its per-family variant) is set.
   */
  readonly promptCaching?: boolean
  /**
   * Whether the conversation is compacted when it nears the context window (default true; Claude Code's
   * DISABLE_AUTO_COMPACT turns it off). A request refused as too long is compacted and retried either way.
   */
  readonly autoCompact?: boolean
  /** The model's context window in tokens; default from the model table (Models.contextWindowOf). */
  readonly contextWindow?: number
  /**
   * The model in force now, read before each request (a Session's `setModel` takes effect at the next request);
   * wins over `model`.
   */
  readonly currentModel?: Effect.Effect<string | undefined>
  /**
   * Whether to emit the events a host renders beside the run's own (default false: `run`'s stream keeps its
   * shape): TextDelta / ThinkingDelta (with `streamDeltas`), each tool call's ToolStarted / ToolEnded, permission
   * asks and answers, CompactionStarted. A Session turns them on.
   */
  readonly hostEvents?: boolean
}

/** Background work ended: the message the model gets, and the responses it paid for. */
export interface Notified {
  readonly message: string
  readonly spent: ReadonlyArray<{ readonly model: string; readonly usage: Usage; readonly costUSD: number }>
}

/** What a conversation carries from one prompt to the next (a Session keeps it between turns). */
export interface Conversation {
  readonly history: ReadonlyArray<MessageParam>
  /** Tokens and cost of every response so far. */
  readonly totals: SessionState.Totals
  /** The context's size (see RunState.contextTokens). */
  readonly contextTokens: number | undefined
}

export const emptyConversation: Conversation = { history: [], totals: SessionState.emptyTotals, contextTokens: undefined }

/** What announcing a session (SessionStart hooks) gave the first prompt: context for the model, where it came from. */
export interface Started {
  readonly source: "startup" | "resume"
  readonly additionalContext?: string
  /** A SessionStart hook stopped the session: why, for the user. */
  readonly stopRun?: string
}

/** One prompt answered: its Result, and the conversation to go on with. */
export interface TurnEnd {
  readonly result: AgentResult
  readonly conversation: Conversation
}

export const defaultMaxTokens = Request.defaultMaxTokens

/** How many times in a run a blocking Stop hook is honoured before the run may stop anyway (Claude Code: 9). */
export const maxStopHookBlocks = 9

/** Bound on events waiting for a slow consumer; the loop waits when it is full (raw SSE events dominate). */
const eventBuffer = 1024

/**
 * The graceful stop (`abort` completed): the step in flight fails with it, so the steps tell it apart from an API
 * error by its tag.
 */
export class Aborted extends Data.TaggedError("Aborted")<{ readonly message: string }> {}

/** What the loop carries from one step to the next. */
export interface RunState {
  /** The conversation sent with the next request. */
  readonly history: ReadonlyArray<MessageParam>
  /** Model requests made (the Result's numTurns; `maxTurns` bounds it). */
  readonly turns: number
  /** Tokens and cost of the responses so far (summed by SessionState, as a loaded transcript is). */
  readonly totals: SessionState.Totals
  /** Time spent waiting for the API. */
  readonly apiMs: number
  readonly denials: ReadonlyArray<PermissionDenial>
  readonly lastAssistant: AssistantMessage | undefined
  /** Times a Stop hook has sent the model back to work (`stop_hook_active` once it has). */
  readonly stopHookBlocks: number
  /**
   * The context's size: the last response's input, cache read, cache creation and output tokens, plus an estimate
   * (4 characters a token) of the tool results sent back since. Unknown before the first response and after a
   * compaction.
   */
  readonly contextTokens: number | undefined
}

/** What a step decides: another model request, or the end of the run with a Result. */
export type Next = Data.TaggedEnum<{
  Continue: { readonly state: RunState }
  Finish: { readonly state: RunState; readonly subtype: ResultSubtype; readonly text: string; readonly isError: boolean }
}>
export const Next = Data.taggedEnum<Next>()

type Finish = Data.TaggedEnum.Value<Next, "Finish">

/** A model response, folded. */
type Complete = Extract<Accumulator.Output, { readonly _tag: "Complete" }>

/** A model request made: its response (or why there is none), and the state with the time it took counted. */
interface Sent {
  readonly _tag: "Sent"
  readonly state: RunState
  readonly response: Result.Result<Complete, ApiError | Aborted>
}

/** A compaction that could not be made, with the state to go on from (see compactStep). */
interface NotCompacted {
  readonly _tag: "Failed"
  readonly state: RunState
  readonly message: string
}

const proceed = (state: RunState): Next => Next.Continue({ state })
const finishWith = (state: RunState, subtype: ResultSubtype, text: string, isError: boolean): Finish =>
  Next.Finish({ state, subtype, text, isError })
const interrupted = (state: RunState): Finish => finishWith(state, "error_during_execution", "Interrupted by the user.", true)

/** What every step of one run shares: its options resolved, its services, and where events go. */
interface Run {
  readonly options: RunOptions
  readonly sessionId: string
  readonly model: string
  readonly promptCaching: boolean
  readonly abort: Deferred.Deferred<void>
  readonly emit: (event: AgentEvent) => Effect.Effect<void>
  readonly api: ApiClient["Service"]
  readonly registry: ToolRegistry["Service"]
  readonly permissions: Permissions["Service"]
  readonly hooks: Hooks["Service"]
  readonly transcript: Transcript["Service"]
}

/**
 * The run's events, ending with its Result. The loop runs in a fiber of the stream's scope, its events put in a
 * queue (the loop waits while `eventBuffer` events wait there); a consumer that stops early ends the scope, which
 * interrupts the loop (its processes are ended).
 */
export const run = (options: RunOptions) =>
  Stream.unwrap(
    Effect.gen(function* () {
      // The queue itself carries the end (Done) or the loop's failure, after the events still waiting in it.
      const queue = yield* Queue.bounded<AgentEvent, Cause.Done>(eventBuffer)
      const emit = (event: AgentEvent) => Queue.offer(queue, event).pipe(Effect.asVoid)
      yield* loop(options, emit).pipe(
        Effect.exit,
        Effect.flatMap((exit) => (Exit.isSuccess(exit) ? Queue.end(queue) : Queue.failCause(queue, exit.cause))),
        Effect.forkScoped
      )
      return Stream.fromQueue(queue)
    })
  )

/** The run's shared values: its options resolved and its services. */
const makeRun = Effect.fn("Agent.makeRun")(function* (options: RunOptions, emit: (event: AgentEvent) => Effect.Effect<void>) {
  const api = yield* ApiClient
  const model = api.resolveModel((options.currentModel === undefined ? undefined : yield* options.currentModel) ?? options.model ?? api.defaultModel)
  const run: Run = {
    options,
    sessionId: options.sessionId ?? (yield* Uuid.v4),
    model,
    promptCaching: options.promptCaching ?? (yield* Request.promptCachingFor(model)),
    abort: options.abort ?? (yield* Deferred.make<void>()),
    emit,
    api,
    registry: yield* ToolRegistry,
    permissions: yield* Permissions,
    hooks: yield* Hooks,
    transcript: yield* Transcript
  }
  return run
})

const initialState = (conversation: Conversation): RunState => ({
  history: Request.withoutCacheControl(conversation.history),
  turns: 0,
  totals: conversation.totals,
  apiMs: 0,
  denials: [],
  lastAssistant: undefined,
  stopHookBlocks: 0,
  contextTokens: conversation.contextTokens
})

/**
 * `first` (the step that submitted the prompt), then turns until one decides to finish; a defect still ends with
 * a Finish (its Result says what went wrong). Answers the end and how long it all took.
 */
const steps = (run: Run, initial: RunState, first: Effect.Effect<Next>) =>
  Effect.gen(function* () {
    // The state as of the last step, for the Result of a run that ends in a defect.
    const latest = yield* Ref.make(initial)
    const all = Effect.gen(function* () {
      let step = yield* first
      while (step._tag === "Continue") {
        step = yield* turn(run, step.state)
        yield* Ref.set(latest, step.state)
      }
      return step
    })
    const [elapsed, end] = yield* all.pipe(
      Effect.catchDefect((defect) =>
        Effect.map(Ref.get(latest), (state) =>
          finishWith(state, "error_during_execution", `Internal error: ${Cause.pretty(Cause.die(defect))}`, true)
        )
      ),
      Effect.timed
    )
    return { end, durationMs: millisOf(elapsed) }
  })

/** The run: the session announced, the prompt submitted, turns until one decides to finish, then the Result. */
const loop = Effect.fn("Agent.loop")(function* (options: RunOptions, emit: (event: AgentEvent) => Effect.Effect<void>) {
  const run = yield* makeRun(options, emit)
  const initial = initialState({ ...emptyConversation, history: options.history ?? [] })
  const { end, durationMs } = yield* steps(
    run,
    initial,
    Effect.gen(function* () {
      const started = yield* announce(run)
      if (started.stopRun !== undefined) return finishWith(initial, "success", started.stopRun, false)
      return yield* submitPrompt(run, initial, started)
    })
  )
  yield* finish(run, end, durationMs, { endSession: true })
})

/**
 * One prompt of a session whose start was announced already (`announce`; its outcome is `started` for the first
 * prompt): the prompt submitted to the conversation, turns until one decides to finish, the Result emitted (after
 * SessionEnd hooks when `endSession`). Answers the Result and the conversation to go on with, whatever happened
 * (an interrupted turn leaves a valid history: every tool call answered).
 */
export const runTurn = Effect.fn("Agent.runTurn")(function* (
  options: RunOptions & { readonly sessionId: string },
  conversation: Conversation,
  turnOptions: {
    readonly started?: Started
    readonly endSession: boolean
    readonly emit: (event: AgentEvent) => Effect.Effect<void>
  }
) {
  const run = yield* makeRun(options, turnOptions.emit)
  const initial = initialState(conversation)
  // A SessionStart hook that stopped the session answers its first prompt, and the session ends with it.
  const stopped = turnOptions.started?.stopRun
  const { end, durationMs } = yield* steps(
    run,
    initial,
    stopped === undefined ? submitPrompt(run, initial, turnOptions.started) : Effect.succeed(finishWith(initial, "success", stopped, false))
  )
  const result = yield* finish(run, end, durationMs, { endSession: turnOptions.endSession || stopped !== undefined })
  const state = end.state
  const turnEnd: TurnEnd = {
    result,
    conversation: { history: state.history, totals: state.totals, contextTokens: state.contextTokens }
  }
  return turnEnd
})

/**
 * A compaction asked for (a Session's `compact`, `/compact`): the conversation summarized now, with `instructions`
 * for the summary. Answers the conversation to go on with (the summary, or the conversation as it was) and, when
 * it could not be compacted (no conversation yet, the summary failed, a PreCompact hook stopped it, interrupted),
 * why.
 */
export const compactConversation = Effect.fn("Agent.compactConversation")(function* (
  options: RunOptions & { readonly sessionId: string },
  conversation: Conversation,
  compactOptions: { readonly instructions?: string; readonly emit: (event: AgentEvent) => Effect.Effect<void> }
) {
  const run = yield* makeRun(options, compactOptions.emit)
  const state = initialState(conversation)
  const preTokens = conversation.contextTokens ?? Tokens.ofJson(state.history)
  const outcome = yield* compactStep(run, state, preTokens, {
    trigger: "manual",
    ...(compactOptions.instructions === undefined ? {} : { instructions: compactOptions.instructions })
  })
  const of = (after: RunState): Conversation => ({ history: after.history, totals: after.totals, contextTokens: after.contextTokens })
  switch (outcome._tag) {
    case "Continue":
      return { conversation: of(outcome.state), failure: undefined }
    case "Finish":
      return { conversation: of(outcome.state), failure: outcome.text }
    case "Failed":
      return { conversation: of(outcome.state), failure: outcome.message }
    default:
      return absurd<never>(outcome)
  }
})

/**
 * Announces the session: the SessionStarted event, the transcript going on after a resumed session's last entry,
 * and SessionStart hooks (they may stop the session, or add context for the first prompt).
 */
export const announce = Effect.fn("Agent.announce")(function* (run: Pick<Run, "options" | "sessionId" | "model" | "registry" | "permissions" | "hooks" | "transcript" | "emit">) {
  const { options, sessionId, hooks } = run
  yield* run.emit({
    _tag: "SessionStarted",
    sessionId,
    cwd: options.cwd,
    model: run.model,
    tools: run.registry.tools.map((tool) => tool.name),
    mcpServers: options.mcpServers ?? [],
    permissionMode: run.permissions.mode
  })
  if (options.resume !== undefined) yield* run.transcript.setParent(options.resume.leafUuid)
  const source = options.resume !== undefined || options.history !== undefined ? "resume" : "startup"
  const outcome = yield* hooks.sessionStart({ sessionId, cwd: options.cwd, source })
  yield* HookReport.report(run.emit, "SessionStart", outcome)
  const started: Started = {
    source,
    ...(outcome.additionalContext === undefined ? {} : { additionalContext: outcome.additionalContext }),
    ...(outcome.stopRun === undefined ? {} : { stopRun: outcome.stopRun })
  }
  return started
})

/**
 * The announcement of a session whose prompts run later (`runTurn`): the services from the context, the model
 * resolved as the first request will resolve it.
 */
export const announceSession = Effect.fn("Agent.announceSession")(function* (
  options: RunOptions & { readonly sessionId: string },
  emit: (event: AgentEvent) => Effect.Effect<void>
) {
  const api = yield* ApiClient
  return yield* announce({
    options,
    sessionId: options.sessionId,
    model: api.resolveModel((options.currentModel === undefined ? undefined : yield* options.currentModel) ?? options.model ?? api.defaultModel),
    registry: yield* ToolRegistry,
    permissions: yield* Permissions,
    hooks: yield* Hooks,
    transcript: yield* Transcript,
    emit
  })
})

/** SessionEnd hooks (`reason`: Claude Code's, e.g. "other", "prompt_input_exit"), then the transcript flushed. */
export const endSession = Effect.fn("Agent.endSession")(function* (
  sessionId: string,
  cwd: string,
  reason: string,
  emit: (event: AgentEvent) => Effect.Effect<void>
) {
  const hooks = yield* Hooks
  const ended = yield* hooks.sessionEnd({ sessionId, cwd, reason })
  yield* HookReport.report(emit, "SessionEnd", ended ?? {})
  yield* (yield* Transcript).flush
})

/** A duration in whole milliseconds, as the Result and hooks report them. */
const millisOf = (duration: Duration.Duration): number => Math.round(Duration.toMillis(duration))

/**
 * Submits the prompt (UserPromptSubmit hooks may block it or add context); the first prompt of a session carries
 * what its SessionStart hooks added (`started`).
 */
const submitPrompt = Effect.fn("Agent.submitPrompt")(function* (run: Run, state: RunState, started: Started | undefined) {
  const { options, sessionId, hooks } = run
  const promptText = typeof options.prompt === "string" ? options.prompt : Content.joinText(options.prompt)
  const submitted = yield* hooks.userPromptSubmit({
    sessionId,
    cwd: options.cwd,
    permissionMode: run.permissions.mode,
    prompt: promptText
  })
  yield* HookReport.report(run.emit, "UserPromptSubmit", submitted)
  // A blocked prompt is erased: nothing is sent or recorded, and the user is told why (Claude Code's result is a success).
  const refusal = submitted.blocked ?? submitted.stopRun
  if (refusal !== undefined) {
    yield* run.emit({ _tag: "HookNotice", hookEvent: "UserPromptSubmit", text: `blocked the prompt: ${refusal}` })
    return finishWith(state, "success", `Prompt blocked by a UserPromptSubmit hook: ${refusal}`, false)
  }
  const promptBlocks: ReadonlyArray<ContentBlock> =
    typeof options.prompt === "string" ? [Content.text(options.prompt)] : Request.withoutMarkers(options.prompt)
  const userMessage: MessageParam = {
    role: "user",
    content: [
      ...(started?.additionalContext === undefined
        ? []
        : [Content.text(HookReport.additionalContext(`SessionStart:${started.source}`, started.additionalContext))]),
      ...promptBlocks,
      ...(options.reminders ?? []).map((reminder) => Content.text(HookReport.systemReminder(reminder))),
      ...(submitted.additionalContext === undefined
        ? []
        : [Content.text(HookReport.additionalContext("UserPromptSubmit", submitted.additionalContext))])
    ]
  }
  yield* run.transcript.user(sessionId, userMessage)
  return proceed({ ...state, history: Request.appendUser(state.history, userMessage) })
})

/**
 * One turn: a model request, its response recorded, then either the tools it asked for (and another turn) or the
 * Stop hooks (and the end, unless a hook sends the model back to work).
 */
const turn = Effect.fn("Agent.turn")(function* (current: Run, before: RunState) {
  const run = yield* withCurrentModel(current)
  if (before.turns >= (run.options.maxTurns ?? Number.POSITIVE_INFINITY)) {
    return finishWith(before, "error_max_turns", `Reached the maximum number of turns (${run.options.maxTurns}).`, true)
  }
  const ready = yield* compactIfNearFull(run, before)
  switch (ready._tag) {
    case "Finish":
      return ready
    case "Continue":
      break
    default:
      return absurd<never>(ready)
  }
  const first = yield* request(run, { ...ready.state, turns: ready.state.turns + 1 })
  const sent = first.response._tag === "Failure" && isPromptTooLong(first.response.failure)
    ? yield* retryCompacted(run, first.state, first.response.failure)
    : first
  switch (sent._tag) {
    case "Finish":
      return sent
    case "Sent":
      return yield* answered(run, sent)
    default:
      return absurd<never>(sent)
  }
})

/**
 * The model's answer to the turn's request: an API error ends the run; a response is recorded, then either the
 * tools it asked for run or, when it asked for none, the Stop hooks decide.
 */
const answered = Effect.fn("Agent.answered")(function* (run: Run, { response, state }: Sent) {
  if (response._tag === "Failure") {
    const error = response.failure
    return error._tag === "Aborted"
      ? interrupted(state)
      : finishWith(state, "error_during_execution", `API error: ${error.message}`, true)
  }
  const { message, incompleteToolInputs } = response.success
  const recorded = yield* recordResponse(run, state, message)
  const uses = message.content.filter(Content.isToolUse)
  return uses.length === 0
    ? yield* stopOrContinue(run, recorded, message)
    : yield* runTools(run, recorded, uses, incompleteToolInputs)
})

/** The turn's model request with the conversation of `state`, answered with `state` and the time it took counted. */
const request = Effect.fn("Agent.request")(function* (run: Run, state: RunState) {
  const [elapsed, response] = yield* Effect.timed(
    Effect.result(abortable(run, requestModel(run, Request.build(requestSettings(run), state.history))))
  )
  const sent: Sent = { _tag: "Sent", response, state: { ...state, apiMs: state.apiMs + millisOf(elapsed) } }
  return sent
})

/**
 * A request the API refused as too long: the conversation compacted, then the request sent again, once (a failure to
 * compact, or a second refusal, ends the run).
 */
const retryCompacted = Effect.fn("Agent.retryCompacted")(function* (
  run: Run,
  state: RunState,
  refusal: { readonly message: string }
) {
  const preTokens = promptTokensOf(refusal.message) ?? Tokens.ofJson(state.history)
  const compacted = yield* compactStep(run, state, preTokens)
  switch (compacted._tag) {
    case "Finish":
      return compacted
    case "Failed":
      return finishWith(
        compacted.state,
        "error_during_execution",
        `API error: ${refusal.message}; compacting the conversation failed: ${compacted.message}`,
        true
      )
    case "Continue":
      break
    default:
      return absurd<never>(compacted)
  }
  const again = yield* request(run, compacted.state)
  if (again.response._tag === "Failure" && isPromptTooLong(again.response.failure)) {
    return finishWith(
      again.state,
      "error_during_execution",
      `API error: ${again.response.failure.message} (the conversation was compacted and the request was still too long)`,
      true
    )
  }
  return again
})

/** The size (tokens) at which this run compacts before its next request (Models.autoCompactThreshold). */
export const compactThreshold = (options: Pick<RunOptions, "contextWindow" | "maxTokens">, model: string): number =>
  Models.autoCompactThreshold(options.contextWindow ?? Models.contextWindowOf(model), options.maxTokens ?? defaultMaxTokens)

/**
 * Before a request: a context at or past the threshold is compacted first (trigger auto). A compaction that fails
 * (the summary request failed or came back empty) leaves the conversation as it was: the request may still fit,
 * and if it does not, the API's refusal compacts again or ends the run.
 */
const compactIfNearFull = Effect.fn("Agent.compactIfNearFull")(function* (run: Run, state: RunState) {
  const size = state.contextTokens
  if (run.options.autoCompact === false || size === undefined || size < compactThreshold(run.options, run.model)) {
    return proceed(state)
  }
  const compacted = yield* compactStep(run, state, size)
  switch (compacted._tag) {
    case "Continue":
    case "Finish":
      return compacted
    case "Failed":
      yield* Effect.logWarning(`weft: could not compact the conversation (${compacted.message}); going on without compacting it.`)
      return proceed({ ...compacted.state, contextTokens: undefined })
    default:
      return absurd<never>(compacted)
  }
})

/** The model that answered a response (the run's when it names none) and what the response cost. */
const priced = (run: Run, response: AssistantMessage): { readonly model: string; readonly costUSD: number } => {
  const model = response.model || run.model
  return { model, costUSD: Pricing.costOf(model, response.usage) }
}

/**
 * The compaction step (Compaction.compact with this run's request, hooks and transcript): the history replaced by
 * the summary, the summary request's cost counted; a PreCompact hook's `continue: false` ends the run; a failure to
 * compact is answered as `Failed` for the caller to decide, with the state to go on from (the history as it was, an
 * unusable summary's cost counted all the same).
 */
const compactStep = Effect.fn("Agent.compact")(function* (
  run: Run,
  state: RunState,
  preTokens: number,
  asked: { readonly trigger: "auto" | "manual"; readonly instructions?: string } = { trigger: "auto" }
): Effect.fn.Return<Next | NotCompacted, never, never> {
  if (run.options.hostEvents === true) yield* run.emit({ _tag: "CompactionStarted", trigger: asked.trigger })
  const [elapsed, outcome] = yield* Effect.timed(Effect.result(
    Compaction.compact(
      {
        sessionId: run.sessionId,
        cwd: run.options.cwd,
        permissionMode: run.permissions.mode,
        hooks: run.hooks,
        transcript: run.transcript,
        emit: run.emit,
        request: (history, maxTokens) =>
          Effect.map(
            abortable(run, requestModel(run, Request.build({ ...requestSettings(run), maxTokens }, history), { deltas: false })),
            (complete) => complete.message
          ),
        forgetContext: run.registry.forgetContext ?? Effect.void,
        costOf: (response) => priced(run, response)
      },
      state.history,
      {
        trigger: asked.trigger,
        preTokens,
        maxTokens: run.options.maxTokens ?? defaultMaxTokens,
        ...(asked.instructions === undefined ? {} : { customInstructions: asked.instructions })
      }
    )
  ))
  const apiMs = state.apiMs + millisOf(elapsed)
  const withCostOf = (response: AssistantMessage): RunState["totals"] => {
    const { model, costUSD } = priced(run, response)
    return SessionState.addResponse(state.totals, model, response.usage, costUSD)
  }
  if (outcome._tag === "Failure") {
    const error = outcome.failure
    if (error._tag === "Aborted") return interrupted({ ...state, apiMs })
    const failed: RunState = {
      ...state,
      apiMs,
      ...(error._tag === "CompactionFailed" && error.response !== undefined ? { totals: withCostOf(error.response) } : {})
    }
    return { _tag: "Failed", message: error.message, state: failed }
  }
  return Compaction.Outcome.$match(outcome.success, {
    Stopped: ({ reason }) => finishWith({ ...state, apiMs }, "success", reason, false),
    Compacted: ({ response, history }) =>
      proceed({ ...state, apiMs, history, contextTokens: undefined, totals: withCostOf(response) })
  })
})

/** The run with the model in force now (RunOptions.currentModel), when it changed since the run began. */
const withCurrentModel = (run: Run): Effect.Effect<Run> =>
  Effect.gen(function* () {
    if (run.options.currentModel === undefined) return run
    const wanted = yield* run.options.currentModel
    const model = run.api.resolveModel(wanted ?? run.options.model ?? run.api.defaultModel)
    if (model === run.model) return run
    return { ...run, model, promptCaching: run.options.promptCaching ?? (yield* Request.promptCachingFor(model)) }
  })

/**
 * Runs `effect` unless `abort` completes first, which interrupts it and fails with Aborted. The abort is raced first:
 * the race starts its contenders in order and stops at the first that ends, so an abort already given ends the step
 * before `effect` starts (a quick effect would otherwise win).
 */
const abortable = <A, E, R>(run: Run, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Aborted, R> =>
  Effect.raceFirst(
    Deferred.await(run.abort).pipe(Effect.andThen(Effect.fail(new Aborted({ message: "Interrupted by the user." })))),
    effect
  )

/**
 * What every request of this run is built from. The tools are read for every request: the registry may change
 * during a session (an MCP server's tools list changed).
 */
const requestSettings = (run: Run): Request.Settings => ({
  model: run.model,
  maxTokens: run.options.maxTokens ?? defaultMaxTokens,
  systemPrompt: run.options.systemPrompt,
  tools: run.registry.definitions,
  promptCaching: run.promptCaching
})

/** One model request (built by Request.build), folded: the message, and the calls whose input was cut or malformed. */
const requestModel = Effect.fn("Agent.requestModel")(function* (
  run: Run,
  request: MessagesRequest,
  options: { readonly deltas?: boolean } = {}
) {
  const outputs = Accumulator.fold(run.api.stream(request, { onRetry: (notice) => run.emit(retryEvent(notice)) }))
  const none = Option.none<Accumulator.Output & { _tag: "Complete" }>()
  const complete = yield* (options.deltas ?? run.options.streamDeltas ?? true)
    ? Stream.runFoldEffect(outputs, () => none, (last, output) => {
        if (output._tag !== "Event") return Effect.succeed(Option.some(output))
        const delta = run.options.hostEvents === true ? deltaOf(output.event) : undefined
        const emitted = run.emit({ _tag: "StreamDelta", event: output.event })
        return Effect.as(delta === undefined ? emitted : Effect.andThen(emitted, run.emit(delta)), last)
      })
    : Stream.runFold(outputs, () => none, (last, output) => (output._tag === "Event" ? last : Option.some(output)))
  if (Option.isNone(complete)) return yield* Effect.die(new Error("Accumulator.fold ended without a Complete output"))
  return complete.value
})

/** The text or thinking a raw event adds, as a host renders it. */
const deltaOf = (event: StreamEvent): AgentEvent | undefined => {
  if (event.type !== "content_block_delta") return undefined
  const { index, delta } = event
  if (typeof index !== "number" || !isRecord(delta)) return undefined
  const { type, text, thinking } = delta
  if (type === "text_delta" && typeof text === "string") return { _tag: "TextDelta", index, text }
  if (type === "thinking_delta" && typeof thinking === "string") return { _tag: "ThinkingDelta", index, thinking }
  return undefined
}

/** Adds the response to the account and the history, records it, and shows it. */
const recordResponse = Effect.fn("Agent.recordResponse")(function* (run: Run, state: RunState, message: AssistantMessage) {
  const { model, costUSD } = priced(run, message)
  const uuid = yield* run.transcript.assistant(run.sessionId, message, costUSD)
  yield* run.emit({ _tag: "AssistantTurn", uuid, message })
  const usage = message.usage
  return {
    ...state,
    lastAssistant: message,
    contextTokens:
      usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + usage.output_tokens,
    totals: SessionState.addResponse(state.totals, model, message.usage, costUSD),
    history: [...state.history, { role: "assistant" as const, content: message.content }]
  }
})

/**
 * The model asked for no tool: a Stop hook that blocks sends it back to work, a bounded number of times (a hook
 * that always blocks would otherwise hold the session for ever; `stop_hook_active` tells it that it already did);
 * otherwise the run succeeds.
 */
const stopOrContinue = Effect.fn("Agent.stop")(function* (run: Run, state: RunState, message: AssistantMessage) {
  // Background work still running is waited for; its notifications are one more user message (the graceful stop
  // ends the wait).
  if (run.options.awaitTasks !== undefined) {
    const notified = yield* Effect.result(abortable(run, run.options.awaitTasks))
    if (notified._tag === "Failure") return interrupted(state)
    if (notified.success !== undefined) {
      const note: MessageParam = { role: "user", content: [Content.text(notified.success.message)] }
      yield* run.transcript.user(run.sessionId, note)
      let totals = state.totals
      for (const spent of notified.success.spent) totals = SessionState.addResponse(totals, spent.model, spent.usage, spent.costUSD)
      return proceed({ ...state, totals, history: [...state.history, note] })
    }
  }
  const stop = yield* run.hooks.stop({
    sessionId: run.sessionId,
    cwd: run.options.cwd,
    permissionMode: run.permissions.mode,
    stopHookActive: state.stopHookBlocks > 0,
    lastAssistantMessage: Content.joinText(message.content)
  })
  yield* HookReport.report(run.emit, "Stop", stop)
  if (stop.stopRun === undefined && stop.continueWith !== undefined && state.stopHookBlocks < maxStopHookBlocks) {
    const nudge: MessageParam = { role: "user", content: [Content.text(`Stop hook feedback:\n${stop.continueWith}`)] }
    yield* run.transcript.user(run.sessionId, nudge)
    return proceed({ ...state, stopHookBlocks: state.stopHookBlocks + 1, history: [...state.history, nudge] })
  }
  return finishWith(state, "success", Content.joinText(message.content), false)
})

/** A call whose input was cut off or malformed is answered without running it. */
const incompleteOutcome = (incomplete: Accumulator.Incomplete): CallOutcome =>
  failedOutcome(
    incomplete.id,
    "invalid_input",
    incomplete.reason === "truncated"
      ? `The input of this ${incomplete.name} call was cut off (the response reached max_tokens) and was not run. Send the call again, smaller if it was large.`
      : `The input of this ${incomplete.name} call was not valid JSON and was not run. Send the call again with valid JSON input.`
  )

/**
 * Runs the calls (ToolExecution: hooks, permissions, the tool) and sends their results back as one user message.
 * Interrupted by `abort`, the calls that did not finish are answered as cancelled and the run ends.
 */
const runTools = Effect.fn("Agent.runTools")(function* (
  run: Run,
  state: RunState,
  uses: ReadonlyArray<ToolUseBlock>,
  incomplete: ReadonlyArray<Accumulator.Incomplete>
) {
  const preset = new Map(incomplete.map((call) => [call.id, incompleteOutcome(call)]))
  const cancelled = yield* Ref.make<ReadonlyArray<CallOutcome>>([])
  const context = {
    sessionId: run.sessionId,
    cwd: run.options.cwd,
    emit: run.emit,
    // A person who denies a call with `interrupt` ends the turn, as the graceful stop does.
    interrupt: Deferred.succeed(run.abort, undefined).pipe(Effect.asVoid),
    ...(run.options.hostEvents === true ? { detail: run.emit } : {})
  }
  const executed = yield* Effect.result(
    // The outcomes are kept when the calls end too: an abort that comes as the last call ends (a denial with
    // `interrupt`) may win the race after the calls finished, and their results must still be recorded.
    abortable(
      run,
      executeTurn(uses, preset, context, (outcomes) => Ref.set(cancelled, outcomes)).pipe(
        Effect.tap((outcomes) => Ref.set(cancelled, outcomes))
      )
    )
  )
  const outcomes = executed._tag === "Success" ? executed.success : yield* Ref.get(cancelled)
  const answered = yield* recordResults(run, state, outcomes)
  if (executed._tag === "Failure") return interrupted(answered)
  // A hook's `continue: false` ends the run after this turn's results are recorded.
  const stopped = outcomes.find((outcome) => outcome.stopRun !== undefined)?.stopRun
  return stopped === undefined ? proceed(answered) : finishWith(answered, "success", stopped, false)
})

/** Records the tool results, shows them, then each tool's own event (a todo list). */
const recordResults = Effect.fn("Agent.recordResults")(function* (
  run: Run,
  state: RunState,
  outcomes: ReadonlyArray<CallOutcome>
) {
  const data: Record<string, unknown> = {}
  const failures: Record<string, ToolFailure> = {}
  for (const outcome of outcomes) {
    if (outcome.data !== undefined) data[outcome.block.tool_use_id] = outcome.data
    if (outcome.failure !== undefined) failures[outcome.block.tool_use_id] = outcome.failure
  }
  // Hooks' texts for the model follow the tool results, in the same user message.
  const results: MessageParam = {
    role: "user",
    content: [
      ...outcomes.map((outcome) => outcome.block),
      ...outcomes.flatMap((outcome) => outcome.context ?? []).map((reminder) => Content.text(reminder))
    ]
  }
  const uuid = yield* run.transcript.user(run.sessionId, results, Object.keys(data).length > 0 ? data : undefined)
  yield* run.emit({ _tag: "ToolResults", uuid, message: results, data, failures })
  for (const outcome of outcomes) if (outcome.event !== undefined) yield* run.emit(outcome.event)
  // What the calls paid for (subagents' responses) counts as the loop's own responses do.
  let totals = state.totals
  for (const outcome of outcomes) {
    for (const spent of outcome.spent ?? []) totals = SessionState.addResponse(totals, spent.model, spent.usage, spent.costUSD)
  }
  return {
    ...state,
    totals,
    history: [...state.history, results],
    // The results join the context the next request sends: counted (estimated) before it is sent, so a turn whose
    // results are large compacts first rather than being refused.
    contextTokens: state.contextTokens === undefined ? undefined : state.contextTokens + Tokens.ofJson([results]),
    denials: [...state.denials, ...outcomes.flatMap((outcome) => (outcome.denial === undefined ? [] : [outcome.denial]))]
  }
})

/**
 * The Result: SessionEnd hooks when the session ends with it (Claude Code's reason for a session that ends because
 * its work is done under -p: "other"), the transcript flushed (a `--resume` right after sees it all), then the event.
 */
const finish = Effect.fn("Agent.finish")(function* (
  run: Run,
  end: Finish,
  durationMs: number,
  options: { readonly endSession: boolean }
) {
  const { state, subtype, text, isError } = end
  const result: AgentResult = {
    _tag: "Result",
    subtype,
    isError,
    result: text,
    numTurns: state.turns,
    durationMs,
    durationApiMs: state.apiMs,
    totalCostUsd: (run.options.resume?.costUSD ?? 0) + state.totals.costUSD,
    usage: state.totals.usage,
    modelUsage: state.totals.modelUsage,
    sessionId: run.sessionId,
    permissionDenials: state.denials,
    ...(state.lastAssistant ? { content: state.lastAssistant.content } : {})
  }
  if (options.endSession) {
    const ended = yield* run.hooks.sessionEnd({ sessionId: run.sessionId, cwd: run.options.cwd, reason: "other" })
    yield* HookReport.report(run.emit, "SessionEnd", ended ?? {})
  }
  yield* run.transcript.flush
  yield* run.emit(result)
  return result
})
