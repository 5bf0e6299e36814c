/**
 * Settings as a Claude Code user brings them, through the built binary: `env` applied (to weft and to what it
 * starts), `model`, `apiKeyHelper`, key-by-key decoding that never widens what runs, `--settings` errors, and the
 * keys weft does not implement named under --verbose.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, repoRoot, runWeft, toolResults, useSessions } from "./harness.js"

const { setup } = useSessions()

/** A project whose user settings (under `root`, the HOME of the run) and project settings are given. */
const withSettings = async (
  script: Parameters<typeof setup>[1],
  settings: { readonly user?: unknown; readonly project?: unknown; readonly files?: Readonly<Record<string, string>> }
) => {
  const files: Record<string, string> = { ...settings.files }
  if (settings.project !== undefined) files[".claude/settings.json"] = JSON.stringify(settings.project)
  const session = await setup(files, script)
  if (settings.user !== undefined) {
    await mkdir(join(session.root, ".claude"), { recursive: true })
    await writeFile(join(session.root, ".claude/settings.json"), JSON.stringify(settings.user))
  }
  return { ...session, env: { ...session.env, HOME: session.root } }
}

/** Every file under `dir`, recursively, as text. */
const allText = (dir: string): string =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
        .join("\n")
    : ""

const serverEverything = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")

describe("settings env", () => {
  const probe = 'echo "x=${X_FROM_SETTINGS:-absent}"'
  const script = () => ({
    script: [
      ScriptTurn.blocks([
        toolUse("Bash", { command: probe }, "fg"),
        toolUse("Bash", { command: `${probe} > bg.txt; mv bg.txt bg.done`, run_in_background: true }, "bg"),
        toolUse("mcp__everything__get-env", {}, "mcp")
      ]),
      ScriptTurn.blocks([toolUse("Bash", { command: "while [ ! -e bg.done ]; do sleep 0.02; done; cat bg.done; cat hook.txt" }, "wait")]),
      textTurn("done")
    ]
  })
  const project = {
    env: { X_FROM_SETTINGS: "from-project" },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'echo "hook=${X_FROM_SETTINGS:-absent}" > hook.txt' }] }] }
  }
  const mcpConfig = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverEverything, "stdio"] } } })
  const args = ["-p", "env", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--mcp-config", mcpConfig]

  it("of a trusted project reaches Bash, background shells, hooks and MCP stdio servers", async () => {
    const { dir, env } = await withSettings(script, { project })
    const out = await runWeft([...args, "--trust-project"], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const results = toolResults(out.stdout)
    expect(results["fg"]).toBe("x=from-project")
    expect(results["wait"]).toBe("x=from-project\nhook=from-project")
    expect(JSON.stringify(results["mcp"])).toContain("from-project")
  })

  it("of an untrusted project never applies (its hooks do not run either)", async () => {
    const { dir, env } = await withSettings(script, { project: { env: project.env } })
    const out = await runWeft(args, { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const results = toolResults(out.stdout)
    expect(results["fg"]).toBe("x=absent")
    expect(JSON.stringify(results["mcp"])).not.toContain("from-project")
    expect(out.stderr).toContain("not trusted")
  })

  it("configures weft itself (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, DISABLE_PROMPT_CACHING), credentials still withheld", async () => {
    const key = "sk-ant-from-settings-0123456789"
    const session = await withSettings(
      () => ({ script: [ScriptTurn.blocks([toolUse("Bash", { command: 'echo "key=${#ANTHROPIC_API_KEY}"; env | grep -c from-settings-0123' }, "probe")]), textTurn("done")] }),
      {}
    )
    const { dir, env, server } = session
    await mkdir(join(session.root, ".claude"), { recursive: true })
    await writeFile(
      join(session.root, ".claude/settings.json"),
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: env.ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY: key, DISABLE_PROMPT_CACHING: "1" } })
    )
    const { ANTHROPIC_BASE_URL: _url, ANTHROPIC_API_KEY: _key, ...rest } = env
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], {
      cwd: dir,
      env: { ...rest, ANTHROPIC_BASE_URL: "", ANTHROPIC_API_KEY: "" }
    })
    expect(out.code, out.stderr).toBe(0)
    const requests = server.requests()
    expect(requests.length).toBe(2)
    expect(requests[0]?.headers["x-api-key"]).toBe(key)
    expect(JSON.stringify(requests[0]?.body)).not.toContain("cache_control")
    // Withheld from the model's commands, by name and by value, and redacted from what weft prints.
    expect(toolResults(out.stdout)["probe"]).toBe("key=0\n0\nExit code 1")
    expect(out.stdout).not.toContain(key)
    expect(frames(out.stdout)[0]?.["apiKeySource"]).toBe("ANTHROPIC_API_KEY")
  })
})

describe("settings model", () => {
  it("chooses the model, below ANTHROPIC_MODEL and --model", async () => {
    const { dir, env, server } = await withSettings(() => ({ script: [textTurn("one")] }), { user: { model: "model-from-settings" } })
    const model = () => server.requests().at(-1)?.body as { model?: string }
    expect((await runWeft(["-p", "hi"], { cwd: dir, env })).code).toBe(0)
    expect(model().model).toBe("model-from-settings")
    expect((await runWeft(["-p", "hi"], { cwd: dir, env: { ...env, ANTHROPIC_MODEL: "model-from-env" } })).code).toBe(0)
    expect(model().model).toBe("model-from-env")
    expect((await runWeft(["-p", "hi", "--model", "model-from-flag"], { cwd: dir, env: { ...env, ANTHROPIC_MODEL: "model-from-env" } })).code).toBe(0)
    expect(model().model).toBe("model-from-flag")
  })
})

describe("apiKeyHelper", () => {
  // Counts its runs in `count` beside the project and prints a key that names the run.
  const helper = (dir: string) => `n=$(cat "${dir}/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/count"; echo " helper-key-000$n "`
  const runs = (dir: string) => Number(readFileSync(join(dir, "count"), "utf8").trim())
  const twoTurns = () => ({ script: [ScriptTurn.blocks([toolUse("Bash", { command: "true" }, "t")]), textTurn("done")] })
  const noKey = (env: Record<string, string>) => ({ ...env, ANTHROPIC_API_KEY: "" })

  it("gives the key, sent as x-api-key and Authorization: Bearer, once for the session; written nowhere", async () => {
    const session = await withSettings(twoTurns, {})
    const { root, dir, env, server, home } = session
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(join(root, ".claude/settings.json"), JSON.stringify({ apiKeyHelper: helper(root) }))
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env: noKey(env) })
    expect(out.code, out.stderr).toBe(0)
    const requests = server.requests()
    expect(requests.length).toBe(2)
    for (const request of requests) {
      expect(request.headers["x-api-key"]).toBe("helper-key-0001")
      expect(request.headers["authorization"]).toBe("Bearer helper-key-0001")
    }
    expect(runs(root)).toBe(1)
    expect(frames(out.stdout)[0]?.["apiKeySource"]).toBe("apiKeyHelper")
    expect(out.stdout + out.stderr + allText(home)).not.toContain("helper-key-0001")
  })

  it("runs again when CLAUDE_CODE_API_KEY_HELPER_TTL_MS has passed", async () => {
    const session = await withSettings(twoTurns, {})
    const { root, dir, env, server } = session
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(join(root, ".claude/settings.json"), JSON.stringify({ apiKeyHelper: helper(root), env: { CLAUDE_CODE_API_KEY_HELPER_TTL_MS: "1" } }))
    const out = await runWeft(["-p", "go", "--dangerously-skip-permissions"], { cwd: dir, env: noKey(env) })
    expect(out.code, out.stderr).toBe(0)
    expect(server.requests().map((request) => request.headers["x-api-key"])).toEqual(["helper-key-0001", "helper-key-0002"])
    expect(runs(root)).toBe(2)
  })

  it("runs again after a 401, and the request is sent once more", async () => {
    const session = await withSettings(
      () => ({
        script: [textTurn("done")],
        // The server accepts only the helper's second key.
        pick: (request) => (request.headers["x-api-key"] === "helper-key-0002" ? 0 : ScriptTurn.status(401))
      }),
      {}
    )
    const { root, dir, env, server } = session
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(join(root, ".claude/settings.json"), JSON.stringify({ apiKeyHelper: helper(root) }))
    const out = await runWeft(["-p", "go"], { cwd: dir, env: noKey(env) })
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toContain("done")
    expect(server.requests().map((request) => request.headers["x-api-key"])).toEqual(["helper-key-0001", "helper-key-0002"])
    expect(runs(root)).toBe(2)
  })

  it("that fails says so on stderr with its exit code and settings file, never its output", async () => {
    const session = await withSettings(() => ({ script: [textTurn("unused")] }), {})
    const { root, dir, env, server } = session
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(join(root, ".claude/settings.json"), JSON.stringify({ apiKeyHelper: "echo half-secret-value; echo oops >&2; exit 3" }))
    const out = await runWeft(["-p", "go"], { cwd: dir, env: noKey(env) })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`apiKeyHelper (from ${join(root, ".claude/settings.json")}) exited with code 3`)
    expect(out.stdout + out.stderr).not.toContain("half-secret-value")
    expect(server.requests()).toEqual([])
  })

  it("of an untrusted project never runs", async () => {
    const { dir, env, server } = await withSettings(() => ({ script: [textTurn("done")] }), {
      project: { apiKeyHelper: "touch helper-ran; echo project-key" }
    })
    const out = await runWeft(["-p", "go"], { cwd: dir, env: noKey(env) })
    expect(out.stderr).toContain("apiKeyHelper")
    expect(existsSync(join(dir, "helper-ran"))).toBe(false)
    expect(server.requests().every((request) => request.headers["x-api-key"] !== "project-key")).toBe(true)
    // The run went on without it (a vacuous `every` above otherwise): the one request carried no key.
    expect(server.requests().map((request) => request.headers["x-api-key"])).toEqual([undefined])
    expect(out.stderr).toMatch(/not trusted.*\(apiKeyHelper\)/)
  })
})

describe("a broken settings file never widens what runs", () => {
  it("a typo in permissions.allow leaves the file's deny rules in force", async () => {
    const { dir, env } = await withSettings(
      () => ({ script: [ScriptTurn.blocks([toolUse("Bash", { command: "touch ran" }, "b")]), textTurn("done")] }),
      { user: { permissions: { allow: ["Read", 3], deny: ["Bash"] } } }
    )
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "ran"))).toBe(false)
    expect(out.stderr).toMatch(/settings\.json: ignoring permissions\.allow/)
  })

  it("a settings file that is not JSON stops the run, naming it; nothing is sent", async () => {
    const { dir, env, server } = await withSettings(() => ({ script: [textTurn("unused")] }), {
      user: { permissions: { deny: ["Bash"] } },
      files: { ".claude/settings.local.json": "{ \"permissions\": { \"deny\": [\"Write\"], } }" }
    })
    const out = await runWeft(["-p", "go"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(join(dir, ".claude/settings.local.json"))
    expect(out.stderr).toContain("not valid JSON")
    expect(server.requests()).toEqual([])
  })
})

describe("--settings", () => {
  it("naming a missing file or invalid JSON exits 1 naming the flag", async () => {
    const { dir, env, server } = await withSettings(() => ({ script: [textTurn("unused")] }), { files: { "bad.json": "{ nope" } })
    for (const value of ["missing.json", "bad.json", "{ not json"]) {
      const out = await runWeft(["-p", "go", "--settings", value], { cwd: dir, env })
      expect(out.code, value).toBe(1)
      expect(out.stderr, value).toMatch(/--settings.*(no such file|not valid JSON)/)
    }
    expect(server.requests()).toEqual([])
  })
})

describe("keys weft does not implement", () => {
  it("are named once on stderr under --verbose, and not without it", async () => {
    const { dir, env } = await withSettings(() => ({ script: [textTurn("done"), textTurn("done")] }), {
      user: { statusLine: { type: "command", command: "x" }, outputStyle: "Explanatory", alwaysThinkingEnabled: true, sandbox: {} },
      files: { "flag.json": JSON.stringify({ statusLine: { type: "command", command: "y" } }) }
    })
    const verbose = await runWeft(["-p", "go", "--verbose", "--settings", "flag.json"], { cwd: dir, env })
    expect(verbose.code, verbose.stderr).toBe(0)
    const lines = verbose.stderr.split("\n").filter((line) => line.includes("does not implement"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("statusLine")
    expect(lines[0]?.match(/statusLine/g)).toHaveLength(1)
    expect(lines[0]).toContain("outputStyle")
    expect(lines[0]).toContain("alwaysThinkingEnabled")
    expect(lines[0]).not.toContain("sandbox")
    const quiet = await runWeft(["-p", "go"], { cwd: dir, env })
    expect(quiet.stderr).not.toContain("does not implement")
  })
})
