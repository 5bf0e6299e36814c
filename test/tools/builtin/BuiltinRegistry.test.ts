import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { all } from "../../../src/tools/builtin/all.js"
import * as BuiltinRegistry from "../../../src/tools/builtin/BuiltinRegistry.js"
import { ToolRegistry } from "../../../src/tools/ToolRegistry.js"
import { tempDir } from "./helpers.js"

describe("BuiltinRegistry", () => {
  const session = BuiltinRegistry.layerNode({ cwd: process.cwd() })

  it.effect("offers the model what a registry of the typed tools offers", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const typed = yield* ToolRegistry.make(...all).pipe(Effect.provide(BuiltinRegistry.layerServices({ cwd: process.cwd() })))
      expect(registry.definitions).toEqual(typed.definitions)
      expect(registry.tools.map((tool) => tool.readOnly)).toEqual(typed.tools.map((tool) => tool.readOnly))
    }).pipe(Effect.provide(session))
  )

  it.effect("runs a tool on the session's services", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const dir = yield* tempDir
      const path = NodePath.join(dir, "notes.txt")
      yield* Effect.promise(() => NodeFs.writeFile(path, "one\ntwo\n"))
      const context = { toolUseId: "t", sessionId: "s", cwd: dir }
      const read = yield* registry.get("Read")
      const output = yield* Effect.flatMap(read.prepare({ file_path: path }, context), (call) => Stream.runCollect(call.run()))
      expect(JSON.stringify(output)).toContain("1\\tone")
      // A wrong input is the tool's own message.
      const invalid = yield* Effect.flip(read.prepare({ file_path: path, limit: 0 }, context))
      expect(invalid.message).toBe("Invalid input for Read: limit: expected an integer >= 1, got 0")
    }).pipe(Effect.provide(session))
  )
})
