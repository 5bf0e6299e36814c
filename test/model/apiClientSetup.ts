import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as TestClock from "effect/testing/TestClock"
import type { ApiClientConfig } from "../../src/model/ApiClient.js"
import { makeWith } from "../../src/model/ApiClient.js"
import type { Options } from "../../src/testing/MockAnthropicServer.js"
import * as Mock from "../../src/testing/MockAnthropicServer.js"

/** A server playing `options` and a client pointed at it, for the length of the test's scope. */
export const setup = (options: Options, config: Partial<ApiClientConfig> = {}) =>
  Effect.gen(function* () {
    const server = yield* Mock.make(options)
    const client = yield* makeWith({ apiKey: "sk-test", ...config, baseUrl: server.url })
    return { server, client }
  }).pipe(Effect.provide(NodeHttpClient.layerNodeHttp))

const isTestClock = (clock: Clock.Clock): clock is TestClock.TestClock => "withLive" in clock

/** Sleeps on the live clock, whether the TestClock is in force or not. */
const liveSleep = (duration: Duration.Input): Effect.Effect<void> =>
  Clock.clockWith((clock) => (isTestClock(clock) ? clock.withLive(Effect.sleep(duration)) : Effect.sleep(duration)))

/** Polls a condition on the live clock (for waits on real IO while the TestClock is frozen). */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 4000; i++) {
      if (yield* check) return
      yield* liveSleep("5 millis")
    }
    return yield* Effect.die(new Error("condition never held"))
  })

/** The wake-up times of the sleeps pending on the TestClock (see `recordSleeps`). */
export class PendingSleeps extends Context.Service<PendingSleeps, { readonly wakeUps: () => ReadonlyArray<number> }>()(
  "test/PendingSleeps"
) {}

/**
 * Runs `effect` on its TestClock wrapped in one that notes each sleep until it ends, for `sleeps` to list: the
 * TestClock of Effect 4 keeps its own list private.
 */
export const recordSleeps = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, PendingSleeps>> =>
  Clock.clockWith((clock) => {
    const pending: Array<number> = []
    const recording: Clock.Clock = {
      ...clock,
      sleep: (duration) =>
        Effect.suspend(() => {
          const at = clock.currentTimeMillisUnsafe() + Duration.toMillis(duration)
          return Effect.acquireUseRelease(
            Effect.sync(() => void pending.push(at)),
            () => clock.sleep(duration),
            () => Effect.sync(() => void pending.splice(pending.indexOf(at), 1))
          )
        })
    }
    const wakeUps = () => [...pending].sort((a, b) => a - b)
    return effect.pipe(Effect.provideService(PendingSleeps, { wakeUps }), Effect.provideService(Clock.Clock, recording))
  })

/** The wake-up times of the pending sleeps, earliest first (what Effect 3's `TestClock.sleeps()` gave). */
export const sleeps = (): Effect.Effect<ReadonlyArray<number>, never, PendingSleeps> => PendingSleeps.useSync((pending) => pending.wakeUps())
