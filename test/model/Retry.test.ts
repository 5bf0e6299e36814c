import { describe, expect, it } from "vitest"
import * as Retry from "../../src/model/Retry.js"

const h = (headers: Record<string, string>) => Retry.headersFrom(headers)
const now = Date.parse("2025-01-01T00:00:00Z")

describe("Retry.isRetryable", () => {
  it("retries 408, 409, 429, 5xx and 529, and connection errors", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504, 529]) expect(Retry.isRetryable(status, Retry.noHeaders)).toBe(true)
    expect(Retry.isRetryable(null, Retry.noHeaders)).toBe(true)
  })
  it("does not retry other 4xx", () => {
    for (const status of [400, 401, 403, 404, 413, 422]) expect(Retry.isRetryable(status, Retry.noHeaders)).toBe(false)
  })
  it("lets x-should-retry decide first", () => {
    expect(Retry.isRetryable(529, h({ "x-should-retry": "false" }))).toBe(false)
    expect(Retry.isRetryable(400, h({ "X-Should-Retry": "true" }))).toBe(true)
    // Anything else is no answer: the status decides.
    expect(Retry.isRetryable(429, h({ "x-should-retry": "maybe" }))).toBe(true)
  })
})

describe("Retry.serverDelayMillis", () => {
  it("prefers retry-after-ms over retry-after", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "250", "retry-after": "7" }), now)).toBe(250)
  })
  it("reads retry-after as seconds, fractions included", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after": "7" }), now)).toBe(7000)
    expect(Retry.serverDelayMillis(h({ "retry-after": "1.5" }), now)).toBe(1500)
  })
  it("reads retry-after as an HTTP date relative to now", () => {
    const date = new Date(now + 12_000).toUTCString()
    expect(Retry.serverDelayMillis(h({ "retry-after": date }), now)).toBe(12_000)
  })
  it("reads long waits as they are (the policy decides), and ignores negative, past dates and garbage", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after": "60" }), now)).toBe(60_000)
    expect(Retry.serverDelayMillis(h({ "retry-after": "3600" }), now)).toBe(3_600_000)
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "-5" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after": new Date(now - 5000).toUTCString() }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after": "soon" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(Retry.noHeaders, now)).toBeUndefined()
  })
  it("falls back to retry-after when retry-after-ms is unusable", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "x", "retry-after": "2" }), now)).toBe(2000)
  })
})

describe("Retry.backoffMillis", () => {
  const policy = Retry.defaultPolicy
  it("doubles from 0.5 s and caps at 32 s without jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => Retry.backoffMillis(n, policy, 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 32000, 32000
    ])
  })
  it("takes off at most 25% as jitter", () => {
    expect(Retry.backoffMillis(0, policy, 0.999999)).toBe(375)
    expect(Retry.backoffMillis(2, policy, 0.5)).toBe(1750)
    expect(Retry.backoffMillis(1, { ...policy, jitter: 0 }, 0.9)).toBe(1000)
  })
})

describe("Retry.decide", () => {
  const base = { header: Retry.noHeaders, nowMillis: now, random: 0 }
  const retry = (delayMillis: number, source: "server" | "backoff" = "backoff", maxRetries = 10) => ({
    _tag: "Retry",
    delayMillis,
    source,
    maxRetries
  })
  it("retries 429, 529, 5xx and connection errors 10 times, as Claude Code, then gives up", () => {
    for (const status of [429, 529, 500, 503, null]) {
      expect(Retry.decide({ ...base, retry: 0, status })).toEqual(retry(500))
      expect(Retry.decide({ ...base, retry: 9, status })).toEqual(retry(32_000))
      expect(Retry.decide({ ...base, retry: 10, status })).toEqual({ _tag: "GiveUp", reason: "attempts", maxRetries: 10 })
    }
    expect(Retry.decide({ ...base, retry: 0, status: 500 }, { ...Retry.defaultPolicy, maxRetries: 0 })).toEqual({
      _tag: "GiveUp",
      reason: "attempts",
      maxRetries: 0
    })
  })
  it("retries a timed-out attempt fewer times: each one already waited the whole timeout", () => {
    expect(Retry.decide({ ...base, retry: 1, status: null, timedOut: true })).toEqual(retry(1000, "backoff", 2))
    expect(Retry.decide({ ...base, retry: 2, status: null, timedOut: true })).toEqual({
      _tag: "GiveUp",
      reason: "attempts",
      maxRetries: 2
    })
  })
  it("gives up on statuses that are not retried, and when the server forbids it", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 400 })._tag).toBe("GiveUp")
    expect(Retry.decide({ ...base, retry: 0, status: 529, header: h({ "x-should-retry": "false" }) })).toEqual({
      _tag: "GiveUp",
      reason: "not_retryable",
      maxRetries: 10
    })
  })
  it("waits what the server says, a minute and more included, else backs off", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 429, header: h({ "retry-after": "3" }) })).toEqual(retry(3000, "server"))
    expect(Retry.decide({ ...base, retry: 1, status: 529, header: h({ "retry-after": "90" }) })).toEqual(retry(90_000, "server"))
    expect(Retry.decide({ ...base, retry: 1, status: 429, header: h({ "retry-after-ms": "300000" }) })).toEqual(
      retry(300_000, "server")
    )
    expect(Retry.decide({ ...base, retry: 0, status: null })).toEqual(retry(500))
  })
  it("fails at once, saying when, when the server asks for more than the bound", () => {
    expect(Retry.decide({ ...base, retry: 1, status: 429, header: h({ "retry-after": "3600" }) })).toEqual({
      _tag: "WaitTooLong",
      delayMillis: 3_600_000,
      retryAtMillis: now + 3_600_000
    })
    expect(
      Retry.decide({ ...base, retry: 0, status: 429, header: h({ "retry-after": "3600" }) }, { ...Retry.defaultPolicy, maxRetryAfterMillis: 4_000_000 })
    ).toEqual(retry(3_600_000, "server"))
  })
})

describe("Retry.formatMillis", () => {
  it("says durations as people do", () => {
    expect([850, 1500, 60_000, 125_000, 3_600_000, 3_780_000].map(Retry.formatMillis)).toEqual([
      "850 ms",
      "1.5 s",
      "1 min",
      "2 min 5 s",
      "1 h",
      "1 h 3 min"
    ])
  })
})
