/**
 * The public entry points' shape: one namespace per module (`import { ToolRegistry } from "weft"`), its main type
 * under the module's name (`ToolRegistry.ToolRegistry`, the Tag), and its constructors at the namespace's top
 * level (`ToolRegistry.layer(...)`), as `ScriptedModel.layer(...)` reads in "weft/testing".
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import { ApiClient, Environment, Hooks, Memory, Permissions, SessionStore, ToolRegistry, Transcript } from "weft"
import { ScriptedModel } from "weft/testing"

const services = { ApiClient, Environment, Hooks, Memory, Permissions, SessionStore, ToolRegistry, Transcript, ScriptedModel }

describe("the library's names", () => {
  for (const [name, module] of Object.entries(services)) {
    it(`${name}: the Tag is ${name}.${name}, and each of its layers is also ${name}.<layer>`, () => {
      const tag: unknown = Reflect.get(module, name)
      if (!Context.isKey(tag)) throw new Error(`${name}.${name} is not a Tag`)
      const statics = Object.keys(tag).filter((key) => key.startsWith("layer"))
      expect(statics.length).toBeGreaterThan(0)
      for (const key of statics) expect(Reflect.get(module, key), `${name}.${key}`).toBe(Reflect.get(tag, key))
    })
  }
})
