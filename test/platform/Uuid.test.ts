import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Uuid from "../../src/platform/Uuid.js"

const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const three = Effect.all([Uuid.v4, Uuid.v4, Uuid.v4])

describe("Uuid.v4", () => {
  it.effect("under effect's default Random: v4 uuids from crypto, not from Math.random", () =>
    Effect.gen(function* () {
      const original = Math.random
      Math.random = () => 0.5
      const ids = yield* three.pipe(Effect.ensuring(Effect.sync(() => void (Math.random = original))))
      for (const id of ids) expect(id).toMatch(v4)
      expect(new Set(ids).size).toBe(3)
    })
  )

  it.effect("under a seeded Random: the same v4 uuids for the same seed", () =>
    Effect.gen(function* () {
      const first = yield* three.pipe(Random.withSeed("uuids"))
      const again = yield* three.pipe(Random.withSeed("uuids"))
      const other = yield* three.pipe(Random.withSeed("other"))
      for (const id of [...first, ...other]) expect(id).toMatch(v4)
      expect(new Set(first).size).toBe(3)
      expect(again).toEqual(first)
      expect(other).not.toEqual(first)
    })
  )

  it("sets the version and variant bits whatever the draws", () => {
    expect(Uuid.fromRandom({ nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 })).toBe("00000000-0000-4000-8000-000000000000")
    expect(Uuid.fromRandom({ nextDoubleUnsafe: () => 0.9999999, nextIntUnsafe: () => 0 })).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff")
  })
})

describe("Uuid.maker", () => {
  const threeMade = Effect.map(Uuid.maker, (make) => [make(), make(), make()])

  it.effect("draws as v4 does: the same uuids under the same seed, from crypto under the default Random", () =>
    Effect.gen(function* () {
      const seeded = yield* threeMade.pipe(Random.withSeed("uuids"))
      expect(seeded).toEqual(yield* three.pipe(Random.withSeed("uuids")))
      const unseeded = yield* threeMade
      for (const id of unseeded) expect(id).toMatch(v4)
      expect(new Set([...unseeded, ...seeded]).size).toBe(6)
    })
  )
})
