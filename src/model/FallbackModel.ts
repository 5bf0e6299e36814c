/**
 * The fallback model (`--fallback-model`, the Agent SDK's `fallbackModel`): a request the API still refuses as
 * overloaded once the client's retries are spent, before any of its response came, is sent once more, to the
 * fallback model. A response that broke off midway is not sent again (what came of it was shown already).
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Interface } from "./ApiClient.js"

/** `api`, with `fallback` taking the requests the API refuses as overloaded. */
export const withFallbackModel = (api: Interface, fallback: string): Interface => {
  const fallbackModel = api.resolveModel(fallback)
  return {
    ...api,
    stream: (request, options) =>
      Stream.suspend(() => {
        let started = false
        return api.stream(request, options).pipe(
          Stream.tap(() => Effect.sync(() => void (started = true))),
          Stream.catchTag("OverloadedError", (error) =>
            started || api.resolveModel(request.model) === fallbackModel
              ? Stream.fail(error)
              : api.stream({ ...request, model: fallbackModel }, options)
          )
        )
      })
  }
}
