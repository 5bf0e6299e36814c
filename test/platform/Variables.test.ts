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

describe("Variables.flag", () => {
  const flag = (value: string | undefined) =>
    Variables.flag("SOME_SWITCH").pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(value === undefined ? [] : [["SOME_SWITCH", value]])))
    )
  it.effect("is on for 1, true, yes and on (any case, spaces around); off when unset, empty or anything else", () =>
    Effect.gen(function* () {
      for (const value of ["1", "true", "TRUE", " yes ", "On"]) expect(yield* flag(value)).toBe(true)
      for (const value of [undefined, "", "0", "false", "no", "off", "disabled"]) expect(yield* flag(value)).toBe(false)
    })
  )
})
