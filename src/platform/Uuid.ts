/**
 * Random (version 4) uuids drawn through effect's `Random` service, so that a test can make them reproducible
 * (`Random.withSeed`) as it drives time with the TestClock.
 *
 * effect's default `Random` draws from `Math.random`, which is not meant to be unguessable: under it the uuid comes
 * from `crypto.randomUUID`, as the ids of sessions, transcript entries and temporary files always did. Any other
 * `Random` (a seeded one, a program's own) gives the uuid's 122 random bits.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"

/** The `Random` every fiber has unless one is provided (a Reference's default is made once and kept). */
const defaultRandom = Context.get(Context.empty(), Random.Random)

const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

/** A v4 uuid from `random`'s draws: 16 bytes, with the version (4) and variant (10) bits set. */
export const fromRandom = (random: Random.Random): string => {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random.nextDoubleUnsafe() * 256))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const h = bytes.map((byte) => hex[byte]!)
  return `${h.slice(0, 4).join("")}-${h.slice(4, 6).join("")}-${h.slice(6, 8).join("")}-${h.slice(8, 10).join("")}-${h.slice(10).join("")}`
}

/**
 * A maker of v4 uuids on the fiber's `Random` (see the module doc for where their bits come from), for synchronous
 * code that makes one per item (a stream-json frame per event) and stays plain functions.
 */
export const maker: Effect.Effect<() => string> = Effect.withFiberSucceed((fiber) => {
  const random = fiber.getRef(Random.Random)
  return random === defaultRandom ? () => crypto.randomUUID() : () => fromRandom(random)
})

/** A fresh v4 uuid, as `maker`'s. */
export const v4: Effect.Effect<string> = Effect.map(maker, (make) => make())
