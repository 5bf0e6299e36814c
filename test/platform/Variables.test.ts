import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Variables from "../../src/platform/Variables.js"

const read = (value: string | undefined) =>
  Variables.positiveInt("SOME_LIMIT").pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(value === undefined ? [] : [["SOME_LIMIT", value]])))
  )

describe("Variables.positiveInt", () => {
  it.effect("is the variable's positive integer; none when it is unset, empty or anything else", () =>
    Effect.gen(function* () {
      expect(yield* read("300")).toEqual(Option.some(300))
      for (const value of [undefined, "", "0", "-5", "1.5", "soon"]) expect(yield* read(value)).toEqual(Option.none())
    })
  )
})
