/**
 * The Node transport of the ApiClient: @effect/platform-node's HttpClient over node:http and node:https, with
 * keep-alive agents made on first use. Kept apart from ApiClient.ts so that the library core (and a program that
 * brings its own HttpClient: fetch, undici, a test double) loads nothing from Node's HTTP stack.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Https from "node:https"
import { ApiClient, type Interface, makeFromEnv } from "./ApiClient.js"

/**
 * NodeHttpClient's two agents, destroyed with the scope, each made on first use: an https agent needs node:https
 * and node:tls, about 5 ms of start-up that a session against an http:// server (a local one) never needs; the
 * binary's bundle loads those modules lazily (build-bin.mjs). Unlike NodeHttpClient's own agents they keep
 * connections alive (an idle one does not keep the process alive): a response read to its end (see ApiClient's
 * `drainMillis`) leaves its connection for the next request, so the turns of a session pay for one TLS handshake,
 * not one each.
 */
const makeKeepAliveAgent: Effect.Effect<NodeHttpClient.HttpAgent, never, Scope.Scope> = Effect.gen(function* () {
  let http: Http.Agent | undefined
  let https: Https.Agent | undefined
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      http?.destroy()
      https?.destroy()
    })
  )
  return {
    [NodeHttpClient.HttpAgentTypeId]: NodeHttpClient.HttpAgentTypeId,
    get http() {
      return (http ??= new Http.Agent({ keepAlive: true }))
    },
    get https() {
      return (https ??= new Https.Agent({ keepAlive: true }))
    }
  }
})

/** @effect/platform-node's HttpClient over node:http and node:https with the agents above, made in the current scope. */
export const makeHttpClient: Effect.Effect<HttpClient.HttpClient, never, Scope.Scope> = Effect.flatMap(
  makeKeepAliveAgent,
  (agent) => Effect.provideService(NodeHttpClient.make, NodeHttpClient.HttpAgent, agent)
)

/** `makeHttpClient` as a layer. */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient> = Layer.scoped(HttpClient.HttpClient, makeHttpClient)

/**
 * The ApiClient from the environment (ApiClient's `configFromEnv`), over `makeHttpClient` made in the current scope.
 * Chosen over the undici client: same streaming behaviour, and it needs no dispatcher start-up (the module imports
 * undici either way; a bundle drops it when only this is used).
 */
export const make: Effect.Effect<Interface, ConfigError.ConfigError, Scope.Scope> = Effect.flatMap(makeHttpClient, (client) =>
  Effect.provideService(makeFromEnv, HttpClient.HttpClient, client)
)

/** `make` as a layer: what a program on Node provides for ApiClient. */
export const layer: Layer.Layer<ApiClient, ConfigError.ConfigError> = Layer.scoped(ApiClient, make)
