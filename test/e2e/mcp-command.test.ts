/** `weft mcp list | get | add | add-json | remove` through the built binary, with HOME and WEFT_HOME in a temp dir. */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { makeProject, repoRoot, runWeft } from "./harness.js"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const everything = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")

const project = async (files: Record<string, string> = {}) => {
  const made = await makeProject(files)
  cleanups.push(made.cleanup)
  const env = { HOME: made.root, WEFT_HOME: made.home, MCP_TIMEOUT: "20000" }
  const weft = (...args: Array<string>) => runWeft(["mcp", ...args], { cwd: made.dir, env })
  return { ...made, weft }
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"))

describe("weft mcp", () => {
  it("add writes each scope's file; list checks health, get shows one, remove takes it out", async () => {
    const marker = "project-server-ran.txt"
    const { dir, home, weft } = await project({
      ".mcp.json": JSON.stringify({
        mcpServers: { repo: { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`] } }
      }),
      // The repository approving its own server: must not count while the project is untrusted.
      ".claude/settings.json": JSON.stringify({ enableAllProjectMcpServers: true })
    })

    // A server command's own options pass through after its command.
    const added = await weft("add", "-e", "GREETING=hi", "everything", process.execPath, everything, "stdio")
    expect(added).toMatchObject({ code: 0 })
    expect(added.stdout).toContain("Added MCP server everything to the local configuration")
    expect((await weft("add", "--scope", "user", "--transport", "http", "-H", "Authorization: Bearer t0k", "web", "http://127.0.0.1:9/mcp")).code).toBe(0)
    expect((await weft("add-json", "-s", "user", "broken", JSON.stringify({ command: process.execPath, args: ["-e", "process.exit(3)"] }))).code).toBe(0)
    // After the command, what is not weft's option is the command's own.
    expect((await weft("add", "flags", "/bin/false", "-y", "--quiet")).code).toBe(0)
    expect(readJson(join(home, "mcp.json"))).toMatchObject({ projects: { [dir]: { mcpServers: { flags: { args: ["-y", "--quiet"] } } } } })
    expect((await weft("remove", "flags", "--scope", "local")).code).toBe(0)

    expect(readJson(join(home, "mcp.json"))).toEqual({
      projects: { [dir]: { mcpServers: { everything: { type: "stdio", command: process.execPath, args: [everything, "stdio"], env: { GREETING: "hi" } } } } },
      mcpServers: {
        web: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t0k" } },
        broken: { command: process.execPath, args: ["-e", "process.exit(3)"] }
      }
    })

    // A name the scope has is refused, saying so; the file is unchanged.
    const duplicate = await weft("add", "--scope", "user", "web", "other")
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toMatch(/"web" already exists in the user configuration/)

    const list = await weft("list")
    expect(list.code).toBe(0)
    const lines = list.stdout.split("\n")
    expect(lines).toContainEqual(expect.stringMatching(/^everything \(local\): .*server-everything.* stdio - ✓ Connected$/))
    expect(lines).toContainEqual(expect.stringMatching(/^repo \(project\): .* - not started: the project is not trusted/))
    expect(lines).toContainEqual(expect.stringMatching(/^web \(user\): http:\/\/127\.0\.0\.1:9\/mcp \(HTTP\) - ✗ Failed to connect/))
    expect(lines).toContainEqual(expect.stringMatching(/^broken \(user\): .* - ✗ Failed to connect/))
    // An untrusted project's server is listed, never run.
    expect(existsSync(join(dir, marker))).toBe(false)

    const get = await weft("get", "everything")
    expect(get.code).toBe(0)
    expect(get.stdout).toContain("Scope: local")
    expect(get.stdout).toContain("Status: ✓ Connected")
    expect(get.stdout).toContain("GREETING=hi")
    expect(get.stdout).toContain("weft mcp remove everything --scope local")
    expect((await weft("get", "nope")).code).toBe(1)

    const removed = await weft("remove", "everything")
    expect(removed.code).toBe(0)
    expect(removed.stdout).toContain("Removed MCP server everything from the local configuration")
    expect((await weft("remove", "everything")).code).toBe(1)
    expect(readJson(join(home, "mcp.json"))).toMatchObject({ projects: { [dir]: { mcpServers: {} } } })
    expect((await weft("list")).stdout).not.toContain("everything")
  })

  it("project scope writes .mcp.json, keeping its other keys; a server in ~/.claude.json is shown but not rewritten", async () => {
    const { dir, root, weft } = await project({ ".mcp.json": JSON.stringify({ mcpServers: {}, note: "kept" }) })
    const { writeFileSync } = await import("node:fs")
    writeFileSync(join(root, ".claude.json"), JSON.stringify({ mcpServers: { claude: { command: "true" } } }))
    expect((await weft("add", "--scope=project", "--transport=sse", "events", "https://example.com/sse")).code).toBe(0)
    expect(readJson(join(dir, ".mcp.json"))).toEqual({ mcpServers: { events: { type: "sse", url: "https://example.com/sse" } }, note: "kept" })
    const get = await weft("get", "claude")
    expect(get.stdout).toContain(`in ${join(root, ".claude.json")}`)
    const remove = await weft("remove", "claude")
    expect(remove.code).toBe(1)
    expect(remove.stderr).toContain("Claude Code's configuration")
    expect(readJson(join(root, ".claude.json"))).toEqual({ mcpServers: { claude: { command: "true" } } })
  })

  it("usage errors: a bad name, a URL without --transport, an unknown option", async () => {
    const { weft } = await project()
    expect((await weft("add", "bad name", "cmd")).stderr).toMatch(/may only have letters/)
    expect((await weft("add", "web", "https://example.com/mcp")).stderr).toMatch(/give --transport http/)
    expect((await weft("add", "--bogus", "x", "y")).stderr).toMatch(/unknown option --bogus/)
    expect((await weft("--help")).stdout).toContain("weft mcp add [options] <name> <commandOrUrl> [args...]")
  })
})
