import { describe, expect, it } from "@effect/vitest"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Content from "../../src/domain/Content.js"
import { AssistantMessage } from "../../src/domain/Message.js"
import type { StreamEvent } from "../../src/domain/StreamEvent.js"
import * as Accumulator from "../../src/model/Accumulator.js"
import { OverloadedError, ParseError, ServerError, StreamAbortedError } from "../../src/model/ApiError.js"

// Event builders, shaped as the API sends them.
const messageStart = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }): StreamEvent => ({
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage
  }
})
const blockStart = (index: number, content_block: Record<string, unknown>): StreamEvent => ({
  type: "content_block_start",
  index,
  content_block
})
const textStart = (index: number): StreamEvent => blockStart(index, { type: "text", text: "" })
const toolStart = (index: number, id = `toolu_${index}`, name = "Read"): StreamEvent =>
  blockStart(index, { type: "tool_use", id, name, input: {} })
const delta = (index: number, d: Record<string, unknown>): StreamEvent => ({
  type: "content_block_delta",
  index,
  delta: { type: "text_delta", text: "", ...d }
})
const text = (index: number, value: string): StreamEvent => delta(index, { type: "text_delta", text: value })
const json = (index: number, partial_json: string): StreamEvent => ({
  type: "content_block_delta",
  index,
  delta: { type: "input_json_delta", partial_json }
})
const blockStop = (index: number): StreamEvent => ({ type: "content_block_stop", index })
const messageDelta = (d: Record<string, unknown>, usage?: Record<string, unknown>): StreamEvent => ({
  type: "message_delta",
  delta: d,
  ...(usage === undefined ? {} : { usage })
})
const messageStop: StreamEvent = { type: "message_stop" }
const ping: StreamEvent = { type: "ping" }

const run = (events: ReadonlyArray<StreamEvent>) => {
  const accumulator = new Accumulator.Accumulator()
  for (const event of events) accumulator.push(event)
  return accumulator.result()
}

const complete = (events: ReadonlyArray<StreamEvent>): Accumulator.Completed => {
  const result = run(events)
  if (Result.isFailure(result)) throw new Error(`expected a message, got ${result.failure._tag}: ${result.failure.message}`)
  return result.success
}

const failure = (events: ReadonlyArray<StreamEvent>) => {
  const result = run(events)
  if (Result.isSuccess(result)) throw new Error("expected an error")
  return result.failure
}

const decodeMessage = Schema.decodeUnknownSync(AssistantMessage)

describe("Accumulator", () => {
  it("folds text, keeping id, model, usage and unknown message fields", () => {
    const { message, incompleteToolInputs } = complete([
      messageStart(),
      textStart(0),
      ping,
      text(0, "Hello"),
      text(0, ", world"),
      blockStop(0),
      messageDelta({ stop_reason: "end_turn", stop_sequence: null }, { output_tokens: 15 }),
      messageStop
    ])
    expect(message).toEqual({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: "Hello, world" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 15 }
    })
    expect(incompleteToolInputs).toEqual([])
    // The result is a valid AssistantMessage for the domain schema.
    expect(decodeMessage(message)).toEqual(message)
  })

  it("folds thinking, signature and citations deltas", () => {
    const citation = { type: "char_location", cited_text: "x", document_index: 0, start_char_index: 0, end_char_index: 1 }
    const { message } = complete([
      messageStart(),
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      delta(0, { type: "thinking_delta", thinking: "Let me " }),
      delta(0, { type: "thinking_delta", thinking: "think." }),
      delta(0, { type: "signature_delta", signature: "EqQB" }),
      blockStop(0),
      textStart(1),
      delta(1, { type: "citations_delta", citation }),
      text(1, "cited"),
      delta(1, { type: "citations_delta", citation: { ...citation, cited_text: "y" } }),
      blockStop(1),
      messageStop
    ])
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think.", signature: "EqQB" },
      { type: "text", text: "cited", citations: [citation, { ...citation, cited_text: "y" }] }
    ])
  })

  it("copies blocks: the events are not mutated", () => {
    const start = textStart(0)
    const citationStart = blockStart(1, { type: "text", text: "", citations: [] })
    complete([
      messageStart(),
      start,
      text(0, "abc"),
      blockStop(0),
      citationStart,
      delta(1, { type: "citations_delta", citation: { type: "c" } }),
      blockStop(1),
      messageStop
    ])
    expect(start).toEqual(textStart(0))
    expect(citationStart).toEqual(blockStart(1, { type: "text", text: "", citations: [] }))
  })

  it("builds tool input from the input_json_deltas, not the {} placeholder", () => {
    const { message, incompleteToolInputs } = complete([
      messageStart(),
      toolStart(0, "toolu_a", "Read"),
      json(0, ""),
      json(0, "{\"file_pa"),
      json(0, "th\": \"src/ma"),
      json(0, "in.ts\", \"limit\": 20}"),
      blockStop(0),
      blockStart(1, { type: "server_tool_use", id: "srvtoolu_b", name: "web_search", input: {} }),
      json(1, "{\"query\":\"effect\"}"),
      blockStop(1),
      messageDelta({ stop_reason: "tool_use" }),
      messageStop
    ])
    expect(message.content).toEqual([
      { type: "tool_use", id: "toolu_a", name: "Read", input: { file_path: "src/main.ts", limit: 20 } },
      { type: "server_tool_use", id: "srvtoolu_b", name: "web_search", input: { query: "effect" } }
    ])
    expect(incompleteToolInputs).toEqual([])
  })

  it("gives {} for a tool call without input JSON", () => {
    const { message, incompleteToolInputs } = complete([messageStart(), toolStart(0), json(0, ""), blockStop(0), messageStop])
    expect(message.content).toEqual([{ type: "tool_use", id: "toolu_0", name: "Read", input: {} }])
    expect(incompleteToolInputs).toEqual([])
  })

  it("shows partial input while it streams, in snapshot() and partialInput()", () => {
    const accumulator = new Accumulator.Accumulator()
    for (const event of [messageStart(), textStart(0), text(0, "Reading"), blockStop(0), toolStart(1)]) accumulator.push(event)
    expect(accumulator.partialInput(1)).toEqual({})
    accumulator.push(json(1, "{\"file_path\": \"src/ma"))
    expect(accumulator.partialInput(1)).toEqual({ file_path: "src/ma" })
    expect(accumulator.snapshot().content).toEqual([
      { type: "text", text: "Reading" },
      { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "src/ma" } }
    ])
    accumulator.push(json(1, "in.ts\", \"offset\": 3"))
    expect(accumulator.partialInput(1)).toEqual({ file_path: "src/main.ts" })
    accumulator.push(json(1, "}"))
    accumulator.push(blockStop(1))
    expect(accumulator.partialInput(1)).toEqual({ file_path: "src/main.ts", offset: 3 })
    expect(accumulator.partialInput(0)).toBeUndefined()
    expect(accumulator.partialInput(7)).toBeUndefined()
    expect(accumulator.isComplete()).toBe(false)
    accumulator.push(messageStop)
    expect(accumulator.isComplete()).toBe(true)
    expect(accumulator.snapshot().content[1]).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "Read",
      input: { file_path: "src/main.ts", offset: 3 }
    })
  })

  it("snapshot() before message_start is an empty message", () => {
    const snapshot = new Accumulator.Accumulator().snapshot()
    expect(snapshot.content).toEqual([])
    expect(snapshot.usage).toEqual({ input_tokens: 0, output_tokens: 0 })
  })

  it("malformed tool JSON: the best partial value and an Incomplete malformed_json; the message completes", () => {
    const { message, incompleteToolInputs } = complete([
      messageStart(),
      toolStart(0, "toolu_test", "test_tool"),
      json(0, "{\"foo\": \"bar\", \"baz\": "),
      json(0, "\"qux\": \"quux\"}"),
      blockStop(0),
      toolStart(1, "toolu_2", "other"),
      json(1, "not json at all"),
      blockStop(1),
      toolStart(2, "toolu_3", "cut"),
      json(2, "{\"a\": [1, \"x"),
      blockStop(2),
      messageDelta({ stop_reason: "tool_use" }),
      messageStop
    ])
    expect(message.content.map((block) => ("input" in block ? block.input : undefined))).toEqual([
      { foo: "bar", baz: "qux" },
      {},
      { a: [1, "x"] }
    ])
    expect(incompleteToolInputs).toEqual([
      { index: 0, id: "toolu_test", name: "test_tool", raw: "{\"foo\": \"bar\", \"baz\": \"qux\": \"quux\"}", reason: "malformed_json" },
      { index: 1, id: "toolu_2", name: "other", raw: "not json at all", reason: "malformed_json" },
      { index: 2, id: "toolu_3", name: "cut", raw: "{\"a\": [1, \"x", reason: "malformed_json" }
    ])
    expect(message.stop_reason).toBe("tool_use")
  })

  it("max_tokens with a tool block still open: the partial value and an Incomplete truncated", () => {
    const { message, incompleteToolInputs } = complete([
      messageStart(),
      textStart(0),
      text(0, "Writing the file."),
      blockStop(0),
      toolStart(1, "toolu_w", "Write"),
      json(1, "{\"file_path\": \"taxes.txt\", \"lines\": [\"# Guide\", \"Filing ta"),
      messageDelta({ stop_reason: "max_tokens", stop_sequence: null }, { output_tokens: 124 }),
      messageStop
    ])
    expect(message.stop_reason).toBe("max_tokens")
    expect(message.usage.output_tokens).toBe(124)
    expect(message.content[1]).toEqual({
      type: "tool_use",
      id: "toolu_w",
      name: "Write",
      input: { file_path: "taxes.txt", lines: ["# Guide", "Filing ta"] }
    })
    expect(incompleteToolInputs).toEqual([
      {
        index: 1,
        id: "toolu_w",
        name: "Write",
        raw: "{\"file_path\": \"taxes.txt\", \"lines\": [\"# Guide\", \"Filing ta",
        reason: "truncated"
      }
    ])
  })

  it("an open tool block whose JSON happens to be whole at message_stop is not incomplete", () => {
    const { message, incompleteToolInputs } = complete([messageStart(), toolStart(0), json(0, "{\"a\":1}"), messageStop])
    expect(message.content[0]).toMatchObject({ input: { a: 1 } })
    expect(incompleteToolInputs).toEqual([])
  })

  it("message_delta merges every delta field and usage (present fields replace, null never erases)", () => {
    const { message } = complete([
      { ...messageStart(), message: { ...(messageStart() as { message: object }).message, container: { id: "c0" } } },
      messageDelta(
        { stop_reason: "refusal", stop_sequence: null, stop_details: { type: "refusal" }, container: null },
        { output_tokens: 7, cache_read_input_tokens: 3, server_tool_use: { web_search_requests: 1 } }
      ),
      messageDelta({ stop_details: null, extra_field: "x" }, { output_tokens: 9, input_tokens: null }),
      messageStop
    ])
    expect(message.stop_reason).toBe("refusal")
    expect(message["stop_details"]).toEqual({ type: "refusal" })
    expect(message["container"]).toEqual({ id: "c0" })
    expect(message["extra_field"]).toBe("x")
    expect(message.usage).toEqual({
      input_tokens: 10,
      output_tokens: 9,
      cache_read_input_tokens: 3,
      server_tool_use: { web_search_requests: 1 }
    })
  })

  it("a message_start without usage starts from zero usage", () => {
    const start: StreamEvent = {
      type: "message_start",
      message: { id: "m", type: "message", role: "assistant", model: "x", content: [], stop_reason: null, stop_sequence: null }
    }
    const { message } = complete([start, messageDelta({ stop_reason: "end_turn" }), messageStop])
    expect(message.usage).toEqual({ input_tokens: 0, output_tokens: 0 })
  })

  it("ignores unknown event types and unknown delta types", () => {
    const { message } = complete([
      messageStart(),
      { type: "future_event", foo: 1 },
      textStart(0),
      delta(0, { type: "future_delta", x: "y" }),
      text(0, "ok"),
      blockStop(0),
      messageStop
    ])
    expect(message.content).toEqual([{ type: "text", text: "ok" }])
  })

  it("keeps unknown block types whole", () => {
    const block = { type: "future_block", payload: { a: [1] } }
    const { message } = complete([messageStart(), blockStart(0, block), blockStop(0), messageStop])
    expect(message.content).toEqual([block])
  })

  it("an error event fails with the ApiError of its type", () => {
    const error = failure([
      messageStart(),
      textStart(0),
      text(0, "partial"),
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }
    ])
    expect(error).toBeInstanceOf(OverloadedError)
    expect(error).toMatchObject({ message: "Overloaded", status: null, requestId: null, errorType: "overloaded_error" })
    expect(failure([{ type: "error", error: { type: "api_error", message: "boom" } }])).toBeInstanceOf(ServerError)
  })

  it("events after an error or after message_stop are ignored", () => {
    const accumulator = new Accumulator.Accumulator()
    for (const event of [messageStart(), messageStop, textStart(0), { type: "error", error: { type: "api_error", message: "x" } }]) {
      accumulator.push(event)
    }
    expect(Result.isSuccess(accumulator.result())).toBe(true)
  })

  it("the stream ending before message_stop is a StreamAbortedError saying how far it got", () => {
    const aborted = failure([messageStart(), textStart(0), text(0, "Hel"), blockStop(0), textStart(1)])
    expect(aborted).toBeInstanceOf(StreamAbortedError)
    expect(aborted.message).toBe("stream ended before message_stop after 2 content blocks (block 1, text, still open)")
    expect(aborted.status).toBeNull()
    expect(failure([messageStart(), textStart(0), blockStop(0)]).message).toBe(
      "stream ended before message_stop after 1 content block"
    )
    expect(failure([]).message).toBe("stream ended before message_start")
  })

  it("protocol violations are ParseErrors, never crashes", () => {
    const cases: Array<[ReadonlyArray<StreamEvent>, RegExp]> = [
      [[textStart(0)], /content_block_start before message_start/],
      [[text(0, "x")], /content_block_delta before message_start/],
      [[messageStop], /message_stop before message_start/],
      [[messageDelta({ stop_reason: "end_turn" })], /message_delta before message_start/],
      [[messageStart(), messageStart()], /second message_start/],
      [[messageStart(), text(0, "x")], /unknown content block 0/],
      [[messageStart(), textStart(0), text(1, "x")], /unknown content block 1/],
      [[messageStart(), textStart(0), blockStop(0), text(0, "x")], /content block 0, already stopped/],
      [[messageStart(), textStart(0), blockStop(3)], /unknown content block 3/],
      [[messageStart(), textStart(1)], /index 1, expected 0/],
      [[messageStart(), { type: "content_block_start", index: 0 }], /without a content block/],
      [[messageStart(), toolStart(0), text(0, "x")], /text_delta.*content block 0 \(tool_use\)/],
      [[messageStart(), textStart(0), json(0, "{}")], /input_json_delta.*\(text\)/],
      [[messageStart(), textStart(0), { type: "content_block_delta", index: 0 }], /without a delta/],
      [[messageStart(), textStart(0), delta(0, { type: "text_delta", text: 5 })], /malformed text_delta/],
      [[{ type: "message_start" }], /without a message object/]
    ]
    for (const [events, message] of cases) {
      const error = failure(events)
      expect(error).toBeInstanceOf(ParseError)
      expect(error.message).toMatch(message)
    }
  })

  it("folds 20k text deltas and a 1 MB tool input in 5k deltas without quadratic work", () => {
    const accumulator = new Accumulator.Accumulator()
    accumulator.push(messageStart())
    accumulator.push(textStart(0))
    for (let i = 0; i < 20_000; i++) accumulator.push(text(0, `word${i % 10} `))
    accumulator.push(blockStop(0))
    const input = { file_path: "/big.ts", content: "const x = \"é\\n\";\n".repeat(60_000) }
    const source = JSON.stringify(input)
    expect(source.length).toBeGreaterThan(1_000_000)
    accumulator.push(toolStart(1, "toolu_big", "Write"))
    const size = Math.ceil(source.length / 5000)
    for (let i = 0; i < source.length; i += size) accumulator.push(json(1, source.slice(i, i + size)))
    accumulator.push(blockStop(1))
    accumulator.push(messageStop)
    const result = accumulator.result()
    expect(Result.isSuccess(result)).toBe(true)
    if (Result.isSuccess(result)) {
      const [first, second] = result.success.message.content
      expect(first).toMatchObject({ type: "text" })
      expect(first !== undefined && Content.isText(first) && first.text.length).toBe(20_000 * 6)
      expect(second).toEqual({ type: "tool_use", id: "toolu_big", name: "Write", input })
    }
  })
})

describe("Accumulator.fold", () => {
  const events = [messageStart(), textStart(0), ping, text(0, "Hi"), blockStop(0), messageDelta({ stop_reason: "end_turn" }), messageStop]

  it.effect("emits every event in order, then one Complete, last", () =>
    Effect.gen(function* () {
      const outputs = yield* Stream.runCollect(Accumulator.fold(Stream.fromIterable(events)))
      expect(outputs.slice(0, -1)).toEqual(events.map((event) => ({ _tag: "Event", event })))
      const last = outputs.at(-1)
      expect(last?._tag).toBe("Complete")
      if (last?._tag === "Complete") {
        expect(last.message.content).toEqual([{ type: "text", text: "Hi" }])
        expect(last.incompleteToolInputs).toEqual([])
      }
    }))

  it.effect("works the same whatever the chunking of the event stream", () =>
    Effect.gen(function* () {
      const whole = yield* Stream.runCollect(Accumulator.fold(Stream.fromIterable(events)))
      const single = yield* Stream.runCollect(Accumulator.fold(Stream.fromIterable(events).pipe(Stream.rechunk(1))))
      expect(single).toEqual(whole)
    }))

  it.effect("ends at message_stop without reading further", () =>
    Effect.gen(function* () {
      let pulledAfterStop = false
      const rest = Stream.fromEffect(Effect.sync(() => (pulledAfterStop = true))).pipe(Stream.as(ping))
      const outputs = yield* Stream.runCollect(
        Accumulator.fold(Stream.concat(Stream.fromIterable(events).pipe(Stream.rechunk(1)), rest))
      )
      expect(Arr.last(outputs).pipe((last) => last._tag === "Some" && last.value._tag)).toBe("Complete")
      expect(pulledAfterStop).toBe(false)
    }))

  it.effect("emits the events before an error event, then fails with its ApiError", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const error = yield* Accumulator.fold(
        Stream.fromIterable([messageStart(), textStart(0), text(0, "par"), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, text(0, "never")])
      ).pipe(
        Stream.runForEach((output) => Effect.sync(() => seen.push(output._tag === "Event" ? output.event.type : "Complete"))),
        Effect.flip
      )
      expect(error).toBeInstanceOf(OverloadedError)
      expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta", "error"])
    }))

  it.effect("fails with StreamAbortedError when the events end before message_stop", () =>
    Effect.gen(function* () {
      const error = yield* Accumulator.fold(Stream.fromIterable(events.slice(0, 4))).pipe(Stream.runDrain, Effect.flip)
      expect(error).toBeInstanceOf(StreamAbortedError)
      expect(error.message).toMatch(/after 1 content block \(block 0, text, still open\)/)
    }))

  it.effect("passes the event stream's own failure through", () =>
    Effect.gen(function* () {
      const error = yield* Accumulator.fold(Stream.concat(Stream.fromIterable(events.slice(0, 3)), Stream.fail("reset" as const))).pipe(
        Stream.runDrain,
        Effect.flip
      )
      expect(error).toBe("reset")
    }))
})
