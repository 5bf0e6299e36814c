/**
 * A finalizer for the current scope that runs as it is when the scope closes: for a release that reads nothing
 * from its fiber (no service, logger or other FiberRef), such as closing descriptors or destroying HTTP agents.
 *
 * `Effect.addFinalizer` (and `Effect.acquireRelease`) also remembers the FiberRefs of the fiber that added it, and at
 * release diffs those of the fiber closing the scope against them and patches them in, then back out. For a
 * session's services that is costly: the context differs by every service built before the finalizer's (a Context
 * diff of one patch per service, applied through Chunk concatenations, each way), about 1-2 M instructions per
 * finalizer (callgrind, main thread: five of them cost 4-6 M of the 21-25 M a 2-turn `weft -p` spends after the
 * model's last response).
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"

/**
 * Adds the Effect `finalizer` makes to the current scope, made and run (in the fiber that closes the scope) when the
 * scope closes, uninterruptibly, as `Effect.addFinalizer`'s is.
 */
export const addFinalizer = <X>(finalizer: () => Effect.Effect<X>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.flatMap(Effect.scope, (scope) => Scope.addFinalizer(scope, Effect.uninterruptible(Effect.suspend(finalizer))))
