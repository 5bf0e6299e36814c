/**
 * A loopback Messages API (node:http on 127.0.0.1, a random port) that plays a Script: POST /v1/messages
 * (streaming or not) and POST /v1/messages/count_tokens. It records every request, picks the turn from the
 * conversation it receives (the number of assistant messages, so a retried request gets the same turn) and
 * injects the faults of a turn per attempt: a status, a reset mid-stream, an `error` event, a stall.
 *
 * `make` is the scoped Effect API; `startMockAnthropicServer` the Promise API for end-to-end tests and for
 * processes that are not Effect programs. Closing destroys every open socket, so a stalled response never hangs it.
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import type { Socket } from "node:net"
import type { AssistantMessage } from "../domain/Message.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import { Accumulator } from "../model/Accumulator.js"
import type { ApiClientConfig } from "../model/ApiClient.js"
import { ApiClient } from "../model/ApiClient.js"
import type * as HttpClient from "effect/http/HttpClient"
import * as Sse from "../model/Sse.js"
import { PromptCache } from "./PromptCache.js"
import type { CompiledTurn, Fault, Script, ScriptTurn } from "./Script.js"
import { compile, errorBody, estimateTokens, faultFor, frame, turnEvents } from "./Script.js"
import { isRecord } from "../domain/Json.js"

export interface Options {
  readonly script?: Script
  /**
   * Chooses the turn for a /v1/messages request: a turn index into the script, or a turn. Default: the number
   * of assistant messages in the request.
   */
  readonly pick?: (request: RecordedRequest) => number | ScriptTurn
  /** Raw turns are written in pieces of this many bytes (default: whole), to exercise the client's decoder. */
  readonly rawChunkBytes?: number
  /**
   * Model the API's prompt cache (PromptCache.ts): a blocks turn reports the cache reads and writes its request's
   * `cache_control` breakpoints earn (a turn's own `usage` still wins). Default: off (no cache tokens).
   */
  readonly promptCache?: boolean
  /**
   * Other conversations the server holds beside the main one (a subagent's: its first request has no assistant
   * message yet, so the main script cannot tell it apart): a request whose body `when` accepts is answered from
   * that conversation's own script, by its number of assistant messages. The first that accepts wins.
   */
  readonly conversations?: ReadonlyArray<Conversation>
}

export interface Conversation {
  readonly when: (body: Readonly<Record<string, unknown>>) => boolean
  readonly script: Script
}

/** A conversation told by its system prompt: `marker` appears in it (a subagent's prompt, say). */
export const systemContains = (marker: string) => (body: Readonly<Record<string, unknown>>): boolean =>
  JSON.stringify(body["system"] ?? "").includes(marker)

export interface RecordedRequest {
  /** Position in arrival order, from 0. */
  readonly index: number
  /** The TCP connection it came on, numbered from 0 in the order they were opened (a kept-alive one repeats). */
  readonly connection: number
  readonly method: string
  /** Path and query, as received. */
  readonly path: string
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, or the raw text when it was not JSON, or undefined when empty. */
  readonly body: unknown
  /** The body's size in bytes. */
  readonly bodyBytes: number
  /** When the request arrived (its headers) and when its body had all arrived: milliseconds since the epoch. */
  readonly arrivedAt: number
  readonly receivedAt: number
}

/** How a response ended: `completed` is false when the client closed the connection first (or it was reset). */
export interface ResponseOutcome {
  readonly completed: boolean
  /** When the response closed (milliseconds since the epoch): what the server spent on a request ends there. */
  readonly finishedAt: number
}

/** Milliseconds since the epoch, to a fraction (the timestamps of requests and outcomes). */
const now = (): number => performance.timeOrigin + performance.now()

// A request body larger than this is refused with 413 (the real API's limit is 32 MB too).
const maxRequestBytes = 32 * 1024 * 1024

const assistantTurns = (body: unknown): number => {
  if (!isRecord(body) || !Array.isArray(body["messages"])) return 0
  let count = 0
  for (const message of body["messages"]) if (isRecord(message) && message["role"] === "assistant") count += 1
  return count
}

const modelOf = (body: Record<string, unknown>): string =>
  typeof body["model"] === "string" ? body["model"] : "claude-scripted"

/** The full message of a turn, for `stream: false` (blocks, events and raw turns are folded). */
const foldMessage = (events: ReadonlyArray<StreamEvent>): AssistantMessage | string => {
  const accumulator = new Accumulator()
  for (const event of events) accumulator.push(event)
  const result = accumulator.result()
  return result._tag === "Failure" ? result.failure.message : result.success.message
}

const headerRecord = (headers: Http.IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return out
}

class Core {
  readonly server: Http.Server
  readonly sockets = new Set<Socket>()
  readonly connectionIds = new WeakMap<Socket, number>()
  connectionCount = 0
  readonly timers = new Set<NodeJS.Timeout>()
  readonly recorded: Array<RecordedRequest> = []
  readonly outcomes = new Map<number, ResponseOutcome>()
  readonly waiters = new Map<number, Array<(outcome: ResponseOutcome) => void>>()
  readonly attempts = new Map<string, number>()
  readonly conversations: ReadonlyArray<{ readonly when: Conversation["when"]; readonly turns: ReadonlyArray<CompiledTurn> }>
  readonly arrivals = new Set<() => void>()
  readonly turns: ReadonlyArray<CompiledTurn>
  readonly promptCache: PromptCache | undefined
  closing = false

  constructor(readonly options: Options) {
    this.turns = compile(options.script ?? [])
    this.conversations = (options.conversations ?? []).map((conversation) => ({ when: conversation.when, turns: compile(conversation.script) }))
    this.promptCache = options.promptCache === true ? new PromptCache() : undefined
    this.server = Http.createServer((req, res) => this.handle(req, res))
    this.server.on("connection", (socket) => {
      this.sockets.add(socket)
      this.connectionIds.set(socket, this.connectionCount++)
      socket.on("close", () => this.sockets.delete(socket))
    })
  }

  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject)
      this.server.listen(0, "127.0.0.1", () => {
        this.server.off("error", reject)
        const address = this.server.address()
        if (address === null || typeof address === "string") return reject(new Error("no TCP address"))
        resolve(`http://127.0.0.1:${address.port}`)
      })
    })
  }

  close(): Promise<void> {
    this.closing = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    for (const socket of this.sockets) socket.destroy()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  onClosed(index: number, listener: (outcome: ResponseOutcome) => void): () => void {
    const done = this.outcomes.get(index)
    if (done !== undefined) {
      listener(done)
      return () => {}
    }
    const list = this.waiters.get(index) ?? []
    list.push(listener)
    this.waiters.set(index, list)
    return () => {
      const current = this.waiters.get(index)
      if (current) this.waiters.set(index, current.filter((l) => l !== listener))
    }
  }

  private settle(index: number, outcome: ResponseOutcome): void {
    if (this.outcomes.has(index)) return
    this.outcomes.set(index, outcome)
    for (const listener of this.waiters.get(index) ?? []) listener(outcome)
    this.waiters.delete(index)
  }

  private sleep(millis: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        resolve()
      }, millis)
      this.timers.add(timer)
    })
  }

  private handle(req: Http.IncomingMessage, res: Http.ServerResponse): void {
    const arrivedAt = now()
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = false
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxRequestBytes) tooLarge = true
      else chunks.push(chunk)
    })
    req.on("error", () => res.destroy())
    req.on("end", () => {
      const receivedAt = now()
      const text = Buffer.concat(chunks).toString("utf8")
      let body: unknown = undefined
      if (text !== "") {
        try {
          body = JSON.parse(text)
        } catch {
          body = text
        }
      }
      const record: RecordedRequest = {
        index: this.recorded.length,
        connection: this.connectionIds.get(req.socket) ?? -1,
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: headerRecord(req.headers),
        body,
        bodyBytes: size,
        arrivedAt,
        receivedAt
      }
      this.recorded.push(record)
      for (const listener of this.arrivals) listener()
      res.on("close", () => this.settle(record.index, { completed: res.writableFinished, finishedAt: now() }))
      res.setHeader("request-id", `req_mock_${record.index + 1}`)
      if (tooLarge) return this.sendJson(res, 413, errorBody(413, "request body too large"))
      this.route(record, res).catch(() => res.destroy())
    })
  }

  private sendJson(res: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const payload = typeof body === "string" ? body : JSON.stringify(body)
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(payload)
  }

  private async route(record: RecordedRequest, res: Http.ServerResponse): Promise<void> {
    const path = record.path.split("?")[0]
    if (record.method !== "POST" || (path !== "/v1/messages" && path !== "/v1/messages/count_tokens")) {
      return this.sendJson(res, 404, errorBody(404, `${record.method} ${record.path} is not served`, "not_found_error"))
    }
    if (!isRecord(record.body)) {
      return this.sendJson(res, 400, errorBody(400, "the body must be a JSON object"))
    }
    if (path === "/v1/messages/count_tokens") {
      return this.sendJson(res, 200, { input_tokens: estimateTokens(record.body) })
    }

    const conversationTurn = assistantTurns(record.body)
    const received = record.body
    const other = this.conversations.findIndex((conversation) => conversation.when(received))
    const turns = other === -1 ? this.turns : (this.conversations[other]?.turns ?? [])
    const picked = this.options.pick && other === -1 ? this.options.pick(record) : conversationTurn
    let compiled: CompiledTurn | undefined
    if (typeof picked === "number") compiled = turns[picked]
    else {
      const single = compile([picked])[0]
      if (single) compiled = { ...single, index: conversationTurn, messageId: `msg_scripted_${conversationTurn + 1}` }
    }
    if (compiled === undefined) {
      const wanted = typeof picked === "number" ? picked : conversationTurn
      return this.sendJson(
        res,
        400,
        errorBody(400, `script exhausted: turn ${wanted + 1} was requested, the script has ${turns.length} turns`)
      )
    }
    // Attempts are counted per conversation and turn (a retried request gets the same turn's next fault).
    const attemptKey = `${other}:${compiled.index}`
    const attempt = this.attempts.get(attemptKey) ?? 0
    this.attempts.set(attemptKey, attempt + 1)
    const turn = compiled.turn

    if (turn._tag === "Status") return this.sendJson(res, turn.status, turn.body, { ...turn.headers })
    if (turn._tag === "Error") {
      const error = turn.error
      const status = error.status ?? 500
      return this.sendJson(res, status, errorBody(status, error.message, error.errorType))
    }
    const fault = faultFor(turn, attempt)
    if (fault?._tag === "Status") return this.sendJson(res, fault.status, fault.body, { ...fault.headers })
    // Silent until the client gives up (close() destroys the socket).
    if (fault?._tag === "NoResponse") return

    const streaming = record.body["stream"] === true
    const delayMillis = turn.options.delay === undefined ? 0 : Duration.toMillis(Duration.fromInputUnsafe(turn.options.delay))
    const body = record.body
    const cacheUsage = turn._tag === "Blocks" ? this.promptCache?.use(body) : undefined
    const events = (): ReadonlyArray<StreamEvent> =>
      turn._tag === "Raw"
        ? Sse.decode(new TextEncoder().encode(turn.body)).flatMap((f) => {
            const event = Sse.toEvent(f)
            return event._tag === "Success" ? [event.success] : []
          })
        : turnEvents(compiled, {
            model: modelOf(body),
            inputTokens: estimateTokens(body),
            ...(cacheUsage === undefined ? {} : { usage: cacheUsage })
          })

    if (!streaming) {
      // Mid-stream faults have no meaning without a stream: the whole message is sent.
      const message = foldMessage(events())
      if (typeof message === "string") return this.sendJson(res, 500, errorBody(500, message))
      return this.sendJson(res, 200, message)
    }

    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" })
    res.flushHeaders()
    if (turn._tag === "Raw") return this.writeRaw(res, turn.body, delayMillis)
    return this.writeEvents(res, events(), fault, delayMillis)
  }

  private async writeRaw(res: Http.ServerResponse, body: string, delayMillis: number): Promise<void> {
    const bytes = Buffer.from(body, "utf8")
    const step = this.options.rawChunkBytes ?? bytes.length
    for (let i = 0; i < bytes.length; i += step) {
      if (delayMillis > 0) await this.sleep(delayMillis)
      if (this.closing || res.destroyed) return
      res.write(bytes.subarray(i, i + step))
    }
    res.end()
  }

  private async writeEvents(
    res: Http.ServerResponse,
    events: ReadonlyArray<StreamEvent>,
    fault: Fault | undefined,
    delayMillis: number
  ): Promise<void> {
    const stopAt =
      fault === undefined
        ? events.length
        : Math.min(fault._tag === "Status" || fault._tag === "NoResponse" ? 0 : fault.afterEvents, events.length)
    if (delayMillis === 0) res.cork()
    for (let i = 0; i < stopAt; i++) {
      if (delayMillis > 0) await this.sleep(delayMillis)
      if (this.closing || res.destroyed) return
      const event = events[i]
      if (event !== undefined) res.write(frame(event))
    }
    if (delayMillis === 0) res.uncork()
    switch (fault?._tag) {
      case undefined:
      case "Status":
      case "NoResponse":
        res.end()
        return
      case "ErrorEvent":
        res.end(frame({ type: "error", error: { type: fault.errorType, message: fault.message } }))
        return
      case "Reset":
        // Flush what was written, then RST the connection: the client sees ECONNRESET mid-body.
        await new Promise<void>((resolve) => res.write("", () => resolve()))
        res.socket?.resetAndDestroy()
        return
      case "Stall":
        // Keep the socket open and silent; close() destroys it.
        return
    }
  }
}

export interface MockServer {
  /** The base URL (`http://127.0.0.1:<port>`), for ANTHROPIC_BASE_URL or `ApiClientConfig.baseUrl`. */
  readonly url: string
  /** Every request received so far, in arrival order. */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Waits until the response to request `index` has closed, and says whether it completed. */
  readonly awaitClosed: (index: number) => Effect.Effect<ResponseOutcome>
  /** Waits until at least `count` requests have arrived. */
  readonly awaitRequests: (count: number) => Effect.Effect<void>
}

/** Starts the server in the current scope; closing the scope closes it and destroys open sockets. */
export const make = (options: Options = {}): Effect.Effect<MockServer, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(async () => {
        const core = new Core(options)
        const url = await core.listen()
        return { core, url }
      }),
      ({ core }) => Effect.promise(() => core.close())
    ),
    ({ core, url }): MockServer => ({
      url,
      requests: Effect.sync(() => core.recorded.slice()),
      awaitClosed: (index) =>
        Effect.callback<ResponseOutcome>((resume) => {
          const cancel = core.onClosed(index, (outcome) => resume(Effect.succeed(outcome)))
          return Effect.sync(cancel)
        }),
      awaitRequests: (count) =>
        Effect.callback<void>((resume) => {
          const check = (): void => {
            if (core.recorded.length < count) return
            core.arrivals.delete(check)
            resume(Effect.void)
          }
          core.arrivals.add(check)
          check()
          return Effect.sync(() => core.arrivals.delete(check))
        })
    })
  )

export class MockAnthropicServer extends Context.Service<MockAnthropicServer, MockServer>()(
  "weft/testing/MockAnthropicServer"
) {
  static layer = (options: Options = {}): Layer.Layer<MockAnthropicServer> => Layer.effect(MockAnthropicServer, make(options))

  /**
   * The server and an ApiClient pointed at it (no credentials needed: a non-default base URL). `config`
   * overrides the client's settings (retries, backoff, idle timeout, key).
   */
  static layerClient = (
    options: Options = {},
    config: Partial<ApiClientConfig> = {}
  ): Layer.Layer<MockAnthropicServer | ApiClient, never, HttpClient.HttpClient> => {
    const server = MockAnthropicServer.layer(options)
    const client = Layer.unwrap(
      Effect.map(MockAnthropicServer, (mock) => ApiClient.layerWith({ ...config, baseUrl: mock.url }))
    )
    return Layer.provideMerge(client, server)
  }
}

export const layer = MockAnthropicServer.layer
export const layerClient = MockAnthropicServer.layerClient

export interface StartedMockServer {
  readonly url: string
  readonly requests: () => ReadonlyArray<RecordedRequest>
  /** Resolves once the response to request `index` has closed. */
  readonly closed: (index: number) => Promise<ResponseOutcome>
  readonly close: () => Promise<void>
}

/** The Promise API, for end-to-end tests that spawn processes and for code that is not an Effect program. */
export const startMockAnthropicServer = async (options: Options = {}): Promise<StartedMockServer> => {
  const core = new Core(options)
  const url = await core.listen()
  return {
    url,
    requests: () => core.recorded.slice(),
    closed: (index) => new Promise((resolve) => core.onClosed(index, resolve)),
    close: () => core.close()
  }
}
