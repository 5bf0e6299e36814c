import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Composition from "../../src/platform/Composition.js"

class First extends Context.Service<First, { readonly value: number }>()("test/First") {}
class Second extends Context.Service<Second, { readonly value: number }>()("test/Second") {}
class Third extends Context.Service<Third, { readonly value: number }>()("test/Third") {}

/** Three parts, each recording its acquisition and release; Second uses First, Third uses both. */
const parts = (log: Array<string>, third?: Layer.Layer<Third>) => {
  const acquire = <I, S, R>(tag: Context.Key<I, S>, name: string, make: Effect.Effect<S, never, R>) =>
    Composition.service(
      tag,
      Effect.acquireRelease(
        Effect.tap(make, () => Effect.sync(() => void log.push(`open ${name}`))),
        () => Effect.sync(() => void log.push(`close ${name}`))
      )
    )
  return Composition.empty
    .add(Composition.succeed(First, { value: 1 }))
    .add(acquire(Second, "second", Effect.map(First, (first) => ({ value: first.value + 1 }))))
    .add(
      Composition.orElse(third, () =>
        acquire(
          Third,
          "third",
          Effect.zipWith(First, Second, (first, second) => ({ value: first.value + second.value }))
        )
      )
    )
}

describe("Composition", () => {
  for (const form of ["layer", "build"] as const) {
    it.effect(`${form}: each part sees the ones before it; released in reverse order with the scope`, () =>
      Effect.gen(function* () {
        const log: Array<string> = []
        const composition = parts(log)
        const scope = yield* Scope.make()
        const context = yield* (form === "layer" ? Layer.build(composition.layer) : composition.build).pipe(
          Scope.provide(scope)
        )
        expect([Context.get(context, First).value, Context.get(context, Second).value, Context.get(context, Third).value]).toEqual([1, 2, 3])
        expect(log).toEqual(["open second", "open third"])
        yield* Scope.close(scope, Exit.void)
        expect(log).toEqual(["open second", "open third", "close third", "close second"])
      })
    )

    it.effect(`${form}: an override given as a Layer replaces the default part`, () =>
      Effect.gen(function* () {
        const log: Array<string> = []
        const composition = parts(log, Layer.succeed(Third, { value: 30 }))
        const context = yield* form === "layer" ? Layer.build(composition.layer) : composition.build
        expect(Context.get(context, Third).value).toBe(30)
        expect(log).toEqual(["open second"])
      }).pipe(Effect.scoped)
    )
  }

  it.effect("a later part for the same service wins in both forms", () =>
    Effect.gen(function* () {
      const composition = Composition.empty
        .add(Composition.succeed(First, { value: 1 }))
        .add(Composition.service(First, Effect.map(First, (first) => ({ value: first.value * 10 }))))
      expect(Context.get(yield* Layer.build(composition.layer), First).value).toBe(10)
      expect(Context.get(yield* composition.build, First).value).toBe(10)
    }).pipe(Effect.scoped)
  )
})
