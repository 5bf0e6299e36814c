/**
 * Claude Code's command hooks from the settings: for each event, the commands whose matcher fits run side by side
 * (identical commands once), each as HookProcess runs it, with the event's input JSON on stdin. What they answer:
 *
 * - exit 0: stdout is the hook's JSON answer when it is JSON (HookOutput); for UserPromptSubmit and SessionStart
 *   plain stdout is context for the model. stderr is ignored.
 * - exit 2: a block. PreToolUse: the call is not run and stderr goes to the model; PostToolUse and
 *   PostToolUseFailure: stderr goes to the model; Stop and SubagentStop: the loop goes on with stderr;
 *   UserPromptSubmit: the prompt is erased and stderr is for the user; PermissionRequest: the ask is refused.
 *   Elsewhere exit 2 is an error like any other.
 * - any other code, a hook that did not answer within its timeout, one that flooded its output or could not start:
 *   a non-blocking error, recorded in the activity (shown with `--verbose`), and weft goes on as if the hook were
 *   not there. A PreToolUse hook that times out therefore fails open, as in Claude Code.
 *
 * Text that reaches the model from a hook (a reason, additional context, plain stdout) is cut at 10,000 characters,
 * Claude Code's cap.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { HookActivity } from "../domain/AgentEvent.js"
import * as HookConfig from "./HookConfig.js"
import { type EventName, HookOutput } from "./HookEvent.js"
import * as HookProcess from "./HookProcess.js"
import * as ChildEnvironment from "../platform/ChildEnvironment.js"
import * as Credentials from "../platform/Credentials.js"
import * as Uuid from "../platform/Uuid.js"
import type {
  HookContext,
  HookSettings,
  Interface,
  WithOptions,
  Outcome,
  PermissionRequestOutcome,
  PostToolUseOutcome,
  PreToolUseOutcome,
  PromptOutcome,
  StopOutcome
} from "./Hooks.js"

/** Characters of hook text the model may get (Claude Code's cap). */
export const maxModelText = 10_000

const cap = (text: string): string =>
  text.length > maxModelText ? `${text.slice(0, maxModelText)}\n… [hook output cut at ${maxModelText} characters]` : text

/** This process's environment without weft's credentials (ChildEnvironment), when no environment is given. */
const defaultEnvironment: Effect.Effect<Readonly<Record<string, string>>> = Effect.sync(() =>
  ChildEnvironment.forProcess(process.env, Credentials.valuesFromEnv(process.env))
)

/** One hook's run, judged. */
interface Judged {
  readonly command: string
  readonly result: HookProcess.RunResult
  /** exit 0 with a JSON answer. */
  readonly output?: HookOutput
  /** exit 0 with plain text on stdout. */
  readonly plain?: string
  /** exit 2, with its reason as the model or user reads it. */
  readonly blockedBy?: string
  readonly problem?: string
}

const isJsonLike = (text: string) => text.startsWith("{")

const decodeOutput = Schema.decodeUnknownResult(HookOutput)

const judge = (command: string, result: HookProcess.RunResult, timeoutSeconds: number): Judged => {
  switch (result.ending) {
    case "notStarted": {
      // Stryker disable next-line StringLiteral: HookProcess always says why a hook did not start; the fallback is never read
      const why = result.error ?? "unknown error"
      return { command, result, problem: `could not be started: ${why}` }
    }
    case "timedOut":
      return { command, result, problem: `did not answer within ${timeoutSeconds} s and was ended; weft went on without it` }
    case "flooded":
      return { command, result, problem: `printed more than ${HookProcess.maxOutputBytes} bytes and was ended; weft went on without it` }
    // Stryker disable next-line ConditionalExpression,StringLiteral: this case only leaves the switch, as an unmatched ending would
    case "exited":
      break
  }
  if (result.exitCode === 2) {
    const stderr = result.stderr.trim()
    return { command, result, blockedBy: `[${command}]: ${stderr === "" ? "blocked (exit code 2) without a message" : cap(stderr)}` }
  }
  if (result.exitCode !== 0) {
    return { command, result, problem: `failed with exit code ${result.exitCode}${result.stderr.trim() === "" ? "" : `: ${result.stderr.trim()}`}` }
  }
  const stdout = result.stdout.trim()
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; empty stdout taken as plain text is "", which no outcome keeps
  if (stdout === "") return { command, result }
  if (!isJsonLike(stdout)) return { command, result, plain: cap(stdout) }
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    return { command, result, problem: "printed output that looks like JSON but is not valid JSON; it was ignored" }
  }
  const output = decodeOutput(json)
  if (Result.isFailure(output)) return { command, result, problem: "printed JSON that is not a hook answer; it was ignored" }
  return { command, result, output: output.success }
}

/** Whether a judged run blocked, for the activity's outcome. */
type Blocks = (judged: Judged) => boolean

const activityOf = (event: EventName, hookName: string, judged: Judged, blocks: Blocks, hookId: string): HookActivity => {
  const { result } = judged
  const suppress = judged.output?.suppressOutput === true
  return {
    hookId,
    hookName,
    hookEvent: event,
    command: judged.command,
    // HookProcess gives an exit code exactly when the hook exited.
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    stdout: suppress ? "" : result.stdout,
    stderr: result.stderr,
    // Exit 2 on an event that cannot block is an error like any other code but 0.
    outcome: blocks(judged) ? "blocked" : judged.problem !== undefined || judged.blockedBy !== undefined ? "error" : "success",
    ...(judged.problem !== undefined ? { note: judged.problem } : {})
  }
}

const baseOutcome = (judged: ReadonlyArray<Judged>, activity: ReadonlyArray<HookActivity>): Outcome => {
  const stop = judged.find((j) => j.output?.continue === false)
  const messages = judged.flatMap((j) => (j.output?.systemMessage === undefined ? [] : [j.output.systemMessage]))
  return {
    // Stryker disable next-line OptionalChaining: the hook found printed `continue: false`, so its output is there
    ...(stop === undefined ? {} : { stopRun: stop.output?.stopReason ?? `A hook (${stop.command}) stopped the run.` }),
    ...(messages.length > 0 ? { systemMessages: messages } : {}),
    ...(activity.length > 0 ? { activity } : {})
  }
}

const joinedText = (values: ReadonlyArray<string | undefined>): string | undefined => {
  const present = values.filter((value): value is string => value !== undefined && value !== "")
  return present.length === 0 ? undefined : present.join("\n")
}

/** A text field of the hooks' `hookSpecificOutput`, joined; a hook that gave none counts its plain stdout if `plainCounts`. */
const specificText = (judged: ReadonlyArray<Judged>, field: "additionalContext" | "customInstructions", plainCounts: boolean) =>
  joinedText(
    judged.map((j) => {
      const text = j.output?.hookSpecificOutput?.[field]
      if (text !== undefined) return cap(text)
      return plainCounts ? j.plain : undefined
    })
  )

const contextOf = (judged: ReadonlyArray<Judged>, plainIsContext: boolean) => specificText(judged, "additionalContext", plainIsContext)

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => {
  const out: Partial<Record<K, V>> = {}
  if (value !== undefined) out[key] = value
  return out
}

/**
 * Runs one hook of an event with its input (`stdin` is the input as JSON): what a process would have ended with.
 * The default runs the command (HookProcess); a host that answers hooks itself (the Agent SDK's callbacks, whose
 * ids stand in the commands' place) gives its own, and its answers are judged as a command's JSON answer is.
 */
export type Runner = (hook: HookConfig.CommandHook, input: { readonly stdin: string; readonly value: object }) => Effect.Effect<HookProcess.RunResult>

export interface Options extends WithOptions {
  readonly settings: HookSettings | HookConfig.HookConfig
  readonly runner?: Runner
}

const isDecoded = (settings: HookSettings | HookConfig.HookConfig): settings is HookConfig.HookConfig =>
  "events" in settings && "warnings" in settings

export const make = (options: Options): Effect.Effect<Interface> =>
  Effect.gen(function* () {
    const settings = options.settings
    const config = isDecoded(settings)
      ? settings
      : HookConfig.decode(settings.hooks, { disableAllHooks: settings.disableAllHooks === true })
    const warn = options.onWarning ?? ((warning: string) => Effect.logWarning(`weft: settings: ${warning}`))
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: whether the results are kept or discarded, nothing reads them
    yield* Effect.forEach(config.warnings, warn, { discard: true })
    const projectDir = options.projectDir ?? process.cwd()
    const environment = options.environment ?? (options.env === undefined ? defaultEnvironment : Effect.succeed(options.env))
    const transcriptPath = options.transcriptPath ?? (() => "")

    const common = (event: EventName, context: HookContext, withMode: boolean) => ({
      session_id: context.sessionId,
      transcript_path: transcriptPath(context.sessionId, context.cwd),
      cwd: context.cwd,
      ...(withMode ? { permission_mode: context.permissionMode ?? "default" } : {}),
      hook_event_name: event,
      ...opt("agent_id", context.agentId),
      ...opt("agent_type", context.agentType)
    })

    /** Runs the event's matching commands side by side; judged in the order they are listed. */
    const runEvent = (event: EventName, target: string | undefined, input: object, blocks: Blocks) =>
      Effect.gen(function* () {
        const hooks = HookConfig.matching(config, event, target)
        // Stryker disable next-line ConditionalExpression: a shortcut (nothing to run, no environment to read); the run below gives the same empty lists
        if (hooks.length === 0)
          return {
            // Stryker disable next-line ArrayDeclaration: a judged entry without a result decides nothing, on any event
            judged: [],
            activity: []
          }
        const stdin = JSON.stringify(input)
        const runner: Runner =
          options.runner ??
          (yield* Effect.map(environment, (environment): Runner => {
            const env = { ...environment, CLAUDE_PROJECT_DIR: projectDir, WEFT_PROJECT_DIR: projectDir }
            return (hook) =>
              HookProcess.run({
                command: hook.command,
                cwd: projectDir,
                env,
                stdin,
                timeoutMs: hook.timeoutSeconds * 1000,
                ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox })
              })
          }))
        // Events without a matcher (UserPromptSubmit, Stop, SubagentStop) have no target.
        const hookName = target !== undefined ? `${event}:${target}` : event
        const judged = yield* Effect.forEach(
          hooks,
          (hook) => Effect.map(runner(hook, { stdin, value: input }), (result) => judge(hook.command, result, hook.timeoutSeconds)),
          { concurrency: "unbounded" }
        )
        const activity = yield* Effect.forEach(judged, (j) => Effect.map(Uuid.v4, (hookId) => activityOf(event, hookName, j, blocks, hookId)))
        return { judged, activity }
      })

    const blockedByDecision = (j: Judged) => j.output?.decision === "block"
    const exit2Blocks: Blocks = (j) => j.blockedBy !== undefined || blockedByDecision(j)
    // Stryker disable next-line ArrowFunction: a blocker answering undefined is as falsy as false
    const nothingBlocks: Blocks = () => false

    const hooks: Interface = {
      sessionStart: (input) =>
        Effect.map(
          runEvent("SessionStart", input.source, { ...common("SessionStart", input, false), source: input.source, ...opt("model", input.model) }, nothingBlocks),
          ({ judged, activity }): PromptOutcome => ({
            ...baseOutcome(judged, activity),
            ...opt("additionalContext", contextOf(judged, true))
          })
        ),

      userPromptSubmit: (input) =>
        Effect.map(
          runEvent("UserPromptSubmit", undefined, { ...common("UserPromptSubmit", input, true), prompt: input.prompt }, (j) =>
            exit2Blocks(j) || j.output?.continue === false
          ),
          ({ judged, activity }): PromptOutcome => {
            const base = baseOutcome(judged, activity)
            const blocked = joinedText(
              judged.map((j) =>
                j.blockedBy ??
                (j.output?.decision === "block" ? (j.output.reason ?? `[${j.command}]: blocked`) : undefined) ??
                (j.output?.continue === false ? (j.output.stopReason ?? `[${j.command}]: stopped`) : undefined)
              )
            )
            return {
              ...base,
              ...opt("blocked", blocked),
              ...opt("additionalContext", blocked === undefined ? contextOf(judged, true) : undefined)
            }
          }
        ),

      preToolUse: (input) =>
        Effect.map(
          runEvent(
            "PreToolUse",
            input.toolName,
            {
              ...common("PreToolUse", input, true),
              tool_name: input.toolName,
              tool_input: input.toolInput,
              tool_use_id: input.toolUseId
            },
            (j) => j.blockedBy !== undefined || decisionOf(j) === "deny"
          ),
          ({ judged, activity }): PreToolUseOutcome => {
            const decisions = judged.flatMap((j) => {
              const decision = decisionOf(j)
              if (decision === undefined) return []
              // Stryker disable next-line OptionalChaining: only a hook that printed a decision gets here, so `j.output` is there (the `?.` after `hookSpecificOutput` is needed, and a bare `{"decision": "block"}` tests it)
              const reason = j.output?.hookSpecificOutput?.permissionDecisionReason ?? j.output?.reason
              return [{ decision, reason: reason === undefined ? undefined : cap(reason) }]
            })
            const top = decisions.find((d) => d.decision === "deny") ?? decisions.find((d) => d.decision === "ask") ?? decisions[0]
            const updatedInput = judged.map((j) => j.output?.hookSpecificOutput?.updatedInput).find((input) => input !== undefined)
            return {
              ...baseOutcome(judged, activity),
              ...opt("blocked", joinedText(judged.map((j) => j.blockedBy))),
              ...opt("permissionDecision", top?.decision),
              ...opt(
                "permissionDecisionReason",
                // Stryker disable next-line OptionalChaining: `top` is undefined only when `decisions` is empty, and then the filter reads nothing
                joinedText(decisions.filter((d) => d.decision === top?.decision).map((d) => d.reason))
              ),
              ...opt("updatedInput", updatedInput),
              ...opt("additionalContext", contextOf(judged, false))
            }
          }
        ),

      permissionRequest: (input) =>
        Effect.map(
          runEvent(
            "PermissionRequest",
            input.toolName,
            {
              ...common("PermissionRequest", input, true),
              tool_name: input.toolName,
              tool_input: input.toolInput,
              tool_use_id: input.toolUseId
            },
            (j) => j.blockedBy !== undefined || j.output?.hookSpecificOutput?.decision?.behavior === "deny"
          ),
          ({ judged, activity }): PermissionRequestOutcome => {
            const decisions = judged.flatMap((j) => {
              if (j.blockedBy !== undefined) return [{ behavior: "deny" as const, message: j.blockedBy }]
              const decision = j.output?.hookSpecificOutput?.decision
              return decision === undefined ? [] : [decision]
            })
            return {
              ...baseOutcome(judged, activity),
              ...opt("decision", decisions.find((d) => d.behavior === "deny") ?? decisions[0])
            }
          }
        ),

      postToolUse: (input) =>
        Effect.map(
          runEvent(
            "PostToolUse",
            input.toolName,
            {
              ...common("PostToolUse", input, true),
              tool_name: input.toolName,
              tool_input: input.toolInput,
              tool_response: input.toolResponse,
              tool_use_id: input.toolUseId,
              ...opt("duration_ms", input.durationMs)
            },
            exit2Blocks
          ),
          ({ judged, activity }) => afterTool(judged, activity)
        ),

      postToolUseFailure: (input) =>
        Effect.map(
          runEvent(
            "PostToolUseFailure",
            input.toolName,
            {
              ...common("PostToolUseFailure", input, true),
              tool_name: input.toolName,
              tool_input: input.toolInput,
              tool_use_id: input.toolUseId,
              error: input.error,
              ...opt("error_kind", input.failureKind),
              is_interrupt: input.isInterrupt
            },
            exit2Blocks
          ),
          ({ judged, activity }) => afterTool(judged, activity)
        ),

      notification: (input) =>
        Effect.map(
          runEvent(
            "Notification",
            input.notificationType,
            {
              ...common("Notification", input, true),
              message: input.message,
              ...opt("title", input.title),
              ...opt("notification_type", input.notificationType)
            },
            nothingBlocks
          ),
          ({ judged, activity }) => baseOutcome(judged, activity)
        ),

      stop: (input) =>
        Effect.map(
          runEvent(
            "Stop",
            undefined,
            {
              ...common("Stop", input, true),
              stop_hook_active: input.stopHookActive,
              ...opt("last_assistant_message", input.lastAssistantMessage)
            },
            exit2Blocks
          ),
          ({ judged, activity }) => stopOutcome(judged, activity)
        ),

      subagentStart: (input) =>
        Effect.map(
          runEvent("SubagentStart", input.agentType, common("SubagentStart", input, true), nothingBlocks),
          ({ judged, activity }): PromptOutcome => ({
            ...baseOutcome(judged, activity),
            ...opt("additionalContext", contextOf(judged, false))
          })
        ),

      subagentStop: (input) =>
        Effect.map(
          runEvent(
            "SubagentStop",
            input.agentType,
            {
              ...common("SubagentStop", input, true),
              stop_hook_active: input.stopHookActive,
              ...opt("last_assistant_message", input.lastAssistantMessage),
              ...opt("agent_transcript_path", input.agentTranscriptPath)
            },
            exit2Blocks
          ),
          ({ judged, activity }) => stopOutcome(judged, activity)
        ),

      preCompact: (input) =>
        Effect.map(
          runEvent(
            "PreCompact",
            input.trigger,
            { ...common("PreCompact", input, true), trigger: input.trigger, custom_instructions: input.customInstructions },
            nothingBlocks
          ),
          ({ judged, activity }) => ({
            ...baseOutcome(judged, activity),
            ...opt("customInstructions", specificText(judged, "customInstructions", true))
          })
        ),

      sessionEnd: (input) =>
        Effect.map(
          runEvent("SessionEnd", input.reason, { ...common("SessionEnd", input, false), reason: input.reason }, nothingBlocks),
          ({ judged, activity }) => baseOutcome(judged, activity)
        )
    }
    return hooks
  })

/** A PreToolUse hook's permission answer: hookSpecificOutput's, else the older top-level `decision`. */
const decisionOf = (j: Judged): "allow" | "deny" | "ask" | undefined => {
  const specific = j.output?.hookSpecificOutput?.permissionDecision
  if (specific !== undefined) return specific
  if (j.output?.decision === "approve") return "allow"
  if (j.output?.decision === "block") return "deny"
  return undefined
}

const afterTool = (judged: ReadonlyArray<Judged>, activity: ReadonlyArray<HookActivity>): PostToolUseOutcome => ({
  ...baseOutcome(judged, activity),
  ...opt(
    "blocked",
    joinedText(judged.map((j) => j.blockedBy ?? (j.output?.decision === "block" ? cap(j.output.reason ?? `[${j.command}]: blocked`) : undefined)))
  ),
  ...opt("additionalContext", contextOf(judged, false))
})

const stopOutcome = (judged: ReadonlyArray<Judged>, activity: ReadonlyArray<HookActivity>): StopOutcome => ({
  ...baseOutcome(judged, activity),
  ...opt(
    "continueWith",
    joinedText(judged.map((j) => j.blockedBy ?? (j.output?.decision === "block" ? cap(j.output.reason ?? `[${j.command}]: blocked`) : undefined)))
  )
})
