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
  it("ignores waits at or beyond the cap, negative, past dates and garbage", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after": "60" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after": "61" }), now, 60_000)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after": "120" }), now, 300_000)).toBe(120_000)
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
  it("doubles from 0.5 s and caps at 8 s without jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => Retry.backoffMillis(n, policy, 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000
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
  it("gives up after maxRetries", () => {
    expect(Retry.decide({ ...base, retry: 1, status: 500 })).toEqual({ _tag: "Retry", delayMillis: 1000 })
    expect(Retry.decide({ ...base, retry: 2, status: 500 })).toEqual({ _tag: "GiveUp" })
    expect(Retry.decide({ ...base, retry: 0, status: 500 }, { ...Retry.defaultPolicy, maxRetries: 0 })).toEqual({
      _tag: "GiveUp"
    })
  })
  it("gives up on statuses that are not retried, and when the server forbids it", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 400 })).toEqual({ _tag: "GiveUp" })
    expect(Retry.decide({ ...base, retry: 0, status: 529, header: h({ "x-should-retry": "false" }) })).toEqual({
      _tag: "GiveUp"
    })
  })
  it("waits what the server says, else backs off", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 429, header: h({ "retry-after": "3" }) })).toEqual({
      _tag: "Retry",
      delayMillis: 3000
    })
    expect(Retry.decide({ ...base, retry: 1, status: 429, header: h({ "retry-after": "3600" }) })).toEqual({
      _tag: "Retry",
      delayMillis: 1000
    })
    expect(Retry.decide({ ...base, retry: 0, status: null })).toEqual({ _tag: "Retry", delayMillis: 500 })
  })
})
