/**
 * `weft --input-format stream-json --output-format stream-json` (with or without -p): the Claude Agent SDK's
 * protocol, as a host of the Session. Programs written for the SDKs (`query()` with `pathToClaudeCodeExecutable`)
 * drive weft through it; docs/sdk.md has the wire.
 *
 * stdin is read line by line for the whole session, while turns run (Stdin.lines, Frames.decode):
 * - user frames are prompts, submitted to the Session as they come (answered one at a time, in order); a `/name`
 *   one is a custom command or skill, expanded when its turn begins (`commandOf`);
 * - control requests from the program (initialize, interrupt, set_permission_mode, set_model, mcp_status,
 *   mcp_message) are served each in a fiber of its own; any other subtype gets an error response;
 * - control responses answer weft's own requests (can_use_tool, hook_callback, mcp_message: ControlChannel);
 * - a malformed line, a frame of unknown type or a response nobody waits for is said on stderr (a malformed control
 *   request with an id gets an error response), and the session goes on.
 * The Session is built when the first frame says how: an initialize request (hooks, system prompt, in-process MCP
 * servers) or the first user message (defaults). stdout carries the Session's events as Claude Code's frames, with
 * one system/init frame per user turn. stdin closed: the prompts already given are answered, the session ends
 * (SessionEnd hooks) and weft exits 0. SIGINT or SIGTERM ends the turn in flight and the session; a second one stops
 * at once.
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Session from "../../agent/Session.js"
import * as AgentDefinitions from "../../extensions/AgentDefinitions.js"
import { Settings } from "../../context/Settings.js"
import type { AgentEvent, SessionStarted } from "../../domain/AgentEvent.js"
import * as Content from "../../domain/ContentGuards.js"
import { isRecord } from "../../domain/Json.js"
import type { MessageParam } from "../../domain/Message.js"
import { McpClient } from "../../mcp/McpClient.js"
import type * as McpConfig from "../../mcp/McpConfig.js"
import * as McpPrompt from "../../mcp/McpPrompt.js"
import { ApiClient } from "../../model/ApiClient.js"
import { Permissions } from "../../permissions/Permissions.js"
import * as Prompter from "../../permissions/Prompter.js"
import * as Uuid from "../../platform/Uuid.js"
import * as Variables from "../../platform/Variables.js"
import { type PrintOptions, permissionModes } from "../CliOptions.js"
import { type CliError, Outcome } from "../Outcome.js"
import * as Output from "../Output.js"
import * as SessionSetup from "../SessionSetup.js"
import { apiKeySource, credentials, warn, withRedactingLogger } from "../SessionSetup.js"
import * as Stdin from "../Stdin.js"
import { type FrameOptions, toFrame } from "../StreamJson.js"
import * as CommandExpansion from "../../extensions/CommandExpansion.js"
import { Extensions } from "../../extensions/Extensions.js"
import { transcriptPathIn } from "../../session/SessionIds.js"
import { version } from "../Version.js"
import * as ControlChannel from "./ControlChannel.js"
import * as Frames from "./Frames.js"
import * as SdkHooks from "./SdkHooks.js"

/** The longest line stdin may bring (a user message with images fits); a longer one is refused, not kept. */
const maxLineBytes = 32 * 1024 * 1024

/** How the session is to be built: from the program's initialize request, or defaults when a user message came first. */
interface Setup {
  /** The initialize request to answer once the session is built. */
  readonly requestId: string | undefined
  readonly request: Readonly<Record<string, unknown>>
}

/** A prompt as the Session takes it: the user message's text or blocks. */
const promptOf = (message: MessageParam): Session.Prompt => message.content

/**
 * A user message of the form `/name args` (a text, or one text block), expanded when its turn begins as
 * `weft -p "/name args"` is: an MCP prompt (`/mcp__server__prompt args`, McpPrompt) fetched from its server, then
 * a custom command or skill (CommandExpansion): its `!`cmd`` run under the Bash rules and the host's answers, its
 * model for that turn alone; a refused one answers the message with an error result.
 */
const commandOf = (
  message: MessageParam,
  expansion: { readonly loaded: Extensions["Service"]; readonly services: CommandExpansion.Services },
  mcp: McpClient["Service"]
): Session.SubmitOptions["prepare"] => {
  const { content } = message
  const only = typeof content === "string" || content.length !== 1 ? undefined : content[0]
  const text = typeof content === "string" ? content : only !== undefined && Content.isText(only) ? only.text : undefined
  if (text === undefined || CommandExpansion.parseCommand(text) === undefined) return undefined
  const fromMcp = McpPrompt.parse(text) === undefined ? Effect.succeed(text) : Effect.map(McpPrompt.expand(mcp, text), (turn) => turn ?? text)
  return Effect.flatMap(fromMcp, (prompt) => CommandExpansion.expandWith(prompt, expansion.loaded, expansion.services)).pipe(
    Effect.map((expanded): Session.PreparedPrompt => ({
      prompt: expanded.content,
      reminders: expanded.reminders,
      ...(expanded.model === undefined ? {} : { model: expanded.model })
    }))
  )
}

const stringList = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []

/** What initialize's `systemPrompt` (the SDK sends `[text]`; `[""]` for its default, an empty one) and `appendSystemPrompt` ask for. */
const systemPromptOf = (request: Readonly<Record<string, unknown>>): Pick<Session.Options, "systemPrompt" | "appendSystemPrompt"> => {
  const parts = request["systemPrompt"]
  const append = request["appendSystemPrompt"]
  return {
    ...(Array.isArray(parts) ? { systemPrompt: stringList(parts).join("\n\n") } : typeof parts === "string" ? { systemPrompt: parts } : {}),
    ...(typeof append === "string" ? { appendSystemPrompt: append } : {})
  }
}

const isPermissionUpdate = (value: unknown): value is Prompter.PermissionUpdate =>
  isRecord(value) &&
  typeof value["destination"] === "string" &&
  ((["addRules", "replaceRules", "removeRules"].includes(String(value["type"])) && Array.isArray(value["rules"])) ||
    (value["type"] === "setMode" && typeof value["mode"] === "string") ||
    (["addDirectories", "removeDirectories"].includes(String(value["type"])) && Array.isArray(value["directories"])))

/** The program's answer to can_use_tool, as the Session's Prompter answers. */
export const toPromptAnswer = (value: unknown): Prompter.PromptAnswer => {
  if (isRecord(value) && value["behavior"] === "allow") {
    const updates = Array.isArray(value["updatedPermissions"]) ? value["updatedPermissions"].filter(isPermissionUpdate) : []
    return {
      _tag: "Allow",
      ...(isRecord(value["updatedInput"]) ? { updatedInput: value["updatedInput"] } : {}),
      ...(updates.length > 0 ? { updatedPermissions: updates } : {})
    }
  }
  if (isRecord(value) && value["behavior"] === "deny") {
    const message = typeof value["message"] === "string" && value["message"] !== "" ? value["message"] : "The user denied this call."
    return { _tag: "Deny", reason: message, ...(value["interrupt"] === true ? { interrupt: true } : {}) }
  }
  return { _tag: "Deny", reason: "The program driving weft answered the permission ask with neither allow nor deny; the call was not run." }
}

/** Asks the program over `channel` (can_use_tool); a withdrawn or failed ask is a denial. */
const askProgram = (channel: ControlChannel.Interface) =>
  Prompter.fromEffect((request) =>
    channel
      .request({
        subtype: "can_use_tool",
        tool_name: request.toolName,
        display_name: request.toolName,
        input: isRecord(request.input) ? request.input : {},
        description: request.reason,
        decision_reason: request.reason,
        permission_suggestions: request.suggestions ?? [],
        ...(request.blockedPath === undefined ? {} : { blocked_path: request.blockedPath }),
        tool_use_id: request.toolUseId
      })
      .pipe(
        Effect.map(toPromptAnswer),
        Effect.catch((error) =>
          Effect.succeed<Prompter.PromptAnswer>({ _tag: "Deny", reason: `Permission was not granted: the program could not answer (${error.message}).` })
        )
      )
  )

/** An in-process MCP server of the program's (`createSdkMcpServer`), reached by mcp_message requests. */
const sdkServer = (channel: ControlChannel.Interface, name: string): McpConfig.Server => ({
  name,
  scope: "dynamic",
  origin: "sdk",
  config: {
    type: "sdk",
    send: (message) =>
      channel.request({ subtype: "mcp_message", server_name: name, message }).pipe(
        // Only a request has an answer; the SDK acknowledges a notification with an empty one.
        Effect.map((answer) => (isRecord(message) && "method" in message && "id" in message && isRecord(answer) ? answer["mcp_response"] : undefined))
      )
  }
})

/**
 * The servers an inline `--mcp-config` names as `{"type": "sdk"}`: servers in the program's own process (the Python
 * SDK lists them there as well as in initialize). Only the protocol gives them a meaning; a file never does.
 */
const sdkServerNames = (mcpConfigs: ReadonlyArray<string>): ReadonlyArray<string> =>
  mcpConfigs.flatMap((value) => {
    if (!value.trimStart().startsWith("{")) return []
    try {
      const parsed: unknown = JSON.parse(value)
      const servers = isRecord(parsed) ? parsed["mcpServers"] : undefined
      return isRecord(servers) ? Object.entries(servers).flatMap(([name, server]) => (isRecord(server) && server["type"] === "sdk" ? [name] : [])) : []
    } catch {
      return []
    }
  })

/** Runs the protocol until stdin closes; how it ended is the Outcome (exit 0 once the session ended cleanly). */
export const run = (options: PrintOptions): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const started = yield* SessionSetup.resolveStart(options)
    yield* SessionSetup.consoleToStderr
    const loaded = yield* SessionSetup.load(options, started.cwd)
    const write = (frame: ControlChannel.Frame) => Output.stdout(credentials.redact(`${JSON.stringify(frame)}\n`))
    const channel = yield* ControlChannel.make(write)

    const setup = yield* Deferred.make<Setup>()
    const ready = yield* Deferred.make<Session.Interface>()
    const prompts = yield* Queue.unbounded<Frames.InputFrame & { readonly _tag: "User" }, Cause.Done>()
    const defaults = Deferred.succeed(setup, { requestId: undefined, request: {} })

    const dispatch = (frame: Frames.InputFrame): Effect.Effect<void, never, Scope.Scope> => {
      switch (frame._tag) {
        case "User":
          return defaults.pipe(Effect.andThen(Queue.offer(prompts, frame)), Effect.asVoid)
        case "ControlRequest": {
          if (frame.request.subtype === "initialize") {
            return Effect.flatMap(Deferred.succeed(setup, { requestId: frame.requestId, request: frame.request }), (first) =>
              first
                ? Effect.void
                : Effect.ignore(channel.refuse(frame.requestId, "initialize comes once, before the first user message; this session is already set up"))
            )
          }
          return channel.serve(frame.requestId, Effect.flatMap(Deferred.await(ready), (session) => serve(session, frame.request)))
        }
        case "ControlResponse":
          return Effect.flatMap(channel.resolve(frame.requestId, frame.response), (known) =>
            known ? Effect.void : warn(`weft: stdin: a control_response for ${JSON.stringify(frame.requestId)}, which no request of weft's waits for, was ignored\n`)
          )
        case "ControlCancel":
          return Effect.asVoid(channel.cancel(frame.requestId))
        case "KeepAlive":
          return Effect.void
        case "Invalid":
          return frame.requestId === undefined
            ? warn(`weft: stdin: ignored ${frame.message}\n`)
            : Effect.ignore(channel.refuse(frame.requestId, `weft cannot serve this request: ${frame.message}`))
      }
    }

    /** The program's control requests, once the session is there. */
    const serve = (session: Session.Interface, request: Frames.RequestBody): Effect.Effect<ControlChannel.Frame, { readonly message: string }, never> => {
      switch (request.subtype) {
        case "interrupt":
          return Effect.as(session.interrupt, {})
        case "set_permission_mode": {
          const mode = permissionModes.find((known) => known === request["mode"])
          if (mode === undefined) {
            return Effect.fail({ message: `set_permission_mode: ${JSON.stringify(request["mode"])} is not a mode weft has (${permissionModes.join(", ")})` })
          }
          return Effect.as(session.setPermissionMode(mode), {})
        }
        case "set_model": {
          const model = request["model"]
          return Effect.as(session.setModel(typeof model === "string" && model !== "default" ? model : undefined), {})
        }
        case "mcp_status":
          return Effect.map(session.status, (status) => ({
            mcpServers: status.servers.map((server) => ({ name: server.name, status: server.status, ...(server.error === undefined ? {} : { error: server.error }) }))
          }))
        case "mcp_message":
          // A message an in-process server sends by itself (a notification): weft's client reads only answers.
          return Effect.succeed({})
        default:
          return Effect.fail({ message: `Unsupported control request subtype: ${request.subtype}` })
      }
    }

    // stdin, line by line, for as long as it is open; its end means no more prompts.
    const reading = Stdin.lines(process.stdin, maxLineBytes).pipe(
      Stream.runForEach((line) =>
        line._tag === "TooLong"
          ? warn(`weft: stdin: a line of ${line.bytes} bytes is over the ${maxLineBytes}-byte limit; it was ignored\n`)
          : Effect.suspend(() => {
              const frame = Frames.decode(line.text)
              return frame === undefined ? Effect.void : dispatch(frame)
            })
      ),
      Effect.catch((error) => warn(`weft: ${error.message}\n`)),
      Effect.ensuring(defaults.pipe(Effect.andThen(Queue.end(prompts)), Effect.andThen(channel.inputEnded))),
      Effect.scoped
    )
    yield* Effect.forkScoped(reading)

    const { requestId, request } = yield* Deferred.await(setup)
    const hookConfig = SdkHooks.decode(request["hooks"])
    for (const warning of hookConfig.warnings) yield* warn(`weft: ${warning}\n`)
    // The program's agents (initialize's `agents`) win over every file's, as --agents does.
    const programAgents = AgentDefinitions.fromJson(isRecord(request["agents"]) ? request["agents"] : {}, "sdk")
    if (programAgents.error !== undefined) yield* warn(`weft: initialize: agents: ${programAgents.error}\n`)
    const agents = loaded.agents === undefined ? undefined : AgentDefinitions.merge(loaded.agents, programAgents.definitions)
    const hostServers = new Set([...stringList(request["sdkMcpServers"]), ...sdkServerNames(options.mcpConfigs)])
    const session = SessionSetup.layer(
      options,
      started,
      // An in-process server named in --mcp-config is reached over the protocol, not by its (empty) configuration.
      {
        ...loaded,
        agents,
        mcpServers: loaded.mcpServers.filter((server) => !(server.origin === "--mcp-config" && hostServers.has(server.name)))
      },
      {
        hostEvents: false,
        // The program answers permission questions: leaving plan mode is one of them (ExitPlanMode).
        ...(options.permissionPromptTool === "stdio" ? { exitPlanMode: true } : {}),
        streamDeltas: options.includePartialMessages,
        ...systemPromptOf(request),
        ...(options.permissionPromptTool === "stdio" ? { prompter: askProgram(channel) } : {})
      },
      [...hostServers].map((name) => sdkServer(channel, name))
    )

    const hosting = Effect.gen(function* () {
      const conversation = yield* Session.Session
      for (const warning of (yield* Permissions).warnings) yield* warn(`${warning}\n`)
      const weftHome = yield* Variables.weftHomeOf((yield* Settings).home)
      yield* conversation.registerHooks(
        yield* SdkHooks.make(hookConfig, channel, transcriptPathIn(weftHome))
      )
      const events = yield* conversation.subscribe
      const frames = yield* framesOf(options, loaded.settings, (agents ?? []).map((definition) => definition.name))
      const pump = yield* events.pipe(
        Stream.takeUntil((event) => event._tag === "SessionEnded"),
        Stream.runForEach(frames),
        Effect.forkScoped
      )
      yield* Deferred.succeed(ready, conversation)
      if (requestId !== undefined) {
        const api = yield* ApiClient
        const status = yield* conversation.status
        yield* write({
          type: "control_response",
          response: {
            subtype: "success",
            request_id: requestId,
            response: {
              commands: [],
              agents: (agents ?? []).map((definition) => ({ name: definition.name, description: definition.description })),
              output_style: "default",
              available_output_styles: ["default"],
              models: [{ value: status.model, resolvedModel: api.resolveModel(status.model), displayName: status.model, description: "The session's model" }],
              account: {},
              pid: process.pid,
              claude_code_version: version,
              permission_mode: status.permissionMode,
              capabilities: [],
              ...(isRecord(request["hooks"]) ? { hooks_applied: true } : {})
            }
          }
        })
      }

      // The prompts, submitted as they come; the Session answers them in turn.
      const turns: Array<Effect.Effect<unknown>> = []
      // The skills are listed to the model with the first prompt.
      let reminders = yield* CommandExpansion.listingReminders
      const expansion = yield* CommandExpansion.sessionServices(conversation.sessionId)
      const mcp = yield* McpClient
      for (const warning of expansion.loaded.warnings) yield* warn(`weft: ${warning}\n`)
      const answering = Effect.gen(function* () {
        yield* Queue.take(prompts).pipe(
          Effect.flatMap((frame) =>
            // --replay-user-messages: each prompt acknowledged as it is taken.
            (options.replayUserMessages
              ? Effect.flatMap(frame.uuid === undefined ? Uuid.v4 : Effect.succeed(frame.uuid), (uuid) =>
                  write({ type: "user", message: frame.message, session_id: conversation.sessionId, parent_tool_use_id: null, uuid, isReplay: true })
                )
              : Effect.void
            ).pipe(
              Effect.andThen(
                Effect.suspend(() => {
                  const prepare = commandOf(frame.message, expansion, mcp)
                  const submitted = conversation.submit(promptOf(frame.message), { reminders, ...(prepare === undefined ? {} : { prepare }) })
                  reminders = []
                  return submitted
                })
              ),
              Effect.tap((turn) => Effect.sync(() => void turns.push(turn.result))),
              Effect.catchTag("SessionError", (error) => warn(`weft: a user message was not taken: ${error.message}\n`))
            )
          ),
          Effect.forever,
          Effect.catchIf(Cause.isDone, () => Effect.void)
        )
        yield* Effect.forEach(turns, (result) => result, { discard: true })
        // The program's requests still being served are answered before the session ends.
        yield* channel.drain
        yield* conversation.end("other")
      })
      // The frames stop only at the session's end, or when stdout's reader went away: then everything stops.
      yield* Effect.raceFirst(answering, Fiber.join(pump).pipe(Effect.andThen(Effect.never)))
      // SessionEnded closes the frames once a prompt announced the session; without one, nothing more comes.
      if (turns.length > 0) yield* Fiber.join(pump)
      else yield* Fiber.interrupt(pump)
    }).pipe(Effect.scoped, Effect.provide(session))

    // On a first signal the turn in flight ends gracefully and the session with it; prompts not begun are not answered.
    const graceful = Queue.end(prompts).pipe(
      Effect.andThen(Deferred.poll(ready)),
      Effect.flatMap((found) => (Option.isSome(found) ? Effect.flatMap(found.value, (conversation) => conversation.end("other")) : Effect.void))
    )
    return yield* SessionSetup.awaitRun(hosting, graceful, () => Outcome.Succeeded())
  }).pipe(Effect.scoped, withRedactingLogger)

/**
 * The Session's events as frames: Claude Code's (StreamJson), with a system/init frame at the start of every
 * prompt's turn (the first one is the session's announcement; later ones carry the model and mode in force).
 */
const framesOf = (options: PrintOptions, settings: Settings["Service"], agents: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const uuid = yield* Uuid.maker
    const frameOptions: FrameOptions = {
      // The custom commands and skills the init frame lists.
      ...CommandExpansion.initLists(yield* Extensions),
      includePartialMessages: options.includePartialMessages,
      apiKeySource: yield* apiKeySource(settings),
      agents,
      version,
      verbose: options.verbose
    }
    let announced: SessionStarted | undefined
    const write = (frame: ControlChannel.Frame | undefined) =>
      frame === undefined ? Effect.void : Output.stdout(credentials.redact(`${JSON.stringify(frame)}\n`))
    const init = () => (announced === undefined ? undefined : toFrame(announced, announced.sessionId, frameOptions, uuid))
    return (event: AgentEvent) => {
      switch (event._tag) {
        case "SessionStarted":
          announced = event
          return write(init())
        case "TurnStarted":
          // The first prompt's turn is announced by SessionStarted, which follows.
          return event.kind === "prompt" && announced !== undefined ? write(init()) : Effect.void
        case "ModelChanged":
          if (announced !== undefined) announced = { ...announced, model: event.model }
          return Effect.void
        case "PermissionModeChanged":
          if (announced !== undefined) announced = { ...announced, permissionMode: event.mode }
          return Effect.void
        default:
          return write(toFrame(event, announced?.sessionId ?? "", frameOptions, uuid))
      }
    }
  })
