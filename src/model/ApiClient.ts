/**
 * The Messages API as a service: `stream(request)` is the streaming response as StreamEvents, `countTokens` the
 * count_tokens endpoint. The default layer runs on effect's HttpClient with weft's own SSE decoder (no
 * run-time import of @anthropic-ai/sdk: it costs ~0.4 s of start-up).
 *
 * This module is platform-neutral (it needs an HttpClient and nothing from Node): NodeApiClient.ts is the Node
 * transport (node:http and node:https agents) and its layer.
 *
 * Behaviour worth knowing:
 * - Retries happen before the first byte of a body only (see Retry.ts): a started stream is never replayed.
 * - The stream fails with a typed ApiError on an `error` event, on a reset, on EOF before `message_stop`, and
 *   when no byte arrives for `idleTimeout` (the SDK has no such timeout: a silent connection hangs it).
 * - The stream ends at `message_stop`, once the rest of the body has ended (at most 250 ms later: the connection
 *   then goes back to the agent for the next turn); interrupting the consumer aborts the HTTP request.
 */
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Random from "effect/Random"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { ApiRetry } from "../domain/AgentEvent.js"
import type { MessagesRequest } from "../domain/Request.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import type { ApiError, ErrorInfo } from "./ApiError.js"
import { AuthenticationError, ConnectionError, fromStatus, ParseError, StreamAbortedError, TimeoutError } from "./ApiError.js"
import { jsonRedactor } from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import * as Models from "./Models.js"
import * as Retry from "./Retry.js"
import * as Sse from "./Sse.js"
import { isRecord } from "../domain/Json.js"

/** Why a request is about to be sent again, and when (Claude Code's `api_retry` system message carries the same). */
export interface RetryNotice {
  /** The retry about to be made, from 1. */
  readonly attempt: number
  /** The retries allowed for this kind of failure. */
  readonly maxRetries: number
  readonly delayMillis: number
  /** The failed attempt's HTTP status, or null when no response came (connection error, timeout). */
  readonly status: number | null
  /** What failed, for people. */
  readonly message: string
  /** The error's kind (its `_tag`: RateLimitError, OverloadedError, TimeoutError, ConnectionError, ...). */
  readonly errorTag: ApiError["_tag"]
}

/** A notice as the AgentEvent renderers show (the Agent SDK's error category from the status or the error's kind). */
export const retryEvent = (notice: RetryNotice): ApiRetry => ({
  _tag: "ApiRetry",
  attempt: notice.attempt,
  maxRetries: notice.maxRetries,
  retryDelayMs: notice.delayMillis,
  errorStatus: notice.status,
  category:
    notice.status === 401 || notice.errorTag === "AuthenticationError"
      ? "authentication_failed"
      : notice.status === 429 || notice.errorTag === "RateLimitError"
        ? "rate_limit"
        : (notice.status !== null && notice.status >= 500) || notice.errorTag === "OverloadedError" || notice.errorTag === "ServerError"
          ? "server_error"
          : notice.status !== null && notice.status >= 400
            ? "invalid_request"
            : "unknown",
  message: notice.message
})

export interface StreamOptions {
  /** Told before each retry's wait (the request has not reached its first byte yet). */
  readonly onRetry?: (notice: RetryNotice) => Effect.Effect<void>
}

export interface Interface {
  /** POST /v1/messages with `stream: true`. Interrupting the consumer aborts the HTTP request. */
  readonly stream: (request: MessagesRequest, options?: StreamOptions) => Stream.Stream<StreamEvent, ApiError>
  /** POST /v1/messages/count_tokens. */
  readonly countTokens: (request: MessagesRequest) => Effect.Effect<number, ApiError>
  /** The model used when a request leaves it to the client (ANTHROPIC_MODEL or weft's default), aliases resolved. */
  readonly defaultModel: string
  /**
   * A model name as a person gives it (`opus`, `sonnet[1m]`, an id) as the id this client sends (see Models.ts);
   * `stream` resolves a request's model itself, this is for showing it.
   */
  readonly resolveModel: (model: string) => string
}

export type Secret = string | Redacted.Redacted<string>

/**
 * A key produced while running (an apiKeyHelper's: ApiKeyHelper.ts), asked for before each request. It is sent as
 * both `x-api-key` and `Authorization: Bearer`, as Claude Code sends a helper's key.
 */
export interface KeySource {
  /** The key to send now (the source caches it as long as it holds). */
  readonly current: Effect.Effect<string, AuthenticationError>
  /** The server refused `key` (401): a fresh one. */
  readonly refresh: (key: string) => Effect.Effect<string, AuthenticationError>
}

export interface ApiClientConfig {
  /** Default `https://api.anthropic.com`; any Anthropic-compatible server (a trailing slash is fine). */
  readonly baseUrl?: string
  /** Sent as `x-api-key`. */
  readonly apiKey?: Secret | undefined
  /** Sent as `Authorization: Bearer <token>` (gateways, OAuth). */
  readonly authToken?: Secret | undefined
  /**
   * Used when neither `apiKey` nor `authToken` is given: the key of each request comes from it, and a request
   * refused with 401 is sent once more with a fresh key (`refresh`).
   */
  readonly keySource?: KeySource | undefined
  /** Used when a request's `model` is empty (an alias is resolved). Default `claude-sonnet-4-5`. */
  readonly defaultModel?: string
  /** What `opus`, `sonnet` and `haiku` mean (ANTHROPIC_DEFAULT_*_MODEL). Default: Models.aliasDefaults. */
  readonly aliases?: Models.AliasTable
  /** Retries after the first attempt, for 408/409/429/5xx/529 and connection errors. Default 10, as Claude Code. */
  readonly maxRetries?: number
  /** Retries after an attempt that got no response within `responseTimeout`. Default 2. */
  readonly maxTimeoutRetries?: number
  /** First backoff, doubled on each retry. Default 0.5 s. */
  readonly initialBackoff?: Duration.Input
  /** Backoff cap. Default 32 s. */
  readonly maxBackoff?: Duration.Input
  /**
   * The longest retry-after (or retry-after-ms) waited out; a longer one fails the request at once with an error
   * that says when to try again. Default 5 minutes.
   */
  readonly maxRetryAfter?: Duration.Input
  /**
   * How long an attempt may wait for the response headers, connecting included (API_TIMEOUT_MS, as in Claude
   * Code). A timed-out attempt is retried (see `maxTimeoutRetries`). Default 60 s.
   */
  readonly responseTimeout?: Duration.Input
  /**
   * How long a started stream may go without a byte before it fails with TimeoutError (not retried; time the
   * consumer spends between pulls does not count). Default 60 s: the API sends `ping` events well within that.
   */
  readonly idleTimeout?: Duration.Input
  /** `anthropic-beta` values, sent comma-joined. */
  readonly betas?: ReadonlyArray<string>
  /** Extra headers, sent as they are (after weft's own, so they can override user-agent and the like). */
  readonly headers?: Readonly<Record<string, string>>
}

export const defaultBaseUrl = "https://api.anthropic.com"
export const defaultModel = "claude-sonnet-4-5"
/** Pinned: the wire format weft is written against. */
export const anthropicVersion = "2023-06-01"
export const defaultIdleTimeout = Duration.seconds(60)
export const defaultResponseTimeout = Duration.seconds(60)
/** Error bodies are read up to this many bytes (the API's are under 1 KB; a proxy's HTML page may not be). */
export const maxErrorBodyBytes = 64 * 1024

const credentialsHelp =
  "No credentials for the Anthropic API: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token), " +
  "or ANTHROPIC_BASE_URL to use an Anthropic-compatible server."

const reveal = (secret: Secret | undefined): string | undefined => {
  if (secret === undefined) return undefined
  const value = typeof secret === "string" ? secret : Redacted.value(secret)
  return value === "" ? undefined : value
}

// ---------------------------------------------------------------------------------------------------------------
// Failures of one attempt, before the retry decision

interface Sent {
  readonly response: HttpClientResponse.HttpClientResponse
  /** Aborts the request (its socket is destroyed). */
  readonly abort: Effect.Effect<void>
}

interface AttemptFailure {
  readonly error: ApiError
  /** The response status, or null when there was none. */
  readonly status: number | null
  readonly header: Retry.HeaderLookup
  /** False for failures no retry can fix (a malformed URL). */
  readonly retryable: boolean
  /** No response headers within the response timeout. */
  readonly timedOut?: boolean
}

const headerLookup =
  (response: HttpClientResponse.HttpClientResponse): Retry.HeaderLookup =>
  (name) =>
    response.headers[name]

const requestIdOf = (response: HttpClientResponse.HttpClientResponse): string | null =>
  response.headers["request-id"] ?? null

/** Maps an API error body (`{type: "error", error: {type, message}, request_id}`) and its status to an ApiError. */
export const errorFromBody = (status: number, text: string, headerRequestId: string | null): ApiError => {
  let errorType: string | undefined
  let apiMessage: string | undefined
  let bodyRequestId: string | null = null
  try {
    const parsed: unknown = JSON.parse(text)
    if (isRecord(parsed)) {
      const error = parsed["error"]
      if (isRecord(error)) {
        if (typeof error["type"] === "string") errorType = error["type"]
        if (typeof error["message"] === "string") apiMessage = error["message"]
      }
      if (typeof parsed["request_id"] === "string") bodyRequestId = parsed["request_id"]
    }
  } catch {
    // Not JSON (a proxy's page): the text itself, cut, is the best message there is.
  }
  const detail = apiMessage ?? (text.trim() === "" ? "(empty body)" : text.trim().slice(0, 500))
  const requestId = headerRequestId ?? bodyRequestId
  const message = `${status}${errorType ? ` ${errorType}` : ""}: ${detail}${requestId ? ` (request-id ${requestId})` : ""}`
  return fromStatus(errorType === undefined ? { message, status, requestId } : { message, status, requestId, errorType })
}

const errorInfo = (error: ApiError): ErrorInfo =>
  error.errorType === undefined
    ? { message: error.message, status: error.status, requestId: error.requestId }
    : { message: error.message, status: error.status, requestId: error.requestId, errorType: error.errorType }

/**
 * Transport failures no retry can fix: TLS that cannot be set up (a plain-HTTP server behind https://, a certificate
 * that does not verify) and a host name that does not resolve. Retrying those only delays the message.
 */
const permanentTransportCode = /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_INVALID_URL|ENOTFOUND)/

const errorCode = (cause: unknown): string | undefined => {
  if (typeof cause !== "object" || cause === null || !("code" in cause)) return undefined
  return typeof cause.code === "string" ? cause.code : undefined
}

const transportFailure = (error: HttpClientError.HttpClientError): AttemptFailure => {
  const reason = error.reason
  const cause = reason.cause instanceof Error ? `: ${reason.cause.message}` : ""
  const code = errorCode(reason.cause)
  return {
    error: new ConnectionError({ message: `Connection failed${cause}`, status: null, requestId: null }),
    status: null,
    header: Retry.noHeaders,
    retryable: reason._tag === "TransportError" && !(code !== undefined && permanentTransportCode.test(code))
  }
}

/** Reads at most `maxErrorBodyBytes` of a body as text; a failure to read (reset, idle) yields what was read. */
const readBounded = (response: HttpClientResponse.HttpClientResponse, idle: Duration.Duration): Effect.Effect<string> =>
  Effect.suspend(() => {
    const parts: Array<Uint8Array> = []
    let bytes = 0
    return response.stream.pipe(
      // Silence ends the read like a failure does: with what was read.
      Stream.timeout(idle),
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          const kept = chunk.subarray(0, maxErrorBodyBytes - bytes)
          parts.push(kept)
          bytes += kept.length
          return bytes < maxErrorBodyBytes
        })
      ),
      Effect.ignore,
      Effect.map(() => Buffer.concat(parts).toString("utf8"))
    )
  })

// ---------------------------------------------------------------------------------------------------------------
// The event stream after the first byte

/** Idle tracking, shared by the stage below and the watchdog fiber of `stream`. */
interface IdleState {
  /** When the outstanding pull started; undefined while the consumer holds a chunk. */
  waitingSince: number | undefined
  /** The watchdog aborted the request. */
  fired: boolean
}

/**
 * After `message_stop`, how long the rest of the body (normally nothing but its end) may take to arrive. Read to its
 * end, the response leaves its connection to the agent for the next request (one TLS handshake per session, not
 * per turn); a server that keeps the response open is cut off after this, as before.
 */
const drainMillis = 250

interface Guard {
  readonly state: IdleState
  readonly clock: Clock.Clock
  readonly timeout: () => TimeoutError
  /** Starts the drain's deadline: aborts the request `drainMillis` from now unless the scope closes first. */
  readonly drainDeadline: Effect.Effect<void>
}

type Events = Arr.NonEmptyReadonlyArray<StreamEvent>

const eventStage = <E>(
  upstream: Pull.Pull<Events, E>,
  requestId: string | null,
  idle: Guard | undefined
): Pull.Pull<Events, E | ApiError> => {
  type Out = Pull.Pull<Events, E | ApiError>
  const suffix = requestId ? ` (request-id ${requestId})` : ""
  // Set once the stream's outcome is known (its end, or a failure): later pulls give it without reading on.
  let last: Out | undefined = undefined
  // The rest of the body is read and dropped; its end, an error, or the deadline's abort all complete the stream.
  const drain: Effect.Effect<void> = Pull.matchEffect(upstream, {
    onSuccess: () => drain,
    onFailure: () => Effect.void,
    onDone: () => Effect.void
  })
  const onInput = (events: Events): Out => {
    if (idle !== undefined) idle.state.waitingSince = undefined
    const length = events.length
    for (let i = 0; i < length; i++) {
      const event = events[i]
      if (event === undefined) continue
      if (event.type === "message_stop") {
        const head = (i + 1 === length ? events : events.slice(0, i + 1)) as Events
        last = Cause.done()
        return idle === undefined ? Effect.succeed(head) : Effect.as(Effect.andThen(idle.drainDeadline, drain), head)
      }
      if (event.type === "error" && "error" in event && isRecord(event.error)) {
        const error = event.error
        const errorType = typeof error["type"] === "string" ? error["type"] : "api_error"
        const detail = typeof error["message"] === "string" ? error["message"] : "error event"
        const failure = fromStatus({ message: `${errorType} mid-stream: ${detail}${suffix}`, status: null, requestId, errorType })
        last = Effect.fail(failure)
        return i === 0 ? last : Effect.succeed(events.slice(0, i) as unknown as Events)
      }
    }
    return Effect.succeed(events)
  }
  // When the watchdog aborted the request, the body fails or ends because of it: the cause is the timeout.
  const onFailure = (cause: Cause.Cause<E>): Out =>
    idle !== undefined && idle.state.fired ? Effect.fail(idle.timeout()) : Effect.failCause(cause)
  const onEnd = (): Out =>
    idle !== undefined && idle.state.fired
      ? Effect.fail(idle.timeout())
      : Effect.fail(new StreamAbortedError({ message: `The stream ended before message_stop${suffix}`, status: null, requestId }))
  const read: Out = Pull.matchEffect(upstream, { onSuccess: onInput, onFailure, onDone: onEnd })
  if (idle === undefined) return Effect.suspend(() => last ?? read)
  let pulled = false
  return Effect.suspend(() => {
    if (last !== undefined) return last
    // After a chunk went out, a pull is the consumer's next one: from then on, waiting counts as idle.
    if (pulled) idle.state.waitingSince = idle.clock.currentTimeMillisUnsafe()
    pulled = true
    return read
  })
}

/**
 * What the API's event stream means beyond its events: an `error` event fails with the matching ApiError (an
 * `overloaded_error` is an OverloadedError), `message_stop` ends the stream (the real client first lets the rest of
 * the body arrive, for at most `drainMillis`, and drops it; fakes end at once), and the
 * end of the input before `message_stop` is a StreamAbortedError. Works on whole chunks (no per-event
 * allocation): events before an error in the same chunk are still delivered. Exported for fakes that replay
 * events (ScriptedModel), so they fail exactly as the real client does.
 */
export const completeEvents =
  (requestId: string | null) =>
  <E, R>(events: Stream.Stream<StreamEvent, E, R>): Stream.Stream<StreamEvent, E | ApiError, R> =>
    Stream.transformPull(events, (upstream) => Effect.sync(() => eventStage(upstream, requestId, undefined)))

/**
 * `completeEvents` plus the idle timeout: when a pull has waited `idle` for the next events, `abort` the request
 * and fail with `timeout`. One watchdog fiber per stream (forked in the caller's scope, on Effect's clock) and no
 * extra stage: a timeout per pull (Stream.timeout) forks fibers for every chunk, which cost a fifth of the
 * whole fold of a 6 MB stream. Time the consumer spends between pulls does not count, only waiting for the server.
 */
const guardEvents = (
  events: Stream.Stream<StreamEvent, ApiError>,
  requestId: string | null,
  idle: Duration.Duration,
  abort: Effect.Effect<void>,
  /** Built only when it happens. */
  timeout: () => TimeoutError
): Effect.Effect<Stream.Stream<StreamEvent, ApiError>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const clock = yield* Clock.Clock
    const idleMillis = Duration.toMillis(idle)
    const state: IdleState = { waitingSince: clock.currentTimeMillisUnsafe(), fired: false }
    const watchdog: Effect.Effect<void> = Effect.suspend(() => {
      const since = state.waitingSince
      const remaining = since === undefined ? idleMillis : since + idleMillis - clock.currentTimeMillisUnsafe()
      if (remaining > 0) return Effect.andThen(Effect.sleep(Duration.millis(remaining)), watchdog)
      state.fired = true
      return abort
    })
    yield* Effect.forkScoped(watchdog)
    const scope = yield* Effect.scope
    const drainDeadline = Effect.asVoid(
      Effect.forkIn(Effect.andThen(Effect.sleep(Duration.millis(drainMillis)), abort), scope)
    )
    return Stream.transformPull(events, (upstream) =>
      Effect.sync(() => eventStage(upstream, requestId, { state, clock, timeout, drainDeadline }))
    )
  })

// ---------------------------------------------------------------------------------------------------------------
// The client

interface Resolved {
  readonly baseUrl: string
  readonly defaultModel: string
  readonly aliases: Models.AliasTable
  readonly policy: Retry.RetryPolicy
  readonly idle: Duration.Duration
  readonly responseTimeout: Duration.Duration
  readonly headers: Readonly<Record<string, string>>
  readonly hasCredentials: boolean
  /** Where each request's key comes from, when no key or token is given. */
  readonly keySource: KeySource | undefined
  /** The key, the token and the custom header values: what is never sent in a request's body. */
  readonly credentialValues: ReadonlyArray<string>
}

const resolve = (config: ApiClientConfig): Resolved => {
  const apiKey = reveal(config.apiKey)
  const authToken = reveal(config.authToken)
  const baseUrl = (config.baseUrl === undefined || config.baseUrl === "" ? defaultBaseUrl : config.baseUrl).replace(
    /\/+$/,
    ""
  )
  const headers: Record<string, string> = {
    "anthropic-version": anthropicVersion,
    accept: "application/json",
    "user-agent": "weft/0.1.0"
  }
  if (apiKey !== undefined) headers["x-api-key"] = apiKey
  if (authToken !== undefined) headers["authorization"] = `Bearer ${authToken}`
  if (config.betas !== undefined && config.betas.length > 0) headers["anthropic-beta"] = config.betas.join(",")
  for (const [name, value] of Object.entries(config.headers ?? {})) headers[name.toLowerCase()] = value
  const millis = (input: Duration.Input | undefined, fallback: number): number =>
    input === undefined ? fallback : Duration.toMillis(Duration.fromInputUnsafe(input))
  return {
    baseUrl,
    defaultModel: Models.resolve(
      config.defaultModel === undefined || config.defaultModel === "" ? defaultModel : config.defaultModel,
      config.aliases ?? Models.aliasDefaults
    ),
    aliases: config.aliases ?? Models.aliasDefaults,
    policy: {
      maxRetries: Math.max(0, config.maxRetries ?? Retry.defaultPolicy.maxRetries),
      maxTimeoutRetries: Math.max(0, config.maxTimeoutRetries ?? Retry.defaultPolicy.maxTimeoutRetries),
      initialBackoffMillis: millis(config.initialBackoff, Retry.defaultPolicy.initialBackoffMillis),
      maxBackoffMillis: millis(config.maxBackoff, Retry.defaultPolicy.maxBackoffMillis),
      maxRetryAfterMillis: millis(config.maxRetryAfter, Retry.defaultPolicy.maxRetryAfterMillis),
      jitter: Retry.defaultPolicy.jitter
    },
    idle: config.idleTimeout === undefined ? defaultIdleTimeout : Duration.fromInputUnsafe(config.idleTimeout),
    responseTimeout: config.responseTimeout === undefined ? defaultResponseTimeout : Duration.fromInputUnsafe(config.responseTimeout),
    headers,
    // Local and compatible servers often need no key; the official endpoint always does.
    hasCredentials: apiKey !== undefined || authToken !== undefined || config.keySource !== undefined || baseUrl !== defaultBaseUrl,
    keySource: apiKey === undefined && authToken === undefined ? config.keySource : undefined,
    credentialValues: [apiKey, authToken, ...Object.values(config.headers ?? {})].filter(
      (value): value is string => value !== undefined && value.trim() !== ""
    )
  }
}

/**
 * A JSON request body made when the transport reads it (again for a retry), and not kept by the request: late in a
 * long session the text is hundreds of KB, and a request object lives as long as its response streams, so a kept
 * text would outlive the young generation and pile up until a full garbage collection. The text itself, not its
 * bytes: the transport encodes it as it writes (node:http into a native buffer freed once written, with the
 * Content-Length it computes), where a Uint8Array would wait for a collection in external memory.
 */
const jsonBody = (text: () => string): HttpBody.HttpBody => {
  const body = HttpBody.raw("", { contentType: "application/json" })
  Object.defineProperty(body, "body", { get: text, enumerable: true })
  return body
}

/** Builds the client with the config given (nothing read from the environment), over an HttpClient that streams bodies. */
export const makeWith = (config: ApiClientConfig): Effect.Effect<Interface, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const settings = resolve(config)
    // withScope: the request is aborted when the scope of the call closes (interrupt, end of the stream).
    const client = HttpClient.withScope(yield* HttpClient.HttpClient)

    const missingCredentials = new AuthenticationError({ message: credentialsHelp, status: null, requestId: null })

    const longContextHeaders: Readonly<Record<string, string>> = {
      ...settings.headers,
      "anthropic-beta": [settings.headers["anthropic-beta"], Models.longContextBeta].filter((beta) => beta !== undefined).join(",")
    }

    // What the model is sent never holds the credentials this client sends, whatever a tool showed it (a file
    // holding the key, a command reading weft's own environment under /proc): replaced by value in the JSON text.
    let redactBody = jsonRedactor(settings.credentialValues)
    // The key source's key, once it is known, is redacted from the bodies as well.
    let redactedKey: string | undefined
    const redactorFor = (key: string | undefined) => {
      if (key !== undefined && key !== redactedKey) {
        redactedKey = key
        redactBody = jsonRedactor([...settings.credentialValues, key])
      }
      return redactBody
    }

    /** A `model` ending in `[1m]` is sent without it, with the 1M-context beta; `key` is the key source's. */
    const post = (path: string, model: string, body: object, key?: string): HttpClientRequest.HttpClientRequest => {
      const wire = Models.wireModel(model)
      const fixed = wire.longContext ? longContextHeaders : settings.headers
      const redact = redactorFor(key)
      return HttpClientRequest.post(`${settings.baseUrl}${path}`, {
        headers: key === undefined ? fixed : { ...fixed, "x-api-key": key, authorization: `Bearer ${key}` },
        body: jsonBody(() => redact(JSON.stringify(wire.longContext ? { ...body, model: wire.id } : body)))
      })
    }

    const resolveModel = (model: string): string => Models.resolve(model, settings.aliases)

    /**
     * One attempt: the response with a 2xx status (and how to abort it), or why not. Each attempt runs in its own
     * child scope (the request is aborted when it closes): closed at once when the attempt fails, so a timed-out
     * or refused attempt leaves no socket behind during the retries; else closed with the caller's scope.
     */
    const attempt = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<Sent, AttemptFailure, Scope.Scope> =>
      Effect.flatMap(Effect.scope, (parent) =>
        Effect.flatMap(Scope.fork(parent, "sequential"), (child) =>
          attemptIn(request).pipe(
            Scope.provide(child),
            Effect.onExit((exit) => (Exit.isFailure(exit) ? Scope.close(child, exit) : Effect.void)),
            Effect.map((response): Sent => ({ response, abort: Scope.close(child, Exit.void) }))
          )
        )
      )

    const attemptIn = (
      request: HttpClientRequest.HttpClientRequest
    ): Effect.Effect<HttpClientResponse.HttpClientResponse, AttemptFailure, Scope.Scope> =>
      client.execute(request).pipe(
        Effect.mapError(transportFailure),
        Effect.timeoutOrElse({
          duration: settings.responseTimeout,
          orElse: () => Effect.fail<AttemptFailure>({
            error: new TimeoutError({
              message: `No response from ${settings.baseUrl} within ${Retry.formatMillis(responseMillis)}`,
              status: null,
              requestId: null
            }),
            status: null,
            header: Retry.noHeaders,
            retryable: true,
            timedOut: true
          })
        }),
        Effect.flatMap((response) => {
          if (response.status >= 200 && response.status < 300) return Effect.succeed(response)
          return Effect.flatMap(readBounded(response, settings.idle), (text) =>
            Effect.fail<AttemptFailure>({
              error: errorFromBody(response.status, text, requestIdOf(response)),
              status: response.status,
              header: headerLookup(response),
              retryable: true
            })
          )
        })
      )

    const responseMillis = Duration.toMillis(settings.responseTimeout)

    /** The error a request ends with after `attempts` attempts over `elapsedMillis`: what failed and what to check. */
    const finalError = (failure: AttemptFailure, attempts: number, elapsedMillis: number): ApiError => {
      const error = failure.error
      const tried = attempts > 1 ? ` (${attempts} attempts over ${Retry.formatMillis(elapsedMillis)})` : ""
      if (failure.timedOut === true) {
        return new TimeoutError({
          message:
            `No response from ${settings.baseUrl}: waited ${Retry.formatMillis(responseMillis)} for each of ` +
            `${attempts} attempt${attempts > 1 ? "s" : ""}, ${Retry.formatMillis(elapsedMillis)} in all. Check that ` +
            `ANTHROPIC_BASE_URL names a Messages API server and that it is up (and the proxy, if HTTPS_PROXY or ` +
            `HTTP_PROXY is set); a slow server needs a larger API_TIMEOUT_MS.`,
          status: null,
          requestId: null
        })
      }
      if (error._tag === "ConnectionError") {
        return new ConnectionError({
          message:
            `${error.message}${tried}. Check that ${settings.baseUrl} is reachable from here (ANTHROPIC_BASE_URL, ` +
            `and HTTPS_PROXY/HTTP_PROXY/NO_PROXY behind a proxy).`,
          status: null,
          requestId: null
        })
      }
      return tried === "" ? error : fromStatus({ ...errorInfo(error), message: `${error.message}${tried}` })
    }

    /** The error when the server asks for a wait longer than weft waits out. */
    const waitTooLongError = (failure: AttemptFailure, delayMillis: number, retryAtMillis: number): ApiError =>
      fromStatus({
        ...errorInfo(failure.error),
        message:
          `${failure.error.message}. The server asks to wait ${Retry.formatMillis(delayMillis)} before retrying, ` +
          `longer than weft waits (${Retry.formatMillis(settings.policy.maxRetryAfterMillis)}): try again after ` +
          `${new Date(retryAtMillis).toISOString()}.`
      })

    /**
     * The retry policy as a Schedule over failed attempts: Retry.decide for each, whose wait the schedule sleeps on
     * Effect's clock; its output is the notice of the retry it waits for. A failure it does not retry ends it with
     * the request's final error (its error channel): what failed, how often and for how long, and what to check.
     */
    const retrySchedule: Schedule.Schedule<RetryNotice, AttemptFailure, ApiError> = Schedule.fromStepWithMetadata(
      // Read when a request starts (before its first attempt): the time it has taken runs from then.
      Effect.map(Clock.currentTimeMillis, (startedAt) => (step: Schedule.InputMetadata<AttemptFailure>) => {
        // `attempt` counts the failed attempts so far, this one included.
        const { input: failure, attempt: attempts, now } = step
        if (!failure.retryable) return Effect.fail(finalError(failure, attempts, now - startedAt))
        return Effect.flatMap(Random.next, (random) => {
          const decision = Retry.decide(
            {
              retry: attempts - 1,
              status: failure.status,
              header: failure.header,
              nowMillis: now,
              random,
              timedOut: failure.timedOut === true
            },
            settings.policy
          )
          switch (decision._tag) {
            case "GiveUp":
              return Effect.fail(finalError(failure, attempts, now - startedAt))
            case "WaitTooLong":
              return Effect.fail(waitTooLongError(failure, decision.delayMillis, decision.retryAtMillis))
            case "Retry": {
              const notice: RetryNotice = {
                attempt: attempts,
                maxRetries: decision.maxRetries,
                delayMillis: decision.delayMillis,
                status: failure.status,
                message: failure.error.message,
                errorTag: failure.error._tag
              }
              const next: [RetryNotice, Duration.Duration] = [notice, Duration.millis(decision.delayMillis)]
              return Effect.as(
                Effect.logDebug(
                  `ApiClient: retry ${notice.attempt}/${notice.maxRetries} in ${decision.delayMillis} ms after: ${failure.error.message}`
                ),
                next
              )
            }
          }
        })
      })
    )

    /** Attempts until a 2xx response or the retry schedule gives up; `onRetry` is told before each retry's wait. */
    const send = (request: HttpClientRequest.HttpClientRequest, options: StreamOptions | undefined) => {
      const onRetry = options?.onRetry
      return Effect.retryOrElse(
        attempt(request),
        onRetry === undefined ? retrySchedule : Schedule.tap(retrySchedule, ({ output }) => onRetry(output)),
        // The schedule ends only by failing with the request's final error; were it to end otherwise, the last
        // attempt's error would be that.
        (failure) => Effect.fail(failure.error)
      )
    }

    /**
     * `send` with the key source's key, when there is one: a 401 asks it for a fresh key and sends the request once
     * more (a rotated or expired key), as Claude Code runs its apiKeyHelper again after a 401.
     */
    const sendWithKey = (request: (key: string | undefined) => HttpClientRequest.HttpClientRequest, options: StreamOptions | undefined) => {
      const source = settings.keySource
      if (source === undefined) return send(request(undefined), options)
      return Effect.flatMap(source.current, (key) =>
        send(request(key), options).pipe(
          Effect.catchIf(
            (error) => error.status === 401,
            () => Effect.flatMap(source.refresh(key), (fresh) => send(request(fresh), options))
          )
        )
      )
    }

    const withModel = (request: MessagesRequest, stream: boolean): MessagesRequest => ({
      ...request,
      model: request.model === "" ? settings.defaultModel : resolveModel(request.model),
      stream
    })

    const openStream = Effect.fn("ApiClient.stream")(function* (request: MessagesRequest, options?: StreamOptions) {
      if (!settings.hasCredentials) return yield* Effect.fail(missingCredentials)
      const resolved = withModel(request, true)
      const { response, abort } = yield* sendWithKey((key) => post("/v1/messages", resolved.model, resolved, key), options)
      const requestId = requestIdOf(response)
      const idleTimeout = () =>
        new TimeoutError({
          message:
            `The response stopped: no data from the server for ${Retry.formatMillis(Duration.toMillis(settings.idle))} ` +
            `(the stream's idle timeout, WEFT_STREAM_IDLE_TIMEOUT_MS)${requestId ? ` (request-id ${requestId})` : ""}`,
          status: null,
          requestId
        })
      const body = response.stream.pipe(
        Stream.mapError(
          (error) =>
            new StreamAbortedError({
              message: `The stream broke off${error.reason.cause instanceof Error ? `: ${error.reason.cause.message}` : ""}${
                requestId ? ` (request-id ${requestId})` : ""
              }`,
              status: null,
              requestId
            })
        )
      )
      const events = Sse.events(body).pipe(
        Stream.mapError((error): ApiError =>
          error._tag === "ParseError" && error.requestId === null && requestId !== null
            ? new ParseError({ message: `${error.message} (request-id ${requestId})`, status: error.status, requestId })
            : error
        )
      )
      return yield* guardEvents(events, requestId, settings.idle, abort, idleTimeout)
    })

    const stream = (request: MessagesRequest, options?: StreamOptions): Stream.Stream<StreamEvent, ApiError> =>
      Stream.unwrap(openStream(request, options))

    const countTokens = Effect.fn("ApiClient.countTokens")(function* (request: MessagesRequest) {
      if (!settings.hasCredentials) return yield* Effect.fail(missingCredentials)
      const { stream: _stream, max_tokens: _maxTokens, ...rest } = withModel(request, false)
      return yield* Effect.scoped(
        Effect.gen(function* () {
          const { response } = yield* sendWithKey((key) => post("/v1/messages/count_tokens", rest.model, rest, key), undefined)
          const text = yield* readBounded(response, settings.idle)
          const parsed: unknown = yield* Effect.try({
            try: () => JSON.parse(text),
            catch: () =>
              new ParseError({ message: "count_tokens: the body is not JSON", status: response.status, requestId: requestIdOf(response) })
          })
          if (isRecord(parsed) && typeof parsed["input_tokens"] === "number") return parsed["input_tokens"]
          return yield* Effect.fail(
            new ParseError({
              message: "count_tokens: no input_tokens in the response",
              status: response.status,
              requestId: requestIdOf(response)
            })
          )
        })
      )
    })

    return { stream, countTokens, defaultModel: settings.defaultModel, resolveModel } satisfies Interface
  })

/** `name`'s value; none when it is absent or blank. */
const nonEmpty = (name: string): Effect.Effect<Option.Option<string>> =>
  Effect.map(Variables.value(name), (value) => (value === undefined || value.trim() === "" ? Option.none() : Option.some(value)))

/** A whole number of at least `min` from the environment; empty counts as unset, anything else is an error naming it. */
const wholeNumber = (name: string, min: number): Effect.Effect<Option.Option<number>, Config.ConfigError> =>
  Effect.flatMap(nonEmpty(name), (value) => {
    if (Option.isNone(value)) return Effect.succeed(Option.none<number>())
    const parsed = Number(value.value.trim())
    return Number.isInteger(parsed) && parsed >= min
      ? Effect.succeed(Option.some(parsed))
      : Effect.fail(
          new Config.ConfigError(
            new Schema.SchemaError(
              new SchemaIssue.InvalidValue(
                { message: `${name} must be a whole number${min > 0 ? ` of at least ${min}` : ""}, not ${JSON.stringify(value.value)}` },
                value.value
              )
            )
          )
        )
  })

/**
 * ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL (empty values count as unset);
 * API_TIMEOUT_MS (the response timeout, as in Claude Code); WEFT_MAX_RETRIES, else Claude Code's
 * CLAUDE_CODE_MAX_RETRIES; WEFT_STREAM_IDLE_TIMEOUT_MS (the idle timeout of a started stream);
 * ANTHROPIC_DEFAULT_OPUS_MODEL / _SONNET_ / _HAIKU_ (what the aliases mean). Read through the ConfigProvider in force
 * (platform/Variables.ts).
 */
export const configFromEnv: Effect.Effect<ApiClientConfig, Config.ConfigError> = Effect.map(
  Effect.all({
    apiKey: nonEmpty("ANTHROPIC_API_KEY"),
    authToken: nonEmpty("ANTHROPIC_AUTH_TOKEN"),
    baseUrl: nonEmpty("ANTHROPIC_BASE_URL"),
    model: nonEmpty("ANTHROPIC_MODEL"),
    responseTimeout: wholeNumber("API_TIMEOUT_MS", 1),
    maxRetries: wholeNumber("WEFT_MAX_RETRIES", 0),
    claudeMaxRetries: wholeNumber("CLAUDE_CODE_MAX_RETRIES", 0),
    idleTimeout: wholeNumber("WEFT_STREAM_IDLE_TIMEOUT_MS", 1),
    opus: nonEmpty("ANTHROPIC_DEFAULT_OPUS_MODEL"),
    sonnet: nonEmpty("ANTHROPIC_DEFAULT_SONNET_MODEL"),
    haiku: nonEmpty("ANTHROPIC_DEFAULT_HAIKU_MODEL")
  }),
  (env): ApiClientConfig => {
    const config: { -readonly [K in keyof ApiClientConfig]: ApiClientConfig[K] } = {}
    if (Option.isSome(env.apiKey)) config.apiKey = Redacted.make(env.apiKey.value)
    if (Option.isSome(env.authToken)) config.authToken = Redacted.make(env.authToken.value)
    if (Option.isSome(env.baseUrl)) config.baseUrl = env.baseUrl.value
    if (Option.isSome(env.model)) config.defaultModel = env.model.value
    if (Option.isSome(env.responseTimeout)) config.responseTimeout = Duration.millis(env.responseTimeout.value)
    const maxRetries = Option.orElse(env.maxRetries, () => env.claudeMaxRetries)
    if (Option.isSome(maxRetries)) config.maxRetries = maxRetries.value
    if (Option.isSome(env.idleTimeout)) config.idleTimeout = Duration.millis(env.idleTimeout.value)
    if (Option.isSome(env.opus) || Option.isSome(env.sonnet) || Option.isSome(env.haiku)) {
      config.aliases = Models.aliasesFrom({
        opus: Option.getOrUndefined(env.opus),
        sonnet: Option.getOrUndefined(env.sonnet),
        haiku: Option.getOrUndefined(env.haiku)
      })
    }
    return config
  }
)

/** The client configured from the environment (see `configFromEnv`), on the HttpClient in context. */
export const make: Effect.Effect<Interface, Config.ConfigError, HttpClient.HttpClient> = Effect.flatMap(configFromEnv, makeWith)

export class ApiClient extends Context.Service<ApiClient, Interface>()("weft/ApiClient") {
  static make = make

  /** From the environment (see `configFromEnv`); needs an HttpClient that streams bodies. */
  static layer: Layer.Layer<ApiClient, Config.ConfigError, HttpClient.HttpClient> = Layer.effect(ApiClient, make)

  static makeWith = makeWith

  /** `makeWith` as a layer: the config given, nothing read from the environment. */
  static layerWith = (config: ApiClientConfig): Layer.Layer<ApiClient, never, HttpClient.HttpClient> =>
    Layer.effect(ApiClient, makeWith(config))
}

// The entry points at the module's top level: `import { ApiClient } from "weft"` reads `ApiClient.layer...(...)`, and
// `ApiClient.ApiClient` is the Tag (`yield* ApiClient.ApiClient`).
export const layer = ApiClient.layer
export const layerWith = ApiClient.layerWith
