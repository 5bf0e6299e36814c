/**
 * A finalizer for the current scope that runs as it is when the scope closes: for a release that reads nothing
 * from its fiber (no service, logger or other reference), such as closing descriptors or destroying HTTP agents.
 *
 * `Effect.addFinalizer` (and `Effect.acquireRelease`) also remembers the context of the fiber that added it and
 * runs the release under it. Under Effect 3 that meant diffing and patching every FiberRef at each release, which
 * made a session's finalizers a visible part of its shutdown; under Effect 4 it is a context swap, so the saving
 * is small, but a release that needs nothing from its fiber still has no reason to carry the adder's context.
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"

/**
 * Adds the Effect `finalizer` makes to the current scope, made and run (in the fiber that closes the scope) when the
 * scope closes, uninterruptibly, as `Effect.addFinalizer`'s is.
 */
export const addFinalizer = <X>(finalizer: () => Effect.Effect<X>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.flatMap(Effect.scope, (scope) => Scope.addFinalizer(scope, Effect.uninterruptible(Effect.suspend(finalizer))))
