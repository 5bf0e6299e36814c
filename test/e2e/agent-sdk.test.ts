/**
 * The official Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, pinned) driving the built weft as its Claude Code
 * (`pathToClaudeCodeExecutable`), against the mock Messages API: what a program written for the SDK does.
 */
import { createSdkMcpServer, query, type SDKMessage, type SDKUserMessage, tool } from "@anthropic-ai/claude-agent-sdk"
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { z } from "zod"
import { isRecord } from "../../src/domain/Json.js"
import { systemContains } from "../../src/testing/MockAnthropicServer.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { binary, isAlive, requireBinary, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

/** The SDK runs the binary directly (its shebang): the Node.js running the tests must be the first on PATH. */
const sdkEnv = (env: Record<string, string>) => ({
  ...process.env,
  ...env,
  PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`
})

/** A stream of user messages the test feeds one by one (the SDK's streaming input). */
const inputs = () => {
  const waiting: Array<(message: SDKUserMessage | undefined) => void> = []
  const queued: Array<SDKUserMessage | undefined> = []
  const push = (message: SDKUserMessage | undefined) => {
    const taker = waiting.shift()
    if (taker !== undefined) taker(message)
    else queued.push(message)
  }
  async function* stream(): AsyncGenerator<SDKUserMessage> {
    for (;;) {
      const next = queued.length > 0 ? queued.shift() : await new Promise<SDKUserMessage | undefined>((resolve) => waiting.push(resolve))
      if (next === undefined) return
      yield next
    }
  }
  return {
    stream: stream(),
    say: (text: string) => push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" }),
    close: () => push(undefined)
  }
}

/** Reads messages until `count` results have come (or the query ends). */
const untilResults = async (messages: AsyncIterator<SDKMessage>, seen: Array<SDKMessage>, count: number) => {
  let results = seen.filter((message) => message.type === "result").length
  while (results < count) {
    const next = await messages.next()
    if (next.done === true) return
    seen.push(next.value)
    if (next.value.type === "result") results++
  }
}

const resultsOf = (messages: ReadonlyArray<SDKMessage>) => messages.flatMap((message) => (message.type === "result" ? [message] : []))

const toolResultTexts = (messages: ReadonlyArray<SDKMessage>): Record<string, { text: string; isError: boolean }> => {
  const out: Record<string, { text: string; isError: boolean }> = {}
  for (const message of messages) {
    if (message.type !== "user" || typeof message.message.content === "string") continue
    for (const block of message.message.content) {
      if (block.type !== "tool_result") continue
      const text = typeof block.content === "string" ? block.content : (block.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("")
      out[block.tool_use_id] = { text, isError: block.is_error === true }
    }
  }
  return out
}

const modelOf = (body: unknown) => (typeof body === "object" && body !== null && "model" in body ? body.model : undefined)

describe("the Claude Agent SDK driving weft", () => {
  requireBinary()

  it("a plain query, then resuming its session in a second query", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Hello from weft."), textTurn("I remember.")] }))
    const first: Array<SDKMessage> = []
    for await (const message of query({ prompt: "Say hello", options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env) } })) {
      first.push(message)
    }
    const init = first.find((message) => message.type === "system" && message.subtype === "init")
    expect(init).toMatchObject({ type: "system", subtype: "init", cwd: dir })
    const [result] = resultsOf(first)
    expect(result).toMatchObject({ subtype: "success", is_error: false, result: "Hello from weft." })
    const sessionId = result?.session_id ?? ""

    const second: Array<SDKMessage> = []
    for await (const message of query({
      prompt: "Do you remember?",
      options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env), resume: sessionId }
    })) {
      second.push(message)
    }
    expect(resultsOf(second)[0]).toMatchObject({ subtype: "success", result: "I remember.", session_id: sessionId })
    const resumed = JSON.stringify(server.requests()[1]?.body)
    expect(resumed).toContain("Say hello")
    expect(resumed).toContain("Hello from weft.")
  })

  it("a multi-turn streaming-input session: each message answered in turn, in one session", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("one"), textTurn("two"), textTurn("three")] }))
    const input = inputs()
    const q = query({ prompt: input.stream, options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env) } })
    const seen: Array<SDKMessage> = []
    for (const [index, text] of ["first", "second", "third"].entries()) {
      input.say(text)
      await untilResults(q, seen, index + 1)
    }
    input.close()
    await untilResults(q, seen, 4)
    expect(resultsOf(seen).map((result) => result.subtype === "success" && result.result)).toEqual(["one", "two", "three"])
    expect(seen.filter((message) => message.type === "system" && message.subtype === "init")).toHaveLength(3)
    expect(new Set(resultsOf(seen).map((result) => result.session_id)).size).toBe(1)
    expect(JSON.stringify(server.requests()[2]?.body)).toContain("second")
  })

  it("canUseTool: one call allowed with a changed input, another denied with interrupt (the turn ends)", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "touch asked.txt", description: "a file" }, "call_allow")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "touch denied.txt", description: "another" }, "call_deny")]),
        textTurn("never reached")
      ]
    }))
    const asked: Array<{ name: string; input: Record<string, unknown>; toolUseID: string }> = []
    const messages: Array<SDKMessage> = []
    for await (const message of query({
      prompt: "make files",
      options: {
        pathToClaudeCodeExecutable: binary,
        cwd: dir,
        env: sdkEnv(env),
        canUseTool: async (name, input, { toolUseID }) => {
          asked.push({ name, input, toolUseID })
          return toolUseID === "call_allow"
            ? { behavior: "allow", updatedInput: { ...input, command: "touch changed.txt" } }
            : { behavior: "deny", message: "Not this one.", interrupt: true }
        }
      }
    })) {
      messages.push(message)
    }
    expect(asked.map((ask) => [ask.name, ask.toolUseID])).toEqual([
      ["Bash", "call_allow"],
      ["Bash", "call_deny"]
    ])
    expect(existsSync(join(dir, "changed.txt"))).toBe(true)
    expect(existsSync(join(dir, "asked.txt"))).toBe(false)
    expect(existsSync(join(dir, "denied.txt"))).toBe(false)
    const results = toolResultTexts(messages)
    expect(results["call_deny"]).toMatchObject({ isError: true })
    expect(results["call_deny"]?.text).toContain("Not this one.")
    // The interrupt ended the turn: the third model turn was never asked for.
    expect(JSON.stringify(messages)).not.toContain("never reached")
  })

  it("an SDK PreToolUse hook gets the call and its deny reaches the model", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "touch hooked.txt", description: "x" }, "call_1")]), textTurn("ok")]
    }))
    const seenByHook: Array<unknown> = []
    const messages: Array<SDKMessage> = []
    for await (const message of query({
      prompt: "go",
      options: {
        pathToClaudeCodeExecutable: binary,
        cwd: dir,
        env: sdkEnv(env),
        permissionMode: "bypassPermissions",
        allowDangerouslySkipPermissions: true,
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                async (input) => {
                  seenByHook.push(input)
                  return {
                    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "No shell today." }
                  }
                }
              ]
            }
          ]
        }
      }
    })) {
      messages.push(message)
    }
    expect(seenByHook).toEqual([
      expect.objectContaining({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "call_1", tool_input: expect.objectContaining({ command: "touch hooked.txt" }) })
    ])
    expect(toolResultTexts(messages)["call_1"]).toMatchObject({ isError: true, text: expect.stringContaining("No shell today.") })
    expect(existsSync(join(dir, "hooked.txt"))).toBe(false)
    expect(resultsOf(messages)[0]).toMatchObject({ subtype: "success", result: "ok" })
  })

  it("setPermissionMode and setModel mid-session take effect for the next turn", async () => {
    const { dir, env, server } = await setup({}, () => ({
      script: [
        textTurn("first"),
        ScriptTurn.blocks([toolUse("Write", { file_path: "notes.txt", content: "hi\n" }, "write_1")]),
        textTurn("written")
      ]
    }))
    const input = inputs()
    const q = query({ prompt: input.stream, options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env) } })
    const seen: Array<SDKMessage> = []
    input.say("hello")
    await untilResults(q, seen, 1)
    await q.setPermissionMode("acceptEdits")
    await q.setModel("claude-switched")
    input.say("write the notes")
    await untilResults(q, seen, 2)
    input.close()
    await untilResults(q, seen, 3)
    expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("hi\n")
    expect(server.requests().slice(1).map((request) => modelOf(request.body))).toEqual(["claude-switched", "claude-switched"])
    const inits = seen.flatMap((message) => (message.type === "system" && message.subtype === "init" ? [message] : []))
    expect(inits.map((init) => [init.permissionMode, init.model])).toEqual([
      ["default", modelOf(server.requests()[0]?.body)],
      ["acceptEdits", "claude-switched"]
    ])
  })

  it("an in-process SDK MCP server's tool (createSdkMcpServer + tool())", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("mcp__calc__add", { a: 2, b: 3 }, "add_1")]), textTurn("five")]
    }))
    const calls: Array<{ a: number; b: number }> = []
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [
        tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args)
          return { content: [{ type: "text", text: String(args.a + args.b) }] }
        })
      ]
    })
    const messages: Array<SDKMessage> = []
    const q = query({
      prompt: "add 2 and 3",
      options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env), mcpServers: { calc }, allowedTools: ["mcp__calc__add"] }
    })
    const status = q.mcpServerStatus()
    for await (const message of q) messages.push(message)
    expect(await status).toEqual([{ name: "calc", status: "connected" }])
    expect(calls).toEqual([{ a: 2, b: 3 }])
    expect(toolResultTexts(messages)["add_1"]).toEqual({ text: "5", isError: false })
    const init = messages.find((message) => message.type === "system" && message.subtype === "init")
    expect(init).toMatchObject({ mcp_servers: [{ name: "calc", status: "connected" }] })
    expect(init !== undefined && "tools" in init ? init.tools : []).toContain("mcp__calc__add")
  })

  it("fallbackModel: a request the API refuses as overloaded goes to the fallback model", async () => {
    const { dir, env, server } = await setup({}, () => ({
      pick: (request) => (modelOf(request.body) === "claude-fallback" ? textTurn("from the fallback") : ScriptTurn.status(529))
    }))
    const messages: Array<SDKMessage> = []
    for await (const message of query({
      prompt: "hi",
      options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv({ ...env, WEFT_MAX_RETRIES: "0" }), model: "claude-main", fallbackModel: "claude-fallback" }
    })) {
      messages.push(message)
    }
    expect(server.requests().map((request) => modelOf(request.body))).toEqual(["claude-main", "claude-fallback"])
    expect(resultsOf(messages)[0]).toMatchObject({ subtype: "success", result: "from the fallback" })
  })

  it("agents in the query options: listed in the init frame and the initialize reply; an Agent call runs the child", async () => {
    const { dir, env, server } = await setup({ "a.js": "let x = 1\n" }, () => ({
      script: [
        ScriptTurn.blocks([
          toolUse("Agent", { description: "review a.js", prompt: "Review a.js", subagent_type: "reviewer", run_in_background: false }, "agent_1")
        ]),
        textTurn("The reviewer says a.js is fine.")
      ],
      conversations: [
        {
          when: systemContains("SDK REVIEWER"),
          script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.js" }, "child_read")]), textTurn("a.js: no bugs")]
        }
      ]
    }))
    const messages: Array<SDKMessage> = []
    const q = query({
      prompt: "review a.js",
      options: {
        pathToClaudeCodeExecutable: binary,
        cwd: dir,
        env: sdkEnv(env),
        agents: { reviewer: { description: "Reviews code for bugs", prompt: "You are the SDK REVIEWER.", tools: ["Read", "Grep"] } }
      }
    })
    const agents = q.supportedAgents()
    for await (const message of q) messages.push(message)
    expect(await agents).toContainEqual(expect.objectContaining({ name: "reviewer", description: "Reviews code for bugs" }))
    const init = messages.find((message) => message.type === "system" && message.subtype === "init")
    expect(init !== undefined && "agents" in init ? init.agents : []).toContain("reviewer")

    const bodies = server.requests().flatMap((request) => (isRecord(request.body) ? [request.body] : []))
    const child = bodies.find((body) => JSON.stringify(body["system"] ?? "").includes("SDK REVIEWER"))
    expect(child).toBeDefined()
    const toolNames = Array.isArray(child?.["tools"]) ? child["tools"].flatMap((entry: unknown) => (isRecord(entry) ? [entry["name"]] : [])) : []
    expect([...toolNames].sort()).toEqual(["Grep", "Read"])
    expect(JSON.stringify(child?.["messages"])).not.toContain("review a.js\"")
    // The child's read ran, and its answer is the Agent call's result in the parent.
    expect(toolResultTexts(messages)["child_read"]).toMatchObject({ isError: false, text: expect.stringContaining("let x = 1") })
    expect(toolResultTexts(messages)["agent_1"]).toMatchObject({ isError: false, text: expect.stringContaining("a.js: no bugs") })
    expect(JSON.stringify(bodies.at(-1)?.["messages"])).toContain("a.js: no bugs")
    // The child's messages reach the program tagged with the Agent call.
    expect(messages.filter((message) => message.type === "assistant" && message.parent_tool_use_id === "agent_1")).toHaveLength(2)
    expect(resultsOf(messages)[0]).toMatchObject({ subtype: "success", result: "The reviewer says a.js is fine." })
  })

  it("plan mode with canUseTool: ExitPlanMode is offered and asks the program; allow leaves plan mode, deny stays", async () => {
    const script = () => ({
      script: [
        ScriptTurn.blocks([toolUse("ExitPlanMode", { plan: "1. Write notes.txt" }, "exit_1")]),
        ScriptTurn.blocks([toolUse("Write", { file_path: "notes.txt", content: "planned\n" }, "write_1")]),
        textTurn("done")
      ]
    })
    const run = async (answer: "allow" | "deny") => {
      const { dir, env, server } = await setup({}, script)
      const asked: Array<{ name: string; input: Record<string, unknown> }> = []
      const messages: Array<SDKMessage> = []
      for await (const message of query({
        prompt: "plan the notes",
        options: {
          pathToClaudeCodeExecutable: binary,
          cwd: dir,
          env: sdkEnv(env),
          permissionMode: "plan",
          canUseTool: async (name, input) => {
            asked.push({ name, input })
            return answer === "allow" || name !== "ExitPlanMode"
              ? { behavior: "allow", updatedInput: input }
              : { behavior: "deny", message: "Keep planning." }
          }
        }
      })) {
        messages.push(message)
      }
      const first = server.requests()[0]?.body
      const tools = isRecord(first) && Array.isArray(first["tools"]) ? first["tools"].flatMap((entry: unknown) => (isRecord(entry) ? [entry["name"]] : [])) : []
      return { dir, asked, messages, tools }
    }

    const allowed = await run("allow")
    expect(allowed.tools).toContain("ExitPlanMode")
    expect(allowed.asked[0]).toEqual({ name: "ExitPlanMode", input: { plan: "1. Write notes.txt" } })
    expect(toolResultTexts(allowed.messages)["exit_1"]).toMatchObject({ isError: false, text: expect.stringContaining("Plan mode is off") })
    // Out of plan mode, the write is asked about as in default mode, and runs.
    expect(allowed.asked.map((ask) => ask.name)).toEqual(["ExitPlanMode", "Write"])
    expect(await readFile(join(allowed.dir, "notes.txt"), "utf8")).toBe("planned\n")

    const denied = await run("deny")
    expect(toolResultTexts(denied.messages)["exit_1"]).toMatchObject({ isError: true, text: expect.stringContaining("Keep planning.") })
    // Still in plan mode: the write is refused without asking.
    expect(denied.asked.map((ask) => ask.name)).toEqual(["ExitPlanMode"])
    expect(toolResultTexts(denied.messages)["write_1"]).toMatchObject({ isError: true, text: expect.stringContaining("plan mode") })
    expect(existsSync(join(denied.dir, "notes.txt"))).toBe(false)
  })

  it("interrupt during a running Bash call: the process is gone, the turn ends, the next turn works", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "echo $$ > pid; sleep 300", description: "wait" }, "sleep_1")]),
        textTurn("after the interrupt")
      ]
    }))
    const input = inputs()
    const q = query({
      prompt: input.stream,
      options: { pathToClaudeCodeExecutable: binary, cwd: dir, env: sdkEnv(env), permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true }
    })
    const seen: Array<SDKMessage> = []
    input.say("sleep")
    const reading = untilResults(q, seen, 1)
    let pid = 0
    await waitUntil(async () => (pid = Number((await readFile(join(dir, "pid"), "utf8").catch(() => "")).trim())) > 0, "the command to start")
    await q.interrupt()
    await reading
    expect(resultsOf(seen)[0]).toMatchObject({ subtype: "error_during_execution", is_error: true })
    await waitUntil(() => !isAlive(pid), "the interrupted command to end", 10_000)
    expect(toolResultTexts(seen)["sleep_1"]).toMatchObject({ isError: true })
    input.say("are you there?")
    await untilResults(q, seen, 2)
    input.close()
    await untilResults(q, seen, 3)
    expect(resultsOf(seen)[1]).toMatchObject({ subtype: "success", result: "after the interrupt" })
  })
})
