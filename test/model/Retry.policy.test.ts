/**
 * The retry policy's edges: which statuses are retried, how the server's retry-after headers are read (a blank one is
 * no answer: weft backs off as usual, it does not retry at once), the order of the rules in `decide`, and how
 * durations are said.
 */
import { describe, expect, it } from "vitest"
import * as Retry from "../../src/model/Retry.js"

const h = (headers: Record<string, string>) => Retry.headersFrom(headers)
const now = Date.parse("2025-01-01T00:00:00Z")
const base = { header: Retry.noHeaders, nowMillis: now, random: 0 }
const backoff = (delayMillis: number, maxRetries = 10) => ({ _tag: "Retry", delayMillis, source: "backoff", maxRetries })
const server = (delayMillis: number, maxRetries = 10) => ({ _tag: "Retry", delayMillis, source: "server", maxRetries })

describe("Retry.isRetryableStatus at its edges", () => {
  it("retries exactly 408, 409, 429 and 500 and above", () => {
    const retried = [200, 399, 400, 407, 408, 409, 410, 428, 429, 430, 499, 500, 501, 529, 599].filter(Retry.isRetryableStatus)
    expect(retried).toEqual([408, 409, 429, 500, 501, 529, 599])
  })

  it("x-should-retry: false stops even a retry after no response; other values leave it to the status", () => {
    expect(Retry.isRetryable(null, h({ "x-should-retry": "false" }))).toBe(false)
    expect(Retry.isRetryable(null, h({ "x-should-retry": "" }))).toBe(true)
    expect(Retry.isRetryable(400, h({ "x-should-retry": "" }))).toBe(false)
    expect(Retry.isRetryable(408, h({ "x-should-retry": "yes" }))).toBe(true)
  })
})

describe("Retry.serverDelayMillis: blank and odd headers", () => {
  it("a blank retry-after-ms is no answer: retry-after is read, else there is no server delay", () => {
    for (const blank of ["", " ", "\t"]) {
      expect(Retry.serverDelayMillis(h({ "retry-after-ms": blank }), now), JSON.stringify(blank)).toBeUndefined()
      expect(Retry.serverDelayMillis(h({ "retry-after-ms": blank, "retry-after": "4" }), now)).toBe(4000)
    }
  })

  it("a blank retry-after is no answer either", () => {
    for (const blank of ["", "  "]) expect(Retry.serverDelayMillis(h({ "retry-after": blank }), now)).toBeUndefined()
  })

  it("zero is a real answer: retry at once", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "0" }), now)).toBe(0)
    expect(Retry.serverDelayMillis(h({ "retry-after": "0" }), now)).toBe(0)
    expect(Retry.serverDelayMillis(h({ "retry-after": new Date(now).toUTCString() }), now)).toBe(0)
  })

  it("rounds a fractional wait up to a whole millisecond", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "1.2" }), now)).toBe(2)
    expect(Retry.serverDelayMillis(h({ "retry-after": "0.0011" }), now)).toBe(2)
  })

  it("ignores infinite and negative values", () => {
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "Infinity" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "Infinity", "retry-after": "3" }), now)).toBe(3000)
    expect(Retry.serverDelayMillis(h({ "retry-after": "Infinity" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after": "-1" }), now)).toBeUndefined()
    expect(Retry.serverDelayMillis(h({ "retry-after-ms": "-0.5" }), now)).toBeUndefined()
  })

  it("reads header names case-insensitively", () => {
    expect(Retry.serverDelayMillis(h({ "Retry-After-Ms": "15" }), now)).toBe(15)
    expect(Retry.serverDelayMillis(h({ "RETRY-AFTER": "2" }), now)).toBe(2000)
  })
})

describe("Retry.decide with blank and zero server waits", () => {
  it("a blank retry-after-ms means the normal backoff, not a retry after 0 ms", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 529, header: h({ "retry-after-ms": "" }) })).toEqual(backoff(500))
    expect(Retry.decide({ ...base, retry: 2, status: 429, header: h({ "retry-after-ms": " ", "retry-after": "" }) })).toEqual(backoff(2000))
  })

  it("a server wait of 0 is honoured as the server's", () => {
    expect(Retry.decide({ ...base, retry: 3, status: 429, header: h({ "retry-after": "0" }) })).toEqual(server(0))
  })
})

describe("Retry.decide: the order of the rules", () => {
  const longWait = h({ "retry-after": "3600" })

  it("a status that is not retried gives up before looking at the server's wait", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 400, header: longWait })).toEqual({ _tag: "GiveUp", reason: "not_retryable", maxRetries: 10 })
  })

  it("a too-long wait is reported even when no attempts are left", () => {
    expect(Retry.decide({ ...base, retry: 10, status: 429, header: longWait })).toEqual({
      _tag: "WaitTooLong",
      delayMillis: 3_600_000,
      retryAtMillis: now + 3_600_000
    })
  })

  it("honours a wait of exactly the bound, and not one millisecond more", () => {
    expect(Retry.decide({ ...base, retry: 0, status: 429, header: h({ "retry-after-ms": "300000" }) })).toEqual(server(300_000))
    expect(Retry.decide({ ...base, retry: 0, status: 429, header: h({ "retry-after-ms": "300001" }) })._tag).toBe("WaitTooLong")
  })

  it("gives up when the attempts allowed are used, with or without a server wait", () => {
    expect(Retry.decide({ ...base, retry: 10, status: 429, header: h({ "retry-after": "1" }) })).toEqual({
      _tag: "GiveUp",
      reason: "attempts",
      maxRetries: 10
    })
    expect(Retry.decide({ ...base, retry: 9, status: 429, header: h({ "retry-after": "1" }) })).toEqual(server(1000))
  })

  it("after a timeout allows the smaller of maxRetries and maxTimeoutRetries", () => {
    const policy = { ...Retry.defaultPolicy, maxRetries: 1, maxTimeoutRetries: 3 }
    expect(Retry.decide({ ...base, retry: 0, status: null, timedOut: true }, policy)).toEqual(backoff(500, 1))
    expect(Retry.decide({ ...base, retry: 1, status: null, timedOut: true }, policy)).toEqual({ _tag: "GiveUp", reason: "attempts", maxRetries: 1 })
    // Not timed out: the full count.
    expect(Retry.decide({ ...base, retry: 1, status: null, timedOut: false })).toEqual(backoff(1000))
    expect(Retry.decide({ ...base, retry: 5, status: null })).toEqual(backoff(16_000))
  })

  it("the backoff uses the policy's numbers and the random draw", () => {
    const policy = { ...Retry.defaultPolicy, initialBackoffMillis: 100, maxBackoffMillis: 250, jitter: 0.5 }
    expect(Retry.decide({ ...base, retry: 0, status: 503, random: 0.5 }, policy)).toEqual(backoff(75))
    expect(Retry.decide({ ...base, retry: 1, status: 503 }, policy)).toEqual(backoff(200))
    expect(Retry.decide({ ...base, retry: 2, status: 503 }, policy)).toEqual(backoff(250))
  })
})

describe("Retry.formatMillis at its edges", () => {
  it("switches units at a second, a minute and an hour", () => {
    expect([0, 999, 1000, 2000, 1500, 59_000, 60_000, 61_000, 3_599_000, 3_600_000, 5_400_000, 7_200_000].map(Retry.formatMillis)).toEqual([
      "0 ms",
      "999 ms",
      "1 s",
      "2 s",
      "1.5 s",
      "59 s",
      "1 min",
      "1 min 1 s",
      "59 min 59 s",
      "1 h",
      "1 h 30 min",
      "2 h"
    ])
  })

  it("rounds: milliseconds to the unit, tenths of a second, whole seconds and minutes", () => {
    expect(Retry.formatMillis(12.6)).toBe("13 ms")
    expect(Retry.formatMillis(1234)).toBe("1.2 s")
    expect(Retry.formatMillis(90_600)).toBe("1 min 31 s")
    expect(Retry.formatMillis(3_599_600)).toBe("1 h")
    expect(Retry.formatMillis(3_629_000)).toBe("1 h")
    expect(Retry.formatMillis(3_630_000)).toBe("1 h 1 min")
  })
})
