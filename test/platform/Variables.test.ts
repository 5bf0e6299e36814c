import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Variables from "../../src/platform/Variables.js"

const read = (value: string | undefined) =>
  Variables.positiveInt("SOME_LIMIT").pipe(
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(value === undefined ? {} : { SOME_LIMIT: value }))
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
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(value === undefined ? {} : { SOME_SWITCH: value }))
    )
  it.effect("is on for 1, true, yes and on (any case, spaces around); off when unset, empty or anything else", () =>
    Effect.gen(function* () {
      for (const value of ["1", "true", "TRUE", " yes ", "On"]) expect(yield* flag(value)).toBe(true)
      for (const value of [undefined, "", "0", "false", "no", "off", "disabled"]) expect(yield* flag(value)).toBe(false)
    })
  )
})

describe("Variables.value", () => {
  const name = "WEFT_VARIABLES_TEST_VALUE"
  const withEnv = <A>(value: string | undefined, read: () => A): A => {
    const before = process.env[name]
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
    try {
      return read()
    } finally {
      if (before === undefined) delete process.env[name]
      else process.env[name] = before
    }
  }

  it("under the default provider, reads process.env and answers what Config.String does there", () => {
    // Effect's default provider is a copy of the environment made at its first use, reading "" as absent; a new
    // fromEnv() keeping empty strings is the environment as it is now, as the direct read sees it.
    const environment = () => ConfigProvider.fromEnv({ preserveEmptyStrings: true })
    for (const value of [undefined, "", "  ", "plain", "a,b,c", "x=y z", "ünïcode"]) {
      // The default provider takes the direct read; a new fromEnv() instance goes through Config's interpreter.
      const direct = withEnv(value, () => Effect.runSync(Variables.value(name)))
      const throughConfig = withEnv(value, () =>
        Effect.runSync(Variables.value(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, environment())))
      )
      const config = withEnv(value, () =>
        Effect.runSync(Variables.throughConfig(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, environment())))
      )
      expect(direct).toBe(value)
      expect(throughConfig).toBe(value)
      expect(config).toBe(value)
    }
  })

  it("under another provider, answers that provider's value, whatever process.env holds", () => {
    const provided = ConfigProvider.fromUnknown({ [name]: "from the map" })
    expect(withEnv("from the process", () => Effect.runSync(Variables.value(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, provided))))).toBe(
      "from the map"
    )
    expect(
      withEnv("from the process", () =>
        Effect.runSync(Variables.value(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown({}))))
      )
    ).toBeUndefined()
    // A provider that nests or renames paths is honoured too (it is read through Config).
    const nested = ConfigProvider.fromEnv({ env: { [`APP_${name}`]: "nested" } }).pipe(ConfigProvider.nested("APP"))
    expect(Effect.runSync(Variables.value(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, nested)))).toBe("nested")
  })
})

describe("Variables.withOverlay", () => {
  const name = "WEFT_VARIABLES_TEST_OVERLAY"
  it.effect("answers the overlay's variables first (empty ones kept), the provider below for the rest, Config included", () =>
    Effect.gen(function* () {
      const base = ConfigProvider.fromUnknown({ BELOW: "below", [name]: "below" })
      const laid = Variables.withOverlay(base, { [name]: "over", EMPTY: "" })
      const read = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, ConfigProvider.ConfigProvider, laid)
      expect(yield* read(Variables.value(name))).toBe("over")
      expect(yield* read(Variables.value("EMPTY"))).toBe("")
      expect(yield* read(Variables.value("BELOW"))).toBe("below")
      expect(yield* read(Variables.value("NOWHERE"))).toBeUndefined()
      expect(yield* read(Variables.throughConfig(name))).toBe("over")
      expect(yield* read(Variables.value("toString"))).toBeUndefined()
      expect(yield* read(Variables.overlay)).toEqual({ [name]: "over", EMPTY: "" })
      expect(yield* Variables.overlay).toEqual({})
      // Laid over another overlay (a session inside a session): each wins over the ones below it.
      const inner = Variables.withOverlay(laid, { INNER: "inner", EMPTY: "inner" })
      const readInner = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, ConfigProvider.ConfigProvider, inner)
      expect(yield* readInner(Variables.overlay)).toEqual({ [name]: "over", EMPTY: "inner", INNER: "inner" })
      expect(yield* readInner(Variables.value(name))).toBe("over")
      expect(yield* readInner(Variables.value("BELOW"))).toBe("below")
    })
  )

  it("over the default provider, reads the process's environment for what it does not set", () => {
    process.env[name] = "process"
    try {
      const program = Effect.all([Variables.value(name), Variables.value("WEFT_VARIABLES_TEST_SET")]).pipe(
        Effect.provide(Variables.layerOverlay({ WEFT_VARIABLES_TEST_SET: "set" }))
      )
      expect(Effect.runSync(program)).toEqual(["process", "set"])
    } finally {
      delete process.env[name]
    }
  })

  it.effect("provideOverlay lays the variables over the provider in force for one effect; an empty set lays nothing", () =>
    Effect.gen(function* () {
      const base = ConfigProvider.fromUnknown({ BELOW: "below", [name]: "below" })
      const under = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, ConfigProvider.ConfigProvider, base)
      const both = Effect.all([Variables.value(name), Variables.value("BELOW"), Variables.overlay])
      expect(yield* under(both.pipe(Variables.provideOverlay({ [name]: "over" })))).toEqual(["over", "below", { [name]: "over" }])
      // Nothing laid: the provider in force itself, no overlay made.
      expect(yield* under(Effect.map(both.pipe(Variables.provideOverlay({})), ([value, , laid]) => [value, laid]))).toEqual(["below", {}])
      expect(yield* under(ConfigProvider.ConfigProvider.use((provider) => Effect.succeed(provider === base)).pipe(Variables.provideOverlay({})))).toBe(true)
    })
  )
})
