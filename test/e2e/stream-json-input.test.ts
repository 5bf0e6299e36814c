/**
 * The Agent SDK's protocol driven by hand: the built binary with `--input-format stream-json --output-format
 * stream-json`, frames written to its stdin as a program would (malformed ones included), against the mock API.
 */
import { existsSync } from "node:fs"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, repoRoot, runWeft, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

const protocol = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]

const user = (text: string, uuid?: string) =>
  `${JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "", ...(uuid === undefined ? {} : { uuid }) })}\n`

const control = (requestId: string, request: Record<string, unknown>) =>
  `${JSON.stringify({ type: "control_request", request_id: requestId, request })}\n`

const ofType = (stdout: string, type: string, subtype?: string) =>
  frames(stdout).filter((frame) => frame["type"] === type && (subtype === undefined || frame["subtype"] === subtype))

/** A field of a request's JSON body. */
const field = (body: unknown, key: string): unknown => (typeof body === "object" && body !== null ? Reflect.get(body, key) : undefined)

/** The texts of the user messages a request sent, in order. */
const userTexts = (body: unknown): ReadonlyArray<string> => {
  const messages = typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : []
  return messages
    .filter((message: { role: string }) => message.role === "user")
    .flatMap((message: { content: unknown }) =>
      typeof message.content === "string"
        ? [message.content]
        : Array.isArray(message.content)
          ? message.content.flatMap((block: { type: string; text?: string }) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
          : []
    )
}

describe("weft --input-format stream-json (the Agent SDK's protocol, by hand)", () => {
  it("answers several user messages in turn, one system/init frame and one result each, and exits 0 when stdin closes", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("first answer"), textTurn("second answer")] }))
    const out = await runWeft(protocol, { cwd: dir, env, stdin: user("one") + user("two") })
    expect(out.stderr).toBe("")
    expect(out.code).toBe(0)
    expect(ofType(out.stdout, "system", "init")).toHaveLength(2)
    const results = ofType(out.stdout, "result")
    expect(results.map((result) => result["result"])).toEqual(["first answer", "second answer"])
    expect(results.every((result) => result["is_error"] === false)).toBe(true)
    // One conversation: the second request carries the first exchange.
    const requests = server.requests()
    expect(requests).toHaveLength(2)
    expect(userTexts(requests[1]?.body).some((text) => text.includes("one"))).toBe(true)
    expect(userTexts(requests[1]?.body).some((text) => text.includes("two"))).toBe(true)
    // The frames of one session.
    const ids = new Set(frames(out.stdout).map((frame) => frame["session_id"]))
    expect(ids.size).toBe(1)
  })

  it("says what is wrong with malformed lines, unknown frames, unknown subtypes and stray responses, and goes on", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("still here")] }))
    const stdin = [
      "this is not json\n",
      "[1, 2]\n",
      `${JSON.stringify({ type: "bogus" })}\n`,
      `${JSON.stringify({ type: "user", message: { role: "assistant", content: "hi" } })}\n`,
      `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: "nobody", response: {} } })}\n`,
      control("req_unknown", { subtype: "launch_rockets" }),
      `${JSON.stringify({ type: "control_request", request_id: "req_bad", request: { nosubtype: true } })}\n`,
      "\n",
      user("hello")
    ].join("")
    const out = await runWeft(protocol, { cwd: dir, env, stdin })
    expect(out.code).toBe(0)
    expect(out.stderr).toMatch(/a line that is not JSON/)
    expect(out.stderr).toMatch(/a line that is not a JSON object/)
    expect(out.stderr).toMatch(/a frame of unknown type "bogus"/)
    expect(out.stderr).toMatch(/a user frame whose message is not/)
    expect(out.stderr).toMatch(/control_response for "nobody", which no request of weft's waits for/)
    const errors = ofType(out.stdout, "control_response").map((frame) => frame["response"])
    expect(errors).toContainEqual({ subtype: "error", request_id: "req_unknown", error: "Unsupported control request subtype: launch_rockets" })
    expect(errors).toContainEqual(expect.objectContaining({ subtype: "error", request_id: "req_bad" }))
    expect(ofType(out.stdout, "result").map((result) => result["result"])).toEqual(["still here"])
  })

  it("initialize: its system prompt is the request's, its reply names the models, pid and version; set_model changes the next request's model", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("a"), textTurn("b")] }))
    const run = startWeft(protocol, { cwd: dir, env, keepStdinOpen: true })
    run.child.stdin?.write(control("init_1", { subtype: "initialize", systemPrompt: ["You are a test."], appendSystemPrompt: "Be brief." }))
    await run.waitForStdout(/"request_id":"init_1"/)
    run.child.stdin?.write(user("first"))
    await run.waitForStdout(/"type":"result"/)
    run.child.stdin?.write(control("model_1", { subtype: "set_model", model: "claude-other" }))
    await run.waitForStdout(/"request_id":"model_1"/)
    run.child.stdin?.write(user("second"))
    run.child.stdin?.end()
    const out = await run.done
    expect(out.code).toBe(0)
    const reply = ofType(out.stdout, "control_response").find((frame) => JSON.stringify(frame).includes("init_1"))?.["response"]
    expect(reply).toMatchObject({ subtype: "success", request_id: "init_1", response: { pid: run.child.pid, commands: [], output_style: "default" } })
    expect(JSON.stringify(reply)).toMatch(/"models":\[\{"value":/)
    const requests = server.requests()
    expect(JSON.stringify(field(requests[0]?.body, "system"))).toContain("You are a test.\\n\\nBe brief.")
    expect(field(requests[1]?.body, "model")).toBe("claude-other")
    const inits = ofType(out.stdout, "system", "init")
    expect(inits.map((frame) => frame["model"])).toEqual([field(requests[0]?.body, "model"), "claude-other"])
  })

  it("/name messages are expanded as -p expands them: the command's model for its turn alone; a refused !`cmd` answers its message with an error result and the session goes on", async () => {
    const { dir, env, server } = await setup(
      {
        ".claude/commands/greet.md": "---\nmodel: claude-command-model\nallowed-tools: Bash(echo:*)\n---\nGreet $ARGUMENTS. Weather: !`echo sunny`",
        ".claude/commands/leak.md": "Here: !`touch pwned.txt`",
        "a.txt": "x\n"
      },
      () => ({ script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.txt" }, "read_1")]), textTurn("hello Ada"), textTurn("plain answer")] })
    )
    const out = await runWeft([...protocol, "--model", "claude-session-model"], { cwd: dir, env, stdin: user("/greet Ada") + user("/leak") + user("plain") })
    expect(out.code, out.stderr).toBe(0)
    const results = ofType(out.stdout, "result")
    expect(results.map((result) => [result["is_error"], result["result"]])).toEqual([
      [false, "hello Ada"],
      [true, expect.stringContaining("/leak: !`touch pwned.txt` was refused")],
      [false, "plain answer"]
    ])
    expect(existsSync(join(dir, "pwned.txt"))).toBe(false)
    // The command's model for each request of its turn; the session's again after it.
    const requests = server.requests()
    expect(requests.map((request) => field(request.body, "model"))).toEqual(["claude-command-model", "claude-command-model", "claude-session-model"])
    expect(userTexts(requests[0]?.body)).toEqual(
      expect.arrayContaining([
        "<command-message>greet</command-message>\n<command-name>/greet</command-name>\n<command-args>Ada</command-args>",
        "Greet Ada. Weather: sunny"
      ])
    )
    // The refused message never reached the model.
    expect(JSON.stringify(requests[2]?.body)).not.toContain("/leak")
    expect(ofType(out.stdout, "system", "init").map((frame) => frame["model"])).toEqual(["claude-command-model", "claude-session-model", "claude-session-model"])
  })

  it("/mcp__server__prompt messages are expanded as -p expands them; a refused one answers its message with an error result and the session goes on", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Sunny."), textTurn("plain answer")] }))
    const everything = { command: process.execPath, args: [join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"] }
    const config = JSON.stringify({ mcpServers: { everything } })
    const stdin = user("/mcp__everything__args-prompt Paris France") + user("/mcp__everything__args-prompt") + user("plain")
    const out = await runWeft([...protocol, "--mcp-config", config], { cwd: dir, env, stdin })
    expect(out.code, out.stderr).toBe(0)
    const results = ofType(out.stdout, "result")
    expect(results.map((result) => [result["is_error"], result["result"]])).toEqual([
      [false, "Sunny."],
      [true, expect.stringContaining("/mcp__everything__args-prompt needs city")],
      [false, "plain answer"]
    ])
    const requests = server.requests()
    expect(requests).toHaveLength(2)
    expect(userTexts(requests[0]?.body).join("\n")).toContain("What's weather in Paris, France?")
    expect(JSON.stringify(requests[0]?.body)).not.toContain("/mcp__everything")
  })

  it("/name message with --permission-prompt-tool stdio: its !`cmd` is a can_use_tool question to the program", async () => {
    const { dir, env, server } = await setup({ ".claude/commands/stamp.md": "Stamped: !`touch stamped.txt && echo ok`" }, () => ({ script: [textTurn("stamped")] }))
    const run = startWeft([...protocol, "--permission-prompt-tool", "stdio"], { cwd: dir, env, keepStdinOpen: true })
    run.child.stdin?.write(user("/stamp"))
    await run.waitForStdout(/"subtype":"can_use_tool"/)
    const ask = ofType(run.stdoutSoFar(), "control_request")[0]
    expect(ask?.["request"]).toMatchObject({ subtype: "can_use_tool", tool_name: "Bash", input: { command: "touch stamped.txt && echo ok" } })
    run.child.stdin?.write(
      `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: ask?.["request_id"], response: { behavior: "allow" } } })}\n`
    )
    await run.waitForStdout(/"type":"result"/)
    run.child.stdin?.end()
    const out = await run.done
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "stamped.txt"))).toBe(true)
    expect(userTexts(server.requests()[0]?.body)).toContain("Stamped: ok")
    expect(ofType(out.stdout, "result")[0]).toMatchObject({ is_error: false, result: "stamped" })
  })

  it("--permission-prompt-tool stdio: a call that needs asking is a can_use_tool request; the answer decides", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "touch allowed.txt", description: "make a file" }, "call_1")]),
        textTurn("done")
      ]
    }))
    const run = startWeft([...protocol, "--permission-prompt-tool", "stdio"], { cwd: dir, env, keepStdinOpen: true })
    run.child.stdin?.write(user("make the file"))
    await run.waitForStdout(/"subtype":"can_use_tool"/)
    const ask = ofType(run.stdoutSoFar(), "control_request")[0]
    expect(ask?.["request"]).toMatchObject({ subtype: "can_use_tool", tool_name: "Bash", tool_use_id: "call_1", input: { command: "touch allowed.txt" } })
    run.child.stdin?.write(
      `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: ask?.["request_id"], response: { behavior: "allow", updatedInput: { command: "touch allowed.txt", description: "make a file" } } } })}\n`
    )
    await run.waitForStdout(/"type":"result"/)
    run.child.stdin?.end()
    const out = await run.done
    expect(out.code).toBe(0)
    expect(existsSync(join(dir, "allowed.txt"))).toBe(true)
  })

  it("interrupt while a can_use_tool ask waits: the ask is withdrawn (control_cancel_request), the turn ends, the next one is answered", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "touch never.txt", description: "x" }, "call_1")]),
        textTurn("second answer")
      ]
    }))
    const run = startWeft([...protocol, "--permission-prompt-tool=stdio", "--replay-user-messages"], { cwd: dir, env, keepStdinOpen: true })
    run.child.stdin?.write(user("do it", "11111111-2222-4333-8444-555555555555"))
    await run.waitForStdout(/"subtype":"can_use_tool"/)
    const ask = ofType(run.stdoutSoFar(), "control_request")[0]
    run.child.stdin?.write(control("stop_1", { subtype: "interrupt" }))
    await run.waitForStdout(/"type":"result"/)
    run.child.stdin?.write(user("again"))
    run.child.stdin?.end()
    const out = await run.done
    expect(out.code).toBe(0)
    expect(ofType(out.stdout, "control_cancel_request")).toEqual([{ type: "control_cancel_request", request_id: ask?.["request_id"] }])
    expect(ofType(out.stdout, "control_response").map((frame) => frame["response"])).toContainEqual({ subtype: "success", request_id: "stop_1", response: {} })
    const results = ofType(out.stdout, "result")
    expect(results.map((result) => [result["subtype"], result["is_error"]])).toEqual([
      ["error_during_execution", true],
      ["success", false]
    ])
    expect(existsSync(join(dir, "never.txt"))).toBe(false)
    // --replay-user-messages: each prompt echoed with its uuid.
    const replays = ofType(out.stdout, "user").filter((frame) => frame["isReplay"] === true)
    expect(replays.map((frame) => frame["uuid"])[0]).toBe("11111111-2222-4333-8444-555555555555")
    expect(replays).toHaveLength(2)
  })

  it("stdin closed before an ask could be answered: the ask is a denial, not a hang", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "touch never.txt", description: "x" }, "call_1")]), textTurn("gave up")]
    }))
    const out = await runWeft([...protocol, "--permission-prompt-tool", "stdio"], { cwd: dir, env, stdin: user("do it") })
    expect(out.code).toBe(0)
    expect(ofType(out.stdout, "result").map((result) => result["result"])).toEqual(["gave up"])
    const toolResult = JSON.stringify(ofType(out.stdout, "user"))
    expect(toolResult).toContain("closed weft's stdin")
    expect(existsSync(join(dir, "never.txt"))).toBe(false)
  })

  it("stdout's reader gone: the session stops (its command killed) though stdin stays open", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "echo $$ > pid; while [ ! -e go ]; do sleep 0.05; done; echo done", description: "wait" }, "w")]),
        textTurn("never")
      ]
    }))
    const run = startWeft([...protocol, "--dangerously-skip-permissions"], { cwd: dir, env, keepStdinOpen: true })
    run.child.stdin?.write(user("wait"))
    let pid = 0
    await waitUntil(async () => (pid = Number((await readFile(join(dir, "pid"), "utf8").catch(() => "")).trim())) > 0, "the command to start")
    run.child.stdout?.destroy()
    await writeFile(join(dir, "go"), "")
    const out = await run.done
    expect(out.code).toBe(141)
    await waitUntil(() => !isAlive(pid), "the command to end", 10_000)
    run.child.stdin?.destroy()
  })

  it("an in-process MCP server named in --mcp-config (as the Python SDK does) is reached by mcp_message requests", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("mcp__calc__add", { a: 2, b: 3 }, "add_1")]), textTurn("five")]
    }))
    const mcpConfig = JSON.stringify({ mcpServers: { calc: { type: "sdk", name: "calc" } } })
    const run = startWeft([...protocol, "--mcp-config", mcpConfig, "--allowedTools", "mcp__calc__add"], { cwd: dir, env, keepStdinOpen: true })
    // The program's side: an MCP server answering what weft's client sends, one JSON-RPC message per mcp_message.
    const seen: Array<string> = []
    const answer = (message: { id?: unknown; method?: string; params?: { protocolVersion?: string; arguments?: { a: number; b: number } } }) => {
      seen.push(message.method ?? "")
      switch (message.method) {
        case "initialize":
          return { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "calc", version: "1" } }
        case "tools/list":
          return { tools: [{ name: "add", description: "Adds", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }] }
        case "tools/call":
          return { content: [{ type: "text", text: String((message.params?.arguments?.a ?? 0) + (message.params?.arguments?.b ?? 0)) }] }
        default:
          return {}
      }
    }
    let buffered = ""
    run.child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split("\n")
      buffered = lines.pop() ?? ""
      for (const line of lines) {
        const frame = JSON.parse(line)
        if (frame.type !== "control_request" || frame.request.subtype !== "mcp_message") continue
        const message = frame.request.message
        const response = "id" in message ? { jsonrpc: "2.0", id: message.id, result: answer(message) } : (answer(message), { jsonrpc: "2.0", result: {}, id: 0 })
        run.child.stdin?.write(`${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: frame.request_id, response: { mcp_response: response } } })}\n`)
      }
    })
    run.child.stdin?.write(user("add 2 and 3"))
    await run.waitForStdout(/"type":"result"/)
    run.child.stdin?.end()
    const out = await run.done
    expect(out.code).toBe(0)
    expect(seen).toEqual(expect.arrayContaining(["initialize", "notifications/initialized", "tools/list", "tools/call"]))
    expect(ofType(out.stdout, "system", "init")[0]).toMatchObject({ mcp_servers: [{ name: "calc", status: "connected" }] })
    expect(JSON.stringify(ofType(out.stdout, "user"))).toContain('"content":[{"type":"text","text":"5"}]')
    expect(ofType(out.stdout, "result").map((result) => result["result"])).toEqual(["five"])
  })

  it("stdin closed at once: nothing to answer, exit 0", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [] }))
    const out = await runWeft(protocol, { cwd: dir, env, stdin: "" })
    expect(out.code).toBe(0)
    expect(out.stdout).toBe("")
    expect(server.requests()).toHaveLength(0)
  })
})

