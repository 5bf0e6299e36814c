/**
 * The edge between weft and the official MCP client library: one connected `Client` over stdio, Streamable HTTP or
 * legacy SSE, with weft's answers to what servers ask of a client (roots, elicitation, sampling, pings) and its
 * notifications handed to callbacks. Plain Promises and Node.js here; McpClient.ts makes Effects of them.
 *
 * Kept free of effect and of the rest of weft: the `weft` binary builds this module into a bundle of its own
 * (dist/bin/weft-mcp.cjs) that only a session with MCP servers loads, so a session without them starts as fast as
 * ever.
 *
 * stdio servers run through `ProcessGroupTransport` rather than the library's StdioClientTransport: the server
 * runs in a process group of its own (so an `npx` wrapper's children go with it), with exactly the environment
 * weft gives it, and with stderr kept to a bounded tail for error messages.
 */
import {
  Client,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  ReadBuffer,
  serializeMessage,
  SSEClientTransport,
  StreamableHTTPClientTransport
} from "@modelcontextprotocol/client"
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  FetchLike,
  JSONRPCMessage,
  OAuthClientProvider,
  LoggingMessageNotification,
  Transport
} from "@modelcontextprotocol/client"
import { type ChildProcess, spawn } from "node:child_process"

/** How much of a server's stderr is kept for error messages (the rest is dropped as it comes). */
export const STDERR_TAIL_BYTES = 16 * 1024

export interface StdioParams {
  readonly type: "stdio"
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** The whole environment of the server (weft builds it: no credentials unless the configuration names them). */
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
}

export interface HttpParams {
  readonly type: "http" | "sse"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The fetch requests go through (a host's middleware: OAuth, tracing). */
  readonly fetch?: FetchLike | undefined
  /** OAuth for a server that asks for it (the library runs the flow). */
  readonly authProvider?: OAuthClientProvider | undefined
}

/**
 * A server living in the host process (the Agent SDK's `createSdkMcpServer`): each JSON-RPC message is handed to
 * `send`, whose answer (a response, or nothing for a notification) comes back as the server's message.
 */
export interface HostParams {
  readonly type: "sdk"
  readonly send: (message: JSONRPCMessage) => Promise<unknown>
}

export interface Root {
  readonly uri: string
  readonly name?: string
}

export interface ConnectOptions {
  readonly name: string
  readonly params: StdioParams | HttpParams | HostParams
  readonly clientName: string
  readonly clientVersion: string
  /** The connect handshake's timeout. */
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  /** Answers `roots/list`. */
  readonly roots: () => ReadonlyArray<Root>
  /** Answers `elicitation/create`; declined when absent (nobody can answer). */
  readonly elicit?: ((request: ElicitRequest["params"]) => Promise<ElicitResult>) | undefined
  /** Answers `sampling/createMessage`; the capability is declared only when given. */
  readonly sample?: ((request: CreateMessageRequest["params"]) => Promise<CreateMessageResult>) | undefined
  readonly onListChanged: (list: "tools" | "prompts" | "resources") => void
  readonly onLog: (params: LoggingMessageNotification["params"]) => void
  /** The connection ended (the server exited, the stream broke, or close was called). Called once. */
  readonly onClose: () => void
}

export interface Connection {
  readonly client: Client
  /** Starts the transport (spawns a stdio server) and completes the handshake. */
  readonly connect: () => Promise<void>
  /** The stdio server's process id, which is also its process group's id (once started). */
  readonly pid: () => number | undefined
  /** The last of the stdio server's stderr (at most STDERR_TAIL_BYTES). */
  readonly stderrTail: () => string
  readonly close: () => Promise<void>
}

/**
 * A server in the host process (HostParams): a message sent is handed to the host's function without waiting for
 * it (requests may be answered out of order, and a slow tool must not hold the others up); its answer is the
 * server's message. A host that fails, or answers something that is not JSON-RPC, answers a request with an
 * internal error rather than leaving it waiting.
 */
export class HostTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined
  private closed = false

  constructor(private readonly params: HostParams) {}

  start(): Promise<void> {
    return Promise.resolve()
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error("Connection closed"))
    const failed = (reason: string) => {
      this.onerror?.(new Error(reason))
      if (isJSONRPCRequest(message) && !this.closed) {
        this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: reason } })
      }
    }
    this.params.send(message).then(
      (answer) => {
        if (this.closed || answer === undefined || answer === null) return
        if (isJSONRPCResponse(answer) || isJSONRPCRequest(answer) || isJSONRPCNotification(answer)) this.onmessage?.(answer)
        else failed("the host's MCP server answered something that is not a JSON-RPC message")
      },
      (error: unknown) => failed(`the host's MCP server failed: ${error instanceof Error ? error.message : String(error)}`)
    )
    return Promise.resolve()
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true
      this.onclose?.()
    }
    return Promise.resolve()
  }
}

/** A stdio server in its own process group, speaking newline-delimited JSON-RPC. */
export class ProcessGroupTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined
  private child: ChildProcess | undefined
  private readonly buffer = new ReadBuffer()
  private stderr = ""
  private closed = false

  constructor(private readonly params: StdioParams) {}

  get pid(): number | undefined {
    return this.child?.pid
  }

  stderrTail(): string {
    return this.stderr
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...this.params.args], {
        cwd: this.params.cwd,
        env: this.params.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        windowsHide: true
      })
      this.child = child
      child.on("error", (error) => {
        if (child.pid === undefined) reject(error)
        else this.onerror?.(error)
        this.finish()
      })
      child.on("spawn", () => resolve())
      child.on("close", () => this.finish())
      child.stdin?.on("error", (error) => this.onerror?.(error))
      child.stdout?.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk)
        for (;;) {
          let message: JSONRPCMessage | null
          try {
            message = this.buffer.readMessage()
          } catch (error) {
            // A line that is not JSON-RPC (a server printing to stdout): reported, the stream goes on.
            this.onerror?.(error instanceof Error ? error : new Error(String(error)))
            continue
          }
          if (message === null) break
          this.onmessage?.(message)
        }
      })
      child.stderr?.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES)
      })
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (!stdin || this.closed || stdin.destroyed) return reject(new Error("Connection closed"))
      // Resolved once buffered (not once flushed: waiting for the write's callback costs a round of the event loop
      // per message). A server that has exited fails the write with EPIPE on stdin's error event, and its exit
      // closes the connection, which fails the requests in flight with "Connection closed".
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once("drain", resolve)
    })
  }

  /** Ends stdin and signals the group; the caller makes sure the group is gone (TERM, then KILL). */
  close(): Promise<void> {
    const child = this.child
    if (child?.pid !== undefined && !this.closed) {
      child.stdin?.end()
      try {
        process.kill(-child.pid, "SIGTERM")
      } catch {
        // already gone
      }
    }
    this.finish()
    return Promise.resolve()
  }

  private finish() {
    if (this.closed) return
    this.closed = true
    this.buffer.clear()
    this.onclose?.()
  }
}

/**
 * Streamable HTTP: once the handshake's `notifications/initialized` is accepted (202), the library opens the
 * server's standalone SSE stream (a GET) without waiting for it, and `connect` resolves. Requests a server sends
 * outside any request of ours (an elicitation from a tool, say, which servers built on the reference SDK send this
 * way) travel only on that stream, and a server drops them while it is not open: a tool called at once could then
 * wait forever for an answer to a question that never arrived (the race shows on a busy machine). So the fetch is
 * watched: `streamReady` settles once that GET has its answer (open, or refused: a server may not offer the stream),
 * or at once when no GET is to follow.
 */
const watchStandaloneStream = (inner: FetchLike) => {
  let expected = false
  let settle: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (settle = resolve))
  const fetch: FetchLike = async (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase()
    const initialized = method === "POST" && typeof init?.body === "string" && init.body.includes('"notifications/initialized"')
    try {
      const response = await inner(input, init)
      if (initialized) {
        if (response.status === 202) expected = true
        else settle()
      } else if (method === "GET" && expected) settle()
      return response
    } catch (error) {
      if (initialized || (method === "GET" && expected)) settle()
      throw error
    }
  }
  return { fetch, streamReady: () => (expected ? ready : Promise.resolve()) }
}

interface Opened {
  readonly transport: Transport & { readonly pid?: number | undefined; stderrTail?: () => string }
  /** Settles once the transport can receive what a server sends on its own (see watchStandaloneStream). */
  readonly ready: () => Promise<void>
}

const transportOf = (params: StdioParams | HttpParams | HostParams): Opened => {
  if (params.type === "stdio") return { transport: new ProcessGroupTransport(params), ready: () => Promise.resolve() }
  if (params.type === "sdk") return { transport: new HostTransport(params), ready: () => Promise.resolve() }
  const options = {
    requestInit: { headers: { ...params.headers } },
    ...(params.authProvider ? { authProvider: params.authProvider } : {})
  }
  if (params.type === "sse") {
    return {
      transport: new SSEClientTransport(new URL(params.url), { ...options, ...(params.fetch ? { fetch: params.fetch } : {}) }),
      ready: () => Promise.resolve()
    }
  }
  const watched = watchStandaloneStream(params.fetch ?? globalThis.fetch)
  return {
    transport: new StreamableHTTPClientTransport(new URL(params.url), { ...options, fetch: watched.fetch }),
    ready: watched.streamReady
  }
}

/**
 * A client for one server, not yet connected: `connect` starts it. Opening first lets the caller register the
 * release (killing the process group) before anything is spawned.
 */
export const open = (options: ConnectOptions): Connection => {
  const client = new Client(
    { name: options.clientName, version: options.clientVersion },
    {
      capabilities: {
        roots: { listChanged: true },
        // Defaults of a form's fields are filled in when an answer leaves them out.
        elicitation: { form: { applyDefaults: true } },
        ...(options.sample ? { sampling: {} } : {})
      },
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onListChanged("tools") },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onListChanged("prompts") },
        resources: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onListChanged("resources") }
      }
    }
  )
  client.setRequestHandler("roots/list", () => ({ roots: options.roots().map((root) => ({ ...root })) }))
  const elicit = options.elicit
  client.setRequestHandler("elicitation/create", (request) =>
    elicit ? elicit(request.params) : Promise.resolve({ action: "decline" as const })
  )
  const sample = options.sample
  if (sample) client.setRequestHandler("sampling/createMessage", (request) => sample(request.params))
  client.setNotificationHandler("notifications/message", (notification) => options.onLog(notification.params))

  const { transport, ready } = transportOf(options.params)
  let closed = false
  client.onclose = () => {
    if (closed) return
    closed = true
    options.onClose()
  }
  // Transport errors also surface as failed requests or a close; nothing more to do with them here.
  client.onerror = () => undefined
  const stderrTail = () => transport.stderrTail?.() ?? ""
  return {
    client,
    pid: () => transport.pid,
    stderrTail,
    connect: async () => {
      try {
        await client.connect(transport, { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) })
        await ready()
      } catch (error) {
        const tail = stderrTail().trim()
        const message = error instanceof Error ? error.message : String(error)
        throw new Error(tail === "" ? message : `${message}\n${tail.split("\n").slice(-10).join("\n")}`)
      }
    },
    close: () => client.close().catch(() => undefined)
  }
}
