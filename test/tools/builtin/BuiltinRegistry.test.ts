import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { all } from "../../../src/tools/builtin/all.js"
import * as BuiltinRegistry from "../../../src/tools/builtin/BuiltinRegistry.js"
import { definitions } from "../../../src/tools/builtin/definitions.js"
import { TodoWriteTool } from "../../../src/tools/builtin/TodoWrite.js"
import * as Tool from "../../../src/tools/Tool.js"
import { ToolRegistry } from "../../../src/tools/ToolRegistry.js"
import { tempDir } from "./helpers.js"

describe("the built-in tools' definitions", () => {
  it("are the typed tools', in their order, and each tool's loader loads that very tool", async () => {
    expect(definitions.map((definition) => definition.name)).toEqual(all.map((tool) => tool.name))
    expect(Object.keys(BuiltinRegistry.loaders).sort()).toEqual(all.map((tool) => tool.name).sort())
    for (const [index, definition] of definitions.entries()) {
      const loaded = await BuiltinRegistry.loaders[definition.name]!()
      expect(loaded).toBe(all[index])
      expect(Tool.definitionOf(loaded)).toEqual(definition)
    }
  })

  it("survive JSON (the binary's build writes them into the bundle as JSON)", () => {
    expect(JSON.parse(JSON.stringify(definitions))).toEqual(definitions)
  })
})

describe("BuiltinRegistry", () => {
  const session = BuiltinRegistry.layerNode({ cwd: process.cwd() })

  it.effect("offers the model what a registry of the typed tools offers", () =>
    Effect.gen(function* () {
      const deferred = yield* ToolRegistry
      const typed = yield* ToolRegistry.make(...all).pipe(Effect.provide(BuiltinRegistry.layerServices({ cwd: process.cwd() })))
      expect(deferred.definitions).toEqual(typed.definitions)
      expect(deferred.tools.map((tool) => tool.readOnly)).toEqual(typed.tools.map((tool) => tool.readOnly))
    }).pipe(Effect.provide(session))
  )

  it.effect("runs a tool through its module, loaded on the first call", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const dir = yield* tempDir
      const path = NodePath.join(dir, "notes.txt")
      yield* Effect.promise(() => NodeFs.writeFile(path, "one\ntwo\n"))
      const context = { toolUseId: "t", sessionId: "s", cwd: dir }
      const read = yield* registry.get("Read")
      const output = yield* Effect.flatMap(read.prepare({ file_path: path }, context), (call) => Stream.runCollect(call.run()))
      expect(JSON.stringify(output)).toContain("1\\tone")
      // The loaded tool decodes: a wrong input is the tool's own message.
      const invalid = yield* Effect.flip(read.prepare({ file_path: path, limit: 0 }, context))
      expect(invalid.message).toBe("Invalid input for Read: limit: expected an integer >= 1, got 0")
    }).pipe(Effect.provide(session))
  )
})

describe("Tool.deferred", () => {
  it.effect("loads once, on the first call, and shows its definition until then", () =>
    Effect.gen(function* () {
      let loads = 0
      const typed = TodoWriteTool
      const definition = Tool.definitionOf(typed)
      const tool = Tool.deferred(
        definition,
        Effect.sync(() => {
          loads++
          return Tool.erase(typed, () => Stream.empty)
        })
      )
      expect(tool.inputJsonSchema).toBe(definition.inputJsonSchema)
      expect(loads).toBe(0)
      const context = { toolUseId: "t", sessionId: "s", cwd: "/" }
      yield* Effect.flip(tool.prepare({ todos: "not a list" }, context))
      yield* tool.prepare({ todos: [] }, context)
      expect(loads).toBe(1)
    })
  )
})
