/**
 * Every `.sse` file of test/fixtures/anthropic-sse (see its SOURCES.md) decoded with Sse.events and folded
 * with Accumulator.fold, whole and in 1-byte chunks, with what each file must produce.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Content from "../../src/domain/Content.js"
import { AssistantMessage } from "../../src/domain/Message.js"
import type { StreamEvent } from "../../src/domain/StreamEvent.js"
import * as Accumulator from "../../src/model/Accumulator.js"
import type { ApiError } from "../../src/model/ApiError.js"
import * as Sse from "../../src/model/Sse.js"

/** The repository root: the nearest folder above this file with a package.json. */
const repoRoot = (() => {
  let dir = Path.dirname(fileURLToPath(import.meta.url))
  while (!Fs.existsSync(Path.join(dir, "package.json"))) {
    const parent = Path.dirname(dir)
    if (parent === dir) throw new Error("no package.json above the test file")
    dir = parent
  }
  return dir
})()
const fixtures = Path.resolve(repoRoot, "test/fixtures/anthropic-sse")
const files = Fs.readdirSync(fixtures)
  .filter((name) => name.endsWith(".sse"))
  .sort()

interface Outcome {
  /** The events emitted (as `Event` outputs) before the end. */
  readonly events: ReadonlyArray<StreamEvent>
  readonly result: Result.Result<Accumulator.Completed, ApiError>
}

const fold = (chunks: ReadonlyArray<Uint8Array>): Effect.Effect<Outcome> =>
  Effect.gen(function* () {
    const events: Array<StreamEvent> = []
    let completed: Accumulator.Completed | undefined
    const run = yield* Accumulator.fold(Sse.events(Stream.fromIterable(chunks))).pipe(
      Stream.runForEach((output) =>
        Effect.sync(() => {
          expect(completed).toBeUndefined() // Complete is last
          if (output._tag === "Event") events.push(output.event)
          else completed = { message: output.message, incompleteToolInputs: output.incompleteToolInputs }
        })
      ),
      Effect.result
    )
    if (Result.isFailure(run)) return { events, result: Result.fail(run.failure) }
    if (completed === undefined) throw new Error("the fold ended without a Complete")
    return { events, result: Result.succeed(completed) }
  })

const bytesOf = (name: string): Uint8Array => new Uint8Array(Fs.readFileSync(Path.join(fixtures, name)))

const oneByteChunks = (bytes: Uint8Array): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < bytes.length; i++) out.push(bytes.subarray(i, i + 1))
  return out
}

const decodeMessage = Schema.decodeUnknownSync(AssistantMessage)

const completed = (outcome: Outcome): Accumulator.Completed => {
  if (Result.isFailure(outcome.result)) throw new Error(`expected a message, got ${outcome.result.failure._tag}: ${outcome.result.failure.message}`)
  // Whatever the fold built is a valid assistant message for the domain schema.
  expect(decodeMessage(outcome.result.success.message)).toEqual(outcome.result.success.message)
  return outcome.result.success
}

const failed = (outcome: Outcome): ApiError => {
  if (Result.isSuccess(outcome.result)) throw new Error("expected an error, got a message")
  expect(outcome.result.failure.status).toBeNull()
  expect(outcome.result.failure.requestId).toBeNull()
  return outcome.result.failure
}

const texts = (message: AssistantMessage): Array<string> => message.content.filter(Content.isText).map((block) => block.text)
const types = (outcome: Outcome): Array<string> => outcome.events.map((event) => event.type)

/** The docs' basic text stream ("Hello!"), which several composed files are variations of. */
const helloMessage = (outcome: Outcome) => {
  const { incompleteToolInputs, message } = completed(outcome)
  expect(message).toEqual({
    id: "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY",
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: "Hello!" }],
    model: "claude-sonnet-4-5-20250929",
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 15 }
  })
  expect(incompleteToolInputs).toEqual([])
}

const realSimpleText =
  "Olá! (That's \"hi\" in Portuguese)\n\nYou could also say \"Oi!\" which is a more casual way to say hi in Portuguese."

const realUsage = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, service_tier: "standard", inference_geo: "not_available" }

const expectations: Record<string, (outcome: Outcome) => void> = {
  "composed-comments-and-retry-field.sse": (outcome) => {
    helloMessage(outcome)
    expect(outcome.events).toHaveLength(8)
  },
  "composed-crlf-line-endings.sse": (outcome) => {
    helloMessage(outcome)
    expect(outcome.events).toHaveLength(8)
  },
  "composed-data-only-no-event-lines.sse": (outcome) => {
    // The SDK drops frames without an `event:` line; weft keeps them.
    helloMessage(outcome)
    expect(types(outcome)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop"
    ])
  },
  "composed-error-midstream-overloaded.sse": (outcome) => {
    const error = failed(outcome)
    expect(error._tag).toBe("OverloadedError")
    expect(error).toMatchObject({ message: "Overloaded", errorType: "overloaded_error" })
    // What streamed before the error still went out as events, the error event included.
    expect(types(outcome)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "error"
    ])
  },
  "composed-truncated-before-message-stop.sse": (outcome) => {
    const error = failed(outcome)
    expect(error._tag).toBe("StreamAbortedError")
    expect(error.message).toBe("stream ended before message_stop after 1 content block")
    expect(outcome.events).toHaveLength(17)
    expect(outcome.events.at(-1)?.type).toBe("message_delta")
  },
  "composed-truncated-mid-block.sse": (outcome) => {
    const error = failed(outcome)
    expect(error._tag).toBe("StreamAbortedError")
    expect(error.message).toBe("stream ended before message_stop after 1 content block (block 0, text, still open)")
    expect(outcome.events).toHaveLength(8)
  },
  "composed-unknown-event-and-delta.sse": (outcome) => {
    helloMessage(outcome)
    // Unknown events pass through to renderers whole.
    expect(outcome.events).toContainEqual({ type: "future_event", foo: 1 })
    expect(outcome.events).toContainEqual({ type: "content_block_delta", index: 0, delta: { type: "future_delta", x: "y" } })
  },
  "docs-basic-text.sse": (outcome) => {
    helloMessage(outcome)
    expect(types(outcome)).toContain("ping")
  },
  "docs-error-event.sse": (outcome) => {
    const error = failed(outcome)
    expect(error._tag).toBe("OverloadedError")
    expect(error.message).toBe("Overloaded")
    expect(types(outcome)).toEqual(["error"])
  },
  "docs-extended-thinking.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(message.content).toEqual([
      {
        type: "thinking",
        thinking:
          "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3\n3. 27 * 400 = 10,800\n4. 27 * 50 = 1,350\n5. 27 * 3 = 81\n6. 10,800 + 1,350 + 81 = 12,231",
        signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."
      },
      { type: "text", text: "27 * 453 = 12,231" }
    ])
    expect(message.stop_reason).toBe("end_turn")
    // The docs' example has no usage at all (the SDK throws on it); weft reports zero.
    expect(message.usage).toEqual({ input_tokens: 0, output_tokens: 0 })
  },
  "docs-tool-use.sse": (outcome) => {
    const { incompleteToolInputs, message } = completed(outcome)
    expect(message.id).toBe("msg_014p7gG3wDgGV9EUtLvnow3U")
    expect(message.content).toEqual([
      { type: "text", text: "Okay, let's check the weather for San Francisco, CA:" },
      {
        type: "tool_use",
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        name: "get_weather",
        input: { location: "San Francisco, CA", unit: "fahrenheit" }
      }
    ])
    expect(message.stop_reason).toBe("tool_use")
    expect(message.usage).toEqual({ input_tokens: 472, output_tokens: 89 })
    expect(incompleteToolInputs).toEqual([])
  },
  "docs-web-search.elided.sse": (outcome) => {
    // Not wire-valid (the docs elide with `...`): a ParseError at the elided block, not a crash.
    const error = failed(outcome)
    expect(error._tag).toBe("ParseError")
    expect(error.message).toMatch(/^invalid JSON in an SSE content_block_start frame/)
    expect(outcome.events).toHaveLength(16)
    expect(outcome.events.at(-1)).toEqual({ type: "content_block_stop", index: 1 })
  },
  "real-parallel-tool-use.0.sse": (outcome) => {
    const { incompleteToolInputs, message } = completed(outcome)
    expect(message.content).toEqual([
      { type: "text", text: "I'll add and multiply the numbers 2 and 3 for you." },
      { type: "tool_use", id: "toolu_01UYxUYC2zRPY8wiutnF48eP", name: "add", input: { a: 2, b: 3 }, caller: { type: "direct" } },
      {
        type: "tool_use",
        id: "toolu_01VaRx1jpWCvPhi7L4kywAcd",
        name: "multiply",
        input: { a: 2, b: 3 },
        caller: { type: "direct" }
      }
    ])
    expect(message.stop_reason).toBe("tool_use")
    expect(message.usage).toEqual({ input_tokens: 502, output_tokens: 137, ...realUsage })
    expect(incompleteToolInputs).toEqual([])
  },
  "real-simple-text.0.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(message).toEqual({
      model: "claude-sonnet-4-20250514",
      id: "msg_01R8GdyyLQUhUfyjqSCMbnWg",
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: realSimpleText }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 16, output_tokens: 38, ...realUsage }
    })
  },
  "real-thinking-tool-use.0.sse": (outcome) => {
    const { message } = completed(outcome)
    const [thinking, tool] = message.content
    expect(thinking).toMatchObject({ type: "thinking" })
    if (thinking === undefined || !Content.isThinking(thinking)) throw new Error("no thinking block")
    expect(thinking.thinking).toMatch(/^The user is asking for weather information for Florence, Italy\. /)
    expect(thinking.thinking).toMatch(/I have all the required parameters to make the function call\.$/)
    expect(thinking.thinking).toHaveLength(301)
    expect(thinking.signature).toHaveLength(636)
    expect(thinking.signature).toMatch(/^EtYDCkYICxgCKkAVHEWRYo6RgSMs4ZZDX4gW16kdfp2EIXftcLesVephGa/)
    expect(tool).toMatchObject({ type: "tool_use", name: "weather", input: { location: "Florence, Italy" } })
    expect(message.stop_reason).toBe("tool_use")
    expect(message.usage).toEqual({ input_tokens: 424, output_tokens: 119, ...realUsage })
  },
  "real-thinking-tool-use.1.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(texts(message)).toEqual([
      "The current weather in Florence, Italy is 40°C (104°F). That's quite hot! If you're planning to visit or are currently there, make sure to stay hydrated and seek shade or air conditioning when possible."
    ])
    expect(message.usage).toEqual({ input_tokens: 558, output_tokens: 51, ...realUsage })
  },
  "real-web-search-citations.0.sse": (outcome) => {
    const { incompleteToolInputs, message } = completed(outcome)
    expect(message.content).toHaveLength(15)
    expect(message.content[0]).toEqual({
      type: "server_tool_use",
      id: "srvtoolu_01KYmV1c6SjLeWGNcNG4p2yi",
      name: "web_search",
      input: { query: "Tokyo population 2026 current" },
      caller: { type: "direct" }
    })
    const result = message.content[1]
    if (result === undefined || !Content.isWebSearchToolResult(result)) throw new Error("no web_search_tool_result")
    expect(result.tool_use_id).toBe("srvtoolu_01KYmV1c6SjLeWGNcNG4p2yi")
    expect(Array.isArray(result.content) && result.content.length).toBe(10)
    const textBlocks = message.content.filter(Content.isText)
    expect(textBlocks).toHaveLength(13)
    const citations = textBlocks.flatMap((block) => block.citations ?? [])
    expect(citations).toHaveLength(7)
    expect(new Set(citations.map((citation) => citation.type))).toEqual(new Set(["web_search_result_location"]))
    expect(textBlocks.map((block) => block.citations?.length ?? 0)).toEqual([0, 2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0])
    expect(message.content[3]).toMatchObject({ text: "Tokyo's 2026 population is now estimated at 36,953,600" })
    expect(Content.joinText(message.content)).toMatch(/^Based on the search results, the current/)
    expect(message.usage).toEqual({
      ...realUsage,
      input_tokens: 13520,
      output_tokens: 415,
      server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 }
    })
    expect(message.stop_reason).toBe("end_turn")
    expect(incompleteToolInputs).toEqual([])
  },
  "sdk-basic-text.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(texts(message)).toEqual(["Hello there!"])
    expect(message.usage).toEqual({ input_tokens: 11, output_tokens: 6 })
    expect(message.stop_reason).toBe("end_turn")
  },
  "sdk-max-tokens-incomplete-tool-json.sse": (outcome) => {
    const { incompleteToolInputs, message } = completed(outcome)
    expect(message.stop_reason).toBe("max_tokens")
    expect(message.usage.output_tokens).toBe(124)
    expect(message.content[1]).toEqual({
      type: "tool_use",
      id: "toolu_01EKqbqmZrGRXy18eN7m9kvY",
      name: "make_file",
      input: {
        filename: "taxes.txt",
        lines_of_text: ["# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s", "", "## INTRODUCTION", "", "Filing taxes"]
      }
    })
    expect(incompleteToolInputs).toEqual([
      {
        index: 1,
        id: "toolu_01EKqbqmZrGRXy18eN7m9kvY",
        name: "make_file",
        raw: "{\"filename\": \"taxes.txt\", \"lines_of_text\": [\n\"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s\",\n\"\",\n\"## INTRODUCTION\",\n\"\",\n\"Filing taxes",
        reason: "truncated"
      }
    ])
  },
  "sdk-server-tool-web-search-refusal.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(message.stop_reason).toBe("refusal")
    expect(message["stop_details"]).toMatchObject({ type: "refusal" })
    expect(message.content[0]).toMatchObject({
      type: "server_tool_use",
      id: "srvtoolu_fixture_a_0001",
      name: "web_search",
      input: { query: "solar eclipse viewing safety news 2026" }
    })
    expect(message.content[1]).toMatchObject({ type: "web_search_tool_result", caller: { type: "direct" } })
    expect(texts(message)).toEqual(["Here's a summary of this year's solar eclipses and how"])
    expect(message.usage.output_tokens).toBe(106)
  },
  "sdk-test-error-event-only.sse": (outcome) => {
    const error = failed(outcome)
    expect(error._tag).toBe("OverloadedError")
    expect(error.message).toBe("Overloaded")
  },
  "sdk-test-malformed-tool-json.sse": (outcome) => {
    const { incompleteToolInputs, message } = completed(outcome)
    expect(message.content).toEqual([{ type: "tool_use", id: "toolu_test", name: "test_tool", input: { foo: "bar", baz: "qux" } }])
    expect(incompleteToolInputs).toEqual([
      {
        index: 0,
        id: "toolu_test",
        name: "test_tool",
        raw: "{\"foo\": \"bar\", \"baz\": \"qux\": \"quux\"}invalid malformed json with syntax errors}",
        reason: "malformed_json"
      }
    ])
    expect(message.stop_reason).toBe("end_turn")
  },
  "sdk-test-message-delta-all-usage.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(message.usage).toEqual({
      input_tokens: 42,
      output_tokens: 99,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 8,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 },
      service_tier: "standard",
      server_tool_use: { web_search_requests: 1, web_fetch_requests: 2 },
      output_tokens_details: { thinking_tokens: 30 }
    })
    expect(message["container"]).toEqual({ id: "container_01", expires_at: "2026-01-01T00:00:00Z" })
    expect(message["stop_details"]).toBeNull()
    expect(texts(message)).toEqual(["Done."])
  },
  "sdk-text-padded-usage-iterations.sse": (outcome) => {
    const { message } = completed(outcome)
    const [text] = texts(message)
    expect(text).toMatch(/^ there! Happy to explain\.\n\n\*\*Solar eclipses\*\* happen when the Moon passes/)
    expect(text).toHaveLength(1312)
    expect(message.usage.output_tokens).toBe(547)
    expect(message.usage["iterations"]).toEqual([
      {
        input_tokens: 31,
        output_tokens: 547,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        type: "message"
      }
    ])
  },
  "sdk-thinking-signature-refusal.sse": (outcome) => {
    const { message } = completed(outcome)
    const [thinking, text] = message.content
    expect(thinking).toMatchObject({
      type: "thinking",
      signature: "c3ludGhldGljLXNpZ25hdHVyZS1maXh0dXJlLWEtbm90LWEtcmVhbC1zaWduYXR1cmU="
    })
    expect(thinking !== undefined && Content.isThinking(thinking) && thinking.thinking).toMatch(
      /^Simple educational question about what a solar eclipse is\./
    )
    expect(text).toEqual({ type: "text", text: "Hi" })
    expect(message.stop_reason).toBe("refusal")
    expect(message["stop_details"]).toMatchObject({ type: "refusal", fallback_has_prefill_claim: true })
    expect(message.usage["output_tokens_details"]).toEqual({ thinking_tokens: 67 })
  },
  "sdk-tool-use.sse": (outcome) => {
    const { message } = completed(outcome)
    expect(message.content).toEqual([
      { type: "text", text: "I'll check the current weather in Paris for you." },
      { type: "tool_use", id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather", input: { location: "Paris" } }
    ])
    expect(message.usage).toMatchObject({ input_tokens: 377, output_tokens: 65 })
    expect(message.stop_reason).toBe("tool_use")
  }
}

describe("anthropic-sse fixtures", () => {
  it("has an expectation for every fixture file", () => {
    expect(files.length).toBeGreaterThanOrEqual(26)
    expect(files).toEqual(Object.keys(expectations).sort())
  })

  for (const name of files) {
    it.effect(`${name}: whole and in 1-byte chunks`, () =>
      Effect.gen(function* () {
        const bytes = bytesOf(name)
        const whole = yield* fold([bytes])
        const oneByte = yield* fold(oneByteChunks(bytes))
        expect(oneByte).toEqual(whole)
        const check = expectations[name]
        if (check === undefined) throw new Error(`no expectation for ${name}`)
        check(whole)
        check(oneByte)
      }))
  }
})
