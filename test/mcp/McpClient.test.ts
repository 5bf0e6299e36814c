import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { McpClient } from "../../src/mcp/McpClient.js"
import type { Server } from "../../src/mcp/McpConfig.js"
import { DEFAULT_MAX_OUTPUT_TOKENS } from "../../src/mcp/McpResult.js"
import * as McpTools from "../../src/mcp/McpTools.js"
import { isRunning } from "../../src/tools/shell/ProcessGroup.js"
import type { AnyTool } from "../../src/tools/Tool.js"
import { tempDir } from "../support/TempFiles.js"

const bin = (name: string) => path.resolve("node_modules/@modelcontextprotocol", name, "dist/index.js")

const stdio = (name: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Server => ({
  name,
  scope: "dynamic",
  origin: "test",
  config: { type: "stdio", command: process.execPath, args, env }
})

const everything = (name = "everything", env: Record<string, string> = {}) => stdio(name, [bin("server-everything"), "stdio"], env)

const context = { toolUseId: "t1", sessionId: "s1", cwd: process.cwd() }

const text = (result: unknown) => JSON.stringify(result)

const find = (tools: ReadonlyArray<AnyTool>, name: string): AnyTool => {
  const tool = tools.find((candidate) => candidate.name === name)
  if (tool === undefined) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(", ")}`)
  return tool
}

/** The processes whose environment holds `marker` (a server and whatever it started). */
const processesMarked = (marker: string): Array<number> =>
  fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return fs.readFileSync(`/proc/${entry}/environ`, "utf8").includes(marker)
      } catch {
        return false
      }
    })
    .map(Number)
    .filter(isRunning)

const marker = () => `weft-test-${crypto.randomUUID()}`

/** The text of a get-env answer, as an object. */
const envOf = (result: { readonly content?: ReadonlyArray<unknown> }): Record<string, string> => {
  const first = result.content?.[0]
  return typeof first === "object" && first !== null && "text" in first && typeof first.text === "string" ? JSON.parse(first.text) : {}
}

/** Waits (on the servers' change notifications, never on a clock) until `ready` holds. */
const until = (mcp: McpClient["Service"], ready: () => boolean) =>
  ready() ? Effect.void : mcp.changes.pipe(Stream.takeUntil(ready), Stream.runDrain)

describe("McpClient with server-everything over stdio", () => {
  it.live("lists every tool, calls one, maps its content, keeps structuredContent", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({ servers: [everything()], cwd: tempDir() })
      expect(yield* mcp.servers).toEqual([{ name: "everything", status: "connected" }])
      const tools = McpTools.make(mcp, { maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS })()
      const names = tools.map((tool) => tool.name)
      expect(names).toContain("mcp__everything__echo")
      expect(names).toContain("mcp__everything__get-sum")
      expect(names).toContain("ListMcpResourcesTool")
      const echo = find(tools, "mcp__everything__echo")
      // The server's JSON Schema, untouched.
      expect(echo.inputJsonSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } })
      const call = yield* echo.prepare({ message: "hello" }, context)
      const [result] = yield* Stream.runCollect(call.run()).pipe(Effect.map((chunk) => [...chunk]))
      expect(result).toMatchObject({ _tag: "ToolResult", content: [{ type: "text", text: "Echo: hello" }] })

      const structured = find(tools, "mcp__everything__get-structured-content")
      const prepared = yield* structured.prepare({ location: "New York" }, context)
      const [weather] = yield* Stream.runCollect(prepared.run()).pipe(Effect.map((chunk) => [...chunk]))
      expect(weather).toMatchObject({ _tag: "ToolResult", data: { structuredContent: { temperature: expect.any(Number) } } })

      const image = find(tools, "mcp__everything__get-tiny-image")
      const [tiny] = yield* Stream.runCollect((yield* image.prepare({}, context)).run()).pipe(Effect.map((chunk) => [...chunk]))
      expect(text(tiny)).toContain('"type":"image"')
    })
  )

  it.live("resources and prompts are listed and read", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({ servers: [everything()], cwd: tempDir() })
      const resources = yield* mcp.listResources()
      expect(resources.length).toBeGreaterThan(0)
      const first = resources[0]
      if (first === undefined) return expect.unreachable()
      expect(first.server).toBe("everything")
      const read = yield* mcp.readResource("everything", first.resource.uri)
      // The contents read are the resource asked for.
      expect(read.contents[0]).toMatchObject({ uri: first.resource.uri })
      const prompts = yield* mcp.listPrompts()
      expect(prompts.map((entry) => entry.prompt.name)).toContain("simple-prompt")
      const prompt = yield* mcp.getPrompt("everything", "simple-prompt")
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "This is a simple prompt without arguments." } }
      ])
    })
  )

  it.live("roots/list is answered with the workspace; a tools/list_changed re-lists", () =>
    Effect.gen(function* () {
      const workspace = tempDir()
      const mcp = yield* McpClient.make({ servers: [everything()], cwd: workspace })
      const tools = McpTools.make(mcp, { maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS })
      // server-everything adds its roots tool after the handshake, once it knows the client has roots, and says so
      // with notifications/tools/list_changed.
      yield* until(mcp, () => tools().some((tool) => tool.name === "mcp__everything__get-roots-list"))
      const roots = find(tools(), "mcp__everything__get-roots-list")
      const [result] = yield* Stream.runCollect((yield* roots.prepare({}, context)).run()).pipe(Effect.map((chunk) => [...chunk]))
      expect(text(result)).toContain(`file://${workspace}`)
    })
  )

  it.live("interrupting a long call cancels it; the server stays usable", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({ servers: [everything()], cwd: tempDir() })
      const fiber = yield* Effect.forkChild(mcp.callTool("everything", "trigger-long-running-operation", { duration: 60, steps: 60 }))
      yield* Fiber.interrupt(fiber)
      const echo = yield* mcp.callTool("everything", "echo", { message: "still here" })
      expect(JSON.stringify(echo.content)).toContain("still here")
    })
  )

  it.live("a call is bounded by MCP_TOOL_TIMEOUT, read through Config; the server stays usable", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({ servers: [everything()], cwd: tempDir() })
      const error = yield* Effect.flip(mcp.callTool("everything", "trigger-long-running-operation", { duration: 60, steps: 60 }))
      expect(error).toMatchObject({ _tag: "McpError", server: "everything", message: expect.stringMatching(/timed out/i) })
      const echo = yield* mcp.callTool("everything", "echo", { message: "still here" })
      expect(JSON.stringify(echo.content)).toContain("still here")
    }).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown({ MCP_TOOL_TIMEOUT: "300" })))
  )

  it.live("a server killed mid-call: the call fails naming the server; the next call reconnects", () =>
    Effect.gen(function* () {
      const mark = marker()
      const mcp = yield* McpClient.make({ servers: [everything("everything", { WEFT_TEST_MARK: mark })], cwd: tempDir() })
      const before = processesMarked(mark)
      expect(before.length).toBeGreaterThan(0)
      const fiber = yield* Effect.forkChild(Effect.result(mcp.callTool("everything", "trigger-long-running-operation", { duration: 60, steps: 60 })))
      for (const pid of before) process.kill(pid, "SIGKILL")
      const outcome = yield* Fiber.join(fiber)
      expect(outcome._tag).toBe("Failure")
      if (outcome._tag === "Failure") expect(outcome.failure.message).toMatch(/^MCP server "everything": Connection closed/)
      const echo = yield* mcp.callTool("everything", "echo", { message: "again" })
      expect(JSON.stringify(echo.content)).toContain("again")
    })
  )

  it.live("no server process outlives the scope", () =>
    Effect.gen(function* () {
      const mark = marker()
      // A server that ignores SIGTERM and starts a child of its own: both end with the scope.
      const stubborn = stdio("stubborn", [
        "-e",
        "process.on('SIGTERM', () => {}); require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); import(process.argv[1])",
        bin("server-everything")
      ], { WEFT_TEST_MARK: mark })
      yield* Effect.scoped(
        Effect.gen(function* () {
          const mcp = yield* McpClient.make({ servers: [everything("everything", { WEFT_TEST_MARK: mark }), stubborn], cwd: tempDir(), killGraceMs: 200 })
          expect((yield* mcp.servers).map((server) => server.status)).toEqual(["connected", "connected"])
          expect(processesMarked(mark).length).toBeGreaterThanOrEqual(3)
        })
      )
      expect(processesMarked(mark)).toEqual([])
    })
  )

  it.live("a stdio server gets no API key unless its configuration names it; CLAUDE_PROJECT_DIR is the project", () =>
    Effect.gen(function* () {
      const previous = process.env["ANTHROPIC_API_KEY"]
      process.env["ANTHROPIC_API_KEY"] = "sk-ant-secret-for-test"
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          if (previous === undefined) delete process.env["ANTHROPIC_API_KEY"]
          else process.env["ANTHROPIC_API_KEY"] = previous
        })
      )
      const workspace = tempDir()
      const mcp = yield* McpClient.make({
        servers: [everything("plain"), everything("named", { ANTHROPIC_API_KEY: "sk-given-on-purpose" })],
        cwd: workspace
      })
      const plain = envOf(yield* mcp.callTool("plain", "get-env", {}))
      expect(plain["ANTHROPIC_API_KEY"]).toBeUndefined()
      expect(JSON.stringify(plain)).not.toContain("sk-ant-secret-for-test")
      expect(plain["CLAUDE_PROJECT_DIR"]).toBe(workspace)
      const named = envOf(yield* mcp.callTool("named", "get-env", {}))
      expect(named["ANTHROPIC_API_KEY"]).toBe("sk-given-on-purpose")
    })
  )

  it.live("a server that cannot start is failed, naming the server, and does not hold the session", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({
        servers: [stdio("broken", ["-e", "process.stderr.write('boom on start'); process.exit(3)"]), everything()],
        cwd: tempDir()
      })
      const statuses = yield* mcp.servers
      expect(statuses.find((status) => status.name === "everything")?.status).toBe("connected")
      const broken = statuses.find((status) => status.name === "broken")
      expect(broken?.status).toBe("failed")
      const call = yield* Effect.result(mcp.callTool("broken", "anything", {}))
      expect(call._tag === "Failure" && call.failure.message).toMatch(/^MCP server "broken": /)
    })
  )

  it.live("a server still connecting when MCP_TIMEOUT runs out is failed, naming the timeout; none is left running", () => {
    const mark = marker()
    // Never answers the handshake, and ignores SIGTERM: ending it takes the whole grace period.
    const silent = stdio("silent", ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { WEFT_TEST_MARK: mark })
    return Effect.gen(function* () {
      const statuses = yield* Effect.scoped(
        Effect.gen(function* () {
          const mcp = yield* McpClient.make({ servers: [silent, everything()], cwd: tempDir(), connectTimeoutMs: 400, killGraceMs: 1_500 })
          return yield* mcp.servers
        })
      )
      expect(statuses).toEqual([
        { name: "silent", status: "failed", error: "did not connect within 400 ms (MCP_TIMEOUT)" },
        { name: "everything", status: "connected" }
      ])
      expect(processesMarked(mark)).toEqual([])
    })
  })

  it.live("a connected server's instructions are offered; a server is not asked for prompts it does not advertise", () =>
    Effect.gen(function* () {
      const memory = stdio("memory", [bin("server-memory")], { MEMORY_FILE_PATH: path.join(tempDir(), "memory.jsonl") })
      const mcp = yield* McpClient.make({ servers: [everything(), memory], cwd: tempDir() })
      const instructions = mcp.instructions()
      expect(instructions.map((entry) => entry.server)).toEqual(["everything"])
      expect(instructions[0]?.instructions).toMatch(/\S/)
      const logged: Array<unknown> = []
      const saved = console.debug
      console.debug = (...args: Array<unknown>) => void logged.push(args)
      const prompts = yield* mcp.listPrompts("memory").pipe(Effect.ensuring(Effect.sync(() => (console.debug = saved))))
      expect(prompts).toEqual([])
      expect(logged).toEqual([])
    })
  )

  it.effect("a failed server is tried again once its backoff is over, on the Clock; each failure doubles the backoff", () =>
    Effect.gen(function* () {
      const mcp = yield* McpClient.make({
        servers: [stdio("broken", ["-e", "process.stderr.write('boom on start'); process.exit(3)"])],
        cwd: tempDir()
      })
      expect((yield* mcp.servers)[0]?.status).toBe("failed")
      const failure = () => Effect.map(Effect.flip(mcp.callTool("broken", "anything", {})), (error) => error.message)
      expect(yield* failure()).toMatch(/\(not connected; tried again in 1 s\)$/)
      yield* TestClock.adjust("999 millis")
      expect(yield* failure()).toMatch(/\(not connected; tried again in 1 s\)$/)
      // The backoff is over: this call starts the process again, which fails again.
      yield* TestClock.adjust("1 milli")
      expect(yield* failure()).not.toMatch(/not connected; tried again/)
      expect(yield* failure()).toMatch(/\(not connected; tried again in 2 s\)$/)
      yield* TestClock.adjust("1001 millis")
      expect(yield* failure()).toMatch(/\(not connected; tried again in 1 s\)$/)
    })
  )
})

/**
 * A Streamable HTTP server as the reference SDK's behave: a request it sends outside ours (here an elicitation from
 * its tool) goes on the standalone SSE stream (the client's GET), and is dropped while that stream is not open. This
 * one is slow to open it (it answers the GET after `getDelayMs`).
 */
const slowStreamServer = (getDelayMs: number) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
      let stream: import("node:http").ServerResponse | undefined
      let pendingCall: { readonly id: unknown; readonly res: import("node:http").ServerResponse } | undefined
      const json = (res: import("node:http").ServerResponse, body: unknown) => {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "session-1" })
        res.end(JSON.stringify(body))
      }
      const server = http.createServer((req, res) => {
        if (req.method === "GET") {
          setTimeout(() => {
            res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "session-1" })
            res.flushHeaders()
            stream = res
          }, getDelayMs)
          return
        }
        if (req.method !== "POST") return void res.writeHead(200).end()
        let body = ""
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
        req.on("end", () => {
          const message = JSON.parse(body)
          if (message.method === "initialize") {
            return json(res, {
              jsonrpc: "2.0",
              id: message.id,
              result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "slow-stream", version: "1" } }
            })
          }
          if (message.method === "tools/list") {
            return json(res, { jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "ask", inputSchema: { type: "object" } }] } })
          }
          if (message.method === "tools/call") {
            if (stream === undefined) {
              return json(res, { jsonrpc: "2.0", id: message.id, result: { isError: true, content: [{ type: "text", text: "dropped: no stream" }] } })
            }
            pendingCall = { id: message.id, res }
            const ask = { jsonrpc: "2.0", id: "ask-1", method: "elicitation/create", params: { message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } } } }
            stream.write(`event: message\ndata: ${JSON.stringify(ask)}\n\n`)
            return
          }
          if (message.id === "ask-1" && pendingCall !== undefined) {
            res.writeHead(202).end()
            return json(pendingCall.res, { jsonrpc: "2.0", id: pendingCall.id, result: { content: [{ type: "text", text: JSON.stringify(message.result) }] } })
          }
          res.writeHead(202).end()
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${port}/mcp`,
            close: () => {
              stream?.end()
              server.closeAllConnections()
              server.close()
            }
          })
        )
      })
    }),
    (server) => Effect.sync(server.close)
  )

describe("McpClient over Streamable HTTP", () => {
  it.live("a tool called at once reaches a server whose standalone stream opens late: its elicitation is answered", () =>
    Effect.gen(function* () {
      const server = yield* slowStreamServer(300)
      const mcp = yield* McpClient.make({
        servers: [{ name: "slow", scope: "dynamic", origin: "test", config: { type: "http", url: server.url, headers: {} } }],
        cwd: tempDir(),
        elicit: () => Effect.succeed({ action: "accept", content: {} })
      })
      const result = yield* mcp.callTool("slow", "ask", {})
      expect(result.isError).not.toBe(true)
      expect(text(result)).toContain('\\"action\\":\\"accept\\"')
      expect(text(result)).toContain("Ada")
    })
  )
})
