/**
 * Lifecycle hooks around the loop, Claude Code's events: SessionStart, UserPromptSubmit, PreToolUse,
 * PermissionRequest, PostToolUse, PostToolUseFailure, Notification, Stop, SubagentStart, SubagentStop, PreCompact,
 * SessionEnd. Inside a subagent, the events carry its `agentId` and `agentType`.
 * Every method answers what the loop must do next; the loop applies the answer (a hook's allow never beats a deny
 * rule, a rewritten input is decoded and checked again, a blocking Stop hook is honoured a bounded number of times).
 *
 * Two sources of hooks, composed by `Hooks.layer({ handlers })` (command hooks from the Settings in context) or
 * `Hooks.layerWith({ settings, handlers })` (from a settings value given):
 * - command hooks from the settings' `hooks` section (Claude Code's format, run as child processes: CommandHooks);
 * - in-process handlers, typed Effects a library user writes for the same events (veto, rewrite input, add
 *   context, observe).
 * All the hooks of one event run in parallel and their answers are merged (see `merge`). Each entry point is a span
 * (`Hooks.preToolUse`, ...) when any hook is configured; `none` runs nothing and traces nothing.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import { Settings } from "../context/Settings.js"
import * as Variables from "../platform/Variables.js"
import type { HookActivity } from "../domain/AgentEvent.js"
import type { ToolFailureKind } from "../domain/ToolFailure.js"
import { ChildEnvironment } from "../platform/ChildEnvironment.js"
import { Sandbox, type Spawn } from "../sandbox/Sandbox.js"
import { transcriptPathIn } from "../session/SessionIds.js"
import type { HookConfig } from "./HookConfig.js"
import type * as HookProcess from "./HookProcess.js"
import type { CompactTrigger, PermissionRequestDecision, SessionStartSource } from "./HookEvent.js"

export type { HookActivity } from "../domain/AgentEvent.js"

/** What every event carries. */
export interface HookContext {
  readonly sessionId: string
  readonly cwd: string
  /** The permission mode in force (absent on SessionStart and SessionEnd, as in Claude Code). */
  readonly permissionMode?: string
  /** The subagent the event happens in (absent in the main conversation). */
  readonly agentId?: string
  readonly agentType?: string
}

export interface ToolHookInput extends HookContext {
  readonly toolName: string
  readonly toolUseId: string
  readonly toolInput: unknown
}

/** What any hook may answer, whatever the event. */
export interface Outcome {
  /**
   * A hook asked to stop the whole run (`continue: false`); the text (its `stopReason`) is for the user, not the
   * model.
   */
  readonly stopRun?: string
  /** Messages for the user (`systemMessage`); the model never sees them. */
  readonly systemMessages?: ReadonlyArray<string>
  /** What ran, for renderers (`--verbose`, stream-json's hook frames). */
  readonly activity?: ReadonlyArray<HookActivity>
}

export interface PreToolUseOutcome extends Outcome {
  /** The call is not run; the reason goes to the model as an `is_error` tool_result. */
  readonly blocked?: string
  /**
   * A hook's permission answer: "allow" skips asking (a deny rule still wins), "deny" refuses (the reason goes to
   * the model), "ask" asks even where the rules would allow (under `-p`, where nobody answers, that refuses).
   */
  readonly permissionDecision?: "allow" | "deny" | "ask"
  readonly permissionDecisionReason?: string
  /** A replacement for the whole input (not merged), decoded by the tool and checked by Permissions again. */
  readonly updatedInput?: unknown
  /** Text for the model beside the call's result. */
  readonly additionalContext?: string
}

export interface PermissionRequestOutcome extends Outcome {
  /** The answer given in place of asking a person; none lets the ask go on. */
  readonly decision?: PermissionRequestDecision
}

export interface PostToolUseOutcome extends Outcome {
  /** Text added for the model after the tool result. */
  readonly additionalContext?: string
  /** Set when a hook rejects the result: its reason is shown to the model. */
  readonly blocked?: string
}

export interface StopOutcome extends Outcome {
  /** Set when a hook refuses to let the agent stop: the reason is sent to the model and the loop goes on. */
  readonly continueWith?: string
}

export interface PreCompactOutcome extends Outcome {
  /**
   * Instructions for the summary (`hookSpecificOutput.customInstructions`, or a command hook's plain stdout on exit
   * 0), added to the summary request.
   */
  readonly customInstructions?: string
}

export interface PromptOutcome extends Outcome {
  /** UserPromptSubmit: the prompt is erased and not sent; the reason is for the user. */
  readonly blocked?: string
  /** Text for the model beside the prompt (or at the start of the session). */
  readonly additionalContext?: string
}

export interface Interface {
  readonly sessionStart: (input: HookContext & { readonly source: SessionStartSource; readonly model?: string }) => Effect.Effect<PromptOutcome>
  readonly userPromptSubmit: (input: HookContext & { readonly prompt: string }) => Effect.Effect<PromptOutcome>
  readonly preToolUse: (input: ToolHookInput) => Effect.Effect<PreToolUseOutcome>
  /** When a call would be asked about: a hook may answer in place of the person. */
  readonly permissionRequest: (input: ToolHookInput) => Effect.Effect<PermissionRequestOutcome>
  readonly postToolUse: (
    input: ToolHookInput & { readonly toolResponse: unknown; readonly isError?: boolean; readonly durationMs?: number }
  ) => Effect.Effect<PostToolUseOutcome>
  /** After a call failed (an error result, or interrupted). */
  readonly postToolUseFailure: (
    input: ToolHookInput & {
      readonly error: string
      readonly isInterrupt: boolean
      /** Why the call failed, for programs (`error` is the message the model got). */
      readonly failureKind?: ToolFailureKind
    }
  ) => Effect.Effect<PostToolUseOutcome>
  readonly notification: (
    input: HookContext & { readonly message: string; readonly title?: string; readonly notificationType?: string }
  ) => Effect.Effect<Outcome>
  readonly stop: (
    input: HookContext & { readonly stopHookActive: boolean; readonly lastAssistantMessage?: string }
  ) => Effect.Effect<StopOutcome>
  /** A subagent starts (matched on its type): context for it. */
  readonly subagentStart: (input: HookContext & { readonly agentId: string; readonly agentType: string }) => Effect.Effect<PromptOutcome>
  /** A subagent would stop (matched on its type): a block sends it back to work. */
  readonly subagentStop: (
    input: HookContext & {
      readonly stopHookActive: boolean
      readonly lastAssistantMessage?: string
      readonly agentTranscriptPath?: string
    }
  ) => Effect.Effect<StopOutcome>
  readonly preCompact: (
    input: HookContext & { readonly trigger: CompactTrigger; readonly customInstructions: string | null }
  ) => Effect.Effect<PreCompactOutcome>
  readonly sessionEnd: (input: HookContext & { readonly reason: string }) => Effect.Effect<Outcome | void>
}

/** In-process handlers: any subset of the events, as typed Effects. */
export type Handlers = Partial<Interface>

export const none: Interface = {
  sessionStart: () => Effect.succeed({}),
  userPromptSubmit: () => Effect.succeed({}),
  preToolUse: () => Effect.succeed({}),
  permissionRequest: () => Effect.succeed({}),
  postToolUse: () => Effect.succeed({}),
  postToolUseFailure: () => Effect.succeed({}),
  notification: () => Effect.succeed({}),
  stop: () => Effect.succeed({}),
  subagentStart: () => Effect.succeed({}),
  subagentStop: () => Effect.succeed({}),
  preCompact: () => Effect.succeed({}),
  sessionEnd: () => Effect.succeed({})
}

/** The settings keys hooks read (a subset of the merged settings). */
export interface HookSettings {
  readonly hooks?: unknown
  readonly disableAllHooks?: unknown
}

/** What `makeWith` is given: everything `make` reads from the context, by value. */
export interface WithOptions {
  /**
   * The merged settings (their `hooks` and `disableAllHooks`), or a HookConfig already decoded. Leave out for
   * in-process handlers only.
   */
  readonly settings?: HookSettings | HookConfig
  /** In-process handlers; several sets run side by side. */
  readonly handlers?: Handlers | ReadonlyArray<Handlers>
  /** Where command hooks run and what CLAUDE_PROJECT_DIR names; default the process's working directory. */
  readonly projectDir?: string
  /** The environment of command hooks; default the process's, without weft's credentials (ChildEnvironment). */
  readonly env?: Readonly<Record<string, string>>
  /** The same, read when each event's hooks start (ChildEnvironment's `process()`); wins over `env`. */
  readonly environment?: Effect.Effect<Readonly<Record<string, string>>>
  /** Where a session's transcript is (a hook's `transcript_path`). */
  readonly transcriptPath?: (sessionId: string, cwd: string) => string
  /** Told about each entry of `settings.hooks` that was left out (default: a warning on the log). */
  readonly onWarning?: (warning: string) => Effect.Effect<void>
  /** The command sandbox to run command hooks in (`sandbox.hooks`); none: they run as they are. */
  readonly sandbox?: HookProcess.RunOptions["sandbox"]
}

const isHookConfig = (settings: HookSettings | HookConfig): settings is HookConfig => "events" in settings && "warnings" in settings

const hasCommandHooks = (settings: HookSettings | HookConfig | undefined): boolean => {
  if (settings === undefined) return false
  if (isHookConfig(settings)) return Object.keys(settings.events).length > 0
  const hooks = settings.hooks
  return settings.disableAllHooks !== true && typeof hooks === "object" && hooks !== null && Object.keys(hooks).length > 0
}

// ---------------------------------------------------------------------------------------------------------------
// Merging the answers of hooks that ran side by side

const joined = (values: ReadonlyArray<string | undefined>): string | undefined => {
  const present = values.filter((value): value is string => value !== undefined && value !== "")
  return present.length === 0 ? undefined : present.join("\n")
}

const firstDefined = <A>(values: ReadonlyArray<A | undefined>): A | undefined => values.find((value) => value !== undefined)

const concat = <A>(lists: ReadonlyArray<ReadonlyArray<A> | undefined>): ReadonlyArray<A> | undefined => {
  const all = lists.flatMap((list) => list ?? [])
  return all.length === 0 ? undefined : all
}

/** `{ key: value }`, or `{}` when the value is absent (optional fields stay absent, never `undefined`). */
const field = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => {
  const out: Partial<Record<K, V>> = {}
  if (value !== undefined) out[key] = value
  return out
}

const mergeBase = (outcomes: ReadonlyArray<Outcome>): Outcome => ({
  ...field("stopRun", firstDefined(outcomes.map((o) => o.stopRun))),
  ...field("systemMessages", concat(outcomes.map((o) => o.systemMessages))),
  ...field("activity", concat(outcomes.map((o) => o.activity)))
})

const decisionRank = { deny: 3, ask: 2, allow: 1 } as const

/**
 * How answers combine: any block blocks (reasons joined); of permission decisions, deny beats ask beats allow;
 * the first updatedInput (in the order the hooks are listed) wins; contexts and messages are all kept.
 */
export const merge = {
  prompt: (outcomes: ReadonlyArray<PromptOutcome>): PromptOutcome => ({
    ...mergeBase(outcomes),
    ...field("blocked", joined(outcomes.map((o) => o.blocked))),
    ...field("additionalContext", joined(outcomes.map((o) => o.additionalContext)))
  }),
  preToolUse: (outcomes: ReadonlyArray<PreToolUseOutcome>): PreToolUseOutcome => {
    const decided = outcomes
      .filter((o) => o.permissionDecision !== undefined)
      .sort((a, b) => decisionRank[b.permissionDecision ?? "allow"] - decisionRank[a.permissionDecision ?? "allow"])
    const top = decided[0]
    return {
      ...mergeBase(outcomes),
      ...field("blocked", joined(outcomes.map((o) => o.blocked))),
      ...field("permissionDecision", top?.permissionDecision),
      ...field(
        "permissionDecisionReason",
        joined(decided.filter((o) => o.permissionDecision === top?.permissionDecision).map((o) => o.permissionDecisionReason))
      ),
      ...field("updatedInput", firstDefined(outcomes.map((o) => o.updatedInput))),
      ...field("additionalContext", joined(outcomes.map((o) => o.additionalContext)))
    }
  },
  permissionRequest: (outcomes: ReadonlyArray<PermissionRequestOutcome>): PermissionRequestOutcome => {
    const decisions = outcomes.flatMap((o) => (o.decision === undefined ? [] : [o.decision]))
    return {
      ...mergeBase(outcomes),
      ...field("decision", decisions.find((d) => d.behavior === "deny") ?? decisions[0])
    }
  },
  postToolUse: (outcomes: ReadonlyArray<PostToolUseOutcome>): PostToolUseOutcome => ({
    ...mergeBase(outcomes),
    ...field("blocked", joined(outcomes.map((o) => o.blocked))),
    ...field("additionalContext", joined(outcomes.map((o) => o.additionalContext)))
  }),
  preCompact: (outcomes: ReadonlyArray<PreCompactOutcome>): PreCompactOutcome => ({
    ...mergeBase(outcomes),
    ...field("customInstructions", joined(outcomes.map((o) => o.customInstructions)))
  }),
  stop: (outcomes: ReadonlyArray<StopOutcome>): StopOutcome => ({
    ...mergeBase(outcomes),
    ...field("continueWith", joined(outcomes.map((o) => o.continueWith)))
  }),
  base: mergeBase
}

/** Runs every set of hooks side by side and merges their answers. */
export const combine = (all: ReadonlyArray<Interface>): Interface => {
  if (all.length === 1 && all[0] !== undefined) return all[0]
  const each = <I, O>(pick: (hooks: Interface) => (input: I) => Effect.Effect<O>, mergeAll: (outcomes: ReadonlyArray<O>) => O) =>
    (input: I) =>
      Effect.map(
        Effect.forEach(all, (hooks) => pick(hooks)(input), { concurrency: "unbounded" }),
        mergeAll
      )
  return {
    sessionStart: each((h) => h.sessionStart, merge.prompt),
    userPromptSubmit: each((h) => h.userPromptSubmit, merge.prompt),
    preToolUse: each((h) => h.preToolUse, merge.preToolUse),
    permissionRequest: each((h) => h.permissionRequest, merge.permissionRequest),
    postToolUse: each((h) => h.postToolUse, merge.postToolUse),
    postToolUseFailure: each((h) => h.postToolUseFailure, merge.postToolUse),
    notification: each((h) => h.notification, merge.base),
    stop: each((h) => h.stop, merge.stop),
    subagentStart: each((h) => h.subagentStart, merge.prompt),
    subagentStop: each((h) => h.subagentStop, merge.stop),
    preCompact: each((h) => h.preCompact, merge.preCompact),
    sessionEnd: each(
      (h) => (input: Parameters<Interface["sessionEnd"]>[0]) => Effect.map(h.sessionEnd(input), (o): Outcome => o ?? {}),
      merge.base
    )
  }
}

const withDefaults = (handlers: Handlers): Interface => ({ ...none, ...handlers })

const span = <I, O>(name: string, method: (input: I) => Effect.Effect<O>) =>
  Effect.fn(name)(function* (input: I) {
    return yield* method(input)
  })

/** Every entry point in a span named after it (`Hooks.preToolUse`, ...), so traces show what the hooks cost. */
export const traced = (hooks: Interface): Interface => ({
  sessionStart: span("Hooks.sessionStart", hooks.sessionStart),
  userPromptSubmit: span("Hooks.userPromptSubmit", hooks.userPromptSubmit),
  preToolUse: span("Hooks.preToolUse", hooks.preToolUse),
  permissionRequest: span("Hooks.permissionRequest", hooks.permissionRequest),
  postToolUse: span("Hooks.postToolUse", hooks.postToolUse),
  postToolUseFailure: span("Hooks.postToolUseFailure", hooks.postToolUseFailure),
  notification: span("Hooks.notification", hooks.notification),
  stop: span("Hooks.stop", hooks.stop),
  subagentStart: span("Hooks.subagentStart", hooks.subagentStart),
  subagentStop: span("Hooks.subagentStop", hooks.subagentStop),
  preCompact: span("Hooks.preCompact", hooks.preCompact),
  sessionEnd: span("Hooks.sessionEnd", hooks.sessionEnd)
})

/** What `make` is given beside the services it reads. */
export type Options = Pick<WithOptions, "handlers" | "onWarning" | "transcriptPath">

/**
 * Builds hooks from what is given: command hooks from `settings` (their runner is loaded only when there are any)
 * beside the in-process `handlers`; nothing is read from the context.
 */
export const makeWith = (options: WithOptions = {}): Effect.Effect<Interface> =>
  Effect.gen(function* () {
    const handlerSets = options.handlers === undefined ? [] : Array.isArray(options.handlers) ? options.handlers : [options.handlers]
    const all: Array<Interface> = handlerSets.map((handlers: Handlers) => withDefaults(handlers))
    if (hasCommandHooks(options.settings)) {
      const CommandHooks = yield* Effect.promise(() => import("./CommandHooks.js"))
      all.push(yield* CommandHooks.make({ ...options, settings: options.settings ?? {} }))
    }
    // No hooks: nothing runs, so nothing is traced either.
    return all.length === 0 ? none : traced(combine(all))
  })

/**
 * The session's hooks: command hooks from the merged Settings (an untrusted project's `hooks` were already dropped by
 * the loader; `disableAllHooks` turns them all off), run in the project directory with ChildEnvironment's
 * environment, beside in-process `handlers`. Warnings about bad entries go to `onWarning` (default: the log).
 */
export const make = (options: Options = {}): Effect.Effect<Interface, never, Settings | ChildEnvironment> =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const children = yield* ChildEnvironment
    const weftHome = yield* Variables.weftHomeOf(settings.home)
    // Command hooks run outside the sandbox (they are the user's configuration) unless `sandbox.hooks` asks.
    const sandbox = Option.getOrUndefined(yield* Effect.serviceOption(Sandbox))
    const sandboxHooks = sandbox !== undefined && sandbox.state._tag !== "Off" && sandbox.config.hooks
    return yield* makeWith({
      ...options,
      ...(sandboxHooks ? { sandbox: (spawn: Spawn) => sandbox.wrap(spawn) } : {}),
      settings: settings.value,
      projectDir: settings.projectDir,
      environment: children.process(),
      transcriptPath: options.transcriptPath ?? transcriptPathIn(weftHome)
    })
  })

/** Hooks that can be added to while the session runs (a host's callbacks, registered after the session began). */
export interface Live {
  /** The base hooks and every set registered now, run side by side and merged as `combine` does. */
  readonly hooks: Interface
  /** Adds `handlers` after the ones there; they are removed when the scope closes. */
  readonly register: (handlers: Handlers) => Effect.Effect<void, never, Scope.Scope>
}

/**
 * `base` (the session's hooks: command hooks and in-process handlers) open to more in-process handlers at run
 * time. Each event reads the sets registered when it fires; with none, `base` runs alone, as before.
 */
export const makeLive = (base: Interface): Effect.Effect<Live> =>
  Effect.gen(function* () {
    const registered = yield* Ref.make<ReadonlyArray<Interface>>([])
    const current = Effect.map(Ref.get(registered), (extra) => (extra.length === 0 ? base : combine([base, ...extra])))
    const via =
      <I, O>(pick: (hooks: Interface) => (input: I) => Effect.Effect<O>) =>
      (input: I): Effect.Effect<O> =>
        Effect.flatMap(current, (hooks) => pick(hooks)(input))
    const hooks: Interface = {
      sessionStart: via((h) => h.sessionStart),
      userPromptSubmit: via((h) => h.userPromptSubmit),
      preToolUse: via((h) => h.preToolUse),
      permissionRequest: via((h) => h.permissionRequest),
      postToolUse: via((h) => h.postToolUse),
      postToolUseFailure: via((h) => h.postToolUseFailure),
      notification: via((h) => h.notification),
      stop: via((h) => h.stop),
      subagentStart: via((h) => h.subagentStart),
      subagentStop: via((h) => h.subagentStop),
      preCompact: via((h) => h.preCompact),
      sessionEnd: via((h) => h.sessionEnd)
    }
    const register = (handlers: Handlers) => {
      const added = traced(withDefaults(handlers))
      return Effect.acquireRelease(
        Ref.update(registered, (list) => [...list, added]),
        () => Ref.update(registered, (list) => list.filter((entry) => entry !== added))
      )
    }
    return { hooks, register }
  })

export class Hooks extends Context.Service<Hooks, Interface>()("weft/Hooks") {
  /** Runs no hook: every point continues unchanged. */
  static none: Interface = none
  static layerNone = Layer.succeed(Hooks, none)
  static make = make
  /** Hooks from the session's Settings beside in-process handlers (see `make`). */
  static layer = (options: Options = {}): Layer.Layer<Hooks, never, Settings | ChildEnvironment> => Layer.effect(Hooks, make(options))
  static makeWith = makeWith
  /** Hooks open to more handlers while the session runs (see Live). */
  static makeLive = makeLive
  /** Hooks from what is given (see WithOptions): in-process handlers, command hooks from a settings value. */
  static layerWith = (options: WithOptions = {}): Layer.Layer<Hooks> => Layer.effect(Hooks, makeWith(options))
}

// The entry points at the module's top level: `import { Hooks } from "weft"` reads `Hooks.layer...(...)`, and
// `Hooks.Hooks` is the Tag (`yield* Hooks.Hooks`).
export const layerNone = Hooks.layerNone
export const layer = Hooks.layer
export const layerWith = Hooks.layerWith
