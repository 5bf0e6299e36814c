import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { GrepTool } from "../../../src/tools/builtin/Grep.js"
import { runTool, searchLayer, textOf } from "./support.js"

export type Engine = "builtin" | "rg"

/** Runs Grep in `root` with the engine forced (WEFT_GREP_ENGINE, restored afterwards); the call's Exit. */
export const runGrep = (engine: Engine, input: Record<string, unknown>, root: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = process.env["WEFT_GREP_ENGINE"]
      process.env["WEFT_GREP_ENGINE"] = engine
      return previous
    }),
    () => Effect.exit(runTool(GrepTool, input, root).pipe(Effect.provide(searchLayer(root)))),
    (previous) =>
      Effect.sync(() => {
        if (previous === undefined) delete process.env["WEFT_GREP_ENGINE"]
        else process.env["WEFT_GREP_ENGINE"] = previous
      })
  )

/** Runs Grep on both engines; checks they succeed with the same text, and returns it. */
export const bothEngines = (input: Record<string, unknown>, root: string) =>
  Effect.gen(function* () {
    const builtin = yield* runGrep("builtin", input, root)
    const rg = yield* runGrep("rg", input, root)
    if (Exit.isFailure(builtin) || Exit.isFailure(rg)) {
      return yield* Effect.die(new Error(`grep failed: builtin=${JSON.stringify(builtin)} rg=${JSON.stringify(rg)}`))
    }
    expect(textOf(builtin.value.result)).toBe(textOf(rg.value.result))
    expect(builtin.value.result.data).toEqual({ engine: "builtin" })
    expect(rg.value.result.data).toEqual({ engine: "rg" })
    return textOf(builtin.value.result)
  })
