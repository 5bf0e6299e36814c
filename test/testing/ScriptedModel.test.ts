import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { MessagesRequest } from "../../src/domain/Request.js"
import { ApiClient } from "../../src/model/ApiClient.js"
import { RateLimitError } from "../../src/model/ApiError.js"
import { Fault, ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"

const request = (content: string): MessagesRequest => ({
  model: "claude-test",
  max_tokens: 100,
  messages: [{ role: "user", content }]
})

const types = (client: ApiClient["Service"], req: MessagesRequest) =>
  Stream.runCollect(client.stream(req)).pipe(Effect.map((events) => events.map((event) => event.type)))

describe("ScriptedModel", () => {
  it.effect("plays the n-th turn on the n-th call and records the requests", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      const first = yield* Stream.runCollect(client.stream(request("one")))
      const start = first[0]
      expect(start).toMatchObject({ type: "message_start", message: { id: "msg_scripted_1", model: "claude-test" } })
      expect(first.some((event) => event.type === "content_block_start" && event["content_block"] !== undefined && JSON.stringify(event).includes("toolu_scripted_1"))).toBe(true)
      const second = yield* types(client, request("two"))
      expect(second.at(-1)).toBe("message_stop")
      const received = yield* (yield* ScriptedModel).requests
      expect(received.map((r) => r.messages[0]?.content)).toEqual(["one", "two"])
    }).pipe(Effect.provide(ScriptedModel.layer([ScriptTurn.blocks([toolUse("Read", { file_path: "a" })]), textTurn("done")]))))

  it.effect("fails with a clear InvalidRequestError past the end of the script", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      yield* Stream.runDrain(client.stream(request("one")))
      const error = yield* Effect.flip(Stream.runDrain(client.stream(request("two"))))
      expect(error._tag).toBe("InvalidRequestError")
      expect(error.message).toContain("script exhausted")
      expect(error.message).toContain("call 2")
    }).pipe(Effect.provide(ScriptedModel.layer([textTurn("only")]))))

  it.effect("waits the per-event delay on Effect's clock", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      const fiber = yield* Effect.forkChild(types(client, request("slow")))
      // 8 events (start, block start, 3 deltas, block stop, delta, stop) at 1 s each.
      yield* TestClock.adjust("7 seconds")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const events = yield* Fiber.join(fiber)
      expect(events.length).toBe(8)
    }).pipe(Effect.provide(ScriptedModel.layer([ScriptTurn.blocks([text("slow text here")], { delay: "1 second" })]))))

  it.effect("fails as the real client does: status, error event, reset, error turn", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      const limited = yield* Effect.flip(Stream.runDrain(client.stream(request("1"))))
      expect(limited._tag).toBe("RateLimitError")
      expect(limited.status).toBe(429)
      const seen: Array<string> = []
      const overloaded = yield* Effect.flip(Stream.runForEach(client.stream(request("2")), (e) => Effect.sync(() => seen.push(e.type))))
      expect(overloaded._tag).toBe("OverloadedError")
      expect(seen).toEqual(["message_start", "content_block_start"])
      const reset = yield* Effect.flip(Stream.runDrain(client.stream(request("3"))))
      expect(reset._tag).toBe("StreamAbortedError")
      const scripted = yield* Effect.flip(Stream.runDrain(client.stream(request("4"))))
      expect(scripted).toBeInstanceOf(RateLimitError)
      expect(scripted.message).toBe("slow down")
      const truncated = yield* Effect.flip(Stream.runDrain(client.stream(request("5"))))
      expect(truncated._tag).toBe("StreamAbortedError")
    }).pipe(
      Effect.provide(
        ScriptedModel.layer([
          ScriptTurn.blocks([text("x")], { faults: [Fault.status(429)] }),
          ScriptTurn.blocks([text("x")], { faults: [Fault.errorEvent(2)] }),
          ScriptTurn.blocks([text("x")], { faults: [Fault.reset(1)] }),
          ScriptTurn.error(new RateLimitError({ message: "slow down", status: 429, requestId: null })),
          ScriptTurn.events([{ type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "x", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }])
        ])
      )
    ))

  it.effect("plays a raw SSE fixture through the real decoder, and counts tokens", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      const events = yield* types(client, request("raw"))
      expect(events[0]).toBe("message_start")
      expect(events.at(-1)).toBe("message_stop")
      expect(events).toContain("ping")
      const tokens = yield* client.countTokens(request("count me"))
      expect(tokens).toBeGreaterThan(0)
      expect(client.defaultModel).toBe("claude-scripted-default")
      // countTokens consumes no turn and records nothing.
      expect((yield* (yield* ScriptedModel).requests).length).toBe(1)
    }).pipe(
      Effect.provide(
        ScriptedModel.layer(
          [ScriptTurn.raw(Fs.readFileSync(Path.resolve(import.meta.dirname, "../fixtures/anthropic-sse/docs-basic-text.sse"), "utf8"))],
          { defaultModel: "claude-scripted-default" }
        )
      )
    ))
})
