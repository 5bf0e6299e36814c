// weft's fold, for any harness: `run(baseURL)` POSTs a streaming Messages request to baseURL with weft's
// ApiClient (node:http, retries, idle timeout) and folds the events with Accumulator.fold; it resolves to the
// assistant message as the API's JSON. Needs the library build (`npm run build:lib`, i.e. dist/lib).
//
// One runtime (HTTP agent + client) is kept per base URL, as an application keeps its client.
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Accumulator from "../../dist/lib/model/Accumulator.js"
import { ApiClient } from "../../dist/lib/model/ApiClient.js"

const request = {
  model: "claude-bench",
  max_tokens: 64000,
  messages: [{ role: "user", content: "Write the module." }]
}

const runtimes = new Map()
const runtimeFor = (baseURL) => {
  let runtime = runtimes.get(baseURL)
  if (runtime === undefined) {
    runtime = ManagedRuntime.make(
      ApiClient.layerWith({ baseUrl: baseURL, apiKey: process.env.ANTHROPIC_API_KEY ?? "bench" }).pipe(
        Layer.provide(NodeHttpClient.layer)
      )
    )
    runtimes.set(baseURL, runtime)
  }
  return runtime
}

const program = Effect.gen(function* () {
  const client = yield* ApiClient
  const last = yield* Accumulator.fold(client.stream(request)).pipe(Stream.runLast)
  if (Option.isNone(last) || last.value._tag !== "Complete") return yield* Effect.dieMessage("no message")
  return last.value.message
})

/** @param {string} baseURL @returns {Promise<object>} the folded assistant message */
export async function run(baseURL) {
  return runtimeFor(baseURL).runPromise(program)
}
