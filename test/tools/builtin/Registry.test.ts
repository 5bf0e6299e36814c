import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { EditTool } from "../../../src/tools/builtin/Edit.js"
import { NotebookEditTool } from "../../../src/tools/builtin/NotebookEdit.js"
import { ReadTool } from "../../../src/tools/builtin/Read.js"
import { TodoStore, TodoWriteTool } from "../../../src/tools/builtin/TodoWrite.js"
import { WebFetchTool } from "../../../src/tools/builtin/WebFetch.js"
import { WriteTool } from "../../../src/tools/builtin/Write.js"
import { FileState } from "../../../src/tools/FileState.js"
import { ToolRegistry } from "../../../src/tools/ToolRegistry.js"
import * as NodeApiClient from "../../../src/model/NodeApiClient.js"
import { tempDir } from "./helpers.js"

/** The composition the loop uses: the tools plus the Layers they need. */
const Registry = ToolRegistry.layer(ReadTool, WriteTool, EditTool, NotebookEditTool, TodoWriteTool, WebFetchTool).pipe(
  Layer.provide(Layer.mergeAll(NodeFileSystem.layer, FileState.layer, TodoStore.layer, NodeApiClient.layerHttpClient))
)

describe("file tools in a ToolRegistry", () => {
  it.live("register under Claude Code's names and run through prepare", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      expect(registry.definitions.map((definition) => definition.name)).toEqual([
        "Read",
        "Write",
        "Edit",
        "NotebookEdit",
        "TodoWrite",
        "WebFetch"
      ])
      const dir = yield* tempDir
      const path = NodePath.join(dir, "f.txt")
      yield* Effect.promise(() => NodeFs.writeFile(path, "x = 1\n"))
      const context = { toolUseId: "t", sessionId: "s", cwd: dir }
      const run = (name: string, input: unknown) =>
        Effect.gen(function* () {
          const tool = yield* registry.get(name)
          const call = yield* tool.prepare(input, context)
          return yield* Stream.runCollect(call.run())
        })
      yield* run("Read", { file_path: path })
      yield* run("Edit", { file_path: path, old_string: "1", new_string: "2" })
      expect(yield* Effect.promise(() => NodeFs.readFile(path, "utf8"))).toBe("x = 2\n")
      const invalid = yield* Effect.flip(run("Read", { file_path: path, limit: 0 }))
      expect(invalid._tag).toBe("InvalidToolInput")
      // One message per field, without Effect's "Expected undefined" for the other member of an optional's union.
      expect(invalid.message).toBe("Invalid input for Read: limit: expected an integer >= 1, got 0")
      const twoFields = yield* Effect.flip(run("Read", { file_path: 3, offset: "x" }))
      expect(twoFields.message).toBe(
        "Invalid input for Read: file_path: Expected string, actual 3; offset: Expected number, actual \"x\""
      )
    }).pipe(Effect.scoped, Effect.provide(Registry))
  )
})
