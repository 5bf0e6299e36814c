/**
 * What every command that runs a session from the command line does before it: the session flags resolved
 * (`--resume`, `--continue`, `--session-id`; a wrong one is said at once), the MCP configuration and the settings of
 * every scope loaded (their warnings on stderr), and from them the session's Layer (SessionServices.layerSession).
 * `weft -p` (PrintCommand), the Agent SDK's protocol (sdk/SdkCommand) and the terminal (ui/Interactive) start here.
 * Also weft's credentials (withheld from children, redacted from everything printed) and the logger that prints
 * redacted `weft: ...` lines.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type * as Session from "../agent/Session.js"
import { Transcript } from "../agent/Transcript.js"
import { type FileScope, fileScopes, Settings } from "../context/Settings.js"
import * as AgentDefinitions from "../extensions/AgentDefinitions.js"
import * as McpConfig from "../mcp/McpConfig.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import { projectDir } from "../session/SessionIds.js"
import { ApiClient } from "../model/ApiClient.js"
import { withFallbackModel } from "../model/FallbackModel.js"
import * as NodeApiClient from "../model/NodeApiClient.js"
import * as Credentials from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import { SessionStore } from "../session/SessionStore.js"
import type { PrintOptions } from "./CliOptions.js"
import { Outcome, RunError, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import * as SessionFlags from "./SessionFlags.js"
import * as SessionServices from "./SessionServices.js"
import { version } from "./Version.js"

/**
 * weft's credentials: withheld from the commands the model runs, and redacted from everything a session command
 * prints (answers, --verbose lines, errors, logs) and records, whoever printed them.
 */
export const credentials = Credentials.fromEnv(process.env)

/** Where the key comes from, for the init frame: the environment (the settings' `env` included), the helper, or none. */
export const apiKeySource = (settings: Settings["Service"]): Effect.Effect<string> =>
  Effect.gen(function* () {
    const set = (name: string) => Effect.map(Variables.nonEmpty(name), Option.isSome).pipe(Variables.provideOverlay(settings.value.env ?? {}))
    if (yield* set("ANTHROPIC_API_KEY")) return "ANTHROPIC_API_KEY"
    if (yield* set("ANTHROPIC_AUTH_TOKEN")) return "ANTHROPIC_AUTH_TOKEN"
    return settings.value.apiKeyHelper === undefined ? "none" : "apiKeyHelper"
  })

/** stdout carries a session's output alone: what a library prints to the console goes to stderr (redacted). */
export const consoleToStderr = Effect.acquireRelease(
  Effect.sync(() => Output.consoleToStderr((text) => Output.stderrSync(credentials.redact(text)))),
  (restore) => Effect.sync(restore)
)

/**
 * The command sandbox's warnings (keys a project may not loosen), and, when it is on but cannot start, what that
 * means for the run's commands: refused, or run unsandboxed when `failIfUnavailable` is false.
 */
export const reportSandbox = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  for (const warning of sandbox.config.warnings) yield* warn(`${warning}\n`)
  if (sandbox.state._tag !== "Unavailable") return
  yield* warn(
    sandbox.state.refuse
      ? `weft: the command sandbox cannot start (${sandbox.state.reason}): commands will be refused. Set sandbox.failIfUnavailable to false to run them unsandboxed.\n`
      : `weft: the command sandbox cannot start (${sandbox.state.reason}): commands run UNSANDBOXED (sandbox.failIfUnavailable is false).\n`
  )
})

/** With --verbose, each MCP server that failed to connect is one stderr line with its reason. */
export const reportFailedServers = (servers: ReadonlyArray<{ readonly name: string; readonly status: string; readonly error?: string | undefined }>) =>
  Effect.forEach(
    servers.filter((server) => server.status === "failed"),
    (server) => {
      const reason = (server.error ?? "unknown error").split("\n").map((line) => line.trim()).filter((line) => line !== "").join(" | ")
      return warn(`weft: MCP server "${server.name}" failed: ${reason}\n`)
    },
    { discard: true }
  )

/** Writes `text` to stderr, redacted; a closed stderr is no reason to stop. */
export const warn = (text: string) => Output.stderr(credentials.redact(text)).pipe(Effect.ignore)

/**
 * Runs a command's work in the background while SIGINT/SIGTERM are handled: the first runs `graceful` (the work ends
 * on its own), a second interrupts it. Its value becomes the Outcome through `done`; output closed is an Outcome too;
 * an expected failure says what it is, anything else is a bug, shown whole.
 */
export const awaitRun = <A, E extends { readonly _tag: string; readonly message: string }, R>(
  work: Effect.Effect<A, E, R>,
  graceful: Effect.Effect<void>,
  done: (value: A) => Outcome
): Effect.Effect<Outcome, RunError, R | Scope.Scope> =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(work)
    const runFork = Effect.runForkWith(yield* Effect.context<never>())
    let signals = 0
    const onSignal = () => {
      signals++
      if (signals === 1) runFork(graceful)
      else runFork(Fiber.interrupt(fiber))
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("SIGINT", onSignal).on("SIGTERM", onSignal)),
      () => Effect.sync(() => process.off("SIGINT", onSignal).off("SIGTERM", onSignal))
    )
    const exit = yield* Fiber.await(fiber)
    if (exit._tag === "Success") return done(exit.value)
    // The reader of the output went away: the run has stopped (its processes killed, its transcript flushed).
    const failure = Cause.findErrorOption(exit.cause)
    if (Option.isSome(failure) && failure.value._tag === "OutputClosed") return Outcome.OutputClosed()
    const message =
      signals > 1 ? "stopped." : Option.isSome(failure) ? failure.value.message : `unexpected failure: ${Cause.pretty(exit.cause)}`
    return yield* new RunError({ message: credentials.redact(message) })
  })

/**
 * What the run logs (a warning: the session could not be recorded, ...), on stderr as `weft: ...` lines, redacted:
 * this logger in place of the default one, for the fibers of the run (set on the fiber rather than by
 * `Logger.replace`'s layer, which would build a layer for one value).
 */
const redactingLogger = Logger.make(({ message }) => {
  const text = (Array.isArray(message) ? message : [message]).map((part) => (typeof part === "string" ? part : String(part))).join(" ")
  Output.stderrSync(credentials.redact(`${text.startsWith("weft: ") ? "" : "weft: "}${text}\n`))
})
export const withRedactingLogger = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.updateService(effect, Logger.CurrentLoggers, (loggers) => {
    const replaced = new Set(loggers)
    replaced.delete(Logger.defaultLogger)
    return replaced.add(redactingLogger)
  })

const isFileScope = (name: string): name is FileScope => fileScopes.some((scope) => scope === name)

const isToolName = (rule: string) => /^[A-Za-z0-9_-]+$/.test(rule)

/** How the session starts: the session flags checked and resolved against the store that will record it. */
export interface Start {
  readonly cwd: string
  readonly start: SessionFlags.Start | undefined
  /** The store that read the session (it records the run), when a flag needed one. */
  readonly store: SessionStore["Service"] | undefined
}

/** The session flags, checked and resolved (the session to go on with is read now); their warnings on stderr. */
export const resolveStart = (options: PrintOptions) =>
  Effect.gen(function* () {
    const flagConflict = SessionFlags.conflict(options)
    if (flagConflict !== undefined) return yield* new UsageError({ message: flagConflict })
    const cwd = process.cwd()
    if (!SessionFlags.needsStore(options)) {
      const fresh: Start = { cwd, start: undefined, store: undefined }
      return fresh
    }
    const store = yield* SessionStore.make().pipe(Effect.provideService(Credentials.Credentials, credentials))
    const start = yield* SessionFlags.resolve(options, { cwd, store })
    for (const warning of start.warnings) yield* warn(`weft: ${warning}\n`)
    const resumed: Start = { cwd, start, store }
    return resumed
  })

/** The configuration read for the session: MCP servers and settings of every scope. */
export interface Loaded {
  readonly settings: Settings["Service"]
  readonly mcpServers: ReadonlyArray<McpConfig.Server>
  readonly autoCompact: boolean
  /** The subagents (built-ins, ~/.claude/agents, .claude/agents, --agents); undefined when the Agent tool is removed. */
  readonly agents: ReadonlyArray<AgentDefinitions.Definition> | undefined
  /** Where the subagents' transcripts go (the session's project folder); undefined when nothing is recorded. */
  readonly subagentTranscriptDir: string | undefined
}

/** The settings of every scope the flags name (--settings, --setting-sources, trust). */
export const loadSettings = (options: PrintOptions, cwd: string) =>
  Settings.make({
    cwd,
    ...(options.settings === undefined ? {} : { flagSettings: options.settings }),
    // Given empty (`--setting-sources=`, the Agent SDK's settingSources: []): no settings file at all.
    ...(options.settingSources === undefined ? {} : { settingSources: options.settingSources.filter(isFileScope) }),
    trustProject: options.trustProject
  })

/** Loads the MCP configuration and the settings (never trusting a project silently); their warnings on stderr. */
export const load = (options: PrintOptions, cwd: string) =>
  Effect.gen(function* () {
    // An untrusted project's ignored keys are named.
    const settings = yield* loadSettings(options, cwd)
    for (const warning of settings.warnings) yield* warn(`${warning}\n`)
    return yield* fromSettings(options, cwd, settings, warn)
  })

/**
 * The rest of the session's setup once the settings are read (their own warnings already said): refused when a
 * settings file could not be read, then the MCP servers and what `loadRest` takes. Warnings go to `say`.
 */
export const fromSettings = (
  options: PrintOptions,
  cwd: string,
  settings: Settings["Service"],
  say: (text: string) => Effect.Effect<void>
): Effect.Effect<Loaded, UsageError | RunError> =>
  Effect.gen(function* () {
    // A settings file that could not be read may hold deny rules: no run without them. A bad --settings is a usage error.
    if (settings.errors.length > 0) {
      const message = credentials.redact(settings.errors.map((error) => error.message).join("\nweft: "))
      return yield* settings.errors.some((error) => error.flag) ? new UsageError({ message }) : new RunError({ message })
    }
    if (options.verbose && settings.unknownKeys.length > 0) {
      const listed = settings.unknownKeys.map((entry) => `${entry.key} (${entry.origins.join(", ")})`).join("; ")
      yield* say(`weft: settings keys weft does not implement, ignored: ${listed}\n`)
    }
    // Which project servers start is read from the same settings as the rest of the session.
    const mcpConfig = yield* McpConfig.load({
      cwd,
      mcpConfigs: options.mcpConfigs,
      strict: options.strictMcpConfig,
      project: Effect.succeed(McpConfig.projectTrustOf(settings))
    }).pipe(
      // `${VAR}` expands from the settings' `env` too, as it is weft's environment.
      Variables.provideOverlay(settings.value.env ?? {}),
      Effect.mapError((error) => new UsageError({ message: error.message }))
    )
    for (const warning of mcpConfig.warnings) yield* say(`weft: ${warning}\n`)
    const loaded: Loaded = { settings, mcpServers: mcpConfig.servers, ...(yield* loadRest(options, cwd, settings, say)) }
    return loaded
  })

/**
 * What the session takes from the settings beside the rules: Claude Code's switches for automatic compaction (from
 * the environment or the settings' `env`), the subagents (unless the Agent tool is removed: --disallowedTools Agent,
 * or Task as Claude Code names it) and where their transcripts go. Warnings go to `say`.
 */
const loadRest = (
  options: PrintOptions,
  cwd: string,
  settings: Settings["Service"],
  say: (text: string) => Effect.Effect<void>
): Effect.Effect<Omit<Loaded, "settings" | "mcpServers">, UsageError> =>
  Effect.gen(function* () {
    const withSettingsEnv = Variables.provideOverlay(settings.value.env ?? {})
    const autoCompact =
      !(yield* Variables.flag("DISABLE_AUTO_COMPACT").pipe(withSettingsEnv)) && !(yield* Variables.flag("DISABLE_COMPACT").pipe(withSettingsEnv))
    const agentFlag = options.agents === undefined ? undefined : AgentDefinitions.parseFlag(options.agents)
    if (agentFlag?.error !== undefined) return yield* new UsageError({ message: agentFlag.error })
    const agentsRemoved = options.disallowedTools.some((rule) => rule === "Agent" || rule === "Task")
    const agents = agentsRemoved
      ? undefined
      : yield* AgentDefinitions.load({ cwd, home: settings.home, ...(agentFlag === undefined ? {} : { flag: agentFlag.definitions }) })
    for (const warning of agents?.warnings ?? []) yield* say(`weft: ${warning}\n`)
    const subagentTranscriptDir = options.noSessionPersistence
      ? undefined
      : projectDir(yield* Variables.weftHomeOf(settings.home), cwd)
    return { autoCompact, agents: agents?.definitions, subagentTranscriptDir }
  })

/**
 * The session's Layer for these options: the services and the conversation, `session` its options beside those the
 * flags give (system prompt, model, limits, the session to go on with), `extraServers` MCP servers beside the
 * configured ones (a host's own).
 */
export const layer = (
  options: PrintOptions,
  started: Start,
  loaded: Loaded,
  session: Omit<Session.Options, "cwd">,
  extraServers: ReadonlyArray<McpConfig.Server> = []
) => {
  const { start, store, cwd } = started
  const fallback = options.fallbackModel
  const permissionMode = options.dangerouslySkipPermissions ? "bypassPermissions" : options.permissionMode
  return SessionServices.layerSession(
    {
      cwd,
      version,
      additionalDirectories: options.addDirs,
      // A tool named bare in --disallowedTools is removed from the model's view, as in Claude Code; rules with a
      // specifier stay in Permissions, where deny wins over everything.
      removedTools: new Set(options.disallowedTools.filter(isToolName)),
      deniedRules: options.disallowedTools,
      allowedRules: options.allowedTools,
      ...(permissionMode === undefined ? {} : { permissionMode }),
      ...(options.allowDangerouslySkipPermissions ? { allowBypassPermissions: true } : {}),
      ...(options.sandbox ? { sandbox: true } : {}),
      credentials,
      settings: loaded.settings,
      mcpServers: [...loaded.mcpServers, ...extraServers],
      session: {
        autoCompact: loaded.autoCompact,
        ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
        ...(options.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: options.appendSystemPrompt }),
        ...(start?.sessionId === undefined ? {} : { sessionId: start.sessionId }),
        ...(start?.resumed === undefined ? {} : { resume: { history: start.resumed.history, leafUuid: start.resumed.leafUuid, costUSD: start.resumed.costUSD } }),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
        ...(loaded.agents === undefined ? {} : { agents: loaded.agents }),
        ...(loaded.subagentTranscriptDir === undefined ? {} : { subagentTranscriptDir: loaded.subagentTranscriptDir }),
        redact: credentials.redact,
        ...session
      }
    },
    {
      ...(store === undefined ? {} : { sessionStore: Layer.succeed(SessionStore, store) }),
      // --fallback-model: requests the API refuses as overloaded go to it.
      ...(fallback === undefined ? {} : { apiClient: Layer.effect(ApiClient, Effect.map(NodeApiClient.make, (api) => withFallbackModel(api, fallback))) }),
      // --no-session-persistence: the run is recorded nowhere.
      ...(options.noSessionPersistence ? { transcript: Transcript.layerNone } : {})
    }
  )
}
