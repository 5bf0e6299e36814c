import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
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
      yield* Effect.yieldNow()
      yield* Fiber.interruptFork(closing)
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.await(closing)
      expect(log).toEqual(["done"])
    })
  )

  // What makes it cheap (see Finalizer.ts): the FiberRefs of the fiber that added it are not patched back in.
  it.effect("runs with the FiberRefs of the fiber that closes the scope, where Effect.addFinalizer restores the adder's", () =>
    Effect.gen(function* () {
      const ref = FiberRef.unsafeMake("closing")
      const seen: Array<string> = []
      const scope = yield* Scope.make()
      yield* Effect.gen(function* () {
        yield* Finalizer.addFinalizer(() => Effect.flatMap(FiberRef.get(ref), (value) => Effect.sync(() => void seen.push(`cheap: ${value}`))))
        yield* Effect.addFinalizer(() => Effect.flatMap(FiberRef.get(ref), (value) => Effect.sync(() => void seen.push(`effect: ${value}`))))
      }).pipe(Effect.locally(ref, "adding"), Scope.provide(scope))
      yield* Scope.close(scope, Exit.void)
      expect(seen).toEqual(["effect: adding", "cheap: closing"])
    })
  )
})
