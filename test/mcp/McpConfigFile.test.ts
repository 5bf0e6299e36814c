import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as McpConfig from "../../src/mcp/McpConfig.js"
import * as McpConfigFile from "../../src/mcp/McpConfigFile.js"
import { tempDir, write } from "../support/TempFiles.js"

const setup = () => {
  const home = tempDir()
  const cwd = tempDir()
  return { home, cwd, weftHome: path.join(home, ".weft") }
}

const stdio = (command: string) => ({ type: "stdio", command, args: [], env: {} })
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, "utf8"))

describe("McpConfigFile", () => {
  it.effect("add writes each scope where McpConfig reads it: local and user in weft's file, project in .mcp.json", () =>
    Effect.gen(function* () {
      const where = setup()
      yield* McpConfigFile.add("local", where, "l", stdio("local-cmd"))
      yield* McpConfigFile.add("user", where, "u", stdio("user-cmd"))
      yield* McpConfigFile.add("project", where, "p", stdio("project-cmd"))
      expect(readJson(path.join(where.weftHome, "mcp.json"))).toEqual({
        projects: { [where.cwd]: { mcpServers: { l: stdio("local-cmd") } } },
        mcpServers: { u: stdio("user-cmd") }
      })
      expect(readJson(path.join(where.cwd, ".mcp.json"))).toEqual({ mcpServers: { p: stdio("project-cmd") } })
      // weft's own file holds tokens: its owner's only.
      expect(fs.statSync(path.join(where.weftHome, "mcp.json")).mode & 0o777).toBe(0o600)
      const loaded = yield* McpConfig.load({
        ...where,
        project: Effect.succeed({ trusted: true, approvals: { enableAllProjectMcpServers: true } }),
        env: {}
      })
      expect(loaded.servers.map((server) => [server.name, server.scope])).toEqual([
        ["l", "local"],
        ["p", "project"],
        ["u", "user"]
      ])
    })
  )

  it.effect("a write keeps every other key and server, and refuses a name the scope already has", () =>
    Effect.gen(function* () {
      const where = setup()
      const file = path.join(where.cwd, ".mcp.json")
      write(file, JSON.stringify({ $schema: "x", mcpServers: { keep: { command: "k", custom: 1 } }, other: [1, 2] }))
      yield* McpConfigFile.add("project", where, "new", stdio("n"))
      expect(readJson(file)).toEqual({ $schema: "x", mcpServers: { keep: { command: "k", custom: 1 }, new: stdio("n") }, other: [1, 2] })
      const duplicate = yield* Effect.flip(McpConfigFile.add("project", where, "keep", stdio("other")))
      expect(duplicate.message).toMatch(/"keep" already exists in the project configuration/)
      expect(readJson(file)).toMatchObject({ mcpServers: { keep: { command: "k" } } })
      expect(yield* McpConfigFile.remove("project", where, "keep")).toBe(true)
      expect(yield* McpConfigFile.remove("project", where, "keep")).toBe(false)
      expect(readJson(file)).toEqual({ $schema: "x", mcpServers: { new: stdio("n") }, other: [1, 2] })
      // Nothing left behind beside it.
      expect(fs.readdirSync(where.cwd)).toEqual([".mcp.json"])
    })
  )

  it.effect.each([
    { text: "{ broken", says: "is not valid JSON" },
    { text: "[1, 2]", says: "expected a JSON object" }
  ])("a file that is not a JSON object ($text) is refused, never replaced, the message naming it and what is wrong", ({ text, says }) =>
    Effect.gen(function* () {
      const where = setup()
      const file = path.join(where.weftHome, "mcp.json")
      write(file, text)
      const error = yield* Effect.flip(McpConfigFile.add("user", where, "s", stdio("s")))
      expect(error.message).toContain(file)
      expect(error.message).toContain(says)
      expect(fs.readFileSync(file, "utf8")).toBe(text)
      // Listing reads it the same way: a warning, the file's servers left out.
      const { warnings } = yield* McpConfigFile.entries(where)
      expect(warnings).toEqual([`${error.message} (its MCP servers are left out)`])
    })
  )

  it.effect("a symbolic link stays one: the file it points to is rewritten, its mode kept", () =>
    Effect.gen(function* () {
      const where = setup()
      const real = path.join(where.home, "dotfiles", "mcp.json")
      write(real, JSON.stringify({ mcpServers: {} }))
      fs.chmodSync(real, 0o640)
      fs.mkdirSync(where.weftHome, { recursive: true })
      fs.symlinkSync(real, path.join(where.weftHome, "mcp.json"))
      yield* McpConfigFile.add("user", where, "s", stdio("s"))
      expect(fs.lstatSync(path.join(where.weftHome, "mcp.json")).isSymbolicLink()).toBe(true)
      expect(readJson(real)).toEqual({ mcpServers: { s: stdio("s") } })
      expect(fs.statSync(real).mode & 0o777).toBe(0o640)
    })
  )

  it.effect("entries lists every file's servers in precedence order, Claude Code's ~/.claude.json included (read only)", () =>
    Effect.gen(function* () {
      const where = setup()
      write(
        path.join(where.home, ".claude.json"),
        JSON.stringify({ mcpServers: { cu: stdio("cu") }, projects: { [where.cwd]: { mcpServers: { cl: stdio("cl") } } } })
      )
      yield* McpConfigFile.add("user", where, "wu", stdio("wu"))
      yield* McpConfigFile.add("local", where, "wl", stdio("wl"))
      write(path.join(where.cwd, ".mcp.json"), "not json")
      const { entries, warnings } = yield* McpConfigFile.entries(where)
      expect(entries.map((entry) => [entry.name, entry.scope, entry.writable])).toEqual([
        ["cl", "local", false],
        ["wl", "local", true],
        ["cu", "user", false],
        ["wu", "user", true]
      ])
      expect(warnings).toEqual([expect.stringContaining(path.join(where.cwd, ".mcp.json"))])
    })
  )
})
