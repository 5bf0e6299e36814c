import { describe, expect, it } from "@effect/vitest"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as Agent from "../../src/agent/Agent.js"
import { Transcript } from "../../src/agent/Transcript.js"
import * as SessionServices from "../../src/cli/SessionServices.js"
import type { MessageParam } from "../../src/domain/Message.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { textTurn, toolTurn, toolUse } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import * as Builtin from "../../src/tools/builtin/index.js"
import { ToolRegistry } from "../../src/tools/ToolRegistry.js"
import { tempDir, write } from "../support/TempFiles.js"

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

const environment = (home: string) =>
  ConfigProvider.fromUnknown({ WEFT_HOME: home, ANTHROPIC_BASE_URL: "http://127.0.0.1:9" })

const sessionId = "5e55a0c1-0000-4000-8000-00000000000a"

describe("SessionStore.layerMemory in the session composition", () => {
  it.live("a whole run records into the memory store, and a second composition resumes from it", () => {
    const home = tempDir()
    const cwd = tempDir()
    write(nodePath.join(cwd, "notes.txt"), "the notes")
    // One store for both compositions, as two runs of the CLI share the files under $WEFT_HOME.
    const store = SessionStore.layerMemory()

    /** One run of the CLI: its services composed with the memory store, the loop run to its Result. */
    const session = (script: Parameters<typeof ScriptedModel.layer>[0], prompt: string, resumeFrom?: string) =>
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(SessionServices.layer(
            { cwd, version: "test" },
            {
              apiClient: ScriptedModel.layer(script),
              sessionStore: store,
              tools: ToolRegistry.layer(Builtin.ReadTool).pipe(Layer.provide(Builtin.layerServices({ cwd })))
            }
          ))
          let history: ReadonlyArray<MessageParam> | undefined
          if (resumeFrom !== undefined) {
            const resumed = yield* Context.get(context, SessionStore).resume(resumeFrom)
            expect(resumed.warnings).toEqual([])
            history = resumed.messages
            yield* Context.get(context, Transcript).setParent(resumed.leafUuid)
          }
          const events = yield* Agent.run({
            prompt,
            cwd,
            systemPrompt: "You are a test.",
            sessionId,
            ...(history === undefined ? {} : { history })
          }).pipe(Stream.runCollect, Effect.provide(context))
          return [...events]
        })
      )

    return Effect.gen(function* () {
      const first = yield* session(
        [toolTurn([toolUse("Read", { file_path: nodePath.join(cwd, "notes.txt") }, "toolu_read")]), textTurn("read it")],
        "read the notes"
      )
      expect(first.at(-1)).toMatchObject({ _tag: "Result", isError: false })

      const second = yield* session([textTurn("still here")], "and now?", sessionId)
      expect(second.at(-1)).toMatchObject({ _tag: "Result", isError: false })

      // Both runs are one conversation in the store: the second continued the first's chain.
      const resumed = yield* SessionStore.use((s) => s.resume(sessionId)).pipe(Effect.provide(store))
      expect(resumed.brokenChain).toBe(false)
      expect(resumed.turns).toBe(3)
      const texts = resumed.messages.map((message) =>
        typeof message.content === "string"
          ? message.content
          : message.content.map((block) => (block.type === "text" ? block.text : block.type)).join("|")
      )
      expect(texts).toEqual(["read the notes", "tool_use", "tool_result", "read it", "and now?", "still here"])
      const [info] = yield* SessionStore.use((s) => s.list(cwd)).pipe(Effect.provide(store))
      expect(info).toMatchObject({ sessionId, firstPrompt: "read the notes", turns: 3 })
      // Nothing went to disk.
      expect(fs.existsSync(nodePath.join(home, "projects"))).toBe(false)
    }).pipe(Effect.provide(platform), Effect.provideService(ConfigProvider.ConfigProvider, environment(home)))
  })
})
