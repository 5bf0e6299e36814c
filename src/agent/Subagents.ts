/**
 * Subagents: the `Agent` tool (Claude Code's, also called as `Task`) runs a child conversation in its own scope.
 *
 * A child is one `Agent.runTurn` on an empty conversation, not a second Session: a Session brings what a child
 * must not have (a prompt queue, SessionStart / SessionEnd hooks, its own event hub and transcript chain), while a
 * turn over the session's own services, a few of them narrowed, is exactly a child:
 *   - history: none of the parent's; its system prompt is the agent's body; its first message the call's prompt;
 *   - tools: the session's registry filtered to the agent's list (another tool "does not exist" for it), never the
 *     Agent tool itself;
 *   - model: the call's, else the agent's, else the session's model in force;
 *   - permissions: the session's (its rules, those added later, its Prompter); Explore and Plan see them in plan
 *     mode, so only reads and read-only commands run;
 *   - hooks: the session's; tool hooks carry `agent_id` / `agent_type`, its stop is SubagentStop, and it neither
 *     starts nor ends the session;
 *   - transcript: its own file, `<sessions>/<session>/subagents/agent-<id>.jsonl`;
 *   - events: wrapped (SubagentEvent) into the parent's stream, so a renderer tells them by `parentToolUseId`;
 *     permission asks and answers go out as they are, so a host answers a child's ask as any other.
 * A foreground call's fiber is the parent's tool call: interrupting the parent interrupts the child, which ends
 * its processes. Background children are forked into the session's scope and stopped by `stopAll` (the parent's
 * interrupt) or when the scope closes. Every child holds one permit of a semaphore: at most `maxConcurrent` run at
 * once, whatever the number of calls.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Ref from "effect/Ref"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import { appendFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import type { AgentEvent, Result as AgentResult } from "../domain/AgentEvent.js"
import * as Content from "../domain/ContentGuards.js"
import { isRecord } from "../domain/Json.js"
import type { Definition } from "../extensions/AgentDefinitions.js"
import { listing } from "../extensions/AgentDefinitions.js"
import { Hooks, type Interface as HooksInterface } from "../hooks/Hooks.js"
import { ApiClient } from "../model/ApiClient.js"
import * as Pricing from "../model/Pricing.js"
import { Permissions } from "../permissions/Permissions.js"
import { Prompter } from "../permissions/Prompter.js"
import * as Uuid from "../platform/Uuid.js"
import { type AnyTool, InvalidToolInput, type SpentResponse, type ToolResult } from "../tools/Tool.js"
import { filterTools, type Interface as Registry, ToolRegistry } from "../tools/ToolRegistry.js"
import * as Agent from "./Agent.js"
import * as HookReport from "./HookReport.js"
import { Transcript, type Interface as TranscriptInterface, none as TranscriptNone } from "./Transcript.js"

export const toolName = "Agent"
/** Claude Code's former name of the tool, still accepted in calls, rules and matchers. */
export const legacyToolName = "Task"

/** How many children run at once by default (more calls wait for a permit). */
export const defaultMaxConcurrent = 10

export interface Options {
  readonly definitions: ReadonlyArray<Definition>
  readonly cwd: string
  readonly sessionId: string
  /** The session's tools (the Agent tool is never among a child's). */
  readonly registry: Registry
  readonly permissions: Permissions["Service"]
  /** The session's hooks (live: a host's registered ones too). */
  readonly hooks: HooksInterface
  /** Who answers a child's permission asks (the session's host), when not the Permissions' own. */
  readonly prompter?: Prompter["Service"]
  readonly api: ApiClient["Service"]
  /** The session's model in force (a child without a model of its own uses it). */
  readonly parentModel: Effect.Effect<string>
  /** Where the parent's events go (the children's are wrapped in SubagentEvent). */
  readonly emit: (event: AgentEvent) => Effect.Effect<void>
  /** The folder of the session's transcripts; undefined: children are not recorded. */
  readonly transcriptDir?: string
  /** Redacts weft's credentials from what a child's transcript records. */
  readonly redact?: (text: string) => string
  readonly maxConcurrent?: number
  readonly streamDeltas?: boolean
  readonly hostEvents?: boolean
  readonly maxTokens?: number
  readonly promptCaching?: boolean
}

export interface Interface {
  /** The Agent tool. */
  readonly tool: AnyTool
  /** The agents, as the model reads their list. */
  readonly listing: string
  /** Background children still running: waited for, answered as one task-notification message (undefined: none). */
  readonly awaitTasks: Effect.Effect<Agent.Notified | undefined>
  /** Ends every background child (the parent was interrupted). */
  readonly stopAll: Effect.Effect<void>
}

/** A call's input, decoded. */
export interface Input {
  readonly description: string
  readonly prompt: string
  readonly subagent_type?: string
  readonly model?: string
  readonly run_in_background?: boolean
}

const inputSchema: Record<string, unknown> = {
  type: "object",
  properties: {
    description: { type: "string", description: "A short (3-5 word) description of the task" },
    prompt: { type: "string", description: "The task for the agent to perform" },
    subagent_type: { type: "string", description: "The type of specialized agent to use for this task" },
    model: {
      type: "string",
      enum: ["sonnet", "opus", "haiku", "inherit"],
      description: "Optional model for this agent; default the agent's, else the caller's."
    },
    effort: { type: "string", enum: ["low", "medium", "high"], description: "Optional effort for this agent." },
    run_in_background: {
      type: "boolean",
      description: "Run the agent in the background (the default): you are notified when it completes. false: wait for its answer."
    },
    isolation: { type: "string", enum: ["worktree"], description: "Not supported by weft." }
  },
  required: ["description", "prompt"],
  additionalProperties: false
}

const known = new Set(Object.keys(isRecord(inputSchema["properties"]) ? inputSchema["properties"] : {}))

/** The input as the schema says, or why not (for the model). */
export const decodeInput = (raw: unknown): Input | string => {
  if (!isRecord(raw)) return "expected a JSON object"
  const extra = Object.keys(raw).filter((key) => !known.has(key))
  if (extra.length > 0) return `unknown field(s) ${extra.join(", ")}`
  const { description, prompt, subagent_type, model, run_in_background, isolation } = raw
  if (typeof description !== "string") return "description: expected a string"
  if (typeof prompt !== "string" || prompt.trim() === "") return "prompt: expected a non-empty string"
  if (subagent_type !== undefined && typeof subagent_type !== "string") return "subagent_type: expected a string"
  if (model !== undefined && typeof model !== "string") return "model: expected a string"
  if (run_in_background !== undefined && typeof run_in_background !== "boolean") return "run_in_background: expected a boolean"
  if (isolation !== undefined) return "isolation is not supported"
  return {
    description,
    prompt,
    ...(typeof subagent_type === "string" ? { subagent_type } : {}),
    ...(typeof model === "string" ? { model } : {}),
    ...(typeof run_in_background === "boolean" ? { run_in_background } : {})
  }
}

/** The tool's description; the agents themselves are listed beside the first prompt (`listing`), as Claude Code does. */
const description = () =>
  [
    "Launch a new agent to handle complex, multi-step tasks autonomously. Each agent type has its own tools and " +
      "instructions (the available agent types are listed in a system reminder); the agent starts with none of this " +
      "conversation, so the prompt must say everything it needs.",
    "",
    "Usage notes:",
    "- Launch several agents at once when tasks are independent: several Agent calls in one message run concurrently.",
    "- run_in_background (default true) returns at once; you are told the agent's result in a <task-notification> " +
      "when it completes. With run_in_background: false the call returns the agent's final message.",
    "- The agent's result is not shown to the user: summarize it for them."
  ].join("\n")

/** Tool names of a definition's list (`Bash(git log:*)` names Bash). */
const toolNamesOf = (list: ReadonlyArray<string>) => new Set(list.map((entry) => entry.replace(/\(.*$/, "").trim()))

/** The child's tools: the agent's list (every tool when it names none or `*`), minus its disallowed, never Agent. */
const childRegistry = (registry: Registry, definition: Definition): Registry => {
  const wanted = definition.tools === undefined || definition.tools.includes("*") ? undefined : toolNamesOf(definition.tools)
  const removed = toolNamesOf(definition.disallowedTools ?? [])
  return filterTools(
    registry,
    (name) => name !== toolName && name !== legacyToolName && !removed.has(name) && (wanted === undefined || wanted.has(name))
  )
}

/** The session's hooks as a child sees them (see the module doc). */
const childHooks = (hooks: HooksInterface, agentId: string, agentType: string, transcriptPath: string | undefined): HooksInterface => {
  const tag = { agentId, agentType }
  return {
    ...hooks,
    sessionStart: () => Effect.succeed({}),
    sessionEnd: () => Effect.succeed({}),
    userPromptSubmit: () => Effect.succeed({}),
    preToolUse: (input) => hooks.preToolUse({ ...input, ...tag }),
    permissionRequest: (input) => hooks.permissionRequest({ ...input, ...tag }),
    postToolUse: (input) => hooks.postToolUse({ ...input, ...tag }),
    postToolUseFailure: (input) => hooks.postToolUseFailure({ ...input, ...tag }),
    notification: (input) => hooks.notification({ ...input, ...tag }),
    preCompact: (input) => hooks.preCompact({ ...input, ...tag }),
    stop: (input) =>
      hooks.subagentStop({ ...input, ...tag, ...(transcriptPath === undefined ? {} : { agentTranscriptPath: transcriptPath }) })
  }
}

/**
 * A child's transcript: its own JSONL file, entries chained as the session's are, written as they come (a child's
 * entries are few and small). A failure to write is logged once; the child goes on unrecorded.
 */
const fileTranscript = (path: string, sessionId: string, agentId: string, cwd: string, redact: (text: string) => string): TranscriptInterface => {
  let parent: string | null = null
  let failed = false
  const write = (fields: Readonly<Record<string, unknown>>) =>
    Effect.gen(function* () {
      const uuid = yield* Uuid.v4
      const entry = {
        ...fields,
        uuid,
        parentUuid: parent,
        isSidechain: true,
        agentId,
        sessionId,
        cwd,
        timestamp: new Date(yield* Clock.currentTimeMillis).toISOString()
      }
      parent = uuid
      if (!failed) {
        const error = yield* Effect.sync(() => {
          try {
            mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
            appendFileSync(path, `${redact(JSON.stringify(entry))}\n`, { mode: 0o600 })
            return undefined
          } catch (cause) {
            return cause instanceof Error ? cause.message : String(cause)
          }
        })
        if (error !== undefined) {
          failed = true
          yield* Effect.logWarning(`weft: could not record the subagent ${agentId} (${error}); going on without recording it.`)
        }
      }
      return uuid
    })
  return {
    user: (_, message, toolUseResult) => write({ type: "user", message, ...(toolUseResult === undefined ? {} : { toolUseResult }) }),
    assistant: (_, message, costUSD) => write({ type: "assistant", message, ...(costUSD === undefined ? {} : { costUSD }) }),
    system: (_, subtype, content, extra) => write({ ...extra, type: "system", subtype, content, level: "info" }),
    userWith: (_, message, extra) => write({ ...extra, type: "user", message }),
    setParent: (uuid) => Effect.sync(() => void (parent = uuid)),
    flush: Effect.void
  }
}

/** What a child's run came to. */
interface ChildEnd {
  readonly result: AgentResult
  readonly spent: ReadonlyArray<SpentResponse>
  readonly toolUses: number
}

const totalTokens = (result: AgentResult) =>
  result.usage.input_tokens +
  result.usage.output_tokens +
  (result.usage.cache_read_input_tokens ?? 0) +
  (result.usage.cache_creation_input_tokens ?? 0)

/** A foreground call's result, as Claude Code words it: the answer, the agent's id, what it used. */
const foregroundText = (agentId: string, end: ChildEnd) =>
  [
    end.result.result,
    "",
    `agentId: ${agentId} (the subagent's id)`,
    `<usage>total_tokens: ${totalTokens(end.result)}`,
    `tool_uses: ${end.toolUses}`,
    `duration_ms: ${end.result.durationMs}</usage>`
  ].join("\n")

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** A background child's end, as the model is told it. */
export const notification = (agentId: string, descriptionText: string, status: string, result: string) =>
  [
    "<task-notification>",
    `<task-id>${agentId}</task-id>`,
    `<status>${status}</status>`,
    `<summary>Agent "${escapeXml(descriptionText)}" ${status}</summary>`,
    `<result>${result}</result>`,
    "</task-notification>"
  ].join("\n")

interface Background {
  readonly agentId: string
  readonly description: string
  readonly done: Deferred.Deferred<ChildEnd>
  readonly fiber: Fiber.Fiber<void>
}

export const make = (options: Options): Effect.Effect<Interface, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Scope.Scope
    const permits = yield* Semaphore.make(Math.max(1, options.maxConcurrent ?? defaultMaxConcurrent))
    const background = yield* Ref.make<ReadonlyArray<Background>>([])
    const names = () => options.definitions.map((definition) => definition.name).join(", ")

    /** One child, start to end: SubagentStart, the turn, its Result (SubagentStop ran as its stop). */
    const runChild = (definition: Definition, input: Input, agentId: string, parentToolUseId: string, isBackground: boolean) =>
      Effect.gen(function* () {
        const transcriptPath =
          options.transcriptDir === undefined
            ? undefined
            : join(options.transcriptDir, options.sessionId, "subagents", `agent-${agentId}.jsonl`)
        const hooks = childHooks(options.hooks, agentId, definition.name, transcriptPath)
        const permissions =
          definition.planMode === true && options.permissions.inMode !== undefined ? options.permissions.inMode("plan") : options.permissions
        const spent: Array<SpentResponse> = []
        let toolUses = 0
        let tokens = 0
        let lastToolName: string | undefined
        const emit = (event: AgentEvent): Effect.Effect<void> => {
          if (event._tag === "AssistantTurn") {
            const model = event.message.model
            const usage = event.message.usage
            spent.push({ model, usage, costUSD: Pricing.costOf(model, usage) })
            const uses = event.message.content.filter(Content.isToolUse)
            toolUses += uses.length
            lastToolName = uses.at(-1)?.name ?? lastToolName
            tokens += usage.input_tokens + usage.output_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0)
          }
          // The child's Result is the tool's result, not the parent's: it is not passed on.
          if (event._tag === "Result") return Effect.void
          // Permission asks go out as they are: a host answers a child's ask as any other (by its tool_use_id).
          if (event._tag === "PermissionAsked" || event._tag === "PermissionAnswered") return options.emit(event)
          const wrapped = options.emit({ _tag: "SubagentEvent", parentToolUseId, agentId, agentType: definition.name, event })
          if (event._tag !== "ToolResults") return wrapped
          return Effect.andThen(
            wrapped,
            options.emit({
              _tag: "SubagentProgress",
              parentToolUseId,
              agentId,
              agentType: definition.name,
              description: input.description,
              toolUses,
              totalTokens: tokens,
              lastToolName
            })
          )
        }
        yield* options.emit({
          _tag: "SubagentStarted",
          parentToolUseId,
          agentId,
          agentType: definition.name,
          description: input.description,
          prompt: input.prompt,
          background: isBackground
        })
        const started = yield* options.hooks.subagentStart({
          sessionId: options.sessionId,
          cwd: options.cwd,
          permissionMode: permissions.mode,
          agentId,
          agentType: definition.name
        })
        yield* HookReport.report(emit, "SubagentStart", started)
        const wanted = input.model ?? definition.model
        const model = wanted === undefined || wanted === "inherit" ? yield* options.parentModel : options.api.resolveModel(wanted)
        const systemPrompt = [
          definition.prompt,
          `Working directory: ${options.cwd}`,
          "Your final message is all the caller sees: make it a complete answer (absolute file paths, what you found or did)."
        ].join("\n\n")
        const turn = Agent.runTurn(
          {
            prompt: input.prompt,
            cwd: options.cwd,
            systemPrompt,
            sessionId: options.sessionId,
            model,
            streamDeltas: options.streamDeltas ?? false,
            hostEvents: options.hostEvents ?? false,
            ...(started.additionalContext === undefined
              ? {}
              : { reminders: [`SubagentStart hook additional context: ${started.additionalContext}`] }),
            ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
            ...(options.promptCaching === undefined ? {} : { promptCaching: options.promptCaching }),
            autoCompact: true
          },
          Agent.emptyConversation,
          { endSession: false, emit }
        )
        const childContext = Context.make(ApiClient, options.api).pipe(
          Context.add(ToolRegistry, childRegistry(options.registry, definition)),
          Context.add(Permissions, permissions),
          Context.add(Hooks, hooks),
          Context.add(
            Transcript,
            transcriptPath === undefined
              ? TranscriptNone
              : fileTranscript(transcriptPath, options.sessionId, agentId, options.cwd, options.redact ?? ((text) => text))
          )
        )
        const withPrompter = options.prompter === undefined ? childContext : Context.add(childContext, Prompter, options.prompter)
        const turnEnd = yield* Effect.provideContext(turn, withPrompter)
        const end: ChildEnd = { result: turnEnd.result, spent, toolUses }
        return end
      })

    /** The child's end told to the parent's stream. */
    const ended = (definition: Definition, input: Input, agentId: string, parentToolUseId: string, isBackground: boolean, end: ChildEnd) =>
      options.emit({
        _tag: "SubagentEnded",
        parentToolUseId,
        agentId,
        agentType: definition.name,
        description: input.description,
        status: end.result.isError ? (end.result.subtype === "error_during_execution" && end.result.result.startsWith("Interrupted") ? "stopped" : "failed") : "completed",
        result: end.result.result,
        background: isBackground,
        totalTokens: totalTokens(end.result),
        toolUses: end.toolUses,
        durationMs: end.result.durationMs,
        costUsd: end.result.totalCostUsd
      })

    const call = (input: Input, parentToolUseId: string): Effect.Effect<ToolResult> =>
      Effect.gen(function* () {
        const type = input.subagent_type ?? "general-purpose"
        const definition = options.definitions.find((candidate) => candidate.name === type)
        if (definition === undefined) {
          return { _tag: "ToolResult", content: `Agent type '${type}' not found. Available agents: ${names()}`, isError: true } satisfies ToolResult
        }
        const agentId = `a${(yield* Uuid.v4).replace(/-/g, "").slice(0, 16)}`
        // Claude Code's default is the background.
        const isBackground = input.run_in_background !== false
        const child = permits.withPermit(runChild(definition, input, agentId, parentToolUseId, isBackground))
        if (!isBackground) {
          const end = yield* child
          yield* ended(definition, input, agentId, parentToolUseId, false, end)
          const result: ToolResult = {
            _tag: "ToolResult",
            content: [{ type: "text", text: foregroundText(agentId, end) }],
            ...(end.result.isError ? { isError: true } : {}),
            spent: end.spent
          }
          return result
        }
        const done = yield* Deferred.make<ChildEnd>()
        const fiber = yield* child.pipe(
          Effect.tap((end) => ended(definition, input, agentId, parentToolUseId, true, end)),
          Effect.exit,
          Effect.flatMap((exit) =>
            Exit.isSuccess(exit)
              ? Deferred.succeed(done, exit.value)
              : Deferred.succeed(done, { result: stoppedResult(options.sessionId), spent: [], toolUses: 0 })
          ),
          Effect.asVoid,
          Effect.forkIn(scope)
        )
        yield* Ref.update(background, (list) => [...list, { agentId, description: input.description, done, fiber }])
        const launched: ToolResult = {
          _tag: "ToolResult",
          content:
            `Async agent launched successfully.\nagentId: ${agentId} (the subagent's id)\n` +
            "The agent is working in the background. You will be notified automatically when it completes; do not " +
            "duplicate its work, and do not check on it in a loop."
        }
        return launched
      })

    const tool: AnyTool = {
      name: toolName,
      description: description(),
      // Calls of one turn run side by side (the semaphore bounds them); each child's own calls are checked.
      readOnly: true,
      inputJsonSchema: inputSchema,
      prepare: (raw, context) => {
        const input = decodeInput(raw)
        if (typeof input === "string") {
          return Effect.fail(new InvalidToolInput({ tool: toolName, message: `Invalid input for ${toolName}: ${input}` }))
        }
        return Effect.succeed({
          input: raw,
          // `Agent(type)` rules name the agent type.
          target: { _tag: "Command", command: input.subagent_type ?? "general-purpose" },
          run: () => Stream.fromEffect(call(input, context.toolUseId))
        })
      }
    }

    const awaitTasks: Effect.Effect<Agent.Notified | undefined> = Effect.gen(function* () {
      const pending = yield* Ref.getAndSet(background, [])
      if (pending.length === 0) return undefined
      const ends = yield* Effect.forEach(pending, (task) => Effect.map(Deferred.await(task.done), (end) => ({ task, end })))
      return {
        message: ends
          .map(({ task, end }) =>
            notification(task.agentId, task.description, end.result.isError ? "failed" : "completed", end.result.result)
          )
          .join("\n"),
        spent: ends.flatMap(({ end }) => end.spent)
      }
    })

    const stopAll = Effect.gen(function* () {
      const pending = yield* Ref.get(background)
      yield* Effect.forEach(pending, (task) => Fiber.interrupt(task.fiber), { discard: true })
    })

    const service: Interface = { tool, listing: listing(options.definitions), awaitTasks, stopAll }
    return service
  })

/**
 * The session's registry with `tool` after its own tools (read live: an MCP server's tools that change still
 * show); a call named one of `aliases` is `tool`'s (the Agent tool's `Task`).
 */
export const withTool = (registry: Registry, tool: AnyTool, aliases: ReadonlyArray<string> = []): Registry => {
  const definition = { name: tool.name, description: tool.description, input_schema: tool.inputJsonSchema }
  return {
    get tools() {
      return [...registry.tools.filter((other) => other.name !== tool.name), tool]
    },
    get definitions() {
      return [...registry.definitions.filter((other) => other.name !== tool.name), definition]
    },
    ...(registry.forgetContext === undefined ? {} : { forgetContext: registry.forgetContext }),
    get: (name) => (name === tool.name || aliases.includes(name) ? Effect.succeed(tool) : registry.get(name))
  }
}

const stoppedResult = (sessionId: string): AgentResult => ({
  _tag: "Result",
  subtype: "error_during_execution",
  isError: true,
  result: "The agent was stopped before it finished.",
  numTurns: 0,
  durationMs: 0,
  durationApiMs: 0,
  totalCostUsd: 0,
  usage: { input_tokens: 0, output_tokens: 0 },
  modelUsage: {},
  sessionId,
  permissionDenials: []
})
