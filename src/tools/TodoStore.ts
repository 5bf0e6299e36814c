/**
 * The session's task list, which the TodoWrite tool (builtin/TodoWrite.ts) writes: a SubscriptionRef, so renderers
 * can follow `changes`. Apart from the tool so that a session makes its store without loading the tool.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { Todo } from "./builtin/TodoWrite.js"

export interface Interface {
  readonly get: Effect.Effect<ReadonlyArray<Todo>>
  /** Replaces the list; returns the previous one. */
  readonly set: (todos: ReadonlyArray<Todo>) => Effect.Effect<ReadonlyArray<Todo>>
  /** The current list, then every change. */
  readonly changes: Stream.Stream<ReadonlyArray<Todo>>
}

export class TodoStore extends Context.Service<TodoStore, Interface>()("weft/TodoStore") {
  /** An empty list: make one per session. */
  static make: Effect.Effect<Interface> = Effect.gen(function* () {
    const ref = yield* SubscriptionRef.make<ReadonlyArray<Todo>>([])
    return {
      get: SubscriptionRef.get(ref),
      set: Effect.fn("TodoStore.set")(function* (todos: ReadonlyArray<Todo>) {
        return yield* SubscriptionRef.getAndSet(ref, todos)
      }),
      changes: SubscriptionRef.changes(ref)
    }
  })

  static layer: Layer.Layer<TodoStore> = Layer.effect(TodoStore, TodoStore.make)
}

export const make = TodoStore.make
export const layer = TodoStore.layer

