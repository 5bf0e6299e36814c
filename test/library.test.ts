/**
 * The public entry points: which modules "weft" exports (the library's API, not its internals), and their shape:
 * one namespace per module (`import { ToolRegistry } from "weft"`), its service under the module's name
 * (`ToolRegistry.ToolRegistry`, the Tag), its constructors at the namespace's top level (`ToolRegistry.layer(...)`),
 * as `ScriptedModel.layer(...)` reads in "weft/testing", named by one rule (docs/architecture.md, Conventions).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as weft from "weft"
import * as weftTesting from "weft/testing"

describe("the library's modules", () => {
  it("weft exports the services an agent is composed of and the data the loop speaks, not the modules inside them", () => {
    expect(Object.keys(weft).sort()).toEqual([
      "Agent",
      "AgentDefinitions",
      "AgentEvent",
      "ApiClient",
      "ApiError",
      "Builtin",
      "ChildEnvironment",
      "Content",
      "Credentials",
      "Environment",
      "Extensions",
      "Hooks",
      "Memory",
      "Message",
      "NodeApiClient",
      "Permissions",
      "Prompter",
      "Request",
      "Sandbox",
      "Session",
      "SessionStore",
      "Settings",
      "StreamEvent",
      "SystemPrompt",
      "Tool",
      "ToolRegistry",
      "Transcript",
      "TranscriptEntry",
      "Trust",
      "Usage"
    ])
  })

  it("weft/testing exports the test doubles and their scripts", () => {
    expect(Object.keys(weftTesting).sort()).toEqual(["Fault", "MockAnthropicServer", "Script", "ScriptTurn", "ScriptedModel"])
  })
})

const serviceModules = [
  "ApiClient",
  "ChildEnvironment",
  "Credentials",
  "Environment",
  "Extensions",
  "Hooks",
  "Memory",
  "Permissions",
  "Prompter",
  "Sandbox",
  "Session",
  "SessionStore",
  "Settings",
  "ToolRegistry",
  "Transcript"
] as const
const services: Record<string, object> = {
  ...Object.fromEntries(serviceModules.map((name) => [name, weft[name]])),
  MockAnthropicServer: weftTesting.MockAnthropicServer,
  ScriptedModel: weftTesting.ScriptedModel
}

/** A constructor's name says what it answers: `make...` an Effect, `layer...` a Layer (the value, or what a call gives). */
const constructors = (tag: object) => Object.keys(tag).filter((key) => /^(make|layer)/.test(key))

describe("the library's names", () => {
  for (const [name, module] of Object.entries(services)) {
    it(`${name}: the Tag is ${name}.${name}, and each of its make... and layer... statics is also ${name}.<name>`, () => {
      const tag: unknown = Reflect.get(module, name)
      if (!Context.isKey(tag)) throw new Error(`${name}.${name} is not a Tag`)
      const statics = constructors(tag)
      expect(statics.filter((key) => key.startsWith("layer")).length).toBeGreaterThan(0)
      for (const key of statics.filter((key) => key.startsWith("layer"))) {
        expect(Reflect.get(module, key), `${name}.${key}`).toBe(Reflect.get(tag, key))
      }
      for (const key of statics) {
        const value: unknown = Reflect.get(tag, key)
        if (typeof value === "function") continue
        if (key.startsWith("layer")) expect(Layer.isLayer(value), `${name}.${key} is a Layer`).toBe(true)
        else expect(Effect.isEffect(value), `${name}.${key} is an Effect`).toBe(true)
      }
    })
  }
})
