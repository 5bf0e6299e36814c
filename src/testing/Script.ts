/**
 * Scripts for the fake models (ScriptedModel in-process, MockAnthropicServer over HTTP): a script is a list of
 * turns, one per Messages API call. A turn is content blocks (turned into the event sequence the real API
 * sends), raw events, a raw SSE body, or an error; any turn may carry faults that apply to its first attempts.
 *
 * Ids are deterministic: turn n answers with `msg_scripted_<n>`, and tool_use blocks without an id get
 * `toolu_scripted_1`, `toolu_scripted_2`, ... in script order, so a test can name them in advance.
 */
import type * as Duration from "effect/Duration"
import type { ContentBlock, TextBlock, ThinkingBlock, ToolUseBlock } from "../domain/Content.js"
import { isServerToolUse, isText, isThinking, isToolUse } from "../domain/ContentGuards.js"
import type { BlockDelta, StreamEvent } from "../domain/StreamEvent.js"
import type { Usage } from "../domain/Usage.js"
import type { ApiError } from "../model/ApiError.js"
import * as Tokens from "../model/Tokens.js"

// ---------------------------------------------------------------------------------------------------------------
// Blocks

export const text = (value: string): TextBlock => ({ type: "text", text: value })

/** A tool_use block; without `id` it gets the next `toolu_scripted_<n>` when the script is compiled. */
export const toolUse = (name: string, input: unknown, id?: string): ToolUseBlock => ({
  type: "tool_use",
  id: id ?? "",
  name,
  input
})

export const thinking = (value: string, signature = "sig_scripted"): ThinkingBlock => ({
  type: "thinking",
  thinking: value,
  signature
})

// ---------------------------------------------------------------------------------------------------------------
// Faults

/**
 * What goes wrong on an attempt. `afterEvents` counts the SSE events sent before the fault. Raw turns take
 * status faults only; a `stream: false` request to the mock server gets the whole message despite mid-stream
 * faults.
 */
export type Fault =
  | {
      readonly _tag: "Status"
      readonly status: number
      readonly headers: Readonly<Record<string, string>>
      /** A JSON value (sent as JSON) or a string (sent verbatim); default: the API's error shape. */
      readonly body: unknown
    }
  | { readonly _tag: "Reset"; readonly afterEvents: number }
  | { readonly _tag: "ErrorEvent"; readonly afterEvents: number; readonly errorType: string; readonly message: string }
  | { readonly _tag: "Stall"; readonly afterEvents: number }
  | { readonly _tag: "NoResponse" }

/** A fault and the number of consecutive attempts it applies to. */
export interface PlannedFault {
  readonly fault: Fault
  readonly times: number
}

interface Times {
  /** How many consecutive attempts get this fault (default 1; `Infinity` for every attempt). */
  readonly times?: number
}

const errorTypeOfStatus = (status: number): string => {
  switch (status) {
    case 400:
      return "invalid_request_error"
    case 401:
      return "authentication_error"
    case 403:
      return "permission_error"
    case 404:
      return "not_found_error"
    case 408:
      return "timeout_error"
    case 413:
      return "request_too_large"
    case 429:
      return "rate_limit_error"
    case 529:
      return "overloaded_error"
    default:
      return status >= 500 ? "api_error" : "invalid_request_error"
  }
}

/** The API's error body for a status (what a fault or an error turn sends when no body is given). */
export const errorBody = (status: number, message?: string, errorType?: string): unknown => ({
  type: "error",
  error: { type: errorType ?? errorTypeOfStatus(status), message: message ?? `scripted HTTP ${status}` },
  request_id: "req_scripted"
})

export const Fault = {
  /** Answer with this status (and headers such as retry-after, x-should-retry) instead of the turn. */
  status: (
    status: number,
    options: Times & { readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown } = {}
  ): PlannedFault => ({
    fault: { _tag: "Status", status, headers: options.headers ?? {}, body: options.body ?? errorBody(status) },
    times: options.times ?? 1
  }),
  /** Send `afterEvents` events, then reset the connection (ScriptedModel: fail with StreamAbortedError). */
  reset: (afterEvents: number, options: Times = {}): PlannedFault => ({
    fault: { _tag: "Reset", afterEvents },
    times: options.times ?? 1
  }),
  /** Send `afterEvents` events, then an `error` event (default `overloaded_error`) and end the stream. */
  errorEvent: (
    afterEvents: number,
    options: Times & { readonly errorType?: string; readonly message?: string } = {}
  ): PlannedFault => ({
    fault: {
      _tag: "ErrorEvent",
      afterEvents,
      errorType: options.errorType ?? "overloaded_error",
      message: options.message ?? "Overloaded"
    },
    times: options.times ?? 1
  }),
  /**
   * Accept the request and never answer: no status, no headers, the connection kept open (ScriptedModel: wait
   * forever). What a hung server or a proxy that swallows requests does.
   */
  noResponse: (options: Times = {}): PlannedFault => ({ fault: { _tag: "NoResponse" }, times: options.times ?? 1 }),
  /** Send `afterEvents` events, then nothing more while keeping the connection open. */
  stall: (afterEvents: number, options: Times = {}): PlannedFault => ({
    fault: { _tag: "Stall", afterEvents },
    times: options.times ?? 1
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Turns

interface TurnOptions {
  /** Pause before each event (Effect's clock in ScriptedModel, real time in MockAnthropicServer). */
  readonly delay?: Duration.Input
  /** Faults for the first attempts of this turn, in order (see `Fault`). */
  readonly faults?: ReadonlyArray<PlannedFault>
}

export interface BlocksOptions extends TurnOptions {
  /** Default: `tool_use` when a block is a tool_use, else `end_turn`. */
  readonly stopReason?: string
  /** Replaces the estimated usage field by field. */
  readonly usage?: Partial<Usage>
  /** Default: the request's model. */
  readonly model?: string
}

export type ScriptTurn =
  | {
      readonly _tag: "Blocks"
      readonly blocks: ReadonlyArray<ContentBlock>
      readonly options: BlocksOptions
    }
  | { readonly _tag: "Events"; readonly events: ReadonlyArray<StreamEvent>; readonly options: TurnOptions }
  | { readonly _tag: "Raw"; readonly body: string; readonly options: TurnOptions }
  | { readonly _tag: "Error"; readonly error: ApiError }
  | {
      readonly _tag: "Status"
      readonly status: number
      readonly headers: Readonly<Record<string, string>>
      readonly body: unknown
    }

export const ScriptTurn = {
  /** An assistant message of these blocks, streamed the way the API streams it. */
  blocks: (blocks: ReadonlyArray<ContentBlock>, options: BlocksOptions = {}): ScriptTurn => ({
    _tag: "Blocks",
    blocks,
    options
  }),
  /** These events, as they are (a stream without `message_stop` is a truncated stream). */
  events: (events: ReadonlyArray<StreamEvent>, options: TurnOptions = {}): ScriptTurn => ({
    _tag: "Events",
    events,
    options
  }),
  /** A raw `text/event-stream` body (a fixture file), sent byte for byte by the mock server. */
  raw: (body: string, options: TurnOptions = {}): ScriptTurn => ({ _tag: "Raw", body, options }),
  /** Fail the call with this error (the mock server answers with its status and the API's error body). */
  error: (error: ApiError): ScriptTurn => ({ _tag: "Error", error }),
  /** Answer with an HTTP status on every attempt (ScriptedModel fails with the error that status maps to). */
  status: (
    status: number,
    options: { readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown } = {}
  ): ScriptTurn => ({ _tag: "Status", status, headers: options.headers ?? {}, body: options.body ?? errorBody(status) })
}

/** Shorthands: a turn answering with text, or with tool calls. */
export const textTurn = (value: string, options?: BlocksOptions): ScriptTurn =>
  ScriptTurn.blocks([text(value)], options)

export const toolTurn = (calls: ReadonlyArray<ToolUseBlock>, options?: BlocksOptions): ScriptTurn =>
  ScriptTurn.blocks(calls, options)

export type Script = ReadonlyArray<ScriptTurn>

// ---------------------------------------------------------------------------------------------------------------
// Compiling a script

export interface CompiledTurn {
  readonly index: number
  readonly turn: ScriptTurn
  /** `msg_scripted_<index + 1>`. */
  readonly messageId: string
}

/** Gives every tool_use without an id its deterministic id, in script order. */
export const compile = (script: Script): ReadonlyArray<CompiledTurn> => {
  let tools = 0
  return script.map((turn, index) => {
    const messageId = `msg_scripted_${index + 1}`
    if (turn._tag !== "Blocks") return { index, turn, messageId }
    const blocks = turn.blocks.map((block): ContentBlock => {
      if (!isToolUse(block) || block.id !== "") return block
      tools += 1
      return { ...block, id: `toolu_scripted_${tools}` }
    })
    return { index, turn: { ...turn, blocks }, messageId }
  })
}

/** The fault for an attempt (0-based) of a turn, if any. */
export const faultFor = (turn: ScriptTurn, attempt: number): Fault | undefined => {
  if (turn._tag === "Error" || turn._tag === "Status") return undefined
  let remaining = attempt
  for (const planned of turn.options.faults ?? []) {
    if (remaining < planned.times) return planned.fault
    remaining -= planned.times
  }
  return undefined
}

/** A deterministic token estimate (4 characters a token) of what a request sends. */
export const estimateTokens = (request: {
  readonly messages?: unknown
  readonly system?: unknown
  readonly tools?: unknown
}): number =>
  Math.max(1, Tokens.ofJson([request.system ?? "", request.messages ?? [], request.tools ?? []]))

/** Splits into at most `parts` pieces on code point boundaries (so no surrogate pair is cut). */
const split = (value: string, parts: number): ReadonlyArray<string> => {
  const points = Array.from(value)
  if (points.length === 0) return []
  const size = Math.max(1, Math.ceil(points.length / parts))
  const out: Array<string> = []
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""))
  return out
}

const blockEvents = (block: ContentBlock, index: number): ReadonlyArray<StreamEvent> => {
  const events: Array<StreamEvent> = []
  const delta = (d: BlockDelta): void => {
    events.push({ type: "content_block_delta", index, delta: d })
  }
  if (isText(block)) {
    const { text: value, citations, ...rest } = block
    const start: TextBlock = citations ? { ...rest, text: "", citations: [] } : { ...rest, text: "" }
    events.push({ type: "content_block_start", index, content_block: start })
    for (const citation of citations ?? []) delta({ type: "citations_delta", citation })
    for (const piece of split(value, 3)) delta({ type: "text_delta", text: piece })
  } else if (isToolUse(block) || isServerToolUse(block)) {
    // The input arrives as JSON text in pieces; the start carries an empty object, as the API sends it.
    events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } })
    for (const piece of split(JSON.stringify(block.input ?? {}), 3)) {
      delta({ type: "input_json_delta", partial_json: piece })
    }
  } else if (isThinking(block)) {
    events.push({ type: "content_block_start", index, content_block: { ...block, thinking: "", signature: "" } })
    for (const piece of split(block.thinking, 3)) delta({ type: "thinking_delta", thinking: piece })
    delta({ type: "signature_delta", signature: block.signature })
  } else {
    events.push({ type: "content_block_start", index, content_block: block })
  }
  events.push({ type: "content_block_stop", index })
  return events
}

export interface EventContext {
  /** The request's model (message_start echoes it). */
  readonly model: string
  /** Input tokens to report (see `estimateTokens`). */
  readonly inputTokens: number
  /** Usage fields the server computed (its prompt cache's), under the turn's own `usage`. */
  readonly usage?: Partial<Usage>
}

/**
 * The event sequence of a blocks turn: message_start, each block (start, deltas, stop), message_delta with the
 * stop reason and usage, message_stop. Events turns are returned as they are; raw, error and status turns have
 * no event list (empty).
 */
export const turnEvents = (compiled: CompiledTurn, context: EventContext): ReadonlyArray<StreamEvent> => {
  const turn = compiled.turn
  if (turn._tag === "Events") return turn.events
  if (turn._tag !== "Blocks") return []
  const options = turn.options
  const outputTokens = Math.max(1, Tokens.ofJson(turn.blocks))
  const usage: Usage = {
    input_tokens: context.inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...context.usage,
    ...options.usage
  }
  const stopReason =
    options.stopReason ?? (turn.blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn")
  const events: Array<StreamEvent> = [
    {
      type: "message_start",
      message: {
        id: compiled.messageId,
        type: "message",
        role: "assistant",
        model: options.model ?? context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 }
      }
    }
  ]
  turn.blocks.forEach((block, index) => {
    for (const event of blockEvents(block, index)) events.push(event)
  })
  events.push({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens }
  })
  events.push({ type: "message_stop" })
  return events
}

/** One SSE frame as the API writes it. */
export const frame = (event: StreamEvent): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
