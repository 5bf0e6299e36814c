/**
 * Server-sent events (the WHATWG `text/event-stream` format) from bytes to frames to StreamEvents.
 *
 * The decoder is synchronous and incremental: bytes in, complete frames out. It follows the WHATWG parsing
 * rules: lines end in CRLF, LF or CR (a CR ending one chunk and an LF starting the next are one line end);
 * `:` lines are comments; `data` lines are joined with "\n"; one space after the colon is dropped; `retry` and
 * unknown fields are ignored; a blank line dispatches the frame, unless it had no `data` line. A frame with data
 * but no `event:` line is still a frame (the SDK drops those; weft doesn't). `id` is the last event id: it
 * carries over to later frames, as in the spec. UTF-8 is decoded with a streaming TextDecoder, so a character
 * split between chunks is fine; a leading BOM is dropped.
 *
 * Speed matters (a 6 MB stream must fold about as fast as a naive split + JSON.parse loop): lines are found with
 * indexOf over each decoded chunk, never byte by byte; a line split between chunks is kept as a list of pieces,
 * so a long line arriving in many chunks is copied once, not once per chunk; `events` parses each frame where it
 * ends (no Frame or Result per event), and reads the two hot shapes (text and input_json deltas, nearly every
 * event) without parsing a whole object; everything else goes through JSON.parse. No Schema decoding per event:
 * the Accumulator checks the fields it uses.
 *
 * Bound: a frame (its data plus the unfinished line) may hold at most `maxFrameLength` characters (16 Mi by
 * default, far above the largest real event, a whole web search result block of some tens of KB). A server that
 * goes past it gets a ParseError, not unbounded memory.
 */
import * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Pull from "effect/Pull"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type { StreamEvent, UnknownEvent } from "../domain/StreamEvent.js"
import { ParseError } from "./ApiError.js"
import { isRecord } from "../domain/Json.js"

export interface Frame {
  readonly event: string | undefined
  readonly data: string
  readonly id: string | undefined
}

export interface DecoderOptions {
  /** The most characters one frame may hold (data lines plus the line being read). Default 16 Mi. */
  readonly maxFrameLength?: number
}

export const defaultMaxFrameLength = 16 * 1024 * 1024

const LF = 0x0a
const CR = 0x0d
const empty: ReadonlyArray<never> = []

/**
 * The line scanner shared by `Decoder` (which yields Frame objects) and `events` (which parses each frame's data
 * straight into a StreamEvent, skipping the Frame and Result allocations on the hot path).
 */
abstract class Scanner<A> {
  private readonly utf8 = new TextDecoder("utf-8")
  private readonly maxFrameLength: number
  /** The start of a line whose end has not arrived, in pieces (joined once, when the line ends). */
  private carry: Array<string> = []
  private carryLength = 0
  /** The last chunk ended in CR: an LF starting the next one belongs to the same line end. */
  // Stryker disable next-line BooleanLiteral: an LF that starts the stream ends an empty first line, which dispatches nothing: skipping it is the same
  private pendingCR = false

  // The frame being built.
  private data = ""
  private hasData = false
  private event: string | undefined = undefined
  /** The last `event:` value read, reused when the next one is the same. */
  // Stryker disable next-line StringLiteral: a cache: it is reused only when the name read is equal to it, whatever it starts as
  private eventName = ""
  private lastEventId: string | undefined = undefined

  /** Set once scanning must stop: a frame went past the bound, or (in `events`) a frame was not an event. */
  protected failure: string | undefined = undefined
  private out: Array<A> = []

  constructor(options: DecoderOptions = {}) {
    this.maxFrameLength = options.maxFrameLength ?? defaultMaxFrameLength
  }

  /** Set once a frame went past the bound (or, in `events`, was not an event); nothing more is yielded. */
  get error(): string | undefined {
    return this.failure
  }

  /** What chunk completed. */
  push(chunk: Uint8Array): ReadonlyArray<A> {
    if (this.failure === undefined) {
      const text = this.utf8.decode(chunk, { stream: true })
      if (text.length > 0) this.lines(text)
    }
    return this.take()
  }

  /** The end of the stream: a last frame not followed by a blank line is dispatched if it has data. */
  end(): ReadonlyArray<A> {
    this.finish()
    return this.take()
  }

  /** A complete frame; `output` what it gives. */
  protected abstract emit(event: string | undefined, data: string, id: string | undefined): void

  protected output(value: A): void {
    this.out.push(value)
  }

  private take(): ReadonlyArray<A> {
    // Stryker disable next-line ConditionalExpression: the shared empty array spares an allocation; a new empty one is the same
    if (this.out.length === 0) return empty
    const values = this.out
    this.out = []
    return values
  }

  // After a failure nothing is pending: overflow() cleared the frame and the carry, and an event's failure is set after
  // its frame was taken; at the end, all the utf8 decoder can still give is a replacement character, no line end. So
  // the failure checks here spare work only, and so does skipping an empty rest or carry (an empty line dispatches,
  // as the last line does anyway).
  private finish(): void {
    // Stryker disable next-line ConditionalExpression: see above
    if (this.failure !== undefined) return
    const rest = this.utf8.decode()
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see above (an empty rest only clears pendingCR)
    if (rest.length > 0) this.lines(rest)
    // Stryker disable next-line ConditionalExpression: see above
    if (this.failure !== undefined) return
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
    if (this.carry.length > 0) {
      const line = this.carry.join("")
      // Stryker disable next-line ArrayDeclaration: nothing reads the carry after end()
      this.carry = []
      this.carryLength = 0
      this.line(line, 0, line.length)
    }
    // Stryker disable next-line ConditionalExpression: see above
    if (this.failure === undefined) this.dispatch()
  }

  private lines(text: string): void {
    const n = text.length
    let pos = 0
    if (this.pendingCR) {
      this.pendingCR = false
      if (text.charCodeAt(0) === LF) pos = 1
    }
    // Next LF and CR at or after `pos`; -1 once there is none left in this chunk (never searched again).
    let nextLF = text.indexOf("\n", pos)
    let nextCR = text.indexOf("\r", pos)
    // Stryker disable next-line EqualityOperator: a pass at pos === n only adds an empty piece to the carry, which changes no line
    while (pos < n) {
      // The searches are redone only when needed: searching again when not needed finds the same line ends.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: see above
      if (nextLF !== -1 && nextLF < pos) nextLF = text.indexOf("\n", pos)
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: see above
      if (nextCR !== -1 && nextCR < pos) nextCR = text.indexOf("\r", pos)
      const end = nextCR === -1 ? nextLF : nextLF === -1 ? nextCR : Math.min(nextLF, nextCR)
      if (end === -1) {
        // Stryker disable next-line ConditionalExpression: text.slice(0) is text; the check spares a copy
        this.carry.push(pos === 0 ? text : text.slice(pos))
        this.carryLength += n - pos
        if (this.carryLength + this.data.length > this.maxFrameLength) this.overflow()
        break
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty carry joined with the line is the line; the check spares a copy
      if (this.carry.length > 0) {
        this.carry.push(text.slice(pos, end))
        const line = this.carry.join("")
        this.carry = []
        this.carryLength = 0
        this.line(line, 0, line.length)
      } else {
        this.line(text, pos, end)
      }
      if (this.failure !== undefined) return
      if (end === nextCR) {
        if (end + 1 < n) pos = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1
        else {
          this.pendingCR = true
          pos = end + 1
        }
      } else {
        pos = end + 1
      }
    }
  }

  /** One line: `s[start, end)`, without its line end. */
  private line(s: string, start: number, end: number): void {
    if (start === end) return this.dispatch()
    // Stryker disable next-line ConditionalExpression: a comment line read as a field has the name "", which is ignored anyway
    if (s.charCodeAt(start) === 0x3a) return // `:` comment
    // The two fields of every frame first, without slicing the field name. `s[end]` is the line end (or past
    // the string), never a space, so the one-space check cannot look into the next line.
    // Stryker disable next-line ConditionalExpression,MethodExpression,BlockStatement: a shortcut: the general field reading below reads data lines the same
    if (s.startsWith("data:", start)) {
      return this.dataLine(s.slice(s.charCodeAt(start + 5) === 0x20 ? start + 6 : start + 5, end))
    }
    // Stryker disable next-line ConditionalExpression,MethodExpression,BlockStatement: a shortcut: the general field reading below reads event lines the same
    if (s.startsWith("event:", start)) {
      const from = s.charCodeAt(start + 6) === 0x20 ? start + 7 : start + 6
      // Event names repeat (content_block_delta, ...): reuse the last one rather than slice a new string.
      const last = this.eventName
      // Stryker disable next-line ConditionalExpression,ArithmeticOperator: slicing a name equal to the last one gives an equal string
      if (end - from !== last.length || !s.startsWith(last, from)) this.eventName = s.slice(from, end)
      this.event = this.eventName
      return
    }
    const colon = s.indexOf(":", start)
    // `s[end]` is a line end or past the string (see above), so `colon` is never `end`.
    // Stryker disable next-line EqualityOperator: see above
    const hasColon = colon !== -1 && colon < end
    const field = s.slice(start, hasColon ? colon : end)
    const value = hasColon
      ? s.slice(
          s.charCodeAt(colon + 1) === 0x20 &&
            // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: `s[end]` is never a space (see above), so a space at colon + 1 is before `end`
            colon + 1 < end
            ? colon + 2
            : colon + 1,
          end
        )
      : ""
    switch (field) {
      case "data":
        return this.dataLine(value)
      case "event":
        this.event = value
        return
      case "id":
        if (!value.includes("\u0000")) this.lastEventId = value
        return
      // Stryker disable next-line ConditionalExpression: the last case: without it the switch ends and the method returns the same
      default:
        return // `retry` and unknown fields
    }
  }

  private dataLine(value: string): void {
    if (this.hasData) this.data += "\n" + value
    else {
      this.data = value
      this.hasData = true
    }
    if (this.data.length > this.maxFrameLength) this.overflow()
  }


  private dispatch(): void {
    if (this.hasData) {
      const data = this.data
      this.data = ""
      this.hasData = false
      this.emit(this.event === "" ? undefined : this.event, data, this.lastEventId)
    }
    this.event = undefined
  }

  // Clearing the frame frees its memory: once `failure` is set nothing reads it (push reads no more, finish returns).
  private overflow(): void {
    this.failure = `an SSE frame is longer than ${this.maxFrameLength} characters`
    // Stryker disable next-line ArrayDeclaration: see above
    this.carry = []
    this.carryLength = 0
    // Stryker disable next-line StringLiteral: see above
    this.data = ""
    // Stryker disable next-line BooleanLiteral: see above
    this.hasData = false
  }
}


/** Incremental, synchronous, pure: feed byte chunks (`push`), get complete frames; `end()` at the end. */
export class Decoder extends Scanner<Frame> {
  protected emit(event: string | undefined, data: string, id: string | undefined): void {
    this.output({ event, data, id })
  }
}

/** For `events`: each frame's data parsed on the spot, stopping at the first that is not an event. */
class EventDecoder extends Scanner<StreamEvent> {
  protected emit(event: string | undefined, data: string): void {
    const parsed = parseEvent(event, data)
    if (typeof parsed === "string") this.failure = parsed
    else this.output(parsed)
  }
}

const parseError = (message: string): ParseError => new ParseError({ message, status: null, requestId: null })

/**
 * The frames of a byte stream, chunk by chunk. Fails with a ParseError only when a frame exceeds the decoder's
 * bound (see the module doc). Also callable on one whole body (`decode(bytes)`), returning its frames at once.
 */
export function decode<E, R>(bytes: Stream.Stream<Uint8Array, E, R>, options?: DecoderOptions): Stream.Stream<Frame, E | ParseError, R>
export function decode(bytes: Uint8Array, options?: DecoderOptions): ReadonlyArray<Frame>
export function decode<E, R>(
  bytes: Stream.Stream<Uint8Array, E, R> | Uint8Array,
  options?: DecoderOptions
): Stream.Stream<Frame, E | ParseError, R> | ReadonlyArray<Frame> {
  if (bytes instanceof Uint8Array) {
    const decoder = new Decoder(options)
    return [...decoder.push(bytes), ...decoder.end()]
  }
  return transform(bytes, () => new Decoder(options))
}

interface EventLike {
  readonly type: string
  readonly [key: string]: unknown
}

/** Any object with a string `type` is a StreamEvent: unknown types are the union's `UnknownEvent`. */
const isEventLike = (value: unknown): value is EventLike => isRecord(value) && typeof value["type"] === "string"

const preview = (data: string): string => (data.length > 200 ? `${data.slice(0, 200)}…` : data)

// Stryker disable next-line ArrowFunction,ConditionalExpression,LogicalOperator,EqualityOperator: fastDelta skips only the padding before the closing braces with it; a wrong answer makes it decline (JSON.parse then gives the same event) or stop at the opening quote, which is no brace
const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

// Mutation testing: fastDelta is only a shortcut. Where it returns undefined, parseEvent reads the data with JSON.parse,
// which gives the same event; so a mutant that only makes it return undefined more often (decline) changes no event.
// Those are disabled below ("declines"); the agreement tests in Sse.test.ts kill the ones that let a wrong reading through.
// Stryker disable next-line StringLiteral: declines: with an empty head no data has a digit at position 0
const deltaHead = "{\"type\":\"content_block_delta\",\"index\":"
// Stryker disable next-line StringLiteral: declines: the string would then start at the "," after the index, which JSON.parse rejects
const textDeltaMiddle = ",\"delta\":{\"type\":\"text_delta\",\"text\":\""
// Stryker disable next-line StringLiteral: declines: the string would then start at the "," after the index, which JSON.parse rejects
const jsonDeltaMiddle = ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\""

/**
 * The hot events, read without parsing a whole object: `{"type":"content_block_delta","index":N,"delta":{"type":
 * "text_delta","text":"…"}}` (and the same with `input_json_delta` / `partial_json`) exactly as the API writes
 * them, whitespace allowed only where the API pads (before the closing braces). They are nearly all of a
 * stream's events, and this takes half the time of JSON.parse. Anything else, even slightly different, returns
 * undefined and goes through JSON.parse; the result is the object JSON.parse would build (same keys, same
 * order), and nothing JSON.parse rejects gets through (the tests check both).
 */
// Stryker disable next-line BlockStatement: declines (see above)
const fastDelta = (data: string): StreamEvent | undefined => {
  // `lastIndexOf(x, 0) === 0` and `slice(...) === x` are prefix tests several times faster than startsWith in V8.
  // Stryker disable next-line ConditionalExpression: declines
  if (data.lastIndexOf(deltaHead, 0) !== 0) return undefined
  const n = data.length
  let i = deltaHead.length
  const digits = i
  let index = 0
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UpdateOperator,BlockStatement: declines (no digits, or too many, or not followed by the middle)
  for (; i < n; i++) {
    const c = data.charCodeAt(i)
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: declines (a digit not read as one leaves the middle unmatched)
    if (c < 0x30 || c > 0x39) break
    index = index * 10 + (c - 0x30)
  }
  // 1 to 9 digits, no leading zero (JSON has none, and 9 digits stay exact).
  if (
    // Stryker disable next-line ConditionalExpression: declines (the whole check true); no digits accepted is tested
    i === digits ||
    // Stryker disable next-line EqualityOperator,ArithmeticOperator: declines (9 digits, or every index); more than 15 digits are tested
    i - digits > 9 ||
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: declines (more indexes); a leading zero accepted is tested
    (i - digits > 1 && data.charCodeAt(digits) === 0x30)
  ) return undefined
  // Stryker disable next-line ConditionalExpression,MethodExpression,ArithmeticOperator: declines (a text delta then fails the input_json check)
  const isText = data.slice(i, i + textDeltaMiddle.length) === textDeltaMiddle
  // Two mutants here stay, both declines: the whole check and its second half made true. Their `false` twins let a
  // wrong reading through and are killed, so the line's ConditionalExpression mutants are not disabled.
  if (
    // Stryker disable next-line LogicalOperator: declines (|| is true for every text delta and fails the check)
    !isText &&
    // Stryker disable next-line MethodExpression,ArithmeticOperator: declines (the comparison is then always unequal)
    data.slice(i, i + jsonDeltaMiddle.length) !== jsonDeltaMiddle
  ) return undefined
  const start = i + (isText ? textDeltaMiddle.length : jsonDeltaMiddle.length)
  // From the end: `"` `}` spaces `}` spaces.
  // Stryker disable next-line ArithmeticOperator: declines (no character at n)
  let end = n - 1
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UpdateOperator: declines, or stops at the opening quote, which is no space
  while (end > start && isJsonSpace(data.charCodeAt(end))) end--
  // Not disabled: made true it only declines, but made false it would read `"a"}x` (the tests kill that).
  if (data.charCodeAt(end) !== 0x7d) return undefined
  end--
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UpdateOperator: declines, or stops at the opening quote, which is no space
  while (end > start && isJsonSpace(data.charCodeAt(end))) end--
  // The quote and start checks are implied by JSON.parse below (the slice starts at the opening quote; a literal must end
  // in a quote, or in whitespace that JSON.parse of the whole data allows as well), so their mutants decline or change nothing.
  if (
    data.charCodeAt(end) !== 0x7d ||
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: see above
    data.charCodeAt(end - 1) !== 0x22 ||
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: see above
    end - 1 < start
  ) return undefined
  // The string literal alone goes through JSON.parse: it accepts exactly one valid JSON string (an inner
  // unescaped quote, a bad escape or a raw control character throws, and the caller falls back).
  // Stryker disable next-line MethodExpression: declines (the whole data parses to an object, no string)
  const text: unknown = JSON.parse(data.slice(start - 1, end))
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a literal that starts with a quote is a string, or JSON.parse throws
  if (typeof text !== "string") return undefined
  return isText
    ? { type: "content_block_delta", index, delta: { type: "text_delta", text } }
    : { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: text } }
}

/** The event in a frame's data, or why there is none (a string, so the hot path allocates nothing extra). */
const parseEvent = (event: string | undefined, data: string): StreamEvent | string => {
  let parsed: unknown
  // Stryker disable next-line BlockStatement: declines (see fastDelta)
  try {
    const fast = fastDelta(data)
    // Stryker disable next-line ConditionalExpression: made false it declines (see fastDelta); its twin made true, which returns no event, fails every test
    if (fast !== undefined) return fast
  } catch {
    // A bad escape: the full parse below reports it.
  }
  try {
    parsed = JSON.parse(data)
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    return `invalid JSON in an SSE ${event ?? "message"} frame (${reason}): ${preview(data)}`
  }
  if (isEventLike(parsed)) return parsed
  if (isRecord(parsed) && !("type" in parsed) && event !== undefined) {
    const named: UnknownEvent = { ...parsed, type: event }
    return named
  }
  return `an SSE ${event ?? "message"} frame is not an event object with a string "type": ${preview(data)}`
}

/**
 * A frame's data as a StreamEvent: JSON.parse, and require an object with a string `type` (when the data has
 * none but the frame has an `event:` name, that name is the type). Unknown types pass through as they are.
 * Deliberately no Schema decoding here: this runs for every event, and the Accumulator checks what it uses.
 */
export const toEvent = (frame: Frame): Result.Result<StreamEvent, ParseError> => {
  const parsed = parseEvent(frame.event, frame.data)
  return typeof parsed === "string" ? Result.fail(parseError(parsed)) : Result.succeed(parsed)
}

/**
 * The StreamEvents of a byte stream (decode + toEvent in one pass). Fails with a ParseError at the first frame
 * that is not an event, after emitting the events before it.
 */
export const events = <E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  options?: DecoderOptions
): Stream.Stream<StreamEvent, E | ParseError, R> => transform(bytes, () => new EventDecoder(options))

/**
 * Runs a scanner over a byte stream: one output array per input array, no Effect per frame. When the scanner
 * stops (bound, bad frame) what it yielded before is emitted, then the ParseError.
 */
const transform = <A, E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  make: () => Scanner<A>
): Stream.Stream<A, E | ParseError, R> =>
  Stream.transformPull(bytes, (upstream) =>
    Effect.sync(() => {
      const scanner = make()
      type Out = Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E | ParseError>
      // The input ended, or the scanner stopped: the next pull ends (or fails) without reading on.
      let ended = false
      let failure: ParseError | undefined = undefined
      const emit = (out: ReadonlyArray<A>): Out => {
        const error = scanner.error
        if (error !== undefined) {
          failure = parseError(error)
          // Stryker disable next-line BooleanLiteral: a failure is answered before `ended` is read
          ended = true
        }
        // Nothing complete in this input: read on (or end, or fail).
        return Arr.isReadonlyArrayNonEmpty(out) ? Effect.succeed(out) : pull
      }
      const onInput = (input: Arr.NonEmptyReadonlyArray<Uint8Array>): Out => {
        // Stryker disable next-line ConditionalExpression,BlockStatement: the loop below reads an array of one as well; this spares an array
        if (input.length === 1) return emit(scanner.push(input[0]))
        const out: Array<A> = []
        for (const bytes of input) {
          for (const value of scanner.push(bytes)) out.push(value)
          // Stryker disable next-line ConditionalExpression: a scanner that stopped yields nothing more; this spares reading on
          if (scanner.error !== undefined) break
        }
        return emit(out)
      }
      const onEnd = (): Out => {
        ended = true
        return emit(scanner.end())
      }
      const read: Out = Pull.matchEffect(upstream, { onSuccess: onInput, onFailure: Effect.failCause, onDone: onEnd })
      const pull: Out = Effect.suspend(() => (failure !== undefined ? Effect.fail(failure) : ended ? Cause.done() : read))
      return pull
    })
  )
