import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { Hooks } from "../../src/hooks/Hooks.js"

const call = { sessionId: "s", cwd: "/p", toolName: "Bash", toolUseId: "t1", toolInput: { command: "ls" } }

describe("Hooks.makeLive", () => {
  it.effect("handlers registered later run beside the base ones, merged as any hooks of one event, until their scope closes", () =>
    Effect.gen(function* () {
      const base = yield* Hooks.makeWith({ handlers: { preToolUse: () => Effect.succeed({ permissionDecision: "allow" as const, additionalContext: "base" }) } })
      const live = yield* Hooks.makeLive(base)
      expect(yield* live.hooks.preToolUse(call)).toEqual({ permissionDecision: "allow", additionalContext: "base" })

      const scope = yield* Scope.make()
      yield* live
        .register({ preToolUse: () => Effect.succeed({ permissionDecision: "deny" as const, permissionDecisionReason: "host says no" }) })
        .pipe(Scope.provide(scope))
      // Deny beats allow, whichever set said it; contexts are kept.
      expect(yield* live.hooks.preToolUse(call)).toMatchObject({
        permissionDecision: "deny",
        permissionDecisionReason: "host says no",
        additionalContext: "base"
      })
      // Events the registered set does not handle answer as before.
      expect(yield* live.hooks.stop({ sessionId: "s", cwd: "/p", stopHookActive: false })).toEqual({})

      yield* Scope.close(scope, Exit.void)
      expect(yield* live.hooks.preToolUse(call)).toEqual({ permissionDecision: "allow", additionalContext: "base" })
    })
  )

  it.effect("over no hooks at all, a registered handler is the only one that runs", () =>
    Effect.gen(function* () {
      const live = yield* Hooks.makeLive(Hooks.none)
      const seen: Array<string> = []
      yield* live.register({ userPromptSubmit: (input) => Effect.sync(() => void seen.push(input.prompt)).pipe(Effect.as({ additionalContext: "ctx" })) })
      expect(yield* live.hooks.userPromptSubmit({ sessionId: "s", cwd: "/p", prompt: "hi" })).toEqual({ additionalContext: "ctx" })
      expect(seen).toEqual(["hi"])
    })
  )
})
