/**
 * A composition of services written once and usable in two forms: the Layer a library user composes
 * (`layer`, each part `Layer.provideMerge`d onto the ones before it), and one Effect that builds the same context
 * (`build`: each part made in order, in the caller's scope, with the context built so far).
 *
 * Why two forms: building a graph of layers costs about 150 effect operations per layer (a memo map, a scope and a
 * fiber per branch) and as much again to tear it down; for the ~10 parts of a CLI session that is ~60 M
 * instructions, 10-15 ms of every `weft -p` (scratchpad/bench/session.mjs). `build` runs the same constructors
 * without that machinery. Both are derived from the same list of parts, so they cannot drift apart; the tests check
 * they provide the same services.
 *
 * A part given as a Layer (an override: a test's fake, an SDK host's own service) is built with `Layer.build` on
 * the fast path, so it pays the layer cost for itself alone.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

/** One part of a composition, in both forms. */
export interface Part<ROut, E, RIn> {
  readonly layer: Layer.Layer<ROut, E, RIn>
  /** Builds what `layer` provides, in the current scope. */
  readonly build: Effect.Effect<Context.Context<ROut>, E, RIn | Scope.Scope>
}

/** A service made by an Effect (resources it acquires are released with the composition's scope). */
export const service = <I, S, E, R>(tag: Context.Key<I, S>, make: Effect.Effect<S, E, R>): Part<I, E, Exclude<R, Scope.Scope>> => {
  const scoped = Effect.flatMap(Effect.scope, (scope) => Effect.provideService(make, Scope.Scope, scope))
  return {
    layer: Layer.effect(tag, make),
    build: Effect.map(scoped, (value) => Context.make(tag, value))
  }
}

/** A service with a fixed value. */
export const succeed = <I, S>(tag: Context.Key<I, S>, value: S): Part<I, never, never> => ({
  layer: Layer.succeed(tag, value),
  build: Effect.succeed(Context.make(tag, value))
})

/** A part given as a Layer: the fast path builds it as a layer (this part alone pays for the layer machinery). */
export const fromLayer = <ROut, E, RIn>(layer: Layer.Layer<ROut, E, RIn>): Part<ROut, E, RIn> => ({
  layer,
  build: Layer.build(layer)
})

/** `override` when one is given, else the default part. */
export const orElse = <ROut, E1, R1, E2, R2>(
  override: Layer.Layer<ROut, E1, R1> | undefined,
  fallback: () => Part<ROut, E2, R2>
): Part<ROut, E1 | E2, R1 | R2> => (override === undefined ? fallback() : fromLayer(override))

/**
 * Parts in order: each may need the services of the parts before it; what none of them provides is the
 * composition's requirement.
 */
export class Composition<ROut, E, RIn> {
  constructor(
    readonly layer: Layer.Layer<ROut, E, RIn>,
    readonly build: Effect.Effect<Context.Context<ROut>, E, RIn | Scope.Scope>
  ) {}

  /** Adds a part that may use every service added before it. */
  add<ROut2, E2, RIn2>(part: Part<ROut2, E2, RIn2>): Composition<ROut | ROut2, E | E2, RIn | Exclude<RIn2, ROut>> {
    return new Composition(
      Layer.provideMerge(part.layer, this.layer),
      Effect.flatMap(this.build, (context) =>
        Effect.map(Effect.provide(part.build, context), (added) => Context.merge(context, added))
      )
    )
  }
}

/** The composition of no part, to `add` to. */
export const empty: Composition<never, never, never> = new Composition(Layer.empty, Effect.succeed(Context.empty()))
