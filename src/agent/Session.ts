/**
 * A live conversation: the prompts of one session answered in turn, over the session's services. The Session owns
 * what outlives one prompt (the history, the totals, the context's size, the model, the turn in flight) and is
 * steered while it runs: prompts are queued (`submit`) and answered one at a time, the turn in flight can be
 * interrupted, the permission mode, the rules and the model changed, hooks added, and the conversation compacted.
 * Everything that happens is one Stream of AgentEvents (`events`), whatever prompt it belongs to.
 *
 * `weft -p` is one `submit` (with `endsSession`); the Agent SDK's stream-json protocol, the terminal and subagents
 * drive the same service.
 *
 * - SessionStart hooks run once, before the first prompt (their context joins it); SessionEnd hooks once, with the
 *   last prompt (`endsSession`), by `end`, or when the Session's scope closes.
 * - The transcript is one chain across prompts; each prompt's Result comes after its entries are flushed.
 * - `interrupt` ends the turn in flight gracefully (Agent's abort): the request is cancelled, processes are killed,
 *   every tool call is answered, a pending permission ask is withdrawn, the Result says "Interrupted", and the
 *   history kept is valid for the next prompt.
 * - The host answers permission asks either with a function (`prompter`) or, with `prompter: "host"`, later through
 *   `answerPermission` (a PermissionAsked event says what is asked).
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as EffectResult from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { AgentEvent, Result } from "../domain/AgentEvent.js"
import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "../domain/Content.js"
import type { MessageParam } from "../domain/Message.js"
import { Environment } from "../context/Environment.js"
import { Memory } from "../context/Memory.js"
import * as SystemPrompt from "../context/SystemPrompt.js"
import { Hooks, type Handlers, makeLive } from "../hooks/Hooks.js"
import { McpClient, type ServerStatus } from "../mcp/McpClient.js"
import { ApiClient } from "../model/ApiClient.js"
import { type PermissionMode, Permissions } from "../permissions/Permissions.js"
import { Prompter, type PromptAnswer } from "../permissions/Prompter.js"
import type { Behavior } from "../permissions/Rules.js"
import type { PermissionUpdateDestination } from "../domain/AgentEvent.js"
import * as Uuid from "../platform/Uuid.js"
import type * as SessionState from "../session/SessionState.js"
import * as UsageTotals from "../domain/UsageTotals.js"
import { erase } from "../tools/Tool.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import type * as AgentDefinitions from "../extensions/AgentDefinitions.js"
import * as Agent from "./Agent.js"
import * as PlanMode from "./PlanMode.js"
import * as Subagents from "./Subagents.js"
import * as ToolExecution from "./ToolExecution.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import { Transcript } from "./Transcript.js"

export type Prompt = string | ReadonlyArray<ContentBlock>

export interface Options {
  readonly cwd: string
  /**
   * The whole system prompt; default SystemPrompt.build from the Environment, the Memory and the tools (the context
   * must have an Environment for that).
   */
  readonly systemPrompt?: string
  /** Text appended to the default system prompt. */
  readonly appendSystemPrompt?: string
  /** The model at the start; default the ApiClient's. */
  readonly model?: string
  /** Model requests allowed per prompt. */
  readonly maxTurns?: number
  readonly maxTokens?: number
  /** The session's id; default a new one. */
  readonly sessionId?: string
  /** Going on with a recorded session: its history and the entry the transcript goes on after. */
  readonly resume?: { readonly history: ReadonlyArray<MessageParam>; readonly leafUuid: string | null; readonly costUSD?: number }
  /** Emit StreamDelta (and TextDelta / ThinkingDelta) events as the model's answer arrives (default true). */
  readonly streamDeltas?: boolean
  readonly promptCaching?: boolean
  /** Compact before a prompt's request when the context nears the window (default true). */
  readonly autoCompact?: boolean
  readonly contextWindow?: number
  /**
   * Who answers permission asks: a Prompter (an Effect function: the host's UI, an SDK's `can_use_tool`), or
   * "host": each ask waits until `answerPermission` answers it. Default: the Prompter Permissions was made with
   * (nobody, under `weft -p`: an ask is a denial the model reads).
   */
  readonly prompter?: Prompter["Service"] | "host"
  /**
   * Emit the events a host renders (default true): TextDelta / ThinkingDelta, each tool call's start and end,
   * permission asks and answers, CompactionStarted. `weft -p` turns them off (its output has no use for them).
   */
  readonly hostEvents?: boolean
  /**
   * The agents the Agent tool offers (AgentDefinitions.load: built-ins, files, `--agents`); none or empty: no
   * Agent tool. Subagents.ts says how a child runs.
   */
  readonly agents?: ReadonlyArray<AgentDefinitions.Definition>
  /** The folder of the session's transcripts, where each subagent's goes (`<session>/subagents/`); none: unrecorded. */
  readonly subagentTranscriptDir?: string
  /** Redacts weft's credentials from what a subagent's transcript records. */
  readonly redact?: (text: string) => string
  /** How many subagents run at once (default Subagents.defaultMaxConcurrent). */
  readonly maxConcurrentSubagents?: number
  /**
   * Offer ExitPlanMode (PlanMode.ts): leaving plan mode is a question to the host. Only where someone answers
   * asks (the SDK's `--permission-prompt-tool stdio`); under `weft -p` it is not offered, as in Claude Code.
   */
  readonly exitPlanMode?: boolean
}

export interface SubmitOptions {
  /** The session ends with this prompt: SessionEnd hooks run before its Result (`weft -p`). */
  readonly endsSession?: boolean
  /**
   * This prompt's own graceful stop, beside `interrupt` (completing it before the turn starts stops it at once:
   * `weft -p`'s Ctrl-C while the session is still starting).
   */
  readonly abort?: Deferred.Deferred<void>
  /**
   * Texts for the model after the prompt, in its message, as system reminders (the skills listing, a note on an
   * unknown command): not the user's words, so UserPromptSubmit hooks do not see them.
   */
  readonly reminders?: ReadonlyArray<string>
  /**
   * Runs when the prompt's turn begins (after the turns before it, under the session's services and its host's
   * Prompter): what the turn sends instead of the prompt (a custom command expanded), more reminders, and a model
   * for this turn alone (the session's is back after it, unless it was changed meanwhile). A failure answers the
   * prompt with an error Result naming why, before any request; the session goes on.
   */
  readonly prepare?: Effect.Effect<PreparedPrompt, { readonly message: string }>
  /** The model of this prompt's requests (a custom command's `model`); the session's stays for the next ones. */
  readonly model?: string
}

/** What `SubmitOptions.prepare` makes of a prompt. */
export interface PreparedPrompt {
  readonly prompt: Prompt
  readonly reminders: ReadonlyArray<string>
  readonly model?: string
}

/** A prompt accepted: its number (TurnStarted / TurnEnded carry it) and its Result once answered. */
export interface Turn {
  readonly id: number
  readonly result: Effect.Effect<Result>
}

export interface Status {
  readonly sessionId: string
  readonly permissionMode: PermissionMode
  readonly model: string
  /** A turn is in flight. */
  readonly busy: boolean
  /** Prompts waiting behind it. */
  readonly queued: number
  readonly totals: SessionState.Totals
  readonly contextTokens: number | undefined
  readonly servers: ReadonlyArray<ServerStatus>
  readonly ended: boolean
}

/** Where rules added at run time are kept: the session only, or the settings file of a scope. */
export type RuleDestination = PermissionUpdateDestination

/** A request the session cannot honour: it ended, or what was asked is not possible (a mode settings disable). */
export class SessionError extends Data.TaggedError("SessionError")<{ readonly message: string }> {}

export interface Interface {
  readonly sessionId: string
  /** Queues a prompt; it is answered after the ones before it. */
  readonly submit: (prompt: Prompt, options?: SubmitOptions) => Effect.Effect<Turn, SessionError>
  /** Everything that happens from the moment the stream is run, every prompt's events in order. */
  readonly events: Stream.Stream<AgentEvent>
  /** The same, subscribed at once: nothing emitted after this Effect is missed, however late the stream runs. */
  readonly subscribe: Effect.Effect<Stream.Stream<AgentEvent>, never, Scope.Scope>
  /** Ends the turn in flight (see the module doc); nothing when idle. Queued prompts still run. */
  readonly interrupt: Effect.Effect<void>
  /**
   * Runs one tool call on the user's behalf (a host's `!cmd`: Bash), queued like a prompt: the same path as a
   * call of the model (ToolExecution: PreToolUse hooks, the permission rules and the host's Prompter, the tool,
   * PostToolUse hooks), its ToolStarted / ToolEnded events emitted, `interrupt` stopping it (its processes killed).
   * The history is not touched: the host decides what of the result goes with its next prompt.
   */
  readonly runTool: (toolName: string, input: Readonly<Record<string, unknown>>) => Effect.Effect<ToolResultBlock, SessionError>
  /** Compacts the conversation now (queued like a prompt), with `instructions` for the summary. */
  readonly compact: (instructions?: string) => Effect.Effect<void, SessionError>
  readonly setPermissionMode: (mode: PermissionMode) => Effect.Effect<void, SessionError>
  /** The model of the next requests (undefined: the default one). */
  readonly setModel: (model: string | undefined) => Effect.Effect<void>
  /**
   * Rules (`Bash(npm test)`, `Read(./src/**)`, ...) for the rest of the session, and kept where `destination`
   * says: a settings file is rewritten atomically, its other keys kept.
   */
  readonly addRules: (rules: ReadonlyArray<string>, behavior: Behavior, destination: RuleDestination) => Effect.Effect<void, SessionError>
  /** The conversation as the next request will send it. */
  readonly history: Effect.Effect<ReadonlyArray<MessageParam>>
  readonly status: Effect.Effect<Status>
  /** Answers a pending ask (`prompter: "host"`); false when none waits under that tool_use_id. */
  readonly answerPermission: (toolUseId: string, answer: PromptAnswer) => Effect.Effect<boolean>
  /** Adds hooks (a host's callbacks) beside the session's, until the scope closes. */
  readonly registerHooks: (handlers: Handlers) => Effect.Effect<void, never, Scope.Scope>
  /** Ends the session: the turn in flight interrupted, SessionEnd hooks (once), the transcript flushed. */
  readonly end: (reason?: string) => Effect.Effect<void>
}

/** The Result of a prompt that was not answered (the session ended first). */
const notAnswered = (sessionId: string, text: string): Result => ({
  _tag: "Result",
  subtype: "error_during_execution",
  isError: true,
  result: text,
  numTurns: 0,
  durationMs: 0,
  durationApiMs: 0,
  totalCostUsd: 0,
  usage: UsageTotals.zero,
  modelUsage: {},
  sessionId,
  permissionDenials: []
})

/** Events waiting for a slow subscriber before the session waits for it (raw stream events dominate). */
const eventBuffer = 256

type Job =
  | {
      readonly _tag: "Prompt"
      readonly id: number
      readonly prompt: Prompt
      readonly endsSession: boolean
      readonly abort: Deferred.Deferred<void> | undefined
      readonly reminders: ReadonlyArray<string>
      readonly prepare: SubmitOptions["prepare"]
      readonly model: string | undefined
      readonly done: Deferred.Deferred<Result>
    }
  | { readonly _tag: "Compact"; readonly id: number; readonly instructions: string | undefined; readonly done: Deferred.Deferred<void, SessionError> }
  | {
      readonly _tag: "Tool"
      readonly id: number
      readonly use: ToolUseBlock
      readonly done: Deferred.Deferred<ToolResultBlock>
    }

/**
 * The Session over the services in context: the model, the tools, the permissions, the hooks and the transcript;
 * the MCP client, the Environment and the Memory when the context has them (the default system prompt is built
 * from the last two; without them it is `systemPrompt` alone).
 */
export const make = (options: Options): Effect.Effect<
  Interface,
  never,
  Scope.Scope | ApiClient | Permissions | Hooks | ToolRegistry | Transcript
> =>
  Effect.gen(function* () {
    const api = yield* ApiClient
    const permissions = yield* Permissions
    const registry = yield* ToolRegistry
    const mcp = Option.getOrElse(yield* Effect.serviceOption(McpClient), () => McpClient.none)
    const environment = yield* Effect.serviceOption(Environment)
    const memory = yield* Effect.serviceOption(Memory)
    // What the model should know about the command sandbox, when the session has one.
    const sandboxNote = Option.getOrUndefined(yield* Effect.serviceOption(Sandbox))?.note
    const live = yield* makeLive(yield* Hooks)
    const transcript = yield* Transcript
    const sessionId = options.sessionId ?? (yield* Uuid.v4)
    const model = yield* Ref.make<string | undefined>(options.model)
    const pending = options.prompter === "host" ? yield* Prompter.makePending : undefined
    const prompter = options.prompter === "host" ? pending : options.prompter
    const currentModel = Effect.map(Ref.get(model), (wanted) => api.resolveModel(wanted ?? api.defaultModel))

    const events = yield* PubSub.bounded<AgentEvent>(eventBuffer)
    const publish = (event: AgentEvent) => PubSub.publish(events, event).pipe(Effect.asVoid)
    // With asks answered through `answerPermission`, an ask is expected as soon as its event goes out (the host
    // may answer before the ask reaches the Prompter), and forgotten once answered.
    const emit =
      pending === undefined
        ? publish
        : (event: AgentEvent) =>
            event._tag === "PermissionAsked"
              ? Effect.andThen(pending.expect(event.toolUseId), publish(event))
              : event._tag === "PermissionAnswered"
                ? Effect.andThen(pending.forget(event.toolUseId), publish(event))
                : publish(event)
    // The Agent tool, when the session has agents: children over the session's services (Subagents.ts).
    const subagents =
      options.agents === undefined || options.agents.length === 0
        ? undefined
        : yield* Subagents.make({
            definitions: options.agents,
            cwd: options.cwd,
            sessionId,
            registry,
            permissions,
            hooks: live.hooks,
            ...(prompter === undefined ? {} : { prompter }),
            api,
            parentModel: currentModel,
            emit,
            ...(options.subagentTranscriptDir === undefined ? {} : { transcriptDir: options.subagentTranscriptDir }),
            ...(options.redact === undefined ? {} : { redact: options.redact }),
            ...(options.maxConcurrentSubagents === undefined ? {} : { maxConcurrent: options.maxConcurrentSubagents }),
            streamDeltas: options.streamDeltas ?? true,
            hostEvents: options.prompter === "host" || (options.hostEvents ?? true),
            ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
            ...(options.promptCaching === undefined ? {} : { promptCaching: options.promptCaching })
          })
    const withAgents = subagents === undefined ? registry : Subagents.withTool(registry, subagents.tool, [Subagents.legacyToolName])
    const sessionRegistry =
      options.exitPlanMode === true
        ? Subagents.withTool(
            withAgents,
            erase(
              PlanMode.exitPlanModeTool(Effect.suspend(() => service.setPermissionMode("default"))),
              (stream) => stream
            )
          )
        : withAgents
    // Built again when the session is announced: the MCP servers have connected by then, and their instructions
    // are part of it.
    const buildSystemPrompt = () =>
      environment._tag === "Some"
        ? SystemPrompt.build({
            environment: environment.value,
            memory: memory._tag === "Some" ? memory.value.files : [],
            toolNames: sessionRegistry.tools.map((tool) => tool.name),
            mcpInstructions: mcp.instructions(),
            ...(sandboxNote === undefined ? {} : { sandboxNote }),
            ...(options.systemPrompt === undefined ? {} : { customSystemPrompt: options.systemPrompt }),
            ...(options.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: options.appendSystemPrompt })
          })
        : [options.systemPrompt ?? "", options.appendSystemPrompt ?? ""].filter((part) => part !== "").join("\n\n")
    // Built when first needed: the first prompt's announcement builds it (after the MCP servers connected).
    let systemPrompt: string | undefined
    const conversation = yield* Ref.make<Agent.Conversation>({
      ...Agent.emptyConversation,
      history: options.resume?.history ?? []
    })
    // The turn in flight: its graceful stop, and a signal once it is over.
    const inFlight = yield* Ref.make<{ readonly abort: Deferred.Deferred<void>; readonly over: Deferred.Deferred<void> } | undefined>(undefined)
    const queued = yield* Ref.make(0)
    const nextId = yield* Ref.make(1)
    // undefined until the first prompt announces the session.
    const announced = yield* Ref.make<Agent.Started | undefined>(undefined)
    // No more prompts are taken (the last one was submitted, or `end` began).
    const ended = yield* Ref.make(false)
    // SessionEnd hooks have run (they run once).
    const hooksEnded = yield* Ref.make(false)
    const jobs = yield* Queue.unbounded<Job>()

    const runOptions = (
      prompt: Prompt,
      abort: Deferred.Deferred<void>,
      reminders: ReadonlyArray<string> = [],
      promptModel?: string
    ): Agent.RunOptions & { readonly sessionId: string } => ({
      prompt,
      ...(reminders.length === 0 ? {} : { reminders }),
      ...(subagents === undefined ? {} : { awaitTasks: subagents.awaitTasks }),
      cwd: options.cwd,
      systemPrompt: (systemPrompt ??= buildSystemPrompt()),
      sessionId,
      abort,
      currentModel: promptModel === undefined ? Ref.get(model) : Effect.succeed(promptModel),
      // Asks answered through `answerPermission` need their events.
      hostEvents: options.prompter === "host" || (options.hostEvents ?? true),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.streamDeltas === undefined ? {} : { streamDeltas: options.streamDeltas }),
      ...(options.promptCaching === undefined ? {} : { promptCaching: options.promptCaching }),
      ...(options.autoCompact === undefined ? {} : { autoCompact: options.autoCompact }),
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      ...(options.resume === undefined ? {} : { history: options.resume.history, resume: {
              leafUuid: options.resume.leafUuid,
              ...(options.resume.costUSD === undefined ? {} : { costUSD: options.resume.costUSD })
            }
          })
    })

    /**
     * What the model is told beside a prompt: the agents it may call (with the conversation's first prompt: a
     * resumed one has them in its history already), and that plan mode is active (with every prompt made in it).
     */
    const remindersFor = (first: boolean): ReadonlyArray<string> => [
      ...(first && subagents !== undefined ? [subagents.listing] : []),
      ...(permissions.mode === "plan" ? [PlanMode.reminder] : [])
    ]

    /** What a turn runs under: the live hooks, the tools (the Agent tool too), and the host's Prompter when it has one. */
    const withSessionServices = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
      const withHooks = Effect.provideService(Effect.provideService(effect, ToolRegistry, sessionRegistry), Hooks, live.hooks)
      return prompter === undefined ? withHooks : Effect.provideService(withHooks, Prompter, prompter)
    }

    const announce = (prompt: Prompt, abort: Deferred.Deferred<void>) =>
      Effect.gen(function* () {
        const already = yield* Ref.get(announced)
        if (already !== undefined) return undefined
        const servers = yield* mcp.servers
        systemPrompt = buildSystemPrompt()
        const started = yield* Agent.announceSession(
          { ...runOptions(prompt, abort), mcpServers: servers.map((server) => ({ name: server.name, status: server.status })) },
          emit
        )
        yield* Ref.set(announced, started)
        return started
      })

    /**
     * Runs a turn with `abort` as its graceful stop (`interrupt`), and says whether it was interrupted. `prelude`
     * runs in flight before the turn is announced as started (a prompt's preparation: the model it sets is the one
     * the turn's start reports).
     */
    const inFlightWith = <P, A, R>(
      id: number,
      kind: "prompt" | "compact" | "tool",
      given: Deferred.Deferred<void> | undefined,
      prelude: (abort: Deferred.Deferred<void>) => Effect.Effect<P, never, R>,
      body: (abort: Deferred.Deferred<void>, prepared: P) => Effect.Effect<A, never, R>
    ) =>
      Effect.gen(function* () {
        const abort = given ?? (yield* Deferred.make<void>())
        const over = yield* Deferred.make<void>()
        yield* Ref.set(inFlight, { abort, over })
        const value = yield* Effect.gen(function* () {
          const prepared = yield* prelude(abort)
          yield* emit({ _tag: "TurnStarted", turnId: id, kind })
          return yield* body(abort, prepared)
        }).pipe(Effect.ensuring(Ref.set(inFlight, undefined).pipe(Effect.andThen(Deferred.succeed(over, undefined)))))
        return { value, interrupted: yield* Deferred.isDone(abort) }
      })

    /**
     * A prompt's preparation (SubmitOptions.prepare), stopped by the turn's abort; its model set for the turn
     * (`restore` puts the session's back). A refusal is the message for the prompt's error Result.
     */
    const preparePrompt = (job: Extract<Job, { _tag: "Prompt" }>, abort: Deferred.Deferred<void>) =>
      Effect.gen(function* () {
        const given: PreparedPrompt = { prompt: job.prompt, reminders: [] }
        if (job.prepare === undefined) return EffectResult.succeed({ prepared: given, restore: Effect.void })
        const stopped = Effect.andThen(Deferred.await(abort), Effect.fail({ message: "The prompt was interrupted before it was sent." }))
        const outcome = yield* Effect.result(Effect.raceFirst(job.prepare, stopped))
        if (outcome._tag === "Failure") return EffectResult.fail(outcome.failure.message)
        const prepared = outcome.success
        const turnModel = prepared.model
        if (turnModel === undefined) return EffectResult.succeed({ prepared, restore: Effect.void })
        const before = yield* Ref.getAndSet(model, turnModel)
        yield* emit({ _tag: "ModelChanged", model: yield* currentModel })
        // Unless the host chose another model during the turn, the session's comes back.
        const restore = Effect.gen(function* () {
          if ((yield* Ref.get(model)) !== turnModel) return
          yield* Ref.set(model, before)
          yield* emit({ _tag: "ModelChanged", model: yield* currentModel })
        })
        return EffectResult.succeed({ prepared, restore })
      })

    const runPrompt = (job: Extract<Job, { _tag: "Prompt" }>) =>
      Effect.gen(function* () {
        const prelude = (abort: Deferred.Deferred<void>) => preparePrompt(job, abort)
        const { value: answered, interrupted } = yield* inFlightWith(job.id, "prompt", job.abort, prelude, (abort, preparation) =>
          Effect.gen(function* () {
            if (preparation._tag === "Failure") {
              // Refused before any request: the prompt's answer is the reason; nothing enters the conversation.
              const refused = notAnswered(sessionId, preparation.failure)
              yield* emit(refused)
              return { result: refused, endsSession: false, refused: true }
            }
            const { prepared, restore } = preparation.success
            const first = (yield* Ref.get(conversation)).history.length === 0
            const started = yield* announce(prepared.prompt, abort)
            // After the announcement, which settles the system prompt.
            const turnOptions = runOptions(prepared.prompt, abort, [...remindersFor(first), ...job.reminders, ...prepared.reminders], job.model)
            const endsSession = job.endsSession || started?.stopRun !== undefined
            const turnEnd = yield* Agent.runTurn(turnOptions, yield* Ref.get(conversation), {
              ...(started === undefined ? {} : { started }),
              endSession: endsSession,
              emit
            }).pipe(Effect.ensuring(restore))
            yield* Ref.set(conversation, turnEnd.conversation)
            if (endsSession) {
              yield* Ref.set(ended, true)
              yield* Ref.set(hooksEnded, true)
            }
            return { result: turnEnd.result, endsSession, refused: false }
          })
        )
        yield* emit({ _tag: "TurnEnded", turnId: job.id, interrupted })
        if (answered.endsSession) yield* emit({ _tag: "SessionEnded", sessionId, reason: "other" })
        yield* Deferred.succeed(job.done, answered.result)
        // A last prompt refused still ends the session (its SessionEnd hooks, when it had begun).
        if (answered.refused && job.endsSession) yield* end("other")
      })

    const runCompact = (job: Extract<Job, { _tag: "Compact" }>) =>
      Effect.gen(function* () {
        const { value: compacted, interrupted } = yield* inFlightWith(job.id, "compact", undefined, () => Effect.void, (abort) =>
          Effect.gen(function* () {
            const outcome = yield* Agent.compactConversation(runOptions("", abort), yield* Ref.get(conversation), {
              ...(job.instructions === undefined ? {} : { instructions: job.instructions }),
              emit
            })
            yield* Ref.set(conversation, outcome.conversation)
            return outcome
          })
        )
        yield* emit({ _tag: "TurnEnded", turnId: job.id, interrupted })
        if (compacted.failure === undefined) yield* Deferred.succeed(job.done, undefined)
        else yield* Deferred.fail(job.done, new SessionError({ message: `Could not compact the conversation: ${compacted.failure}` }))
      })

    const runToolJob = (job: Extract<Job, { _tag: "Tool" }>) =>
      Effect.gen(function* () {
        const { value: block, interrupted } = yield* inFlightWith(job.id, "tool", undefined, () => Effect.void, (abort) =>
          Effect.raceFirst(
            ToolExecution.executeCall(job.use, { sessionId, cwd: options.cwd, emit, detail: emit }).pipe(
              Effect.map((outcome) => outcome.block),
              Effect.catch((error) => Effect.succeed(ToolExecution.failedOutcome(job.use.id, "failed", error.message).block))
            ),
            // Interrupted: the call's fiber is interrupted (its processes killed) and answered as cancelled.
            Deferred.await(abort).pipe(
              Effect.map(() => ToolExecution.failedOutcome(job.use.id, "cancelled", ToolExecution.cancelledMessage).block),
              Effect.tap((block) =>
                emit({ _tag: "ToolEnded", toolUseId: job.use.id, toolName: job.use.name, isError: true, result: block, failure: { kind: "cancelled", message: ToolExecution.cancelledMessage } })
              )
            )
          )
        )
        yield* emit({ _tag: "TurnEnded", turnId: job.id, interrupted })
        yield* Deferred.succeed(job.done, block)
      })

    /** A job the session will not carry out: it ended first, or the job broke (a bug). */
    const dropped = (job: Job, why = "the session ended first") =>
      job._tag === "Prompt"
        ? Deferred.succeed(job.done, notAnswered(sessionId, `This prompt was not answered: ${why}.`))
        : job._tag === "Tool"
          ? Deferred.succeed(job.done, ToolExecution.failedOutcome(job.use.id, "cancelled", `This call did not run: ${why}.`).block)
          : Deferred.fail(job.done, new SessionError({ message: `The conversation was not compacted: ${why}.` }))

    const runJob = (job: Job) =>
      Effect.gen(function* () {
        yield* Ref.update(queued, (n) => n - 1)
        if (yield* Ref.get(ended)) return yield* dropped(job)
        yield* withSessionServices(job._tag === "Prompt" ? runPrompt(job) : job._tag === "Tool" ? runToolJob(job) : runCompact(job))
      }).pipe(
        // Whoever waits for the job is answered however it ends; a defect does not stop the session.
        Effect.onExit((exit) =>
          Exit.isSuccess(exit)
            ? Effect.void
            : dropped(job, Cause.hasInterruptsOnly(exit.cause) ? "the session ended first" : `internal error: ${Cause.pretty(exit.cause)}`)
        ),
        Effect.catchDefect((defect) => Effect.logError(`weft: a session turn failed: ${String(defect)}`))
      )

    // Closing the scope: the worker is interrupted first (a turn in flight stops at once, its processes killed;
    // the prompts still queued are answered as not answered), then the session ends (SessionEnd hooks, once). A
    // host that wants the turn to end gracefully calls `end` first.
    yield* Effect.addFinalizer(() => end("other"))
    yield* Queue.take(jobs).pipe(
      Effect.flatMap(runJob),
      Effect.forever,
      Effect.onInterrupt(() => Effect.flatMap(Queue.clear(jobs), (left) => Effect.forEach(left, (job) => dropped(job), { discard: true }))),
      Effect.forkScoped
    )

    const enqueue = <J extends Job>(make: (id: number) => J) =>
      Effect.gen(function* () {
        if (yield* Ref.get(ended)) return yield* new SessionError({ message: "The session has ended." })
        const id = yield* Ref.getAndUpdate(nextId, (n) => n + 1)
        const job = make(id)
        yield* Ref.update(queued, (n) => n + 1)
        yield* Queue.offer(jobs, job)
        return job
      })

    const interrupt = Effect.gen(function* () {
      const current = yield* Ref.get(inFlight)
      if (current !== undefined) yield* Deferred.succeed(current.abort, undefined)
      // The children of the interrupted turn end with it (a foreground one is interrupted with its call).
      if (subagents !== undefined) yield* subagents.stopAll
    })

    const end = Effect.fn("Session.end")(function* (reason: string = "other") {
      yield* Ref.set(ended, true)
      // The turn in flight ends gracefully (its Result still comes), and is waited for.
      const current = yield* Ref.get(inFlight)
      if (current !== undefined) {
        yield* Deferred.succeed(current.abort, undefined)
        yield* Deferred.await(current.over)
      }
      if (subagents !== undefined) yield* subagents.stopAll
      if ((yield* Ref.get(announced)) === undefined || (yield* Ref.getAndSet(hooksEnded, true))) return
      yield* withSessionServices(Agent.endSession(sessionId, options.cwd, reason, emit)).pipe(Effect.provideService(Transcript, transcript))
      yield* emit({ _tag: "SessionEnded", sessionId, reason })
    })

    const service: Interface = {
      sessionId,
      submit: Effect.fn("Session.submit")(function* (prompt: Prompt, submitOptions?: SubmitOptions) {
        const done = yield* Deferred.make<Result>()
        const job = yield* enqueue((id) => ({
          _tag: "Prompt" as const,
          id,
          prompt,
          endsSession: submitOptions?.endsSession === true,
          abort: submitOptions?.abort,
          reminders: submitOptions?.reminders ?? [],
          prepare: submitOptions?.prepare,
          model: submitOptions?.model,
          done
        }))
        const turn: Turn = { id: job.id, result: Deferred.await(done) }
        return turn
      }),
      events: Stream.fromPubSub(events),
      subscribe: Effect.map(PubSub.subscribe(events), Stream.fromSubscription),
      interrupt,
      runTool: Effect.fn("Session.runTool")(function* (toolName: string, input: Readonly<Record<string, unknown>>) {
        const done = yield* Deferred.make<ToolResultBlock>()
        const use: ToolUseBlock = { type: "tool_use", id: `toolu_user_${(yield* Uuid.v4).replace(/-/g, "")}`, name: toolName, input }
        yield* enqueue((id) => ({ _tag: "Tool" as const, id, use, done }))
        return yield* Deferred.await(done)
      }),
      compact: Effect.fn("Session.compact")(function* (instructions?: string) {
        const done = yield* Deferred.make<void, SessionError>()
        yield* enqueue((id) => ({ _tag: "Compact" as const, id, instructions, done }))
        yield* Deferred.await(done)
      }),
      setPermissionMode: Effect.fn("Session.setPermissionMode")(function* (mode: PermissionMode) {
        if (permissions.setMode === undefined) {
          return yield* new SessionError({ message: "These permissions cannot change their mode." })
        }
        yield* permissions.setMode(mode).pipe(Effect.mapError((error) => new SessionError({ message: error.message })))
        yield* emit({ _tag: "PermissionModeChanged", mode })
      }),
      setModel: Effect.fn("Session.setModel")(function* (wanted: string | undefined) {
        yield* Ref.set(model, wanted)
        yield* emit({ _tag: "ModelChanged", model: yield* currentModel })
      }),
      addRules: Effect.fn("Session.addRules")(function* (rules: ReadonlyArray<string>, behavior: Behavior, destination: RuleDestination) {
        if (permissions.addRules === undefined) {
          return yield* new SessionError({ message: "These permissions cannot take rules at run time." })
        }
        yield* permissions.addRules(rules, behavior, destination).pipe(Effect.mapError((error) => new SessionError({ message: error.message })))
      }),
      history: Effect.map(Ref.get(conversation), (current) => current.history),
      status: Effect.gen(function* () {
        const current = yield* Ref.get(conversation)
        const status: Status = {
          sessionId,
          permissionMode: permissions.mode,
          model: yield* currentModel,
          busy: (yield* Ref.get(inFlight)) !== undefined,
          queued: yield* Ref.get(queued),
          totals: current.totals,
          contextTokens: current.contextTokens,
          servers: yield* mcp.servers,
          ended: yield* Ref.get(ended)
        }
        return status
      }),
      answerPermission: (toolUseId, answer) => (pending === undefined ? Effect.succeed(false) : pending.answer(toolUseId, answer)),
      registerHooks: live.register,
      end: (reason) => end(reason)
    }
    return service
  })

export class Session extends Context.Service<Session, Interface>()("weft/Session") {
  static make = make
  /** `make` as a layer: the session ends (SessionEnd hooks) when the layer's scope closes. */
  static layer = (options: Options) => Layer.effect(Session, make(options))
}

export const layer = Session.layer
