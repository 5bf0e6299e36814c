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
  /** Retries after the first attempt (so `maxRetries + 1` attempts at most). The SDK's default is 2. */
  readonly maxRetries: number
  /** The first backoff; each retry doubles it. */
  readonly initialBackoffMillis: number
  /** The backoff never grows past this. */
  readonly maxBackoffMillis: number
  /** A server-given wait (retry-after-ms / retry-after) longer than this is ignored in favour of the backoff. */
  readonly maxRetryAfterMillis: number
  /** Up to this fraction is taken off a backoff at random, so clients that failed together spread out. */
  readonly jitter: number
}

/** The SDK's numbers: 2 retries, 0.5 s doubling to 8 s, 25% jitter, server waits honoured up to 60 s. */
export const defaultPolicy: RetryPolicy = {
  maxRetries: 2,
  initialBackoffMillis: 500,
  maxBackoffMillis: 8_000,
  maxRetryAfterMillis: 60_000,
  jitter: 0.25
}

/** Header lookup by lower-case name (both node's IncomingHttpHeaders and @effect/platform Headers fit). */
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
 * HTTP date (relative to `nowMillis`). Undefined when absent, unparseable, negative, or not under the cap.
 */
export const serverDelayMillis = (
  header: HeaderLookup,
  nowMillis: number,
  maxRetryAfterMillis: number = defaultPolicy.maxRetryAfterMillis
): number | undefined => {
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
  if (millis === undefined || millis < 0 || millis >= maxRetryAfterMillis) return undefined
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
  | { readonly _tag: "Retry"; readonly delayMillis: number }
  | { readonly _tag: "GiveUp" }

export interface Attempt {
  /** Retries already made for this request (0 after the first attempt failed). */
  readonly retry: number
  /** The response status, or null when no response arrived. */
  readonly status: number | null
  readonly header: HeaderLookup
  readonly nowMillis: number
  readonly random: number
}

/** What to do after a failed attempt. */
export const decide = (attempt: Attempt, policy: RetryPolicy = defaultPolicy): Decision => {
  if (attempt.retry >= policy.maxRetries) return { _tag: "GiveUp" }
  if (!isRetryable(attempt.status, attempt.header)) return { _tag: "GiveUp" }
  const fromServer = serverDelayMillis(attempt.header, attempt.nowMillis, policy.maxRetryAfterMillis)
  return {
    _tag: "Retry",
    delayMillis: fromServer ?? backoffMillis(attempt.retry, policy, attempt.random)
  }
}

/** A lookup over a plain record of headers (names compared lower-case). */
export const headersFrom = (headers: Readonly<Record<string, string | undefined>>): HeaderLookup => {
  const lower: Record<string, string | undefined> = {}
  for (const key in headers) lower[key.toLowerCase()] = headers[key]
  return (name) => lower[name]
}

export const noHeaders: HeaderLookup = () => undefined
