/**
 * The `-p` command: reads the prompt (argument, stdin, or both), composes the Layers of a session, runs the agent and
 * prints its stream (Print). Ctrl-C (SIGINT) or SIGTERM stops the run gracefully: work in flight is interrupted,
 * running processes are killed, and the output still ends with a result; a second signal stops at once.
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Agent from "../agent/Agent.js"
import { Environment } from "../context/Environment.js"
import { Memory } from "../context/Memory.js"
import * as Credentials from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import { type FileScope, fileScopes, Settings } from "../context/Settings.js"
import * as SystemPrompt from "../context/SystemPrompt.js"
import { McpClient } from "../mcp/McpClient.js"
import * as McpConfig from "../mcp/McpConfig.js"
import * as McpPrompt from "../mcp/McpPrompt.js"
import { Permissions } from "../permissions/Permissions.js"
import { SessionStore } from "../session/SessionStore.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import { Transcript } from "../agent/Transcript.js"
import type { PrintOptions } from "./CliOptions.js"
import { type CliError, Outcome, RunError, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import { print } from "./Print.js"
import * as SessionFlags from "./SessionFlags.js"
import * as SessionServices from "./SessionServices.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import * as Stdin from "./Stdin.js"
import { version } from "./Version.js"

/** The print command's options, as the options table declares them (CliOptions.ts). */
export type PrintCommandOptions = PrintOptions

/** Bounds what stdin may bring. */
const maxStdinBytes = 10 * 1024 * 1024
/** With a prompt given, how long an open but silent stdin may hold the run up (Claude Code waits as long). */
const stdinWait = "3 seconds"

const apiKeySource = () =>
  process.env["ANTHROPIC_API_KEY"] ? "ANTHROPIC_API_KEY" : process.env["ANTHROPIC_AUTH_TOKEN"] ? "ANTHROPIC_AUTH_TOKEN" : "none"

const isFileScope = (name: string): name is FileScope => fileScopes.some((scope) => scope === name)

const isToolName = (rule: string) => /^[A-Za-z0-9_-]+$/.test(rule)

/**
 * weft's credentials: withheld from the commands the model runs, and redacted from everything this command prints
 * (answers, --verbose lines, errors, logs) and records, whoever printed them.
 */

const credentials = Credentials.fromEnv(process.env)
/**
 * What the run logs (a warning: the session could not be recorded, ...), on stderr as `weft: ...` lines, redacted:
 * this logger in place of the default one, for the fibers of the run (set on the fiber rather than by
 * `Logger.replace`'s layer, which would build a layer for one value).
 */
const redactingLogger = Logger.make(({ message }) => {
  const text = (Array.isArray(message) ? message : [message]).map((part) => (typeof part === "string" ? part : String(part))).join(" ")
  Output.stderrSync(credentials.redact(`${text.startsWith("weft: ") ? "" : "weft: "}${text}\n`))
})
const withRedactingLogger = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.updateService(effect, Logger.CurrentLoggers, (loggers) => {
    const replaced = new Set(loggers)
    replaced.delete(Logger.defaultLogger)
    return replaced.add(redactingLogger)
  })

/** Runs the prompt and prints the run; how it ended is the Outcome (main.ts makes it the exit code). */
export const runPrint = (options: PrintCommandOptions): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const flagConflict = SessionFlags.conflict(options)
    if (flagConflict !== undefined) return yield* new UsageError({ message: flagConflict })
    const cwd = process.cwd()
    // The session to go on with (--resume, --continue) or the id to use (--session-id), read before anything else
    // so that a wrong one is said at once; the store that read it records the run.
    const resuming = SessionFlags.needsStore(options)
      ? yield* Effect.gen(function* () {
          const store = yield* SessionStore.make().pipe(Effect.provideService(Credentials.Credentials, credentials))
          const start = yield* SessionFlags.resolve(options, { cwd, store })
          return { store, start }
        })
      : undefined
    for (const warning of resuming?.start.warnings ?? []) {
      yield* Output.stderr(credentials.redact(`weft: ${warning}\n`)).pipe(Effect.ignore)
    }
    const start = resuming?.start

    // stdin, when it is not a terminal: the prompt itself, or (with a prompt given) input that goes with it.
    const stdin = yield* Stdin.readProcessStdin({
      maxBytes: maxStdinBytes,
      ...(options.prompt === undefined ? {} : { firstDataWithin: stdinWait })
    })
    if (stdin._tag === "Silent") {
      yield* Output.stderr(
        `weft: nothing came on stdin within ${stdinWait}; going on with the prompt alone (give stdin </dev/null to skip the wait).\n`
      ).pipe(Effect.ignore)
    }
    const prompt = Stdin.combinePrompt(options.prompt, stdin._tag === "Piped" ? stdin.text : undefined)
    if (prompt === "") {
      return yield* new UsageError({
        message: 'no prompt. Give one as an argument (weft -p "...") or on stdin (echo "..." | weft -p).'
      })
    }

    // A tool named bare in --disallowedTools is removed from the model's view, as in Claude Code; rules with a
    // specifier stay in Permissions, where deny wins over everything.
    const removed = new Set(options.disallowedTools.filter(isToolName))
    const mcpConfig = yield* McpConfig.load({
      cwd,
      mcpConfigs: options.mcpConfigs,
      strict: options.strictMcpConfig,
      project: McpConfig.projectTrustFromSettings(cwd)
    }).pipe(Effect.mapError((error) => new UsageError({ message: error.message })))
    for (const warning of mcpConfig.warnings) yield* Output.stderr(`weft: ${warning}\n`).pipe(Effect.ignore)
    const abort = yield* Deferred.make<void>()
    // Settings of every scope; `-p` never trusts a project silently (an untrusted one's ignored keys are named).
    const settings = yield* Settings.make({
      cwd,
      ...(options.settings === undefined ? {} : { flagSettings: options.settings }),
      ...(options.settingSources.length === 0 ? {} : { settingSources: options.settingSources.filter(isFileScope) }),
      trustProject: options.trustProject
    })
    for (const warning of settings.warnings) yield* Output.stderr(credentials.redact(`${warning}\n`)).pipe(Effect.ignore)
    const permissionMode = options.dangerouslySkipPermissions ? "bypassPermissions" : options.permissionMode
    const session = SessionServices.layer({
      cwd,
      version,
      additionalDirectories: options.addDirs,
      removedTools: removed,
      deniedRules: options.disallowedTools,
      allowedRules: options.allowedTools,
      ...(permissionMode === undefined ? {} : { permissionMode }),
      credentials,
      settings,
      mcpServers: mcpConfig.servers,
      ...(options.sandbox ? { sandbox: true } : {})
    }, {
      ...(resuming === undefined ? {} : { sessionStore: Layer.succeed(SessionStore, resuming.store) }),
      // --no-session-persistence: the run is recorded nowhere.
      ...(options.noSessionPersistence ? { transcript: Transcript.layerNone } : {})
    })
    const printing = Effect.gen(function* () {
      const registry = yield* ToolRegistry
      for (const warning of (yield* Permissions).warnings) yield* Output.stderr(credentials.redact(`${warning}\n`)).pipe(Effect.ignore)
      const mcp = yield* McpClient
      const mcpServers = yield* mcp.servers
      const sandbox = yield* Sandbox
      for (const warning of sandbox.config.warnings) yield* Output.stderr(`${warning}\n`).pipe(Effect.ignore)
      if (sandbox.state._tag === "Unavailable") {
        yield* Output.stderr(
          sandbox.state.refuse
            ? `weft: the command sandbox cannot start (${sandbox.state.reason}): commands will be refused. Set sandbox.failIfUnavailable to false to run them unsandboxed.\n`
            : `weft: the command sandbox cannot start (${sandbox.state.reason}): commands run UNSANDBOXED (sandbox.failIfUnavailable is false).\n`
        ).pipe(Effect.ignore)
      }
      // `/mcp__<server>__<prompt> args`: the MCP prompt's messages are the user turn.
      const userPrompt = (yield* McpPrompt.expand(mcp, prompt).pipe(Effect.mapError((error) => new UsageError({ message: error.message })))) ?? prompt
      const systemPrompt = SystemPrompt.build({
        environment: yield* Environment,
        memory: (yield* Memory).files,
        toolNames: registry.tools.map((tool) => tool.name),
        ...(sandbox.note === undefined ? {} : { sandboxNote: sandbox.note }),
        ...(options.systemPrompt === undefined ? {} : { customSystemPrompt: options.systemPrompt }),
        ...(options.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: options.appendSystemPrompt })
      })
      const runOptions: Agent.RunOptions = {
        prompt: userPrompt,
        cwd,
        systemPrompt,
        abort,
        streamDeltas: options.outputFormat === "stream-json" && options.includePartialMessages,
        // Claude Code's switches for automatic compaction (a request refused as too long is still compacted).
        autoCompact: !(yield* Variables.flag("DISABLE_AUTO_COMPACT")) && !(yield* Variables.flag("DISABLE_COMPACT")),
        mcpServers: mcpServers.map((server) => ({ name: server.name, status: server.status })),
        ...(start?.sessionId === undefined ? {} : { sessionId: start.sessionId }),
        ...(start?.resumed === undefined
          ? {}
          : { history: start.resumed.history, resume: { leafUuid: start.resumed.leafUuid } }),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns })
      }
      return yield* print((onEvent) => Stream.runForEach(Agent.run(runOptions), onEvent), {
        outputFormat: options.outputFormat,
        verbose: options.verbose,
        includePartialMessages: options.includePartialMessages,
        apiKeySource: apiKeySource(),
        version,
        write: (text) => Output.stdout(credentials.redact(text)),
        writeError: (text) => Output.stderr(credentials.redact(text))
      })
    }).pipe(Effect.provide(session))

    const fiber = yield* Effect.forkChild(printing)
    const runFork = Effect.runForkWith(yield* Effect.context<never>())
    let signals = 0
    const onSignal = () => {
      signals++
      if (signals === 1) runFork(Deferred.succeed(abort, undefined))
      else runFork(Fiber.interrupt(fiber))
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("SIGINT", onSignal).on("SIGTERM", onSignal)),
      () => Effect.sync(() => process.off("SIGINT", onSignal).off("SIGTERM", onSignal))
    )
    const exit = yield* Fiber.await(fiber)
    if (exit._tag === "Success") {
      return exit.value === undefined || exit.value.isError ? Outcome.Failed() : Outcome.Succeeded()
    }
    // The reader of the output went away: the run has stopped (its processes killed, its transcript flushed).
    const failure = Cause.findErrorOption(exit.cause)
    if (Option.isSome(failure) && failure.value._tag === "OutputClosed") return Outcome.OutputClosed()
    // An expected failure says what it is; anything else is a bug, shown whole.
    const message =
      signals > 1 ? "stopped." : Option.isSome(failure) ? failure.value.message : `unexpected failure: ${Cause.pretty(exit.cause)}`
    return yield* new RunError({ message: credentials.redact(message) })
  }).pipe(Effect.scoped, withRedactingLogger)
