/** Who answers an ask: the Prompter in the context Permissions is made in, and nobody (a denial) without one. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Settings } from "../../src/context/Settings.js"
import { type CheckRequest, Permissions } from "../../src/permissions/Permissions.js"
import { Prompter, type PromptRequest, unansweredReason } from "../../src/permissions/Prompter.js"
import { tempDir } from "../support/TempFiles.js"

const request: CheckRequest = {
  toolName: "Bash",
  toolUseId: "toolu_1",
  input: { command: "make" },
  target: { _tag: "Command", command: "make" },
  readOnly: false
}

const permissionsIn = (dir: string) => Permissions.layer().pipe(Layer.provide(Settings.layerFromValue({}, { projectDir: dir, home: dir })))

describe("Permissions and the Prompter", () => {
  it.effect("puts an ask to the context's Prompter", () => {
    const asked: Array<PromptRequest> = []
    const prompter = Prompter.layer((prompt) =>
      Effect.sync(() => {
        asked.push(prompt)
        return prompt.reason === "yes?" ? { _tag: "Allow" as const } : { _tag: "Deny" as const, reason: "not now" }
      })
    )
    return Effect.gen(function* () {
      const permissions = yield* Permissions
      expect(yield* permissions.prompt(request, "yes?")).toEqual({ _tag: "Allow" })
      expect(yield* permissions.prompt(request, "no?")).toEqual({ _tag: "Deny", reason: "not now" })
      expect(asked.map((prompt) => [prompt.toolName, prompt.reason])).toEqual([["Bash", "yes?"], ["Bash", "no?"]])
    }).pipe(Effect.provide(permissionsIn(tempDir()).pipe(Layer.provide(prompter))))
  })

  it.effect("without one, nobody answers: the ask is a denial the model reads", () =>
    Effect.gen(function* () {
      const permissions = yield* Permissions
      const reason = "it runs a program."
      expect(yield* permissions.prompt(request, reason)).toEqual({
        _tag: "Deny",
        reason: unansweredReason({ toolName: "Bash", toolUseId: "toolu_1", input: request.input, target: request.target, reason })
      })
    }).pipe(Effect.provide(permissionsIn(tempDir())))
  )
})
