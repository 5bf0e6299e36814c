/**
 * The `-p` command: reads the prompt (argument, stdin, or both), composes the Layers of a session, runs the agent and
 * prints its stream (Print). Ctrl-C (SIGINT) or SIGTERM stops the run gracefully: work in flight is interrupted,
 * running processes are killed, and the output still ends with a result; a second signal stops at once.
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { join, resolve } from "node:path"
import * as Session from "../agent/Session.js"
import * as CommandExpansion from "../extensions/CommandExpansion.js"
import { Extensions } from "../extensions/Extensions.js"
import { McpClient } from "../mcp/McpClient.js"
import * as McpPrompt from "../mcp/McpPrompt.js"
import { Permissions } from "../permissions/Permissions.js"
import type { PrintOptions } from "./CliOptions.js"
import { type CliError, Outcome, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import { print } from "./Print.js"
import * as SessionSetup from "./SessionSetup.js"
import { apiKeySource, credentials, withRedactingLogger } from "./SessionSetup.js"
import * as Stdin from "./Stdin.js"
import { version } from "./Version.js"

/** The print command's options, as the options table declares them (CliOptions.ts). */
export type PrintCommandOptions = PrintOptions

/** Bounds what stdin may bring. */
const maxStdinBytes = 10 * 1024 * 1024
/** With a prompt given, how long an open but silent stdin may hold the run up (Claude Code waits as long). */
const stdinWait = "3 seconds"

/** Runs the prompt and prints the run; how it ended is the Outcome (main.ts makes it the exit code). */
export const runPrint = (options: PrintCommandOptions): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    // The session to go on with (--resume, --continue) or the id to use (--session-id), read before anything else
    // so that a wrong one is said at once; the store that read it records the run.
    const started = yield* SessionSetup.resolveStart(options)
    yield* SessionSetup.consoleToStderr

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

    const loaded = yield* SessionSetup.load(options, started.cwd)
    const abort = yield* Deferred.make<void>()
    const session = SessionSetup.layer(options, started, loaded, {
      // Only what `-p` prints: no events for a host.
      hostEvents: false,
      streamDeltas: options.outputFormat === "stream-json" && options.includePartialMessages
    })
    const printing = Effect.gen(function* () {
      for (const warning of (yield* Permissions).warnings) yield* Output.stderr(credentials.redact(`${warning}\n`)).pipe(Effect.ignore)
      const mcp = yield* McpClient
      const mcpServers = yield* mcp.servers
      if (options.verbose) yield* SessionSetup.reportFailedServers(mcpServers)
      yield* SessionSetup.reportSandbox
      // `/mcp__<server>__<prompt> args`: the MCP prompt's messages are the user turn.
      const userPrompt = (yield* McpPrompt.expand(mcp, prompt).pipe(Effect.mapError((error) => new UsageError({ message: error.message })))) ?? prompt
      const conversation = yield* Session.Session
      // `/name args`: a custom command or skill expanded (CommandExpansion: its allowed-tools granted, its model the
      // session's); the skills listed to the model. A refused `!`cmd`` or `@path` ends the run as an error before
      // any request, the reason on stderr.
      const command = yield* Effect.result(CommandExpansion.prepare(userPrompt, { sessionId: conversation.sessionId }))
      if (command._tag === "Success" && command.success.model !== undefined) yield* conversation.setModel(command.success.model)
      if (command._tag === "Failure" && options.outputFormat !== "text") {
        yield* Output.stderr(credentials.redact(`weft: ${command.failure.message}\n`)).pipe(Effect.ignore)
      }
      // One prompt, the last of the session: its events up to its Result (SessionEnd hooks run before it); the run
      // is over once the prompt is answered, after the Session has recorded that those hooks ran (closing it at the
      // Result alone ran them a second time).
      const events = yield* conversation.subscribe
      const submitted = command._tag === "Success"
        ? yield* conversation.submit(command.success.content, { endsSession: true, abort, reminders: command.success.reminders }).pipe(Effect.orDie)
        : undefined
      const turn = command._tag === "Failure"
        ? Stream.fromEffect(CommandExpansion.refusedResult(command.failure, conversation.sessionId))
        : events.pipe(Stream.takeUntil((event) => event._tag === "Result"))
      const answered = submitted === undefined ? Effect.void : Effect.asVoid(submitted.result)
      return yield* print((onEvent) => Effect.andThen(Stream.runForEach(turn, onEvent), answered), {
        ...CommandExpansion.initLists(yield* Extensions),
        outputFormat: options.outputFormat,
        verbose: options.verbose,
        includePartialMessages: options.includePartialMessages,
        apiKeySource: yield* apiKeySource(loaded.settings),
        agents: (loaded.agents ?? []).map((definition) => definition.name),
        version,
        write: (text) => Output.stdout(credentials.redact(text)),
        writeError: (text) => Output.stderr(credentials.redact(text))
      })
    }).pipe(Effect.scoped, Effect.provide(session))

    return yield* SessionSetup.awaitRun(printing, Deferred.succeed(abort, undefined).pipe(Effect.asVoid), (result) =>
      result === undefined || result.isError ? Outcome.Failed() : Outcome.Succeeded()
    )
  }).pipe(Effect.scoped, withRedactingLogger)
