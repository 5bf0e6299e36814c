import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startMockAnthropicServer, type StartedMockServer } from "../../src/testing/MockAnthropicServer.js"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, makeProject, runWeft, startWeft, waitUntil } from "./harness.js"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const setup = async (files: Readonly<Record<string, string>>, script: (dir: string) => Parameters<typeof startMockAnthropicServer>[0]) => {
  const project = await makeProject(files)
  cleanups.push(project.cleanup)
  const server: StartedMockServer = await startMockAnthropicServer(script(project.dir))
  cleanups.push(server.close)
  const env = {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "test-key",
    WEFT_HOME: project.home,
    WEFT_GREP_ENGINE: "builtin"
  }
  return { ...project, server, env }
}

const resultFrame = (stdout: string) => {
  const all = frames(stdout)
  const last = all[all.length - 1]
  expect(last?.["type"]).toBe("result")
  return last ?? {}
}

describe("weft -p (the built binary against the mock Messages API)", () => {
  it("reads, greps, edits and runs a command in a project; stream-json shows every step", async () => {
    const files = {
      "src/greet.js": 'export const greet = (name) => "Helo, " + name\n',
      "test.js": 'import { greet } from "./src/greet.js"\nif (greet("x") !== "Hello, x") { console.error("FAIL"); process.exit(1) }\nconsole.log("PASS")\n'
    }
    const { dir, env, server } = await setup(files, (dir) => ({
      script: [
        ScriptTurn.blocks([text("Looking."), toolUse("Grep", { pattern: "Helo", output_mode: "files_with_matches" }, "grep1")]),
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "src/greet.js") }, "read1")]),
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(dir, "src/greet.js"), old_string: "Helo", new_string: "Hello" }, "edit1")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "node test.js" }, "bash1")]),
        textTurn("Fixed the typo; the test passes.")
      ]
    }))
    const out = await runWeft(["-p", "fix the greeting", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.stderr).toBe("")
    expect(out.code).toBe(0)
    expect(await readFile(join(dir, "src/greet.js"), "utf8")).toBe('export const greet = (name) => "Hello, " + name\n')

    const all = frames(out.stdout)
    expect(all[0]).toMatchObject({ type: "system", subtype: "init", cwd: dir, permissionMode: "bypassPermissions", plugins: [] })
    expect(all[0]?.["tools"]).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]))
    const results = all
      .filter((frame) => frame["type"] === "user")
      .flatMap((frame) => {
        const message = frame["message"]
        return typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []
      })
    expect(results.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ["grep1", false],
      ["read1", false],
      ["edit1", false],
      ["bash1", false]
    ])
    expect(JSON.stringify(results[0].content)).toContain("greet.js")
    expect(JSON.stringify(results[1].content)).toContain("1\\texport const greet")
    expect(JSON.stringify(results[3].content)).toContain("PASS")
    expect(all.filter((frame) => frame["type"] === "assistant")).toHaveLength(5)
    expect(resultFrame(out.stdout)).toMatchObject({
      subtype: "success",
      is_error: false,
      result: "Fixed the typo; the test passes.",
      num_turns: 5,
      permission_denials: []
    })
    // The model saw every tool result: the last request carries the whole conversation.
    const requests = server.requests().filter((request) => request.path.startsWith("/v1/messages"))
    expect(requests).toHaveLength(5)
  })

  it("answers schema-violating tool input with an is_error result and the session goes on", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Read", { file_path: 17 }, "bad1")]), textTurn("Sorry, retrying is not needed.")]
    }))
    const out = await runWeft(["-p", "read something", "--output-format", "stream-json"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const toolResult = frames(out.stdout).find((frame) => frame["type"] === "user")
    expect(JSON.stringify(toolResult)).toMatch(/"is_error":true/)
    expect(JSON.stringify(toolResult)).toMatch(/Invalid input for Read: file_path/)
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success", num_turns: 2 })
  })

  it("text and json output, the prompt on stdin, and --max-turns", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Four.")] }))
    const text = await runWeft(["-p"], { cwd: dir, env, stdin: "what is 2+2?" })
    expect(text).toMatchObject({ code: 0, stdout: "Four.\n" })
    const firstRequest = server.requests()[0]?.body
    expect(JSON.stringify(firstRequest)).toContain("what is 2+2?")

    const json = await runWeft(["-p", "again", "--output-format", "json", "--model", "claude-sonnet-4-5"], { cwd: dir, env })
    expect(json.code).toBe(0)
    const success = JSON.parse(json.stdout)
    expect(success).toMatchObject({ type: "result", subtype: "success", result: "Four.", is_error: false })
    expect(success).not.toHaveProperty("errors")
    // modelUsage: the usage and cost of the one response, under the model it named.
    expect(Object.keys(success.modelUsage)).toEqual(["claude-sonnet-4-5"])
    expect(success.modelUsage["claude-sonnet-4-5"]).toEqual({
      inputTokens: success.usage.input_tokens,
      outputTokens: success.usage.output_tokens,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: success.total_cost_usd,
      contextWindow: 200_000
    })
    expect(success.total_cost_usd).toBeGreaterThan(0)

    const { dir: dir2, env: env2 } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Glob", { pattern: "*" }, "g1")]), textTurn("never")]
    }))
    const limited = await runWeft(["-p", "loop", "--max-turns", "1", "--output-format", "json"], { cwd: dir2, env: env2 })
    expect(limited.code).toBe(1)
    expect(JSON.parse(limited.stdout)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 1,
      errors: ["Reached the maximum number of turns (1)."]
    })
  })

  it("takes what is piped in along with a prompt given as an argument", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("The disk is full.")] }))
    const out = await runWeft(["-p", "explain this log"], { cwd: dir, env, stdin: "ERROR: disk full on /dev/sda1\n" })
    expect(out).toMatchObject({ code: 0, stdout: "The disk is full.\n" })
    const messages = (server.requests()[0]?.body as { messages: ReadonlyArray<unknown> }).messages
    expect(JSON.stringify(messages.at(-1))).toContain("explain this log\\n\\nERROR: disk full on /dev/sda1")
  })

  it("stream-json has stream_event frames with --include-partial-messages, and only then", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("Partial, then whole."), textTurn("Partial, then whole.")] }))
    const partial = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose", "--include-partial-messages"], {
      cwd: dir,
      env
    })
    expect(partial.code).toBe(0)
    const events = frames(partial.stdout).filter((frame) => frame["type"] === "stream_event")
    const eventTypes = events.map((frame) => (frame["event"] as { type: string }).type)
    expect(eventTypes[0]).toBe("message_start")
    expect(eventTypes).toContain("content_block_delta")
    expect(eventTypes[eventTypes.length - 1]).toBe("message_stop")
    const whole = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(whole.code).toBe(0)
    expect(frames(whole.stdout).map((frame) => frame["type"])).toEqual(["system", "assistant", "result"])
  })

  it("a print run loads no Node.js module it does not use", async () => {
    // Each of these was loaded once by a print run that never used it (see the README's start-up notes).
    const unused = [
      "NativeModule module", // createRequire: and with it the ES module loader
      "NativeModule internal/modules/esm/loader",
      "NativeModule internal/fs/promises", // FileSystem.readDirectory: and with it readline
      "NativeModule readline",
      "NativeModule child_process",
      "NativeModule https",
      "NativeModule tls",
      "NativeModule tty", // asking whether stdin is a terminal, when it is a pipe
      "NativeModule zlib",
      "NativeModule worker_threads"
    ]
    const { root, dir, env } = await setup({ "notes.txt": "one\ntwo\n" }, (dir) => ({
      script: [
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "notes.txt") }, "r1")]),
        textTurn("Two lines."),
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "notes.txt") }, "r2")]),
        textTurn("Two lines.")
      ]
    }))
    const preload = join(root, "record-modules.cjs")
    const loaded = join(root, "modules.json")
    await writeFile(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)))\n`)
    // The second run finds the session store's project folder from the first and lists it.
    for (let run = 0; run < 2; run++) {
      const out = await runWeft(["-p", "count the lines"], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${preload}` } })
      expect(out).toMatchObject({ code: 0, stdout: "Two lines.\n" })
    }
    const modules: ReadonlyArray<string> = JSON.parse(await readFile(loaded, "utf8"))
    expect(modules).toContain("NativeModule http") // the recording works
    expect(modules.filter((name) => unused.includes(name))).toEqual([])
  })

  it("a long answer reaches stdout whole before weft exits", async () => {
    const answer = Array.from({ length: 40_000 }, (_, i) => `line ${i} of a long answer`).join("\n")
    const { dir, env } = await setup({}, () => ({ script: [textTurn(answer)] }))
    const out = await runWeft(["-p", "write a lot"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(out.stdout.length).toBe(answer.length + 1)
    expect(out.stdout).toBe(`${answer}\n`)
  })

  it("an https:// base URL is reached over TLS (node:https loads on first use in the bundle)", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("never")] }))
    // The mock server speaks plain HTTP: the TLS handshake fails, and weft says so in its result.
    const out = await runWeft(["-p", "hi", "--output-format", "json"], {
      cwd: dir,
      env: { ...env, ANTHROPIC_BASE_URL: server.url.replace("http:", "https:") }
    })
    expect(out.code).toBe(1)
    const result = JSON.parse(out.stdout)
    expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true })
    expect(result.result).toMatch(/Connection failed: .*(SSL|EPROTO|TLS)/i)
  })

  it("--disallowedTools removes a tool; without credentials it says what to set", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--disallowedTools", "Bash,WebFetch"], { cwd: dir, env })
    const init = frames(out.stdout)[0]
    expect(init?.["tools"]).not.toContain("Bash")
    expect(init?.["tools"]).not.toContain("WebFetch")
    expect(init?.["tools"]).toContain("Read")

    const bare = await runWeft(["-p", "hi"], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "", ANTHROPIC_BASE_URL: "", WEFT_HOME: env.WEFT_HOME }
    })
    expect(bare.code).toBe(1)
    expect(bare.stderr).toMatch(/ANTHROPIC_API_KEY/)
  })

  it("SIGINT during a Bash call that started a process tree leaves no process behind and ends with a result", async () => {
    const command =
      "bash -c 'trap \"\" TERM; echo $$ >> pids; sleep 300' & echo $! >> pids; sleep 300 & echo $! >> pids; echo $$ >> pids; wait"
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command, description: "start a tree" }, "tree")]), textTurn("never")]
    }))
    const run = startWeft(["-p", "start it", "--output-format", "stream-json"], { cwd: dir, env })
    const pidFile = join(dir, "pids")
    const readPids = async () =>
      (await readFile(pidFile, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map(Number)
    let pids: ReadonlyArray<number> = []
    await waitUntil(async () => (pids = await readPids()).length >= 4, "the process tree to start")
    expect(pids.length).toBe(4)
    run.child.kill("SIGINT")
    const out = await run.done
    expect(out.code).toBe(1)
    const result = resultFrame(out.stdout)
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true })
    const toolResult = frames(out.stdout).find((frame) => frame["type"] === "user")
    expect(JSON.stringify(toolResult)).toMatch(/"tool_use_id":"tree"/)
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), "every process of the tree to end", 10_000)
    expect(pids.filter(isAlive)).toEqual([])
  })
})
