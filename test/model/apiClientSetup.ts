import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as TestServices from "effect/TestServices"
import type { ApiClientConfig } from "../../src/model/ApiClient.js"
import { make } from "../../src/model/ApiClient.js"
import type { Options } from "../../src/testing/MockAnthropicServer.js"
import * as Mock from "../../src/testing/MockAnthropicServer.js"

/** A server playing `options` and a client pointed at it, for the length of the test's scope. */
export const setup = (options: Options, config: Partial<ApiClientConfig> = {}) =>
  Effect.gen(function* () {
    const server = yield* Mock.make(options)
    const client = yield* make({ apiKey: "sk-test", ...config, baseUrl: server.url })
    return { server, client }
  }).pipe(Effect.provide(NodeHttpClient.layer))

/** Polls a condition on the live clock (for waits on real IO while the TestClock is frozen). */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 4000; i++) {
      if (yield* check) return
      yield* TestServices.provideLive(Effect.sleep("5 millis"))
    }
    return yield* Effect.dieMessage("condition never held")
  })
