import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Scope from "effect/Scope"
import { Transcript } from "../../src/agent/Transcript.js"
import { SessionStore, SessionStoreError } from "../../src/session/SessionStore.js"
import { answerMessage } from "../session/entries.js"

/** The memory store, with appends held until `gate` opens; `attempts` counts the appends begun. */
const gatedStore = (gate: Deferred.Deferred<void>, attempts: { count: number }) =>
  Layer.effect(
    SessionStore,
    SessionStore.useSync((inner) => ({
      ...inner,
      append: (entry: Parameters<typeof inner.append>[0]) =>
        Effect.sync(() => void attempts.count++).pipe(Effect.andThen(Deferred.await(gate)), Effect.andThen(inner.append(entry)))
    }))
  ).pipe(Layer.provideMerge(SessionStore.layerMemory()))

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] })
/** An answer of the model (the transcript writes nothing before the first one). */
const answer = answerMessage

describe("Transcript.layer", () => {
  it.effect("answers at once while the store writes in the background, in order; flush waits for the writes", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const attempts = { count: 0 }
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        Transcript.layer({ cwd: "/project", version: "test" }).pipe(Layer.provideMerge(gatedStore(gate, attempts))),
        scope
      )
      const transcript = Context.get(context, Transcript)
      const store = Context.get(context, SessionStore)

      const first = yield* transcript.user("s-1", user("one"))
      const second = yield* transcript.assistant("s-1", answer("two"))
      expect(first).not.toBe(second)
      expect(yield* store.load("s-1").pipe(Effect.orElseSucceed(() => []))).toEqual([]) // nothing written yet

      const flushed = yield* Effect.forkChild(transcript.flush)
      yield* Effect.yieldNow
      expect(flushed.pollUnsafe()).toBeUndefined() // the store is still held
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.await(flushed)

      const entries = yield* store.load("s-1")
      expect(entries.map((entry) => entry.uuid)).toEqual([first, second])
      expect(entries.map((entry) => entry.parentUuid)).toEqual([null, first])
      yield* Scope.close(scope, Exit.void)
    })
  )

  it.effect("closing the layer writes what is still queued", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      yield* Deferred.succeed(gate, undefined)
      const attempts = { count: 0 }
      const storeScope = yield* Scope.make()
      const storeContext = yield* Layer.buildWithScope(gatedStore(gate, attempts), storeScope)
      const store = Context.get(storeContext, SessionStore)

      yield* Effect.gen(function* () {
        const transcript = yield* Transcript
        yield* transcript.user("s-2", user("a"))
        yield* transcript.assistant("s-2", answer("b"))
        yield* transcript.user("s-2", user("c"))
      }).pipe(Effect.provide(Transcript.layer({ cwd: "/project", version: "test" })), Effect.provide(storeContext))

      const entries = yield* store.load("s-2")
      expect(entries).toHaveLength(3)
      expect(attempts.count).toBe(3)
      yield* Scope.close(storeScope, Exit.void)
    })
  )

  it.effect("writes nothing until the model's first answer: a run that never got one leaves no session", () =>
    Effect.gen(function* () {
      const storeContext = yield* Layer.build(SessionStore.layerMemory())
      const store = Context.get(storeContext, SessionStore)
      yield* Effect.gen(function* () {
        const transcript = yield* Transcript
        yield* transcript.user("s-3", user("hello?"))
        yield* transcript.flush
      }).pipe(Effect.provide(Transcript.layer({ cwd: "/project", version: "test" })), Effect.provide(storeContext))
      expect(Exit.isFailure(yield* Effect.exit(store.load("s-3")))).toBe(true)
      expect(yield* store.list("/project")).toEqual([])
    }).pipe(Effect.scoped)
  )

  it.effect("a store that cannot write is warned about once, and the run goes on", () =>
    Effect.gen(function* () {
      const warnings: Array<unknown> = []
      const attempts = { count: 0 }
      const failing = Layer.succeed(SessionStore, {
        ...Context.get(yield* Layer.build(SessionStore.layerMemory()), SessionStore),
        append: () =>
          Effect.sync(() => void attempts.count++).pipe(
            Effect.andThen(Effect.fail(new SessionStoreError({ message: "Cannot create /home/x: permission denied" })))
          )
      })
      const logger = Logger.make(({ message }) => void warnings.push(message))
      yield* Effect.gen(function* () {
        const transcript = yield* Transcript
        yield* transcript.user("s-4", user("a"))
        yield* transcript.assistant("s-4", answer("b"))
        yield* transcript.user("s-4", user("c"))
        yield* transcript.assistant("s-4", answer("d"))
        yield* transcript.flush
      }).pipe(
        Effect.provide(Transcript.layer({ cwd: "/project", version: "test" })),
        Effect.provide(failing),
        Effect.provide(Logger.layer([logger]))
      )
      expect(warnings).toHaveLength(1)
      expect(String(warnings[0])).toMatch(/could not record the session \(Cannot create \/home\/x: permission denied\); going on/)
      expect(attempts.count).toBe(1)
    }).pipe(Effect.scoped)
  )
})
