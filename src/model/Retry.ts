/**
 * When and how long to wait before retrying a Messages API request. Pure functions: the caller passes the
 * clock reading and the random draw, so the policy is tested without time or randomness, and the ApiClient
 * sleeps with Effect's clock (TestClock drives it in tests).
 *
 * Retries happen only before the first byte of a response body: a stream that has started is never replayed.
 * The order of the rules follows @anthropic-ai/sdk 1.12 (`shouldRetry`, `retryRequest`) so weft behaves like the
 * official clients against the same server.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (so `maxRetries + 1` attempts at most). Claude Code's default is 10. */
  readonly maxRetries: number
  /**
   * Retries after an attempt that got no answer in time (a server that accepted the request and then said
   * nothing): fewer than `maxRetries`, since each such attempt already waited the whole timeout.
   */
  readonly maxTimeoutRetries: number
  /** The first backoff; each retry doubles it. */
  readonly initialBackoffMillis: number
  /** The backoff never grows past this. */
  readonly maxBackoffMillis: number
  /**
   * The longest server-given wait (retry-after-ms / retry-after) that is waited out. A longer one ends the
   * request at once with an error that says when to try again (a rate limit reset an hour away is no retry).
   */
  readonly maxRetryAfterMillis: number
  /** Up to this fraction is taken off a backoff at random, so clients that failed together spread out. */
  readonly jitter: number
}

/**
 * Claude Code's numbers: 10 retries, 0.5 s doubling to 32 s, 25% jitter; a server's wait honoured up to 5 minutes;
 * 2 retries after a timeout.
 */
export const defaultPolicy: RetryPolicy = {
  maxRetries: 10,
  maxTimeoutRetries: 2,
  initialBackoffMillis: 500,
  maxBackoffMillis: 32_000,
  maxRetryAfterMillis: 5 * 60_000,
  jitter: 0.25
}

/** Header lookup by lower-case name (both node's IncomingHttpHeaders and effect's http Headers fit). */
export type HeaderLookup = (name: string) => string | undefined

/** 408 timeout, 409 lock conflict, 429 rate limit, every 5xx (529 overloaded included). */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500

/**
 * Whether a failed attempt may be retried at all (attempts left aside). `status` is null when there was no
 * response (connection refused, reset before the headers, header wait timed out): those are retried.
 * `x-should-retry` is the server's explicit word and wins over the status.
 */
export const isRetryable = (status: number | null, header: HeaderLookup): boolean => {
  const explicit = header("x-should-retry")
  if (explicit === "true") return true
  if (explicit === "false") return false
  return status === null || isRetryableStatus(status)
}

/**
 * The wait the server asked for, in milliseconds: `retry-after-ms` first, then `retry-after` as seconds or an
 * HTTP date (relative to `nowMillis`). Undefined when absent, unparseable or negative (a date in the past).
 */
export const serverDelayMillis = (header: HeaderLookup, nowMillis: number): number | undefined => {
  let millis: number | undefined
  const ms = header("retry-after-ms")
  if (ms !== undefined && ms.trim() !== "") {
    const parsed = Number(ms)
    if (Number.isFinite(parsed)) millis = parsed
  }
  if (millis === undefined) {
    const after = header("retry-after")
    if (after !== undefined && after.trim() !== "") {
      const seconds = Number(after)
      if (Number.isFinite(seconds)) millis = seconds * 1000
      else {
        const date = Date.parse(after)
        if (Number.isFinite(date)) millis = date - nowMillis
      }
    }
  }
  if (millis === undefined || millis < 0) return undefined
  return Math.ceil(millis)
}

/**
 * Exponential backoff for the retry numbered `retry` (0 for the first retry): initial * 2^retry, capped, minus
 * up to `jitter` of it. `random` is a draw in [0, 1).
 */
export const backoffMillis = (retry: number, policy: RetryPolicy, random: number): number => {
  const base = Math.min(policy.initialBackoffMillis * Math.pow(2, retry), policy.maxBackoffMillis)
  return Math.round(base * (1 - random * policy.jitter))
}

export type Decision =
  | {
      readonly _tag: "Retry"
      readonly delayMillis: number
      /** Whether the delay is the server's (retry-after) or weft's backoff. */
      readonly source: "server" | "backoff"
      /** The retries allowed for this kind of failure (`maxRetries`, or `maxTimeoutRetries` after a timeout). */
      readonly maxRetries: number
    }
  | { readonly _tag: "GiveUp"; readonly reason: "not_retryable" | "attempts"; readonly maxRetries: number }
  /** The server asked for a wait longer than `maxRetryAfterMillis`: fail now and say when to try again. */
  | { readonly _tag: "WaitTooLong"; readonly delayMillis: number; readonly retryAtMillis: number }

export interface Attempt {
  /** Retries already made for this request (0 after the first attempt failed). */
  readonly retry: number
  /** The response status, or null when no response arrived. */
  readonly status: number | null
  readonly header: HeaderLookup
  readonly nowMillis: number
  readonly random: number
  /** No response arrived within the timeout (retried at most `maxTimeoutRetries` times). */
  readonly timedOut?: boolean
}

/** What to do after a failed attempt. */
export const decide = (attempt: Attempt, policy: RetryPolicy = defaultPolicy): Decision => {
  const maxRetries = attempt.timedOut === true ? Math.min(policy.maxRetries, policy.maxTimeoutRetries) : policy.maxRetries
  if (!isRetryable(attempt.status, attempt.header)) return { _tag: "GiveUp", reason: "not_retryable", maxRetries }
  const fromServer = serverDelayMillis(attempt.header, attempt.nowMillis)
  // Stryker disable next-line ConditionalExpression: `undefined > n` is false anyway; the check narrows the type
  if (fromServer !== undefined && fromServer > policy.maxRetryAfterMillis) {
    return { _tag: "WaitTooLong", delayMillis: fromServer, retryAtMillis: attempt.nowMillis + fromServer }
  }
  if (attempt.retry >= maxRetries) return { _tag: "GiveUp", reason: "attempts", maxRetries }
  return fromServer !== undefined
    ? { _tag: "Retry", delayMillis: fromServer, source: "server", maxRetries }
    : { _tag: "Retry", delayMillis: backoffMillis(attempt.retry, policy, attempt.random), source: "backoff", maxRetries }
}

/** A duration for people: `850 ms`, `1.5 s`, `2 min 5 s`, `1 h 3 min`. */
export const formatMillis = (millis: number): string => {
  if (millis < 1000) return `${Math.round(millis)} ms`
  if (millis < 60_000) {
    const seconds = millis / 1000
    return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`
  }
  const totalSeconds = Math.round(millis / 1000)
  if (totalSeconds < 3600) {
    const minutes = Math.floor(totalSeconds / 60)
    const seconds = totalSeconds % 60
    return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`
  }
  const totalMinutes = Math.round(totalSeconds / 60)
  const hours = Math.floor(totalMinutes / 60)
  const minutes = totalMinutes % 60
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`
}

/** A lookup over a plain record of headers (names compared lower-case). */
export const headersFrom = (headers: Readonly<Record<string, string | undefined>>): HeaderLookup => {
  const lower: Record<string, string | undefined> = {}
  for (const key in headers) lower[key.toLowerCase()] = headers[key]
  return (name) => lower[name]
}

export const noHeaders: HeaderLookup = () => undefined
