/**
 * weft -p and MCP servers as the session's settings decide them: project approvals from every settings scope and
 * Claude Code's own record, the servers' instructions, the connect timeout, tools denied whole, and stdout that
 * carries frames only. Through the built binary.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, repoRoot, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

const serverBin = (name: string) => join(repoRoot, "node_modules/@modelcontextprotocol", name, "dist/index.js")

/** A server that only leaves `started-<name>` in the project (stdio servers run there) and exits. */
const marking = (name: string) => ({
  command: process.execPath,
  args: ["-e", `require("fs").writeFileSync(${JSON.stringify(`started-${name}`)}, "ran")`]
})

const started = (dir: string, name: string) => existsSync(join(dir, `started-${name}`))

const mcpJson = JSON.stringify({ mcpServers: { x: marking("x"), y: marking("y") } })

/** A HOME of the test's own (no user settings, no ~/.claude.json leak in). */
const homeOf = (root: string) => {
  const home = join(root, "home")
  mkdirSync(home, { recursive: true })
  return home
}

const run = (args: ReadonlyArray<string>, cwd: string, env: Record<string, string>) =>
  runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose", ...args], { cwd, env: { ...env, CLAUDE_CONFIG_DIR: "" } })

describe("which project servers start is decided by the session's settings", () => {
  it("--settings refuses a server the project's settings approve", async () => {
    const files = { ".mcp.json": mcpJson, ".claude/settings.local.json": JSON.stringify({ enableAllProjectMcpServers: true }) }
    const { dir, root, env } = await setup(files, () => ({ script: [textTurn("Hi.")] }))
    const out = await run(["--trust-project", "--settings", JSON.stringify({ disabledMcpjsonServers: ["x"] })], dir, { ...env, HOME: homeOf(root) })
    expect(out.code).toBe(0)
    expect(started(dir, "x")).toBe(false)
    expect(started(dir, "y")).toBe(true)
    expect(frames(out.stdout)[0]?.["mcp_servers"]).toEqual([{ name: "y", status: "failed" }])
  })

  it("--trust-project lets the project's own approvals count; --setting-sources leaves out a scope's approvals", async () => {
    const files = { ".mcp.json": mcpJson, ".claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["x"] }) }
    const { dir, root, env } = await setup(files, () => ({ script: [textTurn("Hi."), textTurn("Hi.")] }))
    const home = homeOf(root)
    const trusted = await run(["--trust-project"], dir, { ...env, HOME: home })
    expect(trusted.code).toBe(0)
    expect(started(dir, "x")).toBe(true)
    expect(started(dir, "y")).toBe(false)

    const { dir: other, env: otherEnv } = await setup(files, () => ({ script: [textTurn("Hi.")] }))
    const userOnly = await run(["--setting-sources", "user"], other, { ...otherEnv, HOME: home, WEFT_TRUST_PROJECT: "1" })
    expect(userOnly.code).toBe(0)
    expect(started(other, "x")).toBe(false)
  })

  it("${VAR} in --mcp-config expands from the settings' env", async () => {
    const { dir, root, env } = await setup({}, () => ({ script: [textTurn("Hi.")] }))
    const config = { mcpServers: { v: { command: process.execPath, args: ["-e", 'require("fs").writeFileSync("started-${WEFT_TEST_SERVER_NAME}", "ran")'] } } }
    const settings = JSON.stringify({ env: { WEFT_TEST_SERVER_NAME: "from-settings" } })
    const out = await run(["--mcp-config", JSON.stringify(config), "--settings", settings], dir, { ...env, HOME: homeOf(root) })
    expect(out.code).toBe(0)
    expect(started(dir, "from-settings")).toBe(true)
  })

  it("Claude Code's record: a project whose trust dialog was accepted is trusted, and the approvals made there apply", async () => {
    const { dir, root, env } = await setup({ ".mcp.json": mcpJson }, () => ({ script: [textTurn("Hi.")] }))
    const home = homeOf(root)
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true, enabledMcpjsonServers: ["x", "y"], disabledMcpjsonServers: ["y"] } } })
    )
    const out = await run([], dir, { ...env, HOME: home })
    expect(out.code).toBe(0)
    expect(started(dir, "x")).toBe(true)
    expect(started(dir, "y")).toBe(false)
    expect(out.stderr).not.toMatch(/not trusted/)
  })

  it("a malformed ~/.claude.json trusts nothing and does not stop the run", async () => {
    const { dir, root, env } = await setup({ ".mcp.json": mcpJson }, () => ({ script: [textTurn("Hi.")] }))
    const home = homeOf(root)
    writeFileSync(join(home, ".claude.json"), `{"projects": {${JSON.stringify(dir)}: {"hasTrustDialogAccepted": true, `)
    const out = await run([], dir, { ...env, HOME: home })
    expect(out.code).toBe(0)
    expect(started(dir, "x")).toBe(false)
    expect(out.stderr).toMatch(/\.claude\.json is not valid JSON/)
  })
})

describe("MCP servers in the session", () => {
  const everything = { command: process.execPath, args: [serverBin("server-everything"), "stdio"] }

  it("a server's instructions reach the model in the system prompt", async () => {
    const { dir, root, env, server } = await setup({}, () => ({ script: [textTurn("Hi.")] }))
    const out = await run(["--mcp-config", JSON.stringify({ mcpServers: { everything } })], dir, { ...env, HOME: homeOf(root) })
    expect(out.code).toBe(0)
    const system = JSON.stringify(Reflect.get(Object(server.requests()[0]?.body), "system"))
    expect(system).toContain("# MCP Server Instructions")
    expect(system).toContain("The following MCP servers have provided instructions for how to use their tools and resources:")
    expect(system).toContain("## everything")
  })

  it("a server not connected when MCP_TIMEOUT runs out is failed in the init frame; --verbose says why on one line", async () => {
    const { dir, root, env } = await setup({}, () => ({ script: [textTurn("Hi.")] }))
    const silent = { command: process.execPath, args: ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"] }
    const out = await run(["--mcp-config", JSON.stringify({ mcpServers: { silent } })], dir, { ...env, HOME: homeOf(root), MCP_TIMEOUT: "500" })
    expect(out.code).toBe(0)
    expect(frames(out.stdout)[0]?.["mcp_servers"]).toEqual([{ name: "silent", status: "failed" }])
    const lines = out.stderr.split("\n").filter((line) => line.includes('MCP server "silent" failed'))
    expect(lines).toEqual(['weft: MCP server "silent" failed: did not connect within 500 ms (MCP_TIMEOUT)'])
  })

  it("--disallowedTools mcp__server / mcp__server__tool and deny rules of those forms take the tools out of the init frame and the request", async () => {
    const files = { ".claude/settings.json": JSON.stringify({ permissions: { deny: ["mcp__everything__get-sum"] } }) }
    const { dir, root, env, server } = await setup(files, () => ({ script: [textTurn("Hi.")] }))
    const config = JSON.stringify({ mcpServers: { everything, other: everything } })
    const out = await run(["--mcp-config", config, "--disallowedTools", "mcp__other", "--disallowedTools", "mcp__everything__echo"], dir, {
      ...env,
      HOME: homeOf(root)
    })
    expect(out.code).toBe(0)
    const tools = frames(out.stdout)[0]?.["tools"]
    expect(tools).toEqual(expect.arrayContaining(["mcp__everything__get-env"]))
    const offered = JSON.stringify(Reflect.get(Object(server.requests()[0]?.body), "tools"))
    expect(offered).toContain("mcp__everything__get-env")
    for (const gone of ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__other__get-env"]) {
      expect(tools).not.toContain(gone)
      expect(offered).not.toContain(`"${gone}"`)
    }
  })

  it.each(["json", "stream-json"])("--output-format %s: stdout carries frames only, whatever the MCP client library prints", async (format) => {
    const { dir, root, env } = await setup({}, () => ({ script: [ScriptTurn.blocks([toolUse("mcp__memory__read_graph", {}, "g1")]), textTurn("Done.")] }))
    const memory = { command: process.execPath, args: [serverBin("server-memory")], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } }
    const args = ["--output-format", format, "--mcp-config", JSON.stringify({ mcpServers: { memory } })]
    // An MCP prompt asked of a server that offers none: the library's note used to land on stdout.
    const prompt = await runWeft(["-p", "/mcp__memory__nothing", ...args], { cwd: dir, env: { ...env, HOME: homeOf(root) } })
    expect(prompt.code).toBe(1)
    expect(prompt.stdout).toBe("")
    expect(prompt.stderr).toMatch(/has no such prompt/)
    const session = await runWeft(["-p", "go", "--verbose", "--dangerously-skip-permissions", ...args], { cwd: dir, env: { ...env, HOME: homeOf(root) } })
    expect(session.code).toBe(0)
    expect(() => frames(session.stdout)).not.toThrow()
    // And the frames are there (an empty stdout parses too): the run's result last (json --verbose: one array of them).
    expect(frames(session.stdout).flat().at(-1)).toMatchObject({ type: "result", is_error: false })
    expect(session.stdout).toContain('"num_turns":2')
  })
})
