/**
 * McpClient: the session's MCP servers (McpConfig) as tools, resources and prompts, on the official client library
 * (McpConnection.ts, loaded on first use: a session without servers never loads it).
 *
 * - Each connection is a scoped resource in a scope of its own under the layer's: closing it closes the client and
 *   ends a stdio server's process group (TERM, then KILL after a grace period). The layer's release closes them all.
 * - Servers connect concurrently when the layer is built; building waits for them at most the connect timeout
 *   (`MCP_TIMEOUT`, default 30 s), after which a server still connecting is `pending` and one that could not is
 *   `failed`. A failed server is tried again on its next use, with backoff (1 s doubling to 30 s); one that dies
 *   (its process exits, its stream breaks) is `failed` with "Connection closed" and is reconnected on the next call.
 * - Every request is an Effect whose interruption aborts it: the library sends the server `notifications/cancelled`.
 *   A tool call is bounded by `MCP_TOOL_TIMEOUT` (ms; the library cancels it the same way).
 * - `notifications/tools/list_changed` re-lists the server's tools (every page); `tools()` always answers the
 *   current set, so the next model request carries it.
 * - What servers ask of the client: `roots/list` is answered with the workspace directories (and
 *   `notifications/roots/list_changed` sent when `setRoots` changes them); elicitation goes to `elicit` (declined
 *   when there is none: nobody can answer); sampling to `sample` (not declared without one); logging notifications
 *   are kept (the last 200).
 */
import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool as McpTool
} from "@modelcontextprotocol/client"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as ChildEnvironment from "../platform/ChildEnvironment.js"
import * as Credentials from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import { terminateGroup } from "../tools/shell/ProcessGroup.js"
import type { Connection, ConnectOptions, HttpParams, Root } from "./McpConnection.js"
import type { Server } from "./McpConfig.js"

export type Status = "connected" | "pending" | "failed"

export interface ServerStatus {
  readonly name: string
  readonly status: Status
  /** Why a failed server failed. */
  readonly error?: string
}

/** A log message a server sent (`notifications/message`). */
export interface LogEntry {
  readonly server: string
  readonly level: string
  readonly logger?: string
  readonly data: unknown
}

export interface ServerTools {
  readonly server: string
  readonly tools: ReadonlyArray<McpTool>
}

/** A request to a server failed: not connected, the connection closed, the server answered an error, a timeout. */
export class McpError extends Data.TaggedError("McpError")<{ readonly server: string; readonly message: string }> {}

export interface Interface {
  /** Every configured server and its state, in configuration order. */
  readonly servers: Effect.Effect<ReadonlyArray<ServerStatus>>
  /** The tools each server offers now (a connected server's current list; a failed one's last known). */
  readonly tools: () => ReadonlyArray<ServerTools>
  /** Whether any connected server offers resources. */
  readonly hasResources: () => boolean
  /** A tick each time some server's tools, prompts or resources change. */
  readonly changes: Stream.Stream<void>
  readonly callTool: (
    server: string,
    tool: string,
    args: Readonly<Record<string, unknown>>
  ) => Effect.Effect<CallToolResult, McpError>
  /** Resources of one server, or of every connected server that offers them. */
  readonly listResources: (
    server?: string
  ) => Effect.Effect<ReadonlyArray<{ readonly server: string; readonly resource: Resource }>, McpError>
  readonly readResource: (server: string, uri: string) => Effect.Effect<ReadResourceResult, McpError>
  readonly listPrompts: (
    server?: string
  ) => Effect.Effect<ReadonlyArray<{ readonly server: string; readonly prompt: Prompt }>, McpError>
  readonly getPrompt: (
    server: string,
    name: string,
    args?: Readonly<Record<string, string>>
  ) => Effect.Effect<GetPromptResult, McpError>
  /** Replaces the workspace directories offered as roots; connected servers are told they changed. */
  readonly setRoots: (directories: ReadonlyArray<string>) => Effect.Effect<void>
  /** The last log messages servers sent (at most 200). */
  readonly logs: Effect.Effect<ReadonlyArray<LogEntry>>
}

export interface Options {
  readonly servers: ReadonlyArray<Server>
  /** The project directory: stdio servers run there, with CLAUDE_PROJECT_DIR set to it. */
  readonly cwd: string
  /** The workspace directories, offered as roots (default: cwd). */
  readonly roots?: ReadonlyArray<string> | undefined
  /**
   * A stdio server's environment, given what its configuration names: everything of weft's environment but its
   * credentials, plus `explicit` (ChildEnvironment's `process`). Default: this process's environment without the
   * credentials in it.
   */
  readonly childEnv?: ((explicit: Readonly<Record<string, string>>) => Effect.Effect<Record<string, string>>) | undefined
  /** Connect timeout in ms (default `MCP_TIMEOUT`, else 30 000). */
  readonly connectTimeoutMs?: number | undefined
  /** Tool call timeout in ms (default `MCP_TOOL_TIMEOUT`, else about 27 hours, as Claude Code's). */
  readonly toolTimeoutMs?: number | undefined
  /** Answers elicitation requests (default: decline). */
  readonly elicit?: ((server: string, request: ElicitRequest["params"]) => Effect.Effect<ElicitResult>) | undefined
  /** Answers sampling requests; without it the client does not offer sampling. */
  readonly sample?: ((server: string, request: CreateMessageRequest["params"]) => Effect.Effect<CreateMessageResult>) | undefined
  readonly clientVersion?: string | undefined
  /** For an http or sse server: the fetch its requests go through and its OAuth provider (a host's). */
  readonly http?: ((server: string) => Pick<HttpParams, "fetch" | "authProvider"> | undefined) | undefined
  /** How long a stopping stdio server gets between SIGTERM and SIGKILL (default 2 000 ms). */
  readonly killGraceMs?: number | undefined
}

type State =
  | { readonly _tag: "Pending" }
  | { readonly _tag: "Connected"; readonly connection: Connection; readonly scope: Scope.Closeable }
  | { readonly _tag: "Failed"; readonly message: string; readonly attempts: number; readonly retryAt: number }

interface Handle {
  readonly server: Server
  state: State
  tools: ReadonlyArray<McpTool>
  hasResources: boolean
  /** The connection attempt in flight, which later users wait for rather than start another. */
  inFlight: Deferred.Deferred<Connection, McpError> | undefined
}

const MAX_LOGS = 200
const BACKOFF_BASE_MS = 1_000
const BACKOFF_MAX_MS = 30_000
/** Claude Code's default tool timeout: in effect, none. */
const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000

const defaultChildEnv = (explicit: Readonly<Record<string, string>>) =>
  Effect.sync(() => ChildEnvironment.forProcess(process.env, Credentials.valuesFromEnv(process.env), explicit))

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const loadConnection = Effect.promise(() => import("./McpConnection.js"))

export class McpClient extends Context.Service<McpClient, Interface>()("weft/McpClient") {
  /** Connects the servers (see the module's comment); released with the scope. */
  static make = (options: Options): Effect.Effect<Interface, never, Scope.Scope> => make(options)

  static layer = (options: Options): Layer.Layer<McpClient> => Layer.effect(McpClient, make(options))

  /** No servers. */
  static none: Interface = {
    servers: Effect.succeed([]),
    tools: () => [],
    hasResources: () => false,
    changes: Stream.empty,
    callTool: (server) => Effect.fail(new McpError({ server, message: `No MCP server named ${server}` })),
    listResources: () => Effect.succeed([]),
    readResource: (server) => Effect.fail(new McpError({ server, message: `No MCP server named ${server}` })),
    listPrompts: () => Effect.succeed([]),
    getPrompt: (server) => Effect.fail(new McpError({ server, message: `No MCP server named ${server}` })),
    setRoots: () => Effect.void,
    logs: Effect.succeed([])
  }
}

const make = (options: Options): Effect.Effect<Interface, never, Scope.Scope> =>
  Effect.gen(function* () {
    const layerScope = yield* Effect.scope
    // Callbacks from the client library run in the context the layer was built in.
    const context = yield* Effect.context<never>()
    const runFork = Effect.runForkWith(context)
    const runPromise = Effect.runPromiseWith(context)
    const connectTimeoutMs =
      options.connectTimeoutMs ?? Option.getOrElse(yield* Variables.positiveInt("MCP_TIMEOUT"), () => DEFAULT_CONNECT_TIMEOUT_MS)
    const toolTimeoutMs =
      options.toolTimeoutMs ?? Option.getOrElse(yield* Variables.positiveInt("MCP_TOOL_TIMEOUT"), () => DEFAULT_TOOL_TIMEOUT_MS)
    const graceMs = options.killGraceMs ?? 2_000
    const childEnv = options.childEnv ?? defaultChildEnv
    const cwd = resolve(options.cwd)
    let roots: ReadonlyArray<Root> = toRoots(options.roots ?? [cwd])
    const logs: Array<LogEntry> = []
    const changes = yield* PubSub.sliding<void>(16)
    let shuttingDown = false
    yield* Effect.addFinalizer(() => Effect.sync(() => (shuttingDown = true)))

    const handles: Array<Handle> = options.servers.map((server) => ({
      server,
      state: { _tag: "Pending" },
      tools: [],
      hasResources: false,
      inFlight: undefined
    }))
    const byName = new Map(handles.map((handle) => [handle.server.name, handle]))

    const notConnected = (handle: Handle, message: string) =>
      new McpError({ server: handle.server.name, message: `MCP server "${handle.server.name}": ${message}` })

    const fail = (handle: Handle, message: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const attempts = handle.state._tag === "Failed" ? handle.state.attempts + 1 : 1
        handle.state = {
          _tag: "Failed",
          message,
          attempts,
          retryAt: now + Math.min(BACKOFF_BASE_MS * 2 ** (attempts - 1), BACKOFF_MAX_MS)
        }
      })

    /**
     * A request to a connected server, aborted (and so cancelled at the server) when interrupted. A request that
     * finds the connection closed marks the server failed at once, so the next use reconnects.
     */
    const request = <A>(handle: Handle, connection: Connection, run: (signal: AbortSignal) => Promise<A>) =>
      Effect.tryPromise({
        try: run,
        catch: (error) => notConnected(handle, messageOf(error))
      }).pipe(
        Effect.tapError((error) =>
          error.message.includes("Connection closed") ? connectionLost(handle, connection) : Effect.void
        )
      )

    /** The server behind `connection` is gone: failed, to be reconnected on its next use; its scope closed. */
    const connectionLost = (handle: Handle, connection: Connection) =>
      Effect.suspend(() => {
        const state = handle.state
        if (shuttingDown || state._tag !== "Connected" || state.connection !== connection) return Effect.void
        const tail = connection.stderrTail().trim().split("\n").slice(-5).join("\n")
        // Reconnected on the next use, at once (as Claude Code restarts a server that died).
        handle.state = { _tag: "Failed", message: tail === "" ? "Connection closed" : `Connection closed\n${tail}`, attempts: 0, retryAt: 0 }
        return Scope.close(state.scope, Exit.void)
      })

    const relist = (handle: Handle, connection: Connection) =>
      Effect.gen(function* () {
        const capabilities = connection.client.getServerCapabilities()
        const tools = capabilities?.tools
          ? (yield* request(handle, connection, (signal) => connection.client.listTools(undefined, { signal, cacheMode: "refresh" })))
              .tools
          : []
        handle.tools = tools
        handle.hasResources = capabilities?.resources !== undefined
        yield* PubSub.publish(changes, undefined)
      })

    /** The connection's release: close the client, then make sure a stdio server's group is gone. */
    const release = (connection: Connection) =>
      Effect.promise(() => connection.close()).pipe(
        Effect.timeout("2 seconds"),
        Effect.ignore,
        Effect.andThen(Effect.suspend(() => {
          const pid = connection.pid()
          return pid === undefined ? Effect.void : terminateGroup(pid, graceMs)
        }))
      )

    const onClose = (handle: Handle, connection: () => Connection | undefined) => () => {
      const closed = connection()
      if (closed !== undefined) runFork(connectionLost(handle, closed))
    }

    const elicit = options.elicit
    const sample = options.sample
    const connectOptions = (handle: Handle, onClose: () => void): Omit<ConnectOptions, "params"> => ({
      name: handle.server.name,
      clientName: "weft",
      clientVersion: options.clientVersion ?? "0.0.0",
      timeoutMs: connectTimeoutMs,
      roots: () => roots,
      ...(elicit
        ? { elicit: (params: ElicitRequest["params"]) => runPromise(elicit(handle.server.name, params)) }
        : {}),
      ...(sample
        ? { sample: (params: CreateMessageRequest["params"]) => runPromise(sample(handle.server.name, params)) }
        : {}),
      onListChanged: (list) => {
        const state = handle.state
        if (list === "tools" && state._tag === "Connected") runFork(Effect.ignore(relist(handle, state.connection)))
        else runFork(PubSub.publish(changes, undefined))
      },
      onLog: (params) => {
        logs.push({
          server: handle.server.name,
          level: params.level,
          ...(params.logger === undefined ? {} : { logger: params.logger }),
          data: params.data
        })
        if (logs.length > MAX_LOGS) logs.splice(0, logs.length - MAX_LOGS)
      },
      onClose
    })

    /** One connection attempt: a scope of its own, the process spawned, the handshake, the tools listed. */
    const attempt = (handle: Handle): Effect.Effect<Connection, McpError> =>
      Effect.gen(function* () {
        const config = handle.server.config
        if ("_tag" in config) return yield* new McpError({ server: handle.server.name, message: config.message })
        const module = yield* loadConnection
        const scope = yield* Scope.fork(layerScope, "sequential")
        const params: ConnectOptions["params"] =
          config.type === "stdio"
            ? {
                type: "stdio",
                command: config.command,
                args: config.args,
                cwd: config.cwd === undefined ? cwd : resolve(cwd, config.cwd),
                env: yield* childEnv({ CLAUDE_PROJECT_DIR: cwd, ...config.env })
              }
            : config.type === "sdk"
              ? {
                  type: "sdk",
                  send: (message) => runPromise(config.send(message).pipe(Effect.mapError((error) => new Error(error.message))))
                }
              : { type: config.type, url: config.url, headers: config.headers, ...options.http?.(handle.server.name) }
        let opened: Connection | undefined
        const connection = module.open({ ...connectOptions(handle, onClose(handle, () => opened)), params })
        opened = connection
        yield* Scope.addFinalizer(scope, release(connection))
        const connected = Effect.gen(function* () {
          yield* request(handle, connection, () => connection.connect()).pipe(
            Effect.timeoutOrElse({
              duration: connectTimeoutMs,
              orElse: () => Effect.fail(notConnected(handle, `did not connect within ${connectTimeoutMs} ms (MCP_TIMEOUT)`))
            })
          )
          handle.state = { _tag: "Connected", connection, scope }
          yield* relist(handle, connection)
          return connection
        })
        return yield* connected.pipe(Effect.onError(() => Scope.close(scope, Exit.void)))
      })

    /** The server's connection: as it is, the attempt in flight, or a new attempt unless backing off. */
    const ensure = (handle: Handle): Effect.Effect<Connection, McpError> =>
      Effect.clockWith((clock) => {
        const state = handle.state
        if (state._tag === "Connected") return Effect.succeed(state.connection)
        if (handle.inFlight) return Deferred.await(handle.inFlight)
        const now = clock.currentTimeMillisUnsafe()
        if (state._tag === "Failed" && now < state.retryAt) {
          const seconds = Math.ceil((state.retryAt - now) / 1000)
          return Effect.fail(notConnected(handle, `${state.message} (not connected; tried again in ${seconds} s)`))
        }
        return start(handle).pipe(Effect.flatMap(Deferred.await))
      })

    /** Starts an attempt in the layer's scope (so a caller's interruption does not leave it half done). */
    const start = (handle: Handle) =>
      Effect.gen(function* () {
        const deferred = yield* Deferred.make<Connection, McpError>()
        handle.inFlight = deferred
        yield* attempt(handle).pipe(
          // A defect (the client library failing to load, say) fails this server, never the session.
          Effect.catchDefect((defect) => Effect.fail(notConnected(handle, messageOf(defect)))),
          Effect.tapError((error) => fail(handle, error.message.replace(`MCP server "${handle.server.name}": `, ""))),
          Effect.exit,
          Effect.flatMap((exit) => Effect.sync(() => (handle.inFlight = undefined)).pipe(Effect.andThen(Deferred.done(deferred, exit)))),
          Effect.forkIn(layerScope)
        )
        return deferred
      })

    const handleOf = (server: string) => {
      const handle = byName.get(server)
      return handle ? Effect.succeed(handle) : Effect.fail(new McpError({ server, message: `No MCP server named ${server}` }))
    }

    // Every server at once; building waits for them at most the connect timeout (each attempt is bounded by it).
    const attempts = yield* Effect.forEach(handles, start)
    const all = Effect.forEach(attempts, (deferred) => Effect.exit(Deferred.await(deferred)), { discard: true })
    yield* all.pipe(Effect.timeout(connectTimeoutMs + 100), Effect.ignore)

    const statusOf = (handle: Handle): ServerStatus => {
      const state = handle.state
      if (state._tag === "Connected") return { name: handle.server.name, status: "connected" }
      if (state._tag === "Pending" || handle.inFlight) return { name: handle.server.name, status: "pending" }
      return { name: handle.server.name, status: "failed", error: state.message }
    }

    const connectedWith = <A>(
      server: string | undefined,
      offers: (handle: Handle) => boolean,
      list: (handle: Handle, connection: Connection) => Effect.Effect<ReadonlyArray<A>, McpError>
    ) =>
      Effect.gen(function* () {
        const chosen = server === undefined ? handles.filter((handle) => handle.state._tag === "Connected" && offers(handle)) : [yield* handleOf(server)]
        const lists = yield* Effect.forEach(chosen, (handle) => Effect.flatMap(ensure(handle), (connection) => list(handle, connection)), {
          concurrency: "unbounded"
        })
        return lists.flat()
      })

    return {
      servers: Effect.sync(() => handles.map(statusOf)),
      tools: () => handles.filter((handle) => handle.tools.length > 0).map((handle) => ({ server: handle.server.name, tools: handle.tools })),
      hasResources: () => handles.some((handle) => handle.state._tag === "Connected" && handle.hasResources),
      changes: Stream.fromPubSub(changes),
      // The hot path of MCP: a connected server's call is one request with nothing around it. No span of its own:
      // one cost more than the rest of weft's part of a call (mcp-call bench), and the loop's Agent.runTools span
      // holds the calls of a turn.
      callTool: (server, tool, args) =>
        Effect.suspend(() => {
          const handle = byName.get(server)
          if (handle === undefined) return Effect.fail(new McpError({ server, message: `No MCP server named ${server}` }))
          const call = (connection: Connection) =>
            request(handle, connection, (signal) =>
              connection.client.callTool({ name: tool, arguments: { ...args } }, { signal, timeout: toolTimeoutMs })
            )
          const state = handle.state
          return state._tag === "Connected" ? call(state.connection) : Effect.flatMap(ensure(handle), call)
        }),
      listResources: (server) =>
        connectedWith(server, (handle) => handle.hasResources, (handle, connection) =>
          request(handle, connection, (signal) => connection.client.listResources(undefined, { signal })).pipe(
            Effect.map((result) => result.resources.map((resource) => ({ server: handle.server.name, resource })))
          )
        ),
      readResource: (server, uri) =>
        Effect.gen(function* () {
          const handle = yield* handleOf(server)
          const connection = yield* ensure(handle)
          return yield* request(handle, connection, (signal) => connection.client.readResource({ uri }, { signal }))
        }),
      listPrompts: (server) =>
        connectedWith(
          server,
          (handle) => handle.state._tag === "Connected" && handle.state.connection.client.getServerCapabilities()?.prompts !== undefined,
          (handle, connection) =>
            request(handle, connection, (signal) => connection.client.listPrompts(undefined, { signal })).pipe(
              Effect.map((result) => result.prompts.map((prompt) => ({ server: handle.server.name, prompt })))
            )
        ),
      getPrompt: (server, name, args) =>
        Effect.gen(function* () {
          const handle = yield* handleOf(server)
          const connection = yield* ensure(handle)
          return yield* request(handle, connection, (signal) =>
            connection.client.getPrompt({ name, ...(args ? { arguments: { ...args } } : {}) }, { signal })
          )
        }),
      setRoots: (directories) =>
        Effect.gen(function* () {
          roots = toRoots(directories)
          yield* Effect.forEach(
            handles,
            (handle) =>
              handle.state._tag === "Connected"
                ? Effect.ignore(request(handle, handle.state.connection, () => (handle.state._tag === "Connected" ? handle.state.connection.client.sendRootsListChanged() : Promise.resolve())))
                : Effect.void,
            { discard: true }
          )
        }),
      logs: Effect.sync(() => [...logs])
    } satisfies Interface
  })

const toRoots = (directories: ReadonlyArray<string>): ReadonlyArray<Root> =>
  directories.map((directory) => {
    const path = resolve(directory)
    return { uri: pathToFileURL(path).href, name: path }
  })
