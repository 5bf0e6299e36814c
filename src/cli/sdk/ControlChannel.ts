/**
 * The control half of the stream-json protocol, both ways over one stdin/stdout pair:
 * - weft's own requests to the program (can_use_tool, hook_callback, mcp_message): `request` writes a
 *   control_request and waits for the control_response with its id; interrupted while it waits (the turn it
 *   belongs to was interrupted), it withdraws the request with a control_cancel_request.
 * - the program's requests to weft: `serve` runs the handler in a fiber of its own (a slow one holds nothing up),
 *   answers success or error exactly once, and a control_cancel_request for it interrupts the handler.
 * Every frame goes out as one line through `write`, which the host gives (stdout, redacted).
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { OutputClosed } from "../Output.js"
import type { RequestBody } from "./Frames.js"

/** A request of weft's was answered with an error, withdrawn, or could not be sent. */
export class ControlError extends Data.TaggedError("ControlError")<{ readonly message: string }> {}

/** One frame, as the protocol writes it: a JSON object on a line of its own. */
export type Frame = Readonly<Record<string, unknown>>

export interface Interface {
  /** Writes one frame. */
  readonly write: (frame: Frame) => Effect.Effect<void, OutputClosed>
  /** Sends a control request and waits for the program's answer (the response's `response` value). */
  readonly request: (request: RequestBody) => Effect.Effect<unknown, ControlError>
  /** A control_response from stdin: hands it to the request waiting for it; false when none is. */
  readonly resolve: (
    requestId: string,
    response: { readonly _tag: "Success"; readonly value: unknown } | { readonly _tag: "Error"; readonly message: string }
  ) => Effect.Effect<boolean>
  /** Answers the program's request `requestId` with what `handle` gives (its failure's message: an error response). */
  readonly serve: (requestId: string, handle: Effect.Effect<Frame, { readonly message: string }>) => Effect.Effect<void>
  /**
   * The program's input ended: no answer can come any more. The requests waiting fail, and later ones fail at once
   * (an ask is then a denial, a hook callback passed over), rather than wait for ever.
   */
  readonly inputEnded: Effect.Effect<void>
  /** Waits until every request of the program being served now is answered. */
  readonly drain: Effect.Effect<void>
  /** The program withdrew its request: its handler is interrupted (and answers nothing). */
  readonly cancel: (requestId: string) => Effect.Effect<boolean>
  /** Answers a request weft will not serve (malformed, unknown subtype) with an error response. */
  readonly refuse: (requestId: string, message: string) => Effect.Effect<void, OutputClosed>
}

type Answer = { readonly _tag: "Success"; readonly value: unknown } | { readonly _tag: "Error"; readonly message: string }

/**
 * The channel over `write`; request ids are `weft_<n>`, unique within the process. The handlers of the program's
 * requests run in the scope of the caller (the session's command), not in the reader's.
 */
export const make = (write: (frame: Frame) => Effect.Effect<void, OutputClosed>): Effect.Effect<Interface, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const waiting = new Map<string, Deferred.Deferred<Answer>>()
    const noAnswer: Answer = { _tag: "Error", message: "the program closed weft's stdin, so no answer can come" }
    let ended = false
    const serving = new Map<string, Fiber.Fiber<void>>()
    let next = 0

    const respond = (requestId: string, answer: Answer) =>
      write({
        type: "control_response",
        response:
          answer._tag === "Success"
            ? { subtype: "success", request_id: requestId, response: answer.value }
            : { subtype: "error", request_id: requestId, error: answer.message }
      })

    const request = (body: RequestBody): Effect.Effect<unknown, ControlError> =>
      Effect.gen(function* () {
        if (ended) return yield* new ControlError({ message: noAnswer.message })
        next += 1
        const requestId = `weft_${next}`
        const answer = yield* Deferred.make<Answer>()
        waiting.set(requestId, answer)
        const withdraw = Effect.suspend(() =>
          waiting.delete(requestId) ? write({ type: "control_cancel_request", request_id: requestId }).pipe(Effect.ignore) : Effect.void
        )
        const answered = yield* write({ type: "control_request", request_id: requestId, request: body }).pipe(
          Effect.mapError((error) => new ControlError({ message: `could not send ${body.subtype}: ${error.message}` })),
          Effect.andThen(Deferred.await(answer)),
          Effect.onInterrupt(() => withdraw),
          Effect.ensuring(Effect.sync(() => waiting.delete(requestId)))
        )
        if (answered._tag === "Error") return yield* new ControlError({ message: answered.message })
        return answered.value
      })

    const channel: Interface = {
      write,
      request,
      resolve: (requestId, response) =>
        Effect.suspend(() => {
          const answer = waiting.get(requestId)
          if (answer === undefined) return Effect.succeed(false)
          waiting.delete(requestId)
          return Effect.as(Deferred.succeed(answer, response), true)
        }),
      serve: (requestId, handle) =>
        Effect.gen(function* () {
          const fiber = yield* Effect.exit(handle).pipe(
            Effect.flatMap((exit) => {
              if (Exit.isSuccess(exit)) return Effect.ignore(respond(requestId, { _tag: "Success", value: exit.value }))
              // Withdrawn by the program (control_cancel_request): no answer is expected.
              if (Cause.hasInterruptsOnly(exit.cause)) return Effect.void
              const failure = Cause.findErrorOption(exit.cause)
              const message = Option.isSome(failure) ? failure.value.message : `weft failed while serving it: ${Cause.pretty(exit.cause)}`
              return Effect.ignore(respond(requestId, { _tag: "Error", message }))
            }),
            Effect.ensuring(Effect.sync(() => serving.delete(requestId))),
            Effect.forkIn(scope)
          )
          serving.set(requestId, fiber)
        }),
      inputEnded: Effect.suspend(() => {
        ended = true
        const all = [...waiting.values()]
        waiting.clear()
        return Effect.forEach(all, (answer) => Deferred.succeed(answer, noAnswer), { discard: true })
      }),
      drain: Effect.suspend(() => Fiber.awaitAll([...serving.values()])).pipe(Effect.asVoid),
      cancel: (requestId) =>
        Effect.suspend(() => {
          const fiber = serving.get(requestId)
          if (fiber === undefined) return Effect.succeed(false)
          serving.delete(requestId)
          return Effect.as(Fiber.interrupt(fiber), true)
        }),
      refuse: (requestId, message) => respond(requestId, { _tag: "Error", message })
    }
    return channel
  })
