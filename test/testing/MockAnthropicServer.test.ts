import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Path from "node:path"
import { ApiClient } from "../../src/model/ApiClient.js"
import { MockAnthropicServer, make, startMockAnthropicServer, systemContains } from "../../src/testing/MockAnthropicServer.js"
import { Fault, ScriptTurn, text, textTurn } from "../../src/testing/Script.js"

interface Reply {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** A plain node:http POST (the server under test, not the client, is what these tests look at). */
const post = (url: string, body: unknown, path = "/v1/messages") =>
  Effect.callback<Reply, Error>((resume) => {
    const request = Http.request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, body: text })))
      response.on("error", (error) => resume(Effect.fail(error)))
    })
    request.on("error", (error) => resume(Effect.fail(error)))
    request.end(typeof body === "string" ? body : JSON.stringify(body))
    return Effect.sync(() => request.destroy())
  })

const conversation = (assistantTurns: number, stream = true) => ({
  model: "claude-test",
  max_tokens: 10,
  stream,
  messages: [
    { role: "user", content: "start" },
    ...Array.from({ length: assistantTurns }, () => [
      { role: "assistant", content: [{ type: "text", text: "earlier" }] },
      { role: "user", content: "go on" }
    ]).flat()
  ]
})

const dataLines = (sse: string) =>
  sse
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)))

describe("MockAnthropicServer", () => {
  it.effect("picks the turn from the number of assistant messages and records requests", () =>
    Effect.gen(function* () {
      const server = yield* make({ script: [textTurn("first"), textTurn("second")] })
      const second = yield* post(server.url, conversation(1, false))
      expect(second.status).toBe(200)
      expect(JSON.parse(second.body)).toMatchObject({ id: "msg_scripted_2", content: [{ type: "text", text: "second" }] })
      const first = yield* post(server.url, conversation(0))
      expect(first.headers["content-type"]).toContain("text/event-stream")
      const events = dataLines(first.body)
      expect(events[0]).toMatchObject({ type: "message_start", message: { id: "msg_scripted_1" } })
      expect(events.at(-1)).toEqual({ type: "message_stop" })
      const recorded = yield* server.requests
      expect(recorded.map((r) => [r.index, r.method, r.path])).toEqual([
        [0, "POST", "/v1/messages"],
        [1, "POST", "/v1/messages"]
      ])
      expect(recorded[1]?.headers["content-type"]).toBe("application/json")
      expect(recorded[1]?.body).toEqual(conversation(0))
    }))

  it.effect("answers another conversation (a subagent's) from its own script, apart from the main one", () =>
    Effect.gen(function* () {
      const server = yield* make({
        script: [textTurn("parent 1"), textTurn("parent 2")],
        conversations: [{ when: systemContains("CHILD"), script: [textTurn("child 1"), textTurn("child 2")] }]
      })
      const child = { ...conversation(0, false), system: "You are the CHILD." }
      expect(JSON.parse((yield* post(server.url, child)).body)).toMatchObject({ content: [{ text: "child 1" }] })
      expect(JSON.parse((yield* post(server.url, conversation(0, false))).body)).toMatchObject({ content: [{ text: "parent 1" }] })
      expect(JSON.parse((yield* post(server.url, { ...conversation(1, false), system: [{ type: "text", text: "CHILD" }] })).body)).toMatchObject({
        content: [{ text: "child 2" }]
      })
      expect(JSON.parse((yield* post(server.url, conversation(1, false))).body)).toMatchObject({ content: [{ text: "parent 2" }] })
    }))

  it.effect("says when the script is exhausted, with a 400 the client does not retry", () =>
    Effect.gen(function* () {
      const server = yield* make({ script: [textTurn("only")] })
      const reply = yield* post(server.url, conversation(1))
      expect(reply.status).toBe(400)
      expect(JSON.parse(reply.body)).toMatchObject({
        type: "error",
        error: { type: "invalid_request_error", message: expect.stringContaining("script exhausted") }
      })
    }))

  it.effect("applies faults per attempt of a turn, then succeeds", () =>
    Effect.gen(function* () {
      const server = yield* make({
        script: [
          ScriptTurn.blocks([text("finally")], {
            faults: [
              Fault.status(429, { headers: { "retry-after": "1", "x-should-retry": "true" }, times: 2 }),
              Fault.status(529)
            ]
          })
        ]
      })
      const replies = []
      for (let i = 0; i < 4; i++) replies.push(yield* post(server.url, conversation(0)))
      expect(replies.map((r) => r.status)).toEqual([429, 429, 529, 200])
      expect(replies[0]?.headers["retry-after"]).toBe("1")
      expect(replies[0]?.headers["x-should-retry"]).toBe("true")
      expect(replies[0]?.headers["request-id"]).toBe("req_mock_1")
      expect(JSON.parse(replies[2]?.body ?? "")).toMatchObject({ error: { type: "overloaded_error" } })
    }))

  it.effect("sends an error event after N events and ends the stream", () =>
    Effect.gen(function* () {
      const server = yield* make({ script: [ScriptTurn.blocks([text("abc")], { faults: [Fault.errorEvent(2, { errorType: "api_error", message: "boom" })] })] })
      const events = dataLines((yield* post(server.url, conversation(0))).body)
      expect(events.map((e) => e.type)).toEqual(["message_start", "content_block_start", "error"])
      expect(events[2]).toEqual({ type: "error", error: { type: "api_error", message: "boom" } })
    }))

  it.effect("a pick function may choose the turn, or give one", () =>
    Effect.gen(function* () {
      const server = yield* make({
        script: [textTurn("zero"), textTurn("one")],
        pick: (request) => (JSON.stringify(request.body).includes("custom") ? ScriptTurn.blocks([text("made up")]) : 1)
      })
      const picked = JSON.parse((yield* post(server.url, conversation(0, false))).body)
      expect(picked.content).toEqual([{ type: "text", text: "one" }])
      const custom = JSON.parse((yield* post(server.url, { ...conversation(0, false), system: "custom" })).body)
      expect(custom.content).toEqual([{ type: "text", text: "made up" }])
    }))

  it.effect("serves a raw fixture byte for byte, and count_tokens deterministically", () =>
    Effect.gen(function* () {
      const raw = Fs.readFileSync(
        Path.resolve(import.meta.dirname, "../fixtures/anthropic-sse/composed-comments-and-retry-field.sse"),
        "utf8"
      )
      const server = yield* make({ script: [ScriptTurn.raw(raw)], rawChunkBytes: 3 })
      expect((yield* post(server.url, conversation(0))).body).toBe(raw)
      const counted = yield* post(server.url, conversation(0), "/v1/messages/count_tokens")
      const again = yield* post(server.url, conversation(0), "/v1/messages/count_tokens")
      expect(JSON.parse(counted.body).input_tokens).toBeGreaterThan(0)
      expect(counted.body).toBe(again.body)
    }))

  it.effect("answers unknown paths with a 404 and bad JSON with a 400", () =>
    Effect.gen(function* () {
      const server = yield* make({ script: [] })
      expect((yield* post(server.url, {}, "/v1/complete")).status).toBe(404)
      expect((yield* post(server.url, "{not json")).status).toBe(400)
    }))

  it.live("the Promise API closes promptly with a stalled response open", () =>
    Effect.gen(function* () {
      const server = yield* Effect.promise(() =>
        startMockAnthropicServer({ script: [ScriptTurn.blocks([text("stalls")], { faults: [Fault.stall(2)] })] })
      )
      // Read until the stall: the response stays open.
      const headersSeen = yield* Effect.callback<Http.ClientRequest>((resume) => {
        const request = Http.request(`${server.url}/v1/messages`, { method: "POST" }, (response) => {
          response.once("data", () => resume(Effect.succeed(request)))
          response.on("error", () => {})
        })
        request.on("error", () => {})
        request.end(JSON.stringify(conversation(0)))
      })
      expect(server.requests().length).toBe(1)
      yield* Effect.promise(() => server.close())
      // Closed means closed: a new connection is refused.
      const refused = yield* Effect.result(post(server.url, conversation(0)))
      expect(refused._tag).toBe("Failure")
      headersSeen.destroy()
    }))

  it.effect("layerClient points an ApiClient at the server", () =>
    Effect.gen(function* () {
      const client = yield* ApiClient
      const server = yield* MockAnthropicServer
      const tokens = yield* client.countTokens({ model: "m", max_tokens: 1, messages: [{ role: "user", content: "hi" }] })
      expect(tokens).toBeGreaterThan(0)
      expect((yield* server.requests)[0]?.path).toBe("/v1/messages/count_tokens")
    }).pipe(Effect.provide(MockAnthropicServer.layerClient({ script: [] })), Effect.provide(NodeHttpClient.layerNodeHttp)))
})
