/**
 * The Messages API as a service: `stream(request)` is the streaming response as StreamEvents, `countTokens` the
 * count_tokens endpoint. SKELETON: the contract only; the default layer is being built (see issue 2).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { MessagesRequest } from "../domain/Request.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import type { ApiError } from "./ApiError.js"

export interface Interface {
  /** POST /v1/messages with `stream: true`. Interrupting the consumer aborts the HTTP request. */
  readonly stream: (request: MessagesRequest) => Stream.Stream<StreamEvent, ApiError>
  /** POST /v1/messages/count_tokens. */
  readonly countTokens: (request: MessagesRequest) => Effect.Effect<number, ApiError>
  /** The model used when a request leaves it to the client (ANTHROPIC_MODEL or weft's default). */
  readonly defaultModel: string
}

export class ApiClient extends Context.Tag("weft/ApiClient")<ApiClient, Interface>() {}
