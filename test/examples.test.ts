import { it } from "@effect/vitest"
import { expect } from "vitest"
import * as Effect from "effect/Effect"
import { main } from "../scratchpad/examples/custom-tool.js"

it.effect("the custom-tool example runs its agent end to end with the scripted model", () =>
  Effect.gen(function* () {
    expect(yield* main(false)).toBe("The file has 9 words.")
  })
)
