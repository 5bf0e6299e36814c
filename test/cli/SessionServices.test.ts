import { McpClient } from "../../src/mcp/McpClient.js"
import { describe, expect, it } from "@effect/vitest"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { Transcript } from "../../src/agent/Transcript.js"
import * as SessionServices from "../../src/cli/SessionServices.js"
import { Environment } from "../../src/context/Environment.js"
import { Extensions } from "../../src/extensions/Extensions.js"
import { Settings } from "../../src/context/Settings.js"
import { Memory } from "../../src/context/Memory.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import { ApiClient } from "../../src/model/ApiClient.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import { ChildEnvironment } from "../../src/platform/ChildEnvironment.js"
import { Credentials } from "../../src/platform/Credentials.js"
import * as Variables from "../../src/platform/Variables.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { textTurn } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Builtin from "../../src/tools/builtin/index.js"
import { isRunning, sleepLive } from "../../src/tools/shell/ProcessGroup.js"
import * as Tool from "../../src/tools/Tool.js"
import { Sandbox } from "../../src/sandbox/Sandbox.js"
import { ShellSession } from "../../src/tools/ShellSession.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { tempDir, write } from "../support/TempFiles.js"
import { answerMessage } from "../session/entries.js"

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

const variablesOf = (home: string): ReadonlyArray<readonly [string, string]> => [
  ["WEFT_HOME", home],
  ["ANTHROPIC_BASE_URL", "http://127.0.0.1:9"],
  ["ANTHROPIC_MODEL", "claude-test-model"]
]

const environment = (home: string) => ConfigProvider.fromEnv({ env: Object.fromEntries(variablesOf(home)) })

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] })
/** An answer of the model (the transcript writes nothing before the first one). */
const answer = answerMessage

/** The session built in the current scope (Layer.build also hands back its memo map: not a session service). */
const build = <E>(options: SessionServices.Options, overrides?: SessionServices.Overrides<E>) =>
  Layer.build(SessionServices.layer(options, overrides)).pipe(Effect.map(Context.omit(Layer.CurrentMemoMap)))

const serviceKeys = (context: Context.Context<never>) => [...context.mapUnsafe.keys()].sort()

describe("SessionServices", () => {
  it.live("a session's services in its scope, closed in order (shells end, the transcript is written)", () => {
    const home = tempDir()
    const cwd = tempDir()
    write(nodePath.join(cwd, "CLAUDE.md"), "Use tabs.")
    const sessionId = "0b7e8f3a-1111-4c4c-8888-000000000001"
    return Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* build({
        cwd,
        version: "test",
        additionalDirectories: ["extra"],
        removedTools: new Set(["WebFetch"]),
        deniedRules: ["WebFetch", "Bash(rm -rf /)"]
      }).pipe(Scope.provide(scope))

      const registry = Context.get(context, ToolRegistry)
      expect(registry.tools.map((tool) => tool.name)).toEqual(
        Builtin.all.map((tool) => tool.name).filter((name) => name !== "WebFetch")
      )
      expect(registry.definitions.map((definition) => definition.name)).toEqual(registry.tools.map((tool) => tool.name))
      expect(Context.get(context, ApiClient).defaultModel).toBe("claude-test-model")
      expect(Context.get(context, Environment).cwd).toBe(cwd)
      expect(Context.get(context, Environment).additionalDirectories).toEqual([nodePath.join(cwd, "extra")])
      expect(Context.get(context, Memory).files.map((file) => file.content)).toContain("Use tabs.")
      const permissions = Context.get(context, Permissions)
      const denied = yield* permissions.check({
        toolName: "Bash",
        toolUseId: "t1",
        input: { command: "rm -rf /" },
        target: { _tag: "Command", command: "rm -rf /" },
        readOnly: false
      })
      expect(denied._tag).toBe("Deny")
      expect(yield* Context.get(context, Hooks).userPromptSubmit({ sessionId, cwd, prompt: "hi" })).toEqual({})

      // A background shell started through the registry belongs to the session's scope.
      const bash = yield* registry.get("Bash")
      const call = yield* bash.prepare(
        { command: "echo $$ > pid; sleep 1000", run_in_background: true },
        { toolUseId: "t2", sessionId, cwd }
      )
      yield* Stream.runDrain(call.run())
      const pidFile = nodePath.join(cwd, "pid")
      for (let attempt = 0; attempt < 1000 && !fs.existsSync(pidFile); attempt++) yield* sleepLive(10)
      const pid = Number(fs.readFileSync(pidFile, "utf8").trim())
      expect(isRunning(pid)).toBe(true)

      // The transcript writes in the background; closing the scope flushes it before the store closes its files.
      const transcript = Context.get(context, Transcript)
      const first = yield* transcript.user(sessionId, user("one"))
      const second = yield* transcript.assistant(sessionId, answer("two"))
      yield* Scope.close(scope, Exit.void)

      expect(isRunning(pid), `pid ${pid} still running`).toBe(false)
      const entries = yield* Effect.scoped(
        Effect.flatMap(SessionStore.make({ home }), (store) => store.load(sessionId))
      ).pipe(Effect.provide(Credentials.layerNone))
      expect(entries.map((entry) => entry.uuid)).toEqual([first, second])
    }).pipe(Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })

  it.live("overrides replace their part; removed tools are removed from an overriding registry too", () => {
    const home = tempDir()
    const cwd = tempDir()
    return Effect.gen(function* () {
      const asked: Array<string> = []
      const context = yield* build(
        { cwd, version: "test", removedTools: new Set(["Read"]) },
        {
          apiClient: ScriptedModel.layer([textTurn("scripted")], { defaultModel: "claude-scripted" }),
          permissions: Permissions.layerPermissive({ mode: "plan" }),
          hooks: Hooks.layerWith({
            handlers: { userPromptSubmit: (input) => Effect.sync(() => void asked.push(input.prompt)).pipe(Effect.as({})) }
          }),
          sessionStore: SessionStore.layerMemory(),
          tools: ToolRegistry.layer(Builtin.ReadTool, Builtin.GlobTool).pipe(Layer.provide(Builtin.layerServices({ cwd })))
        }
      )
      expect(Context.get(context, ApiClient).defaultModel).toBe("claude-scripted")
      expect(Context.get(context, Permissions).mode).toBe("plan")
      yield* Context.get(context, Hooks).userPromptSubmit({ sessionId: "s", cwd, prompt: "hello" })
      expect(asked).toEqual(["hello"])
      expect(Context.get(context, ToolRegistry).tools.map((tool) => tool.name)).toEqual(["Glob"])
      // The default Transcript writes to the overriding store.
      const uuid = yield* Context.get(context, Transcript).assistant("s1", answer("kept in memory"))
      yield* Context.get(context, Transcript).flush
      const entries = yield* Context.get(context, SessionStore).load("s1")
      expect(entries.map((entry) => entry.uuid)).toEqual([uuid])
      expect(fs.existsSync(nodePath.join(home, "projects"))).toBe(false)
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })


  // MAX_MCP_OUTPUT_TOKENS through the session's Config: set, an MCP tool's output over it is cut with a note naming
  // it; unset, the default bound leaves the same output whole.
  it.live.each([
    { variables: [["MAX_MCP_OUTPUT_TOKENS", "10"]] as const, bounded: true },
    { variables: [] as const, bounded: false }
  ])("an MCP tool's output is bounded by MAX_MCP_OUTPUT_TOKENS from the session's Config (bounded: $bounded)", ({ variables, bounded }) => {
    const home = tempDir()
    const cwd = tempDir()
    const server = nodePath.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
    const message = "m".repeat(200)
    return Effect.gen(function* () {
      const context = yield* build(
        {
          cwd,
          version: "test",
          mcpServers: [
            { name: "everything", scope: "dynamic", origin: "test", config: { type: "stdio", command: process.execPath, args: [server, "stdio"], env: {} } }
          ]
        },
        { apiClient: ScriptedModel.layer([]), sessionStore: SessionStore.layerMemory() }
      )
      const echo = yield* Context.get(context, ToolRegistry).get("mcp__everything__echo")
      const call = yield* echo.prepare({ message }, { toolUseId: "t1", sessionId: "s1", cwd })
      const result = yield* Tool.outcome(call, echo.name)
      const content = typeof result.content === "string" ? [] : result.content
      if (bounded) {
        // 10 tokens: 40 characters of the echo, then the note.
        expect(content).toEqual([
          { type: "text", text: `Echo: ${message}`.slice(0, 40) },
          { type: "text", text: expect.stringMatching(/over the limit of 10 \(MAX_MCP_OUTPUT_TOKENS\)/) }
        ])
      } else {
        expect(content).toEqual([{ type: "text", text: `Echo: ${message}` }])
      }
    }).pipe(
      Effect.scoped,
      Effect.provide(platform),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: Object.fromEntries([...variablesOf(home), ...variables]) }))
    )
  })

  it.live("MCP tools denied whole (mcp__server, mcp__server__tool) by --disallowedTools or a settings deny rule are not offered", () => {
    const home = tempDir()
    const cwd = tempDir()
    const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } })
    const mcp: McpClient["Service"] = {
      ...McpClient.none,
      tools: () => [
        { server: "srv", tools: [tool("a"), tool("b")] },
        { server: "other", tools: [tool("x"), tool("y")] },
        { server: "srv2", tools: [tool("a")] }
      ]
    }
    return Effect.gen(function* () {
      const context = yield* build(
        {
          cwd,
          version: "test",
          deniedRules: ["mcp__srv"],
          settings: Settings.fromValue({ permissions: { deny: ["mcp__other__y"] } }, { projectDir: cwd })
        },
        { apiClient: ScriptedModel.layer([]), sessionStore: SessionStore.layerMemory(), mcp: Layer.succeed(McpClient, mcp) }
      )
      const registry = Context.get(context, ToolRegistry)
      const names = registry.tools.map((entry) => entry.name).filter((name) => name.startsWith("mcp__"))
      // `mcp__srv` is the server srv, by whole name parts: srv2's tools stay.
      expect(names).toEqual(["mcp__other__x", "mcp__srv2__a"])
      expect(registry.definitions.map((definition) => definition.name)).not.toContain("mcp__srv__a")
      expect(registry.tools.map((entry) => entry.name)).toContain("Read")
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })

  it.live("the layer provides the session's services, each part once", () => {
    const home = tempDir()
    const cwd = tempDir()
    const options = { cwd, version: "test", removedTools: new Set(["Bash"]) }
    return Effect.gen(function* () {
      const context = yield* build(options)
      expect(serviceKeys(context)).toEqual(
        [Credentials, Settings, Extensions, ChildEnvironment, Environment, Memory, SessionStore, Transcript, ApiClient, Sandbox, ShellSession, Permissions, Hooks, McpClient, ToolRegistry].map((tag) => tag.key).sort()
      )
      expect(Context.get(context, ToolRegistry).tools.map((tool) => tool.name)).toEqual(
        Builtin.all.map((tool) => tool.name).filter((name) => name !== "Bash")
      )
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })

  it.live("the settings' env is weft's environment for the session: the client, the children, the run; model below it", () => {
    const home = tempDir()
    const cwd = tempDir()
    const withSettings = (value: Settings["Service"]["value"]) => ({
      cwd,
      version: "test",
      credentials: Credentials.fromValues([]),
      settings: Settings.fromValue(value, { projectDir: cwd, home })
    })
    const withoutModel = ConfigProvider.fromEnv({ env: { WEFT_HOME: home, ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } })
    return Effect.gen(function* () {
      const key = "sk-ant-session-settings-0123456789"
      const options = withSettings({ model: "model-from-settings", env: { ANTHROPIC_MODEL: "model-from-env-key", ANTHROPIC_API_KEY: key, FROM_SETTINGS: "1" } })
      const seen = yield* Effect.gen(function* () {
        const shell = yield* (yield* ChildEnvironment).shell
        return {
          model: (yield* ApiClient).defaultModel,
          shell: shell["FROM_SETTINGS"],
          shellKey: shell["ANTHROPIC_API_KEY"],
          run: yield* Variables.value("FROM_SETTINGS"),
          redacted: (yield* Credentials).redact(`the key is ${key}`)
        }
      }).pipe(Effect.provide(SessionServices.layer(options)))
      expect(seen).toEqual({ model: "model-from-env-key", shell: "1", shellKey: undefined, run: "1", redacted: "the key is [REDACTED]" })
      // Outside the session, nothing of it.
      expect(yield* Variables.value("FROM_SETTINGS")).toBeUndefined()
      const model = yield* ApiClient.use((client) => Effect.succeed(client.defaultModel)).pipe(
        Effect.provide(SessionServices.layer(withSettings({ model: "model-from-settings" })))
      )
      expect(model).toBe("model-from-settings")
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, withoutModel))
  })

  it.live("the sandbox part follows the settings in force (a value given, or a Layer overriding it) and --sandbox", () => {
    const home = tempDir()
    const cwd = tempDir()
    const stateOf = <E>(options: SessionServices.Options, overrides?: SessionServices.Overrides<E>) =>
      Effect.map(build(options, overrides), (context) => Context.get(context, Sandbox).state._tag)
    const off = Settings.fromValue({}, { projectDir: cwd, home })
    const on = Settings.fromValue({ sandbox: { enabled: true } }, { projectDir: cwd, home })
    return Effect.gen(function* () {
      expect(yield* stateOf({ cwd, version: "test", settings: off })).toBe("Off")
      expect(yield* stateOf({ cwd, version: "test", settings: on })).not.toBe("Off")
      expect(yield* stateOf({ cwd, version: "test", settings: off, sandbox: true })).not.toBe("Off")
      // The Layer's settings are the ones in force, whatever value is also given.
      expect(yield* stateOf({ cwd, version: "test", settings: off }, { settings: Layer.succeed(Settings, on) })).not.toBe("Off")
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })

  // Where a Bash command's relative paths land: the session's shell's directory (after a `cd`), which Permissions
  // reads from the ShellSession part, the one the Bash tool runs in.
  it.live("Permissions resolves a Bash command's paths in the session shell's current directory", () => {
    const home = tempDir()
    const cwd = tempDir()
    fs.mkdirSync(nodePath.join(cwd, ".git"))
    return Effect.gen(function* () {
      const context = yield* build({ cwd, version: "test", permissionMode: "acceptEdits" })
      const permissions = Context.get(context, Permissions)
      const check = permissions.check({
        toolName: "Bash",
        toolUseId: "t1",
        input: { command: "echo x > config" },
        target: { _tag: "Command", command: "echo x > config" },
        readOnly: false
      })
      expect((yield* check)._tag).toBe("Allow")
      const bash = yield* Context.get(context, ToolRegistry).get("Bash")
      yield* Tool.outcome(yield* bash.prepare({ command: "cd .git" }, { toolUseId: "t2", sessionId: "s1", cwd }), bash.name)
      expect(yield* Context.get(context, ShellSession).cwd).toBe(nodePath.join(cwd, ".git"))
      const moved = yield* check
      expect(moved).toMatchObject({ _tag: "Ask", reason: expect.stringContaining(".git") })
    }).pipe(Effect.scoped, Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })

  // A Layer value is memoized by reference, also across a nested Effect.provide: a session inside another must not get
  // the outer one's services (its shell's tools, an environment made from the outer session's settings).
  it.live("a session inside another one's scope has services of its own", () => {
    const home = tempDir()
    const outerCwd = tempDir()
    const innerCwd = tempDir()
    const inner = SessionServices.layer({
      cwd: innerCwd,
      version: "test",
      settings: Settings.fromValue({ shellEnvironmentPolicy: { inherit: "none", set: { INNER: "1" } } }, { projectDir: innerCwd })
    })
    const services = Effect.all([Credentials, ChildEnvironment, ApiClient, ShellSession, ToolRegistry])
    return Effect.gen(function* () {
      const outer = yield* services
      const nested = yield* Effect.provide(services, inner)
      for (const [i, service] of nested.entries()) expect(service).not.toBe(outer[i])
      expect(yield* nested[1].shell).toMatchObject({ INNER: "1" })
      expect(yield* outer[1].shell).not.toHaveProperty("INNER")
      expect(yield* nested[3].cwd).toBe(innerCwd)
    }).pipe(
      Effect.provide(SessionServices.layer({ cwd: outerCwd, version: "test" })),
      Effect.provide(platform),
      Effect.provideService(ConfigProvider.ConfigProvider, environment(home))
    )
  })
})
