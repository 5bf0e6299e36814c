import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { expect } from "vitest"
import { main, observed } from "../../scratchpad/examples/in-process-hooks.js"

it.live("the in-process hooks example vetoes, rewrites, observes and asks the model to go on once", () =>
  Effect.gen(function* () {
    const { results, answer } = yield* main(false)
    expect(results[0]).toMatch(/^error: .*deleting is not allowed here \(rm -rf build\)/)
    expect(results[1]).toMatch(/^ok: .*listing.*\(checked by a hook\)/s)
    expect(observed).toEqual(['Bash: echo listing && echo "(checked by a hook)"'])
    expect(answer).toBe("I did not delete the build folder: a hook forbade it.")
  })
)
