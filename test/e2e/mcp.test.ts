/** weft -p with real MCP servers from npm: stdio, Streamable HTTP and SSE, through the built binary. */
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, repoRoot, resultFrame, runWeft, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup, defer } = useSessions()

const serverBin = (name: string) => join(repoRoot, "node_modules/@modelcontextprotocol", name, "dist/index.js")

const stdioServer = (name: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [serverBin(name), ...args],
  env
})

const mcpConfig = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers })

/** The tool_result blocks of a stream-json output, in order. */
const toolResults = (stdout: string): Array<Record<string, unknown>> =>
  frames(stdout)
    .filter((frame) => frame["type"] === "user")
    .flatMap((frame) => {
      const message = frame["message"]
      return typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []
    })

/** Every line of the session's transcript(s) under WEFT_HOME. */
const transcript = (home: string): string => {
  const projects = join(home, "projects")
  return readdirSync(projects)
    .flatMap((dir) => readdirSync(join(projects, dir)).map((file) => readFileSync(join(projects, dir, file), "utf8")))
    .join("")
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })

/** server-everything over HTTP (`streamableHttp` or `sse`) on a free port; stopped after the test. */
const startHttpServer = async (transport: "streamableHttp" | "sse") => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [serverBin("server-everything"), transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let stderr = ""
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  defer(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.on("exit", () => resolve())
        child.kill("SIGKILL")
      })
  )
  await waitUntil(() => /listening|running/i.test(stderr), `server-everything ${transport} to listen`)
  return `http://127.0.0.1:${port}`
}

const echoSession = (server: string) => (_dir: string) => ({
  script: [
    ScriptTurn.blocks([toolUse(`mcp__${server}__echo`, { message: "over the wire" }, "echo1")]),
    textTurn("Echoed.")
  ]
})

describe("weft -p with MCP servers", () => {
  it("stdio: server-everything's tools are offered, called, and their results land in the transcript", async () => {
    const { dir, env, home, server } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("mcp__everything__echo", { message: "hello mcp" }, "echo1")]),
        ScriptTurn.blocks([toolUse("mcp__everything__get-sum", { a: 2, b: 40 }, "sum1")]),
        ScriptTurn.blocks([toolUse("ListMcpResourcesTool", {}, "list1")]),
        ScriptTurn.blocks([toolUse("mcp__everything__get-tiny-image", {}, "image1")]),
        textTurn("Done.")
      ]
    }))
    const config = mcpConfig({ everything: stdioServer("server-everything", ["stdio"]) })
    const out = await runWeft(["-p", "use the tools", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--mcp-config", config], {
      cwd: dir,
      env
    })
    expect(out.code).toBe(0)
    const init = frames(out.stdout)[0]
    expect(init).toMatchObject({ type: "system", subtype: "init", mcp_servers: [{ name: "everything", status: "connected" }] })
    expect(init?.["tools"]).toEqual(expect.arrayContaining(["Read", "mcp__everything__echo", "ListMcpResourcesTool"]))
    // The model was offered the server's own JSON Schema.
    const firstRequest = server.requests()[0]
    expect(JSON.stringify(firstRequest?.body)).toContain('"name":"mcp__everything__echo"')
    const results = toolResults(out.stdout)
    expect(results.map((block) => [block["tool_use_id"], block["is_error"] ?? false])).toEqual([
      ["echo1", false],
      ["sum1", false],
      ["list1", false],
      ["image1", false]
    ])
    expect(JSON.stringify(results[0])).toContain("Echo: hello mcp")
    expect(JSON.stringify(results[1])).toContain("42")
    expect(JSON.stringify(results[2])).toContain('\\"server\\":\\"everything\\"')
    expect(JSON.stringify(results[3])).toContain('"type":"image"')
    expect(transcript(home)).toContain("Echo: hello mcp")
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success", num_turns: 5 })
  })

  it("a stdio server does not inherit weft's API key: only a key its configuration names reaches it", async () => {
    const key = "sk-ant-e2e-mcp-secret-0123456789"
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("mcp__plain__get-env", {}, "plain1"), toolUse("mcp__named__get-env", {}, "named1")]),
        textTurn("Done.")
      ]
    }))
    const everything = stdioServer("server-everything", ["stdio"])
    const config = mcpConfig({ plain: everything, named: { ...everything, env: { ANTHROPIC_API_KEY: "given-on-purpose" } } })
    const out = await runWeft(["-p", "print your env", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", config], {
      cwd: dir,
      env: { ...env, ANTHROPIC_API_KEY: key }
    })
    expect(out.code).toBe(0)
    const [plain, named] = toolResults(out.stdout).map((block) => JSON.stringify(block))
    // Redaction works by value, so the variable's name would still show had the server inherited it.
    expect(plain).toContain("CLAUDE_PROJECT_DIR")
    expect(plain).not.toContain("ANTHROPIC_API_KEY")
    expect(named).toContain("given-on-purpose")
    expect(out.stdout).not.toContain(key)
  })

  it.each([
    { label: "Streamable HTTP", transport: "streamableHttp", server: "web", type: "http", path: "/mcp" },
    { label: "SSE (legacy)", transport: "sse", server: "legacy", type: "sse", path: "/sse" }
  ] as const)("$label: server-everything's echo", async ({ transport, server, type, path }) => {
    const url = await startHttpServer(transport)
    const { dir, env } = await setup({}, echoSession(server))
    const config = mcpConfig({ [server]: { type, url: `${url}${path}` } })
    const out = await runWeft(["-p", "echo", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--mcp-config", config], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(frames(out.stdout)[0]).toMatchObject({ mcp_servers: [{ name: server, status: "connected" }] })
    expect(JSON.stringify(toolResults(out.stdout))).toContain("Echo: over the wire")
  })

  it("server-filesystem is given the workspace as its roots; server-memory keeps what it is told", async () => {
    const { dir, env } = await setup({ "notes/hello.txt": "hi from the workspace\n" }, (dir) => ({
      script: [
        ScriptTurn.blocks([toolUse("mcp__fs__read_text_file", { path: join(dir, "notes/hello.txt") }, "read1")]),
        ScriptTurn.blocks([
          toolUse("mcp__memory__create_entities", { entities: [{ name: "weft", entityType: "project", observations: ["speaks MCP"] }] }, "mem1")
        ]),
        ScriptTurn.blocks([toolUse("mcp__memory__read_graph", {}, "mem2")]),
        textTurn("Done.")
      ]
    }))
    const config = mcpConfig({
      // No directory argument: server-filesystem asks the client for its roots.
      fs: stdioServer("server-filesystem", []),
      memory: stdioServer("server-memory", [], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") })
    })
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--mcp-config", config], { cwd: dir, env })
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    expect(results.map((block) => block["is_error"] ?? false)).toEqual([false, false, false])
    expect(JSON.stringify(results[0])).toContain("hi from the workspace")
    expect(JSON.stringify(results[2])).toContain("speaks MCP")
  })

  it("a server killed mid-call gives an is_error result naming it; the session goes on and leaves no server running", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("mcp__everything__get-env", {}, "env1")]),
        ScriptTurn.blocks([toolUse("mcp__everything__trigger-long-running-operation", { duration: 120, steps: 120 }, "long1")]),
        ScriptTurn.blocks([toolUse("mcp__everything__echo", { message: "back again" }, "echo1")]),
        textTurn("Recovered.")
      ]
    }))
    const config = mcpConfig({ everything: stdioServer("server-everything", ["stdio"], { WEFT_E2E_MARK: "mcp-kill" }) })
    const run = startWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--mcp-config", config], { cwd: dir, env })
    // The long call is in flight once the model's turn asking for it is out.
    await run.waitForStdout(/"id":"long1"/)
    const servers = () =>
      readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            return readFileSync(`/proc/${entry}/environ`, "utf8").includes("WEFT_E2E_MARK=mcp-kill")
          } catch {
            return false
          }
        })
        .map(Number)
        .filter(isAlive)
    const first = servers()
    expect(first.length).toBeGreaterThan(0)
    for (const pid of first) process.kill(pid, "SIGKILL")
    const out = await run.done
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    expect(results.map((block) => [block["tool_use_id"], block["is_error"] ?? false])).toEqual([
      ["env1", false],
      ["long1", true],
      ["echo1", false]
    ])
    expect(JSON.stringify(results[1])).toMatch(/MCP server \\"everything\\": Connection closed/)
    // The API key never reached the server.
    expect(JSON.stringify(results[0])).not.toContain("test-key")
    expect(servers()).toEqual([])
  })

  it("an untrusted project's .mcp.json server never starts; trusted and approved, it does", async () => {
    const marker = join("started.txt")
    const mcpJson = JSON.stringify({
      mcpServers: {
        repo: { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`] }
      }
    })
    const files = {
      ".mcp.json": mcpJson,
      // The repository approving its own server: must not count while the project is untrusted.
      ".claude/settings.json": JSON.stringify({ enableAllProjectMcpServers: true })
    }
    const { dir, env } = await setup(files, () => ({ script: [textTurn("Hi.")] }))
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(frames(out.stdout)[0]).toMatchObject({ mcp_servers: [] })
    expect(() => readFileSync(join(dir, marker))).toThrow()

    const { dir: trustedDir, env: trustedEnv } = await setup(files, () => ({ script: [textTurn("Hi.")] }))
    const trusted = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], {
      cwd: trustedDir,
      env: { ...trustedEnv, WEFT_TRUST_PROJECT: "1" }
    })
    expect(trusted.code).toBe(0)
    expect(readFileSync(join(trustedDir, marker), "utf8")).toBe("ran")
    expect(frames(trusted.stdout)[0]).toMatchObject({ mcp_servers: [{ name: "repo", status: "failed" }] })
  })

  it("an MCP prompt as the prompt: /mcp__server__prompt args becomes the user turn", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Sunny.")] }))
    const config = mcpConfig({ everything: stdioServer("server-everything", ["stdio"]) })
    const out = await runWeft(["-p", "/mcp__everything__args-prompt Paris France", "--mcp-config", config], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(out.stdout).toContain("Sunny.")
    expect(JSON.stringify(server.requests()[0]?.body)).toContain("What's weather in Paris, France?")

    const missing = await runWeft(["-p", "/mcp__everything__args-prompt", "--mcp-config", config], { cwd: dir, env })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/\/mcp__everything__args-prompt needs city/)
    const unknown = await runWeft(["-p", "/mcp__everything__no-such-prompt", "--mcp-config", config], { cwd: dir, env })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/has no such prompt \(its prompts: .*\/mcp__everything__simple-prompt/)
    // Nothing reached the model but the first run's turn.
    expect(server.requests()).toHaveLength(1)
  })

  it("an invalid --mcp-config exits 1 naming the MCP configuration", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("unused")] }))
    const out = await runWeft(["-p", "hi", "--mcp-config", "{ not json"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/--mcp-config.*not valid JSON/)
  })
})
