import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Hooks } from "../../src/hooks/Hooks.js"

const context = { sessionId: "s", cwd: "/project" }
const tool = { ...context, toolName: "Read", toolUseId: "t1", toolInput: {} }

describe("Hooks", () => {
  it.effect("each entry point runs in a span named after it, for in-process handlers as for command hooks", () =>
    Effect.gen(function* () {
      const spans: Array<string> = []
      const seen = Effect.map(Effect.currentSpan, (span) => void spans.push(span.name)).pipe(Effect.orDie, Effect.as({}))
      const hooks = yield* Hooks.makeWith({
        handlers: { sessionStart: () => seen, preToolUse: () => seen, postToolUse: () => seen, stop: () => seen, sessionEnd: () => seen }
      })
      yield* hooks.sessionStart({ ...context, source: "startup" })
      yield* hooks.preToolUse(tool)
      yield* hooks.postToolUse({ ...tool, toolResponse: "ok" })
      yield* hooks.stop({ ...context, stopHookActive: false })
      yield* hooks.sessionEnd({ ...context, reason: "other" })
      expect(spans).toEqual(["Hooks.sessionStart", "Hooks.preToolUse", "Hooks.postToolUse", "Hooks.stop", "Hooks.sessionEnd"])
    })
  )

  it.effect("no hooks: nothing runs and nothing is traced", () =>
    Effect.gen(function* () {
      const hooks = yield* Hooks.makeWith({})
      expect(hooks).toBe(Hooks.none)
      expect(yield* hooks.preToolUse(tool)).toEqual({})
    })
  )
})
