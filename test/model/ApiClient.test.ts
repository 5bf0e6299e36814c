import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Arr from "effect/Array"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Net from "node:net"
import * as Path from "node:path"
import type { AssistantMessage } from "../../src/domain/Message.js"
import type { MessagesRequest } from "../../src/domain/Request.js"
import type { StreamEvent } from "../../src/domain/StreamEvent.js"
import * as Accumulator from "../../src/model/Accumulator.js"
import type { Interface } from "../../src/model/ApiClient.js"
import { ApiClient, makeWith } from "../../src/model/ApiClient.js"
import { layerHttpClient as nodeHttpClient } from "../../src/model/NodeApiClient.js"
import type { ApiError } from "../../src/model/ApiError.js"
import * as Mock from "../../src/testing/MockAnthropicServer.js"
import { Fault, ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { eventually, recordSleeps, setup, sleeps } from "./apiClientSetup.js"

const fixtures = Path.resolve(import.meta.dirname, "../fixtures/anthropic-sse")
const fixture = (name: string): string => Fs.readFileSync(Path.join(fixtures, name), "utf8")

interface ErrorFixture {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: unknown
}
const errorFixtures: ReadonlyArray<ErrorFixture> = JSON.parse(fixture("errors.json")).errors
const errorFixture = (status: number): ErrorFixture => {
  const found = errorFixtures.find((entry) => entry.status === status)
  if (found === undefined) throw new Error(`no error fixture for ${status}`)
  return found
}

const request: MessagesRequest = {
  model: "claude-test",
  max_tokens: 1024,
  messages: [{ role: "user", content: "hello" }]
}


const fold = (events: Stream.Stream<StreamEvent, ApiError>) =>
  Accumulator.fold(events).pipe(
    Stream.runLast,
    Effect.flatMap((last) =>
      Option.isSome(last) && last.value._tag === "Complete"
        ? Effect.succeed(last.value.message)
        : Effect.die(new Error("the fold did not complete"))
    )
  )

const collect = (client: Interface) => Stream.runCollect(client.stream(request))


describe("ApiClient over HTTP (MockAnthropicServer)", () => {
  it.effect("streams a scripted turn that folds to the expected message, with the right headers", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("Hello there, friend."), toolUse("Read", { file_path: "a.txt" })])]
      })
      const message = yield* fold(client.stream(request))
      expect(message.id).toBe("msg_scripted_1")
      expect(message.model).toBe("claude-test")
      expect(message.stop_reason).toBe("tool_use")
      expect(message.content).toEqual([
        { type: "text", text: "Hello there, friend." },
        { type: "tool_use", id: "toolu_scripted_1", name: "Read", input: { file_path: "a.txt" } }
      ])
      const [sent] = yield* server.requests
      expect(sent?.method).toBe("POST")
      expect(sent?.path).toBe("/v1/messages")
      expect(sent?.headers["x-api-key"]).toBe("sk-test")
      expect(sent?.headers["authorization"]).toBeUndefined()
      expect(sent?.headers["anthropic-version"]).toBe("2023-06-01")
      expect(sent?.headers["content-type"]).toBe("application/json")
      expect(sent?.body).toEqual({ ...request, stream: true })
    }))

  it.effect("sends a bearer token, betas, extra headers, and fills an empty model with the default", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup(
        { script: [textTurn("ok")] },
        {
          apiKey: undefined,
          authToken: "tok-123",
          betas: ["interleaved-thinking-2025-05-14", "fine-grained-tool-streaming-2025-05-14"],
          headers: { "X-Custom": "yes" },
          defaultModel: "claude-default"
        }
      )
      expect(client.defaultModel).toBe("claude-default")
      const message = yield* fold(client.stream({ ...request, model: "" }))
      expect(message.model).toBe("claude-default")
      const [sent] = yield* server.requests
      expect(sent?.headers["authorization"]).toBe("Bearer tok-123")
      expect(sent?.headers["x-api-key"]).toBeUndefined()
      expect(sent?.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14")
      expect(sent?.headers["x-custom"]).toBe("yes")
    }))

  it.effect("a key source's key goes as x-api-key and Bearer; a 401 asks it for a fresh key and sends once more, once", () =>
    Effect.gen(function* () {
      const keys = ["key-one", "key-two", "key-three"]
      const asked: Array<string> = []
      let index = 0
      const keySource = {
        current: Effect.sync(() => keys[index] ?? "none"),
        refresh: (refused: string) =>
          Effect.sync(() => {
            asked.push(refused)
            index += 1
            return keys[index] ?? "none"
          })
      }
      const accepting = (key: string) => (sent: { readonly headers: Readonly<Record<string, string>> }) =>
        sent.headers["x-api-key"] === key ? 0 : ScriptTurn.status(401)
      const first = yield* setup({ script: [textTurn("ok")], pick: accepting("key-two") }, { apiKey: undefined, keySource })
      expect((yield* fold(first.client.stream(request))).content).toEqual([{ type: "text", text: "ok" }])
      const sent = yield* first.server.requests
      expect(sent.map((one) => [one.headers["x-api-key"], one.headers["authorization"]])).toEqual([
        ["key-one", "Bearer key-one"],
        ["key-two", "Bearer key-two"]
      ])
      expect(asked).toEqual(["key-one"])
      // A key refused again after the refresh is the request's failure: no loop.
      const second = yield* setup({ script: [textTurn("ok")], pick: accepting("never") }, { apiKey: undefined, keySource })
      const error = yield* Effect.flip(fold(second.client.stream(request)))
      expect(error.status).toBe(401)
      expect((yield* second.server.requests).length).toBe(2)
      expect(asked).toEqual(["key-one", "key-two"])
      // An API key given wins over the key source.
      const third = yield* setup({ script: [textTurn("ok")] }, { apiKey: "sk-given", keySource })
      yield* fold(third.client.stream(request))
      expect((yield* third.server.requests)[0]?.headers["x-api-key"]).toBe("sk-given")
    }))

  it.effect("without credentials against the official endpoint, fails before any request and says what to set", () =>
    Effect.gen(function* () {
      const client = yield* makeWith({})
      const error = yield* Effect.flip(Stream.runDrain(client.stream(request)))
      expect(error._tag).toBe("AuthenticationError")
      expect(error.message).toContain("ANTHROPIC_API_KEY")
      expect(error.message).toContain("ANTHROPIC_BASE_URL")
      const counted = yield* Effect.flip(client.countTokens(request))
      expect(counted._tag).toBe("AuthenticationError")
    }).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))

  it.effect("retries a 429 after what retry-after says, then succeeds", () =>
    Effect.gen(function* () {
      const limited = errorFixture(429)
      const { server, client } = yield* setup({
        script: [
          ScriptTurn.blocks([text("after the wait")], {
            faults: [Fault.status(429, { headers: { ...limited.headers, "retry-after": "3" }, body: limited.body })]
          })
        ]
      })
      const fiber = yield* Effect.forkChild(fold(client.stream(request)))
      yield* server.awaitRequests(1)
      // The client is now asleep on the TestClock until t = 3 s (what retry-after said), not a backoff value.
      yield* eventually(Effect.map(sleeps(), (pending) => pending.some((at) => at === 3000)))
      yield* TestClock.adjust("2999 millis")
      expect((yield* server.requests).length).toBe(1)
      yield* TestClock.adjust("1 millis")
      const message = yield* Fiber.join(fiber)
      expect(message.content).toEqual([{ type: "text", text: "after the wait" }])
      const requests = yield* server.requests
      expect(requests.length).toBe(2)
      expect(requests[1]?.body).toEqual(requests[0]?.body)
    }).pipe(recordSleeps))

  it.effect("retries 5xx with backoff and gives up after maxRetries with a ServerError", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup(
        { script: [ScriptTurn.blocks([text("never")], { faults: [Fault.status(500, { times: Infinity })] })] },
        { maxRetries: 2, initialBackoff: "100 millis" }
      )
      const fiber = yield* Effect.forkChild(Effect.flip(collect(client)))
      // A backoff sleep registered between `from` (the clock when the retry began) and `to`.
      const backoffBetween = (from: number, to: number) =>
        Effect.map(sleeps(), (pending) => Arr.findFirst(pending, (at) => at >= from && at <= to))
      yield* server.awaitRequests(1)
      // First retry: 100 ms less at most 25% jitter, from t = 0.
      yield* eventually(Effect.map(backoffBetween(75, 100), Option.isSome))
      const first = Option.getOrThrow(yield* backoffBetween(75, 100))
      yield* TestClock.adjust("100 millis")
      // Second retry: doubled (200 ms less jitter), from the first wake-up (the TestClock runs the sleeper then).
      yield* server.awaitRequests(2)
      yield* eventually(Effect.map(backoffBetween(first + 150, 300), Option.isSome))
      yield* TestClock.adjust("200 millis")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ServerError")
      expect(error.status).toBe(500)
      expect((yield* server.requests).length).toBe(3)
    }).pipe(recordSleeps))

  it.effect("does not retry a 529 the server marks x-should-retry: false", () =>
    Effect.gen(function* () {
      const overloaded = errorFixture(529)
      const { server, client } = yield* setup({
        script: [
          ScriptTurn.blocks([text("never")], {
            faults: [Fault.status(529, { headers: { ...overloaded.headers, "x-should-retry": "false" }, body: overloaded.body })]
          })
        ]
      })
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("OverloadedError")
      expect(error.status).toBe(529)
      expect((yield* server.requests).length).toBe(1)
    }))

  it.effect("maps a 400 to InvalidRequestError with its request-id, without retrying", () =>
    Effect.gen(function* () {
      const bad = errorFixture(400)
      const { headers } = bad
      const { server, client } = yield* setup({
        script: [ScriptTurn.status(400, { headers: { "request-id": headers["request-id"] ?? "" }, body: bad.body })]
      })
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("InvalidRequestError")
      expect(error.status).toBe(400)
      expect(error.requestId).toBe("req_011CSHoEeqs5C35K2UUqR7Fy")
      expect(error.errorType).toBe("invalid_request_error")
      expect(error.message).toContain("prompt is too long")
      expect((yield* server.requests).length).toBe(1)
    }))

  it.effect("maps a 401 to AuthenticationError, and a non-JSON error body to its status", () =>
    Effect.gen(function* () {
      const unauthorized = errorFixture(401)
      const { client } = yield* setup({
        script: [ScriptTurn.status(401, { headers: unauthorized.headers, body: unauthorized.body })]
      })
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("AuthenticationError")
      expect(error.message).toContain("invalid x-api-key")

      const proxy = yield* setup({ script: [ScriptTurn.status(403, { body: "<html>Forbidden</html>" })] })
      const forbidden = yield* Effect.flip(collect(proxy.client))
      expect(forbidden._tag).toBe("PermissionError")
      expect(forbidden.message).toContain("<html>Forbidden</html>")
    }))

  it.live("fails with ConnectionError after the retries when the connection is refused", () =>
    Effect.gen(function* () {
      // A port that was free a moment ago: nothing listens there now.
      const port = yield* Effect.callback<number>((resume) => {
        const probe = Net.createServer().listen(0, "127.0.0.1", () => {
          const address = probe.address()
          probe.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
        })
      })
      const client = yield* makeWith({ baseUrl: `http://127.0.0.1:${port}`, initialBackoff: "1 millis", maxRetries: 2 })
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("ConnectionError")
      expect(error.status).toBeNull()
    }).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))

  it.live("retries a connection reset before the response: three attempts, then ConnectionError", () =>
    Effect.gen(function* () {
      let connections = 0
      const server = Net.createServer((socket) => {
        connections += 1
        socket.resetAndDestroy()
      })
      yield* Effect.acquireRelease(
        Effect.callback<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () =>
          Effect.callback<void>((resume) => {
            server.close(() => resume(Effect.void))
          })
      )
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const client = yield* makeWith({ baseUrl: `http://127.0.0.1:${port}`, initialBackoff: "1 millis", maxRetries: 2 })
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("ConnectionError")
      expect(connections).toBe(3)
    }).pipe(Effect.provide(NodeHttpClient.layerNodeHttp), Effect.scoped))

  it.effect("a reset mid-stream is a StreamAbortedError, not retried, after the events that arrived", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("one two three four five six")], { faults: [Fault.reset(3, { times: Infinity })] })]
      })
      const seen: Array<string> = []
      const error = yield* Effect.flip(
        Stream.runForEach(client.stream(request), (event) => Effect.sync(() => seen.push(event.type)))
      )
      expect(error._tag).toBe("StreamAbortedError")
      expect(error.requestId).toBe("req_mock_1")
      expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"])
      expect((yield* server.requests).length).toBe(1)
    }))

  it.effect("an error event mid-stream is an OverloadedError", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("partial answer here")], { faults: [Fault.errorEvent(4)] })]
      })
      const events = yield* Effect.result(collect(client))
      expect(Result.isFailure(events) && events.failure._tag).toBe("OverloadedError")
      expect((yield* server.requests).length).toBe(1)
    }))

  it.live("a stall is a TimeoutError from the idle timeout", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup(
        { script: [ScriptTurn.blocks([text("one two three")], { faults: [Fault.stall(2)] })] },
        { idleTimeout: "200 millis" }
      )
      const error = yield* Effect.flip(collect(client))
      expect(error._tag).toBe("TimeoutError")
      expect(error.message).toContain("idle")
      // Failing the stream released the request: the server sees the socket close.
      expect(yield* server.awaitClosed(0)).toMatchObject({ completed: false })
    }).pipe(Effect.scoped))

  it.effect("interrupting the consumer closes the connection on the server", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({
        script: [ScriptTurn.blocks([text("one two three")], { faults: [Fault.stall(3)] })]
      })
      let received = 0
      const fiber = yield* Effect.forkChild(Stream.runForEach(client.stream(request), () => Effect.sync(() => void (received += 1))))
      yield* eventually(Effect.sync(() => received === 3))
      yield* Fiber.interrupt(fiber)
      expect(yield* server.awaitClosed(0)).toMatchObject({ completed: false })
    }))

  it.effect("reads each streamed response to its end, so the turns of a session share one kept-alive connection", () =>
    Effect.gen(function* () {
      const server = yield* Mock.make({ script: [textTurn("one"), textTurn("two"), textTurn("three")], pick: (r) => r.index })
      const client = yield* makeWith({ apiKey: "sk-test", baseUrl: server.url })
      for (const expected of ["one", "two", "three"]) {
        const message = yield* fold(client.stream(request))
        expect(message.content).toEqual([{ type: "text", text: expected }])
      }
      const requests = yield* server.requests
      expect(requests.map((sent) => sent.connection)).toEqual([0, 0, 0])
      for (const index of [0, 1, 2]) expect(yield* server.awaitClosed(index)).toMatchObject({ completed: true })
    }).pipe(Effect.provide(nodeHttpClient)))

  it.live("a response kept open after message_stop still ends the turn (the rest of the body is not waited for)", () =>
    Effect.gen(function* () {
      // A server that sends a whole message and then neither ends the response nor closes the connection.
      const events = fixture("real-simple-text.0.sse")
      const sockets = new Set<Net.Socket>()
      const held = Http.createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" })
        res.write(events)
      })
      held.on("connection", (socket) => {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => held.listen(0, "127.0.0.1", () => resolve()))),
        () =>
          Effect.promise(
            () =>
              new Promise<void>((resolve) => {
                for (const socket of sockets) socket.destroy()
                held.close(() => resolve())
              })
          )
      )
      const address = held.address()
      if (address === null || typeof address === "string") throw new Error("no address")
      const client = yield* makeWith({ apiKey: "sk-test", baseUrl: `http://127.0.0.1:${address.port}` })
      const message = yield* fold(client.stream(request))
      expect(message.stop_reason).toBeDefined()
      // The request was given up: its connection closes (nothing is left open for the agent to reuse).
      yield* eventually(Effect.sync(() => sockets.size === 0))
    }).pipe(Effect.provide(nodeHttpClient), Effect.scoped))

  it.effect("counts tokens with POST /v1/messages/count_tokens", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup({ script: [] })
      const tokens = yield* client.countTokens(request)
      expect(tokens).toBeGreaterThan(0)
      const [sent] = yield* server.requests
      expect(sent?.path).toBe("/v1/messages/count_tokens")
      expect(sent?.body).toEqual({ model: "claude-test", messages: request.messages })
    }))

  it.effect("the mock server answers stream: false with the whole message, equal to the folded stream", () =>
    Effect.gen(function* () {
      const script = [ScriptTurn.blocks([text("same either way"), toolUse("Bash", { command: "ls" })])]
      const { server, client } = yield* setup({ script })
      const streamed = yield* fold(client.stream(request))
      const http = yield* HttpClient.HttpClient
      const response = yield* http.execute(
        HttpClientRequest.post(`${server.url}/v1/messages`).pipe(
          HttpClientRequest.bodyJsonUnsafe({ ...request, stream: false })
        )
      )
      expect(response.status).toBe(200)
      expect(response.headers["content-type"]).toContain("application/json")
      const whole = yield* response.json
      expect(whole).toEqual(streamed)
    }).pipe(Effect.provide(NodeHttpClient.layerNodeHttp)))

  describe("fixtures served verbatim through the HTTP path", () => {
    const verbatim = (name: string, chunkBytes: number) =>
      Effect.gen(function* () {
        const { client } = yield* setup({ script: [ScriptTurn.raw(fixture(name))], rawChunkBytes: chunkBytes })
        return yield* Effect.result(fold(client.stream(request)))
      })

    for (const chunkBytes of [1, 7, 1 << 20]) {
      it.effect(`real-thinking-tool-use.0.sse in ${chunkBytes}-byte writes`, () =>
        Effect.gen(function* () {
          const result = yield* verbatim("real-thinking-tool-use.0.sse", chunkBytes)
          const message: AssistantMessage = Result.getOrThrow(result)
          expect(message.stop_reason).toBe("tool_use")
          expect(message.content.map((block) => block.type)).toEqual(["thinking", "tool_use"])
        }))
    }

    it.effect("real-parallel-tool-use.0.sse", () =>
      Effect.gen(function* () {
        const message = Result.getOrThrow(yield* verbatim("real-parallel-tool-use.0.sse", 64))
        expect(message.content.map((block) => block.type)).toEqual(["text", "tool_use", "tool_use"])
      }))

    it.effect("composed-crlf-line-endings.sse", () =>
      Effect.gen(function* () {
        const message = Result.getOrThrow(yield* verbatim("composed-crlf-line-endings.sse", 5))
        expect(message.stop_reason).toBe("end_turn")
      }))

    it.effect("real-web-search-citations.0.sse", () =>
      Effect.gen(function* () {
        const message = Result.getOrThrow(yield* verbatim("real-web-search-citations.0.sse", 4096))
        expect(message.content.some((block) => block.type === "web_search_tool_result")).toBe(true)
      }))

    it.effect("composed-error-midstream-overloaded.sse fails with OverloadedError", () =>
      Effect.gen(function* () {
        const result = yield* verbatim("composed-error-midstream-overloaded.sse", 13)
        expect(Result.isFailure(result) && result.failure._tag).toBe("OverloadedError")
      }))

    it.effect("composed-truncated-mid-block.sse fails with StreamAbortedError", () =>
      Effect.gen(function* () {
        const result = yield* verbatim("composed-truncated-mid-block.sse", 64)
        expect(Result.isFailure(result) && result.failure._tag).toBe("StreamAbortedError")
      }))
  })
})

describe("ApiClient layers", () => {
  const fromEnv = (env: Record<string, string>) =>
    ApiClient.layer.pipe(
      Layer.provide(NodeHttpClient.layerNodeHttp),
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
    )

  it.effect("layer reads ANTHROPIC_BASE_URL and ANTHROPIC_MODEL; a local server needs no key", () =>
    Effect.gen(function* () {
      const server = yield* Mock.make({ script: [textTurn("from env")] })
      const client = yield* Effect.provide(
        ApiClient,
        fromEnv({ ANTHROPIC_BASE_URL: `${server.url}/`, ANTHROPIC_MODEL: "claude-from-env" })
      )
      expect(client.defaultModel).toBe("claude-from-env")
      const message = yield* fold(client.stream({ ...request, model: "" }))
      expect(message.model).toBe("claude-from-env")
      const [sent] = yield* server.requests
      expect(sent?.path).toBe("/v1/messages")
      expect(sent?.headers["x-api-key"]).toBeUndefined()
    }))

  it.effect("layer sends ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN", () =>
    Effect.gen(function* () {
      const server = yield* Mock.make({ script: [textTurn("keyed")] })
      const client = yield* Effect.provide(
        ApiClient,
        fromEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "sk-env", ANTHROPIC_AUTH_TOKEN: "tok-env" })
      )
      yield* fold(client.stream(request))
      const [sent] = yield* server.requests
      expect(sent?.headers["x-api-key"]).toBe("sk-env")
      expect(sent?.headers["authorization"]).toBe("Bearer tok-env")
    }))

  it.effect("an empty ANTHROPIC_API_KEY counts as unset", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      expect(client.defaultModel).toBe("claude-sonnet-4-5")
      const error = yield* Effect.flip(Stream.runDrain(client.stream(request)))
      expect(error._tag).toBe("AuthenticationError")
    }).pipe(Effect.provide(fromEnv({ ANTHROPIC_API_KEY: "" }))))
})
