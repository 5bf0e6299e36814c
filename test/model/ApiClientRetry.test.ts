import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import type { MessagesRequest } from "../../src/domain/Request.js"
import type { RetryNotice } from "../../src/model/ApiClient.js"
import { configFromEnv } from "../../src/model/ApiClient.js"
import { Fault, ScriptTurn, text } from "../../src/testing/Script.js"
import { eventually, recordSleeps, setup, sleeps } from "./apiClientSetup.js"

const request: MessagesRequest = { model: "claude-test", max_tokens: 64, messages: [{ role: "user", content: "hello" }] }



/** The response timeout of tests about the waits between attempts: far beyond them, and never reached. */
const never = 24 * 3600_000

/**
 * Runs `fiber` to its end on the TestClock: whenever it sleeps before `never` (a backoff), moves the clock to that
 * wake-up. Answers the instants the clock was moved to. (A pending response timeout, at `never`, is not a reason
 * to move: the attempt is waiting on real IO.)
 */
const drive = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.gen(function* () {
    const wakeUps: Array<number> = []
    const nextWakeUp = Effect.map(sleeps(), (pending) => pending.find((at) => at < never))
    const poll = Effect.sync(() => fiber.pollUnsafe())
    while (true) {
      yield* eventually(
        Effect.zipWith(nextWakeUp, poll, (next, done) => next !== undefined || done !== undefined)
      )
      if ((yield* poll) !== undefined) break
      const next = yield* nextWakeUp
      if (next === undefined) continue
      wakeUps.push(next)
      yield* TestClock.setTime(next)
    }
    return { exit: yield* Fiber.await(fiber), wakeUps }
  })

const recorder = () => {
  const notices: Array<RetryNotice> = []
  return { notices, onRetry: (notice: RetryNotice) => Effect.sync(() => void notices.push(notice)) }
}

describe("ApiClient retries", () => {
  it.effect("waits out a 529's retry-after of 90 s (a minute and more is honoured), telling each retry", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("after the wait")], { faults: [Fault.status(529, { headers: { "retry-after": "90" }, times: 2 })] })]
      }, { responseTimeout: never })
      const { notices, onRetry } = recorder()
      const fiber = yield* Effect.forkChild(Stream.runCollect(client.stream(request, { onRetry })))
      const { exit, wakeUps } = yield* drive(fiber)
      expect(exit._tag).toBe("Success")
      expect(wakeUps).toEqual([90_000, 180_000])
      expect((yield* server.requests).length).toBe(3)
      expect(notices.map(({ attempt, maxRetries, delayMillis, status, errorTag }) => ({ attempt, maxRetries, delayMillis, status, errorTag }))).toEqual([
        { attempt: 1, maxRetries: 10, delayMillis: 90_000, status: 529, errorTag: "OverloadedError" },
        { attempt: 2, maxRetries: 10, delayMillis: 90_000, status: 529, errorTag: "OverloadedError" }
      ])
      expect(notices[0]?.message).toContain("529")
    }).pipe(recordSleeps))

  it.effect("makes 10 retries of a 429 with backoff doubling up to 32 s, then fails saying how long it tried", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("never")], { faults: [Fault.status(429, { times: Infinity })] })]
      }, { responseTimeout: never })
      const { notices, onRetry } = recorder()
      const fiber = yield* Effect.forkChild(Effect.flip(Stream.runDrain(client.stream(request, { onRetry }))))
      const { exit } = yield* drive(fiber)
      expect((yield* server.requests).length).toBe(11)
      const delays = notices.map((notice) => notice.delayMillis)
      const caps = [500, 1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000]
      expect(delays.length).toBe(10)
      delays.forEach((delay, i) => {
        expect(delay).toBeLessThanOrEqual(caps[i] ?? 0)
        expect(delay).toBeGreaterThanOrEqual((caps[i] ?? 0) * 0.75)
      })
      expect(exit._tag === "Success" && exit.value._tag).toBe("RateLimitError")
      expect(exit._tag === "Success" && exit.value.message).toMatch(/\(11 attempts over \d+ min \d+ s\)/)
    }).pipe(recordSleeps))

  it.effect("fails at once with the time to try again when retry-after is beyond what weft waits", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("never")], { faults: [Fault.status(429, { headers: { "retry-after": "3600" }, times: Infinity })] })]
      })
      const error = yield* Effect.flip(Stream.runDrain(client.stream(request)))
      expect(error._tag).toBe("RateLimitError")
      expect(error.message).toContain("wait 1 h before retrying, longer than weft waits (5 min): try again after 1970-01-01T01:00:00.000Z")
      expect((yield* server.requests).length).toBe(1)
    }))

  it.effect("a server that never answers: each attempt waits the response timeout, 3 attempts, then a message with the time", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup(
        { script: [ScriptTurn.blocks([text("never")], { faults: [Fault.noResponse({ times: Infinity })] })] },
        { responseTimeout: "20 seconds", idleTimeout: "1 second" }
      )
      const { notices, onRetry } = recorder()
      const fiber = yield* Effect.forkChild(Effect.flip(Stream.runDrain(client.stream(request, { onRetry }))))
      const earliestSleep = Effect.map(sleeps(), (pending) => pending[0])
      for (let attempt = 1; attempt <= 3; attempt++) {
        // The request reached the server, which says nothing: 20 s later the attempt times out.
        yield* server.awaitRequests(attempt)
        yield* eventually(Effect.map(earliestSleep, (at) => at !== undefined))
        yield* TestClock.adjust("20 seconds")
        if (attempt === 3) break
        // Then the backoff before the next attempt.
        yield* eventually(Effect.sync(() => notices.length === attempt))
        const backoff = yield* earliestSleep
        if (backoff !== undefined) yield* TestClock.setTime(backoff)
      }
      const exit = yield* Fiber.await(fiber)
      expect((yield* server.requests).length).toBe(3)
      expect(notices.map((notice) => [notice.attempt, notice.maxRetries, notice.status, notice.errorTag])).toEqual([
        [1, 2, null, "TimeoutError"],
        [2, 2, null, "TimeoutError"]
      ])
      const error = exit._tag === "Success" ? exit.value : undefined
      expect(error?._tag).toBe("TimeoutError")
      expect(error?.message).toMatch(/^No response from http:\/\/127\.0\.0\.1:\d+: waited 20 s for each of 3 attempts, 1 min \d+ s in all\./)
      expect(error?.message).toContain("API_TIMEOUT_MS")
      expect(error?.message).toContain("ANTHROPIC_BASE_URL")
    }).pipe(recordSleeps))

  it.live("the idle timeout of a started stream is its own setting, apart from the response timeout", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(
        { script: [ScriptTurn.blocks([text("one two three")], { faults: [Fault.stall(2)] })] },
        { idleTimeout: "150 millis", responseTimeout: "30 seconds" }
      )
      const error = yield* Effect.flip(Stream.runDrain(client.stream(request)))
      expect(error._tag).toBe("TimeoutError")
      expect(error.message).toContain("no data from the server for 150 ms")
    }).pipe(Effect.scoped))
})

describe("ApiClient.configFromEnv", () => {
  const read = (env: Record<string, string>) =>
    Effect.provideService(configFromEnv, ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(env))

  it.effect("reads API_TIMEOUT_MS, the retries (WEFT_MAX_RETRIES before CLAUDE_CODE_MAX_RETRIES) and the idle timeout", () =>
    Effect.gen(function* () {
      const config = yield* read({ API_TIMEOUT_MS: "1500", CLAUDE_CODE_MAX_RETRIES: "4", WEFT_STREAM_IDLE_TIMEOUT_MS: "250" })
      expect(config.responseTimeout).toEqual(expect.objectContaining({ value: { _tag: "Millis", millis: 1500 } }))
      expect(config.maxRetries).toBe(4)
      expect((yield* read({ CLAUDE_CODE_MAX_RETRIES: "4", WEFT_MAX_RETRIES: "0" })).maxRetries).toBe(0)
      expect(yield* read({})).toEqual({})
    }))

  it.effect("a value that is not a whole number is an error naming the variable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(read({ API_TIMEOUT_MS: "10s" }))
      expect(String(error)).toContain('API_TIMEOUT_MS must be a whole number of at least 1, not "10s"')
    }))
})
