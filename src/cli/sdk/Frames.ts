/**
 * The frames a program writes to weft's stdin under `--input-format stream-json` (the Agent SDK's protocol), one JSON
 * object per line: user messages, control requests and their responses, cancellations, keep-alives. `decode` reads
 * one line into a frame, or says what is wrong with it (the host answers that with an error, never by stopping).
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { isRecord } from "../../domain/Json.js"
import { MessageParam } from "../../domain/Message.js"

/** A control request's body: its `subtype` and whatever fields go with it. */
export type RequestBody = Readonly<Record<string, unknown>> & { readonly subtype: string }

export type InputFrame =
  /** A prompt: the user message (text or content blocks), with the sender's uuid when it gave one. */
  | { readonly _tag: "User"; readonly message: MessageParam; readonly uuid: string | undefined }
  | { readonly _tag: "ControlRequest"; readonly requestId: string; readonly request: RequestBody }
  | {
      readonly _tag: "ControlResponse"
      readonly requestId: string
      readonly response: { readonly _tag: "Success"; readonly value: unknown } | { readonly _tag: "Error"; readonly message: string }
    }
  | { readonly _tag: "ControlCancel"; readonly requestId: string }
  | { readonly _tag: "KeepAlive" }
  /** Not a frame weft can act on; `requestId` when it was a control request, which then gets an error response. */
  | { readonly _tag: "Invalid"; readonly message: string; readonly requestId?: string }

const decodeMessage = Schema.decodeUnknownResult(MessageParam)

const invalid = (message: string, requestId?: string): InputFrame =>
  requestId === undefined ? { _tag: "Invalid", message } : { _tag: "Invalid", message, requestId }

const preview = (line: string) => (line.length > 80 ? `${line.slice(0, 79)}…` : line)

const stringField = (record: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = record[key]
  return typeof value === "string" ? value : undefined
}

/** One line of stdin as a frame. Blank lines are nothing (undefined). */
export const decode = (line: string): InputFrame | undefined => {
  if (line.trim() === "") return undefined
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (error) {
    return invalid(`a line that is not JSON (${error instanceof Error ? error.message : String(error)}): ${preview(line)}`)
  }
  if (!isRecord(json)) return invalid(`a line that is not a JSON object: ${preview(line)}`)
  const type = json["type"]
  switch (type) {
    case "user": {
      const message = decodeMessage(json["message"])
      if (Result.isFailure(message) || message.success.role !== "user") {
        return invalid('a user frame whose message is not {"role": "user", "content": text or content blocks}')
      }
      return { _tag: "User", message: message.success, uuid: stringField(json, "uuid") }
    }
    case "control_request": {
      const requestId = stringField(json, "request_id")
      if (requestId === undefined) return invalid("a control_request without a request_id")
      const request = json["request"]
      if (!isRecord(request) || typeof request["subtype"] !== "string") {
        return invalid("a control_request without a request.subtype", requestId)
      }
      return { _tag: "ControlRequest", requestId, request: { ...request, subtype: request["subtype"] } }
    }
    case "control_response": {
      const response = json["response"]
      const requestId = isRecord(response) ? stringField(response, "request_id") : undefined
      if (!isRecord(response) || requestId === undefined) return invalid("a control_response without response.request_id")
      if (response["subtype"] === "success") return { _tag: "ControlResponse", requestId, response: { _tag: "Success", value: response["response"] } }
      if (response["subtype"] === "error") {
        return {
          _tag: "ControlResponse",
          requestId,
          response: { _tag: "Error", message: stringField(response, "error") ?? "the program answered with an error and no message" }
        }
      }
      return invalid(`a control_response for ${requestId} whose subtype is neither success nor error`)
    }
    case "control_cancel_request": {
      const requestId = stringField(json, "request_id")
      return requestId === undefined ? invalid("a control_cancel_request without a request_id") : { _tag: "ControlCancel", requestId }
    }
    case "keep_alive":
      return { _tag: "KeepAlive" }
    default:
      return invalid(
        `a frame of unknown type ${JSON.stringify(type)} (weft reads user, control_request, control_response, control_cancel_request, keep_alive)`
      )
  }
}
