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
import { Hooks } from "../../src/hooks/Hooks.js"
import { ApiClient } from "../../src/model/ApiClient.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import * as Builtin from "../../src/tools/builtin/index.js"
import { isRunning, sleepLive } from "../../src/tools/shell/ProcessGroup.js"
import { Credentials } from "../../src/platform/Credentials.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { tempDir } from "../support/TempFiles.js"

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

const environment = (home: string) =>
  ConfigProvider.fromMap(
    new Map([
      ["WEFT_HOME", home],
      ["ANTHROPIC_BASE_URL", "http://127.0.0.1:9"],
      ["ANTHROPIC_MODEL", "claude-test-model"]
    ])
  )

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] })

describe("SessionServices.make", () => {
  it.live("makes a session's services in its scope: tools, API client, permissions, hooks, transcript", () => {
    const home = tempDir()
    const cwd = tempDir()
    const sessionId = "0b7e8f3a-1111-4c4c-8888-000000000001"
    return Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* SessionServices.make({
        cwd,
        version: "test",
        removedTools: new Set(["WebFetch"]),
        deniedRules: ["WebFetch", "Bash(rm -rf /)"]
      }).pipe(Scope.extend(scope))

      const registry = Context.get(context, ToolRegistry)
      expect(registry.tools.map((tool) => tool.name)).toEqual(
        Builtin.all.map((tool) => tool.name).filter((name) => name !== "WebFetch")
      )
      expect(registry.definitions.map((definition) => definition.name)).toEqual(registry.tools.map((tool) => tool.name))
      expect(Context.get(context, ApiClient).defaultModel).toBe("claude-test-model")
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
      const second = yield* transcript.user(sessionId, user("two"))
      yield* Scope.close(scope, Exit.void)

      expect(isRunning(pid), `pid ${pid} still running`).toBe(false)
      const entries = yield* Effect.scoped(
        Effect.flatMap(SessionStore.makeJsonl({ home }), (store) => store.load(sessionId))
      ).pipe(Effect.provide(Credentials.layerNone))
      expect(entries.map((entry) => entry.uuid)).toEqual([first, second])
    }).pipe(Effect.provide(platform), Effect.withConfigProvider(environment(home)))
  })

  it.live("as a layer, provides the same services", () => {
    const home = tempDir()
    const cwd = tempDir()
    return Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const api = yield* ApiClient
      expect(registry.tools.map((tool) => tool.name)).toEqual(Builtin.all.map((tool) => tool.name))
      expect(api.defaultModel).toBe("claude-test-model")
    }).pipe(
      Effect.provide(SessionServices.layer({ cwd, version: "test" })),
      Effect.provide(platform),
      Effect.withConfigProvider(environment(home))
    )
  })
})
