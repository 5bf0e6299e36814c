import { it } from "@effect/vitest"
import { expect } from "vitest"
import * as Effect from "effect/Effect"
import { main, toolAnswers } from "../scratchpad/examples/custom-tool.js"

it.effect("the custom-tool example runs its agent end to end: the custom tool's own answer reaches the model", () =>
  Effect.gen(function* () {
    expect(yield* main(false)).toBe("The file has 9 words.")
    // The scripted answer is fixed in advance; what the tools answered is not.
    expect(toolAnswers["count"]).toBe("9")
    expect(toolAnswers["read"]).toContain("the quick brown fox jumps over the lazy dog")
  })
)
