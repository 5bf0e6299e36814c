import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import * as Finalizer from "../../src/platform/Finalizer.js"

describe("Finalizer.addFinalizer", () => {
  it.effect("runs once when the scope closes, in reverse order of adding, as Effect.addFinalizer's do", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const scope = yield* Scope.make()
      yield* Finalizer.addFinalizer(() => Effect.sync(() => void log.push("first"))).pipe(Scope.provide(scope))
      yield* Effect.addFinalizer(() => Effect.sync(() => void log.push("second"))).pipe(Scope.provide(scope))
      yield* Finalizer.addFinalizer(() => Effect.sync(() => void log.push("third"))).pipe(Scope.provide(scope))
      expect(log).toEqual([])
      yield* Scope.close(scope, Exit.void)
      yield* Scope.close(scope, Exit.void)
      expect(log).toEqual(["third", "second", "first"])
    })
  )

  it.effect("makes its Effect when the scope closes, so it sees what was added since", () =>
    Effect.gen(function* () {
      const items: Array<string> = []
      const closed: Array<string> = []
      const scope = yield* Scope.make()
      yield* Finalizer.addFinalizer(() => Effect.forEach([...items], (item) => Effect.sync(() => void closed.push(item)))).pipe(Scope.provide(scope))
      items.push("a", "b")
      yield* Scope.close(scope, Exit.void)
      expect(closed).toEqual(["a", "b"])
    })
  )

  it.effect("runs to its end even when the fiber closing the scope is interrupted, as Effect.addFinalizer's does", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const log: Array<string> = []
      const scope = yield* Scope.make()
      yield* Finalizer.addFinalizer(() => Effect.andThen(Deferred.await(gate), Effect.sync(() => void log.push("done")))).pipe(
        Scope.provide(scope)
      )
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow
      yield* Effect.sync(() => closing.interruptUnsafe())
      yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.await(closing)
      expect(log).toEqual(["done"])
    })
  )

  // What makes it cheap (see Finalizer.ts): the context of the fiber that added it is not put back.
  it.effect("runs with the references of the fiber that closes the scope, where Effect.addFinalizer restores the adder's", () =>
    Effect.gen(function* () {
      const ref = Context.Reference<string>("test/Finalizer/ref", { defaultValue: () => "closing" })
      const seen: Array<string> = []
      const scope = yield* Scope.make()
      yield* Effect.gen(function* () {
        yield* Finalizer.addFinalizer(() => Effect.flatMap(ref, (value) => Effect.sync(() => void seen.push(`cheap: ${value}`))))
        yield* Effect.addFinalizer(() => Effect.flatMap(ref, (value) => Effect.sync(() => void seen.push(`effect: ${value}`))))
      }).pipe(Effect.provideService(ref, "adding"), Scope.provide(scope))
      yield* Scope.close(scope, Exit.void)
      expect(seen).toEqual(["effect: adding", "cheap: closing"])
    })
  )
})
