/**
 * Folds the StreamEvents of one streaming Messages API response into the assistant message, passing every event
 * on for renderers. The fold is a plain mutable class (`Accumulator`, also used directly by benchmarks and the
 * mock server) wrapped as a Stream transform (`fold`).
 *
 * Events are not Schema-decoded (that would cost more than the whole fold); each field used is checked where it
 * is read, and anything that is not the protocol is a ParseError, never a crash.
 *
 * Defined outcomes:
 * - `message_start` gives id, model, usage and any other message field; a second one is a ParseError.
 * - `content_block_start` appends a copy of the block; its index must be the next one (else ParseError). For
 *   tool_use / server_tool_use (any `*tool_use`) the input comes from the `input_json_delta`s, not from the `{}`
 *   placeholder of the start (which is kept only if no delta arrives).
 * - `text_delta`, `thinking_delta`, `signature_delta` append to the block's text / thinking / signature,
 *   `citations_delta` appends to the text block's `citations`, `input_json_delta` feeds the block's
 *   PartialJsonParser. A delta for an unknown index, a stopped block, or a block it does not fit (text_delta on a
 *   tool_use) is a ParseError. A delta of an unknown type is ignored: kept nowhere, no failure.
 * - `content_block_stop` parses the tool input: no JSON -> the start's input (`{}`); invalid JSON -> the best
 *   partial value (an object, else `{}`) and an Incomplete `malformed_json`; the message still completes.
 * - `message_delta` merges stop_reason, stop_sequence and every other delta field (stop_details, container, ...)
 *   into the message (a null never erases a known value), and merges usage: the counts are cumulative, so each
 *   field present replaces the earlier one (Usage.mergeDelta).
 * - `message_stop` completes. A tool block still open then (e.g. stop_reason `max_tokens` cut it) gets its
 *   partial input and an Incomplete `truncated` (unless its JSON happens to be whole). Events after it are ignored.
 * - `ping` and unknown event types are ignored (but still emitted as Events).
 * - an `error` event fails with the ApiError of its `error.type` (ApiError.fromStatus, status null): an
 *   `overloaded_error` is an OverloadedError. What streamed before it went out as Events; the message does not.
 * - the events end without `message_stop`: StreamAbortedError saying how far the stream got. A content block,
 *   delta or stop before `message_start`: ParseError.
 *
 * Cost: O(1) per event plus the delta's own length. Text grows by `+=` (V8 ropes: no re-copying); tool input is
 * scanned at most once (and, when nobody asks for partial input, read once by the native JSON.parse at the
 * block's end).
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Pull from "effect/Pull"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type { ContentBlock } from "../domain/Content.js"
import type { AssistantMessage } from "../domain/Message.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import type { Usage } from "../domain/Usage.js"
import * as UsageTotals from "../domain/UsageTotals.js"
import { type ApiError, fromStatus, ParseError, StreamAbortedError } from "./ApiError.js"
import { PartialJsonParser } from "./PartialJson.js"

export interface Incomplete {
  readonly index: number
  readonly id: string
  readonly name: string
  /** The input JSON as it arrived. */
  readonly raw: string
  readonly reason: "malformed_json" | "truncated"
}

export interface Completed {
  readonly message: AssistantMessage
  readonly incompleteToolInputs: ReadonlyArray<Incomplete>
}

export type Output =
  /** Every event, in order, for renderers (stream_event frames); ping included. */
  | { readonly _tag: "Event"; readonly event: StreamEvent }
  /** Exactly once, last. */
  | { readonly _tag: "Complete"; readonly message: AssistantMessage; readonly incompleteToolInputs: ReadonlyArray<Incomplete> }

type Fields = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value)

const stringOr = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback)

interface MutableMessage {
  id: string
  model: string
  stop_reason: string | null
  stop_sequence: string | null
  usage: Usage
  [key: string]: unknown
}

interface BlockState {
  readonly index: number
  readonly type: string
  /** The block as `content_block_start` sent it; the fields below override it. */
  readonly start: Fields
  open: boolean
  text: string | undefined
  thinking: string | undefined
  signature: string | undefined
  citations: Array<unknown> | undefined
  /** For tool blocks: the input JSON, parsed incrementally. */
  readonly parser: PartialJsonParser | undefined
  /** For tool blocks, once stopped: the final input. */
  input: unknown
}

const parseError = (message: string): ParseError => new ParseError({ message, status: null, requestId: null })

/** Mutable, synchronous fold (used by `fold` and directly by benchmarks and the mock server). Never throws. */
export class Accumulator {
  private message: MutableMessage | undefined = undefined
  private readonly blocks: Array<BlockState> = []
  private readonly incomplete: Array<Incomplete> = []
  private failed: ApiError | undefined = undefined
  private completed: Completed | undefined = undefined

  /** Set once the events can no longer make a message (an `error` event, a protocol violation). */
  failure(): ApiError | undefined {
    return this.failed
  }

  /** `message_stop` was seen: the message is complete and later events are ignored. */
  isComplete(): boolean {
    return this.completed !== undefined
  }

  push(event: StreamEvent): void {
    if (this.failed !== undefined || this.completed !== undefined) return
    const fields: Fields = event
    switch (event.type) {
      case "content_block_delta":
        return this.delta(fields)
      case "ping":
        return
      case "message_start":
        return this.start(fields)
      case "content_block_start":
        return this.blockStart(fields)
      case "content_block_stop":
        return this.blockStop(fields)
      case "message_delta":
        return this.messageDelta(fields)
      case "message_stop":
        return this.stop()
      case "error":
        return this.error(fields)
      default:
        return // a newer API's event: ignored
    }
  }

  /** The message so far: blocks so far, text so far, tool inputs parsed so far (live values: see PartialJson). */
  snapshot(): AssistantMessage {
    if (this.completed !== undefined) return this.completed.message
    return this.build()
  }

  /** The current partial (or, once the block stopped, final) input of tool block `index`. */
  partialInput(index: number): unknown {
    const state = this.blocks[index]
    if (state === undefined || state.parser === undefined) return undefined
    return state.open ? this.openInput(state) : state.input
  }

  /** At the end of the events: the message, or the error that stopped it, or StreamAbortedError. */
  result(): Result.Result<Completed, ApiError> {
    if (this.failed !== undefined) return Result.fail(this.failed)
    if (this.completed !== undefined) return Result.succeed(this.completed)
    if (this.message === undefined) {
      return Result.fail(new StreamAbortedError({ message: "stream ended before message_start", status: null, requestId: null }))
    }
    const open = this.blocks.find((state) => state.open)
    const count = this.blocks.length
    return Result.fail(
      new StreamAbortedError({
        message: `stream ended before message_stop after ${count} content block${count === 1 ? "" : "s"}${
          open === undefined ? "" : ` (block ${open.index}, ${open.type}, still open)`
        }`,
        status: null,
        requestId: null
      })
    )
  }

  private fail(error: ApiError): void {
    this.failed = error
  }

  private started(what: string): MutableMessage | undefined {
    if (this.message === undefined) this.fail(parseError(`${what} before message_start`))
    return this.message
  }

  private start(event: Fields): void {
    if (this.message !== undefined) return this.fail(parseError("a second message_start before message_stop"))
    const message = event["message"]
    if (!isRecord(message)) return this.fail(parseError("message_start without a message object"))
    const usage = message["usage"]
    this.message = {
      ...message,
      id: stringOr(message["id"], ""),
      model: stringOr(message["model"], ""),
      stop_reason: typeof message["stop_reason"] === "string" ? message["stop_reason"] : null,
      stop_sequence: typeof message["stop_sequence"] === "string" ? message["stop_sequence"] : null,
      // The docs' examples omit usage; the real API always sends it.
      usage: isRecord(usage) ? { ...UsageTotals.empty, ...usage } : UsageTotals.empty
    }
  }

  private blockStart(event: Fields): void {
    if (this.started("content_block_start") === undefined) return
    const index = event["index"]
    const block = event["content_block"]
    if (index !== this.blocks.length) {
      return this.fail(parseError(`content_block_start for index ${String(index)}, expected ${this.blocks.length}`))
    }
    if (!isRecord(block) || typeof block["type"] !== "string") {
      return this.fail(parseError(`content_block_start ${index} without a content block`))
    }
    const type = block["type"]
    const text = block["text"]
    const thinking = block["thinking"]
    const signature = block["signature"]
    const citations = block["citations"]
    this.blocks.push({
      index,
      type,
      start: block,
      open: true,
      text: typeof text === "string" ? text : undefined,
      thinking: typeof thinking === "string" ? thinking : undefined,
      signature: typeof signature === "string" ? signature : undefined,
      citations: Array.isArray(citations) ? [...citations] : undefined,
      parser: type.endsWith("tool_use") ? new PartialJsonParser() : undefined,
      input: block["input"]
    })
  }

  private openBlock(event: Fields, what: string): BlockState | undefined {
    if (this.started(what) === undefined) return undefined
    const index = event["index"]
    const state = typeof index === "number" ? this.blocks[index] : undefined
    if (state === undefined) this.fail(parseError(`${what} for unknown content block ${String(index)}`))
    else if (!state.open) this.fail(parseError(`${what} for content block ${state.index}, already stopped`))
    else return state
    return undefined
  }

  private delta(event: Fields): void {
    const state = this.openBlock(event, "content_block_delta")
    if (state === undefined) return
    const delta = event["delta"]
    if (!isRecord(delta)) return this.fail(parseError(`content_block_delta for block ${state.index} without a delta`))
    const type = delta["type"]
    switch (type) {
      case "text_delta": {
        const text = delta["text"]
        if (typeof text !== "string" || state.text === undefined) return this.misfit(state, type)
        state.text += text
        return
      }
      case "input_json_delta": {
        const json = delta["partial_json"]
        if (typeof json !== "string" || state.parser === undefined) return this.misfit(state, type)
        state.parser.push(json)
        return
      }
      case "thinking_delta": {
        const thinking = delta["thinking"]
        if (typeof thinking !== "string" || state.thinking === undefined) return this.misfit(state, type)
        state.thinking += thinking
        return
      }
      case "signature_delta": {
        const signature = delta["signature"]
        if (typeof signature !== "string" || state.thinking === undefined) return this.misfit(state, type)
        state.signature = (state.signature ?? "") + signature
        return
      }
      case "citations_delta": {
        const citation = delta["citation"]
        if (!isRecord(citation) || state.text === undefined) return this.misfit(state, type)
        if (state.citations === undefined) state.citations = [citation]
        else state.citations.push(citation)
        return
      }
      default:
        return // a newer API's delta: ignored
    }
  }

  private misfit(state: BlockState, type: string): void {
    this.fail(parseError(`a malformed ${type}, or one that does not fit content block ${state.index} (${state.type})`))
  }

  private blockStop(event: Fields): void {
    const state = this.openBlock(event, "content_block_stop")
    if (state === undefined) return
    state.open = false
    if (state.parser !== undefined) this.finishInput(state, "malformed_json")
  }

  /** The final input of a tool block; `reason` is what an unusable JSON is recorded as. */
  private finishInput(state: BlockState, reason: Incomplete["reason"]): void {
    const parser = state.parser
    if (parser === undefined) return
    if (parser.text.trim() === "") {
      state.input = isRecord(state.start["input"]) ? state.start["input"] : {}
      return
    }
    parser.end()
    const error = parser.error()
    if (error === undefined && parser.isComplete()) {
      state.input = parser.value()
      return
    }
    const partial = parser.value()
    state.input = isRecord(partial) ? partial : {}
    this.incomplete.push({
      index: state.index,
      id: stringOr(state.start["id"], ""),
      name: stringOr(state.start["name"], ""),
      raw: parser.text,
      reason: error === undefined ? reason : "malformed_json"
    })
  }

  private openInput(state: BlockState): unknown {
    const parser = state.parser
    if (parser === undefined || parser.text === "") return state.start["input"] ?? {}
    return parser.value() ?? {}
  }

  private messageDelta(event: Fields): void {
    const message = this.started("message_delta")
    if (message === undefined) return
    const delta = event["delta"]
    if (isRecord(delta)) {
      for (const key in delta) {
        const value = delta[key]
        if (key === "stop_reason" || key === "stop_sequence") {
          if (typeof value === "string") message[key] = value
        } else if (key !== "content" && key !== "type" && key !== "role" && key !== "usage") {
          if (value !== null || message[key] === undefined) message[key] = value
        }
      }
    }
    const usage = event["usage"]
    if (isRecord(usage)) message.usage = UsageTotals.mergeDelta(message.usage, usage)
  }

  private stop(): void {
    if (this.started("message_stop") === undefined) return
    for (const state of this.blocks) {
      if (!state.open) continue
      state.open = false
      this.finishInput(state, "truncated")
    }
    this.completed = { message: this.build(), incompleteToolInputs: this.incomplete }
  }

  private error(event: Fields): void {
    const error = isRecord(event["error"]) ? event["error"] : {}
    const errorType = error["type"]
    const message = typeof error["message"] === "string" ? error["message"] : `the stream sent an error (${String(errorType)})`
    this.fail(
      fromStatus(
        typeof errorType === "string"
          ? { message, status: null, requestId: null, errorType }
          : { message, status: null, requestId: null }
      )
    )
  }

  private blockOf(state: BlockState): ContentBlock {
    const block: { type: string; [key: string]: unknown } = { ...state.start, type: state.type }
    if (state.text !== undefined) block["text"] = state.text
    if (state.thinking !== undefined) block["thinking"] = state.thinking
    if (state.signature !== undefined) block["signature"] = state.signature
    if (state.citations !== undefined) block["citations"] = state.open ? [...state.citations] : state.citations
    if (state.parser !== undefined) block["input"] = state.open ? this.openInput(state) : state.input
    return block
  }

  private build(): AssistantMessage {
    const message = this.message
    const content: Array<ContentBlock> = []
    for (const state of this.blocks) content.push(this.blockOf(state))
    if (message === undefined) {
      return { id: "", type: "message", role: "assistant", model: "", content, stop_reason: null, stop_sequence: null, usage: UsageTotals.empty }
    }
    return { ...message, type: "message", role: "assistant", content }
  }
}

/**
 * The events as Outputs: each event as it arrives, then one Complete at `message_stop` (the stream ends there,
 * without reading further). Fails with the ApiError of an `error` event, a ParseError for what is not the
 * protocol, or StreamAbortedError when the events end before `message_stop`; the events before that are emitted
 * first. Works a chunk at a time: no Effect per event.
 */
export const fold = <E, R>(events: Stream.Stream<StreamEvent, E, R>): Stream.Stream<Output, E | ApiError, R> =>
  Stream.transformPull(events, (upstream) =>
    Effect.sync(() => {
      const accumulator = new Accumulator()
      type Out = Pull.Pull<Arr.NonEmptyReadonlyArray<Output>, E | ApiError>
      // Set once the fold has said its last word (a failure, or the end): later pulls give it without reading on.
      let last: Out | undefined = undefined
      const onInput = (input: Arr.NonEmptyReadonlyArray<StreamEvent>): Out => {
        const out: Array<Output> = []
        for (const event of input) {
          accumulator.push(event)
          out.push({ _tag: "Event", event })
          const failure = accumulator.failure()
          if (failure !== undefined) {
            last = Effect.fail(failure)
            break
          }
          if (accumulator.isComplete()) {
            const result = accumulator.result()
            if (Result.isSuccess(result)) out.push({ _tag: "Complete", ...result.success })
            last = Cause.done()
            break
          }
        }
        // One Event per event read, so never empty.
        return Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<Output>)
      }
      const onEnd = (): Out => {
        const result = accumulator.result()
        if (Result.isFailure(result)) return (last = Effect.fail(result.failure))
        last = Cause.done()
        return Effect.succeed([{ _tag: "Complete", ...result.success }])
      }
      const read: Out = Pull.matchEffect(upstream, { onSuccess: onInput, onFailure: Effect.failCause, onDone: onEnd })
      return Effect.suspend(() => last ?? read)
    })
  )
