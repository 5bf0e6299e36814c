/**
 * The errors of a Messages API call, one class per kind the caller can act on. Each carries the HTTP status (or
 * null when there was no response), the request-id when the server sent one, and a message written for humans.
 */
import * as Data from "effect/Data"

interface Fields {
  readonly message: string
  readonly status: number | null
  readonly requestId: string | null
  /** The API's `error.type` (e.g. `overloaded_error`), when the body said. */
  readonly errorType?: string
}

/** 401: the key or token is missing or wrong. */
export class AuthenticationError extends Data.TaggedError("AuthenticationError")<Fields> {}
/** 403: the key may not use this resource. */
export class PermissionError extends Data.TaggedError("PermissionError")<Fields> {}
/** 404: unknown model or path. */
export class NotFoundError extends Data.TaggedError("NotFoundError")<Fields> {}
/** 429 after retries. */
export class RateLimitError extends Data.TaggedError("RateLimitError")<Fields> {}
/** 400 / 413 / 422 and other 4xx the request itself caused. */
export class InvalidRequestError extends Data.TaggedError("InvalidRequestError")<Fields> {}
/** 529, or an `overloaded_error` event mid-stream. */
export class OverloadedError extends Data.TaggedError("OverloadedError")<Fields> {}
/** 5xx after retries, or an `api_error` event mid-stream. */
export class ServerError extends Data.TaggedError("ServerError")<Fields> {}
/** No byte for longer than the idle timeout, or the request as a whole took too long. */
export class TimeoutError extends Data.TaggedError("TimeoutError")<Fields> {}
/** The connection could not be made or was refused, after retries. */
export class ConnectionError extends Data.TaggedError("ConnectionError")<Fields> {}
/** The stream ended (reset, EOF) before `message_stop`. */
export class StreamAbortedError extends Data.TaggedError("StreamAbortedError")<Fields> {}
/** The server sent something that is not the protocol (bad JSON in a frame, a non-SSE body). */
export class ParseError extends Data.TaggedError("ParseError")<Fields> {}

export type ApiError =
  | AuthenticationError
  | PermissionError
  | NotFoundError
  | RateLimitError
  | InvalidRequestError
  | OverloadedError
  | ServerError
  | TimeoutError
  | ConnectionError
  | StreamAbortedError
  | ParseError

export interface ErrorInfo {
  readonly message: string
  readonly status: number | null
  readonly requestId: string | null
  readonly errorType?: string
}

/** The error for an HTTP status (a non-2xx response) or an API `error.type` (an SSE `error` event). */
export const fromStatus = (info: ErrorInfo): ApiError => {
  const { status, errorType } = info
  switch (errorType) {
    case "authentication_error":
      return new AuthenticationError(info)
    case "permission_error":
      return new PermissionError(info)
    case "not_found_error":
      return new NotFoundError(info)
    case "rate_limit_error":
      return new RateLimitError(info)
    case "overloaded_error":
      return new OverloadedError(info)
    case "api_error":
      return new ServerError(info)
    case "timeout_error":
      return new TimeoutError(info)
    case "invalid_request_error":
    case "request_too_large":
      return new InvalidRequestError(info)
  }
  if (status === 401) return new AuthenticationError(info)
  if (status === 403) return new PermissionError(info)
  if (status === 404) return new NotFoundError(info)
  if (status === 429) return new RateLimitError(info)
  if (status === 529) return new OverloadedError(info)
  if (status === 408 || status === 504) return new TimeoutError(info)
  if (status !== null && status >= 500) return new ServerError(info)
  return new InvalidRequestError(info)
}

/**
 * A request refused because the conversation does not fit the model's context window: 400 `invalid_request_error`
 * "prompt is too long: 210000 tokens > 200000 maximum", or "input length and `max_tokens` exceed context limit:
 * 188000 + 32000 > 200000" (the conversation fits, but not with room for the response). Compacting the
 * conversation can fix either; retrying as it is cannot.
 */
export const isPromptTooLong = (error: { readonly _tag: string; readonly status?: unknown; readonly message: string }): boolean =>
  error._tag === "InvalidRequestError" && (error.status === 400 || error.status === 413 || error.status === null) &&
  /prompt is too long|exceed context limit/i.test(error.message)

/** The prompt's size such an error names ("210000 tokens > 200000 maximum", "188000 + 32000 > 200000"), if it does. */
export const promptTokensOf = (message: string): number | undefined => {
  const match = /prompt is too long:\s*([\d,]+)\s*tokens/i.exec(message) ?? /exceed context limit:\s*([\d,]+)\s*\+/i.exec(message)
  const digits = match?.[1]?.replace(/,/g, "")
  return digits === undefined || digits === "" ? undefined : Number(digits)
}
