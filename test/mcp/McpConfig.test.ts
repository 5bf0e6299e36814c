import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as path from "node:path"
import * as McpConfig from "../../src/mcp/McpConfig.js"
import * as Variables from "../../src/platform/Variables.js"
import { tempDir, write } from "../support/TempFiles.js"

const trusted = (approvals: McpConfig.Approvals = {}) => Effect.succeed({ trusted: true, approvals })
const untrusted = Effect.succeed({ trusted: false, approvals: { enableAllProjectMcpServers: true } })

const setup = () => {
  const home = tempDir()
  const project = tempDir()
  return { home, project, weftHome: path.join(home, ".weft") }
}

const server = (command: string) => ({ command, args: [] })

describe("McpConfig", () => {
  it("expands ${VAR} and ${VAR:-default}; a missing variable names itself", () => {
    expect(McpConfig.expand("a ${X} b ${Y:-dflt}", { X: "x" })).toEqual({ value: "a x b dflt" })
    expect(McpConfig.expand("${NOPE}", {})).toEqual({ missing: "NOPE" })
  })

  it("expands in command, args, env, url and headers; a missing variable is an error naming it and the server", () => {
    const env = { BIN: "/bin/srv", TOKEN: "t0k" }
    expect(
      McpConfig.parseServer("s", { command: "${BIN}", args: ["--t=${TOKEN}"], env: { K: "${TOKEN}" } }, "f", env)
    ).toEqual({ type: "stdio", command: "/bin/srv", args: ["--t=t0k"], env: { K: "t0k" }, cwd: undefined })
    expect(
      McpConfig.parseServer("h", { type: "http", url: "http://${HOST:-127.0.0.1}/mcp", headers: { A: "Bearer ${TOKEN}" } }, "f", env)
    ).toEqual({ type: "http", url: "http://127.0.0.1/mcp", headers: { A: "Bearer t0k" } })
    const missing = McpConfig.parseServer("gh", { command: "x", env: { T: "${GITHUB_TOKEN}" } }, "/p/.mcp.json", env)
    expect(missing).toBeInstanceOf(McpConfig.McpConfigError)
    expect(String(Reflect.get(Object(missing), "message"))).toMatch(/"gh".*GITHUB_TOKEN/)
  })

  it.effect("expands from the variables laid over weft's environment (the settings' env), which win over the process's", () =>
    Effect.gen(function* () {
      const { home, project, weftHome } = setup()
      write(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { p: server("${WEFT_TEST_MCP_BIN}") } }))
      const dynamic = JSON.stringify({ mcpServers: { d: { command: "x", args: ["${WEFT_TEST_MCP_ARG}", "${PATH}"] } } })
      const options = { cwd: project, home, weftHome, project: trusted({ enableAllProjectMcpServers: true }), mcpConfigs: [dynamic] }
      const loaded = yield* McpConfig.load(options).pipe(
        Variables.provideOverlay({ WEFT_TEST_MCP_BIN: "/bin/from-settings", WEFT_TEST_MCP_ARG: "arg", PATH: "/overlaid" })
      )
      const configs = Object.fromEntries(loaded.servers.map((s) => [s.name, s.config]))
      expect(configs["d"]).toMatchObject({ command: "x", args: ["arg", "/overlaid"] })
      expect(configs["p"]).toMatchObject({ command: "/bin/from-settings" })
      // Without the overlay the variables are missing: the servers cannot start.
      const bare = yield* McpConfig.load(options)
      expect(bare.servers.map((s) => s.config instanceof McpConfig.McpConfigError)).toEqual([true, true])
    })
  )

  it.effect("--mcp-config: inline JSON and files, repeatable; invalid JSON fails naming the configuration", () =>
    Effect.gen(function* () {
      const { home, project, weftHome } = setup()
      write(path.join(project, "servers.json"), JSON.stringify({ mcpServers: { b: server("b") } }))
      const loaded = yield* McpConfig.load({
        cwd: project,
        home,
        weftHome,
        project: trusted(),
        mcpConfigs: [JSON.stringify({ mcpServers: { a: server("a") } }), "servers.json"],
        env: {}
      })
      expect(loaded.servers.map((s) => [s.name, s.scope])).toEqual([
        ["a", "dynamic"],
        ["b", "dynamic"]
      ])
      write(path.join(project, "bad.json"), "{ not json")
      const bad = yield* Effect.flip(McpConfig.load({ cwd: project, home, weftHome, project: trusted(), mcpConfigs: ["bad.json"], env: {} }))
      expect(bad.message).toContain(path.join(project, "bad.json"))
      expect(bad.message).toMatch(/not valid JSON/)
    })
  )

  it.effect("scopes: dynamic > local > project > user; --strict-mcp-config keeps only --mcp-config's", () =>
    Effect.gen(function* () {
      const { home, project, weftHome } = setup()
      write(
        path.join(home, ".claude.json"),
        JSON.stringify({
          mcpServers: { u: server("user"), shared: server("user") },
          projects: { [project]: { mcpServers: { l: server("local"), shared: server("local") } } }
        })
      )
      write(path.join(weftHome, "mcp.json"), JSON.stringify({ mcpServers: { w: server("weft-user") } }))
      write(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { p: server("project"), shared: server("project") } }))
      const loaded = yield* McpConfig.load({
        cwd: project,
        home,
        weftHome,
        project: trusted({ enableAllProjectMcpServers: true }),
        env: {}
      })
      const commands = Object.fromEntries(
        loaded.servers.map((s) => [s.name, "command" in s.config ? s.config.command : "?"])
      )
      expect(commands).toEqual({ l: "local", shared: "local", p: "project", u: "user", w: "weft-user" })
      const strict = yield* McpConfig.load({
        cwd: project,
        home,
        weftHome,
        project: trusted({ enableAllProjectMcpServers: true }),
        mcpConfigs: [JSON.stringify({ mcpServers: { only: server("only") } })],
        strict: true,
        env: {}
      })
      expect(strict.servers.map((s) => s.name)).toEqual(["only"])
    })
  )

  it.effect("an untrusted project's .mcp.json is never used, whatever approves it; approvals pick a trusted project's servers", () =>
    Effect.gen(function* () {
      const { home, project, weftHome } = setup()
      write(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { evil: server("evil"), ok: server("ok"), off: server("off") } }))
      const notTrusted = yield* McpConfig.load({ cwd: project, home, weftHome, project: untrusted, env: {} })
      expect(notTrusted.servers).toEqual([])
      expect(notTrusted.skipped.map((s) => s.name)).toEqual([".mcp.json"])

      const approved = yield* McpConfig.load({
        cwd: project,
        home,
        weftHome,
        project: trusted({ enabledMcpjsonServers: ["ok", "off"], disabledMcpjsonServers: ["off"] }),
        env: {}
      })
      expect(approved.servers.map((s) => s.name)).toEqual(["ok"])
      expect(approved.skipped.map((s) => s.name).sort()).toEqual(["evil", "off"])
    })
  )

  it.effect("no .mcp.json: the project's trust is never asked for", () =>
    Effect.gen(function* () {
      const { home, project, weftHome } = setup()
      const loaded = yield* McpConfig.load({ cwd: project, home, weftHome, project: Effect.die("asked"), env: {} })
      expect(loaded.servers).toEqual([])
    })
  )
})
