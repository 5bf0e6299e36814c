/**
 * A fake ApiClient that plays a Script in-process: the n-th `stream` call gets the n-th turn, as the events the
 * real API would send, and fails the way the real client fails (an `error` event, a truncated stream, a status).
 * Delays use Effect's clock, so TestClock drives them. It records every request it received.
 *
 *   const layer = ScriptedModel.layer([
 *     ScriptTurn.blocks([Script.toolUse("Read", { file_path: "a.txt" })]),
 *     Script.textTurn("done")
 *   ])
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import type { MessagesRequest } from "../domain/Request.js"
import type { StreamEvent } from "../domain/StreamEvent.js"
import { ApiClient, completeEvents, defaultModel, errorFromBody } from "../model/ApiClient.js"
import * as Models from "../model/Models.js"
import type { ApiError } from "../model/ApiError.js"
import { InvalidRequestError, ParseError, StreamAbortedError } from "../model/ApiError.js"
import * as Sse from "../model/Sse.js"
import type { CompiledTurn, Script } from "./Script.js"
import { compile, estimateTokens, faultFor, turnEvents } from "./Script.js"

export interface Interface {
  /** The requests `stream` received, in order (as they were passed, before any defaulting). */
  readonly requests: Effect.Effect<ReadonlyArray<MessagesRequest>>
}

export interface Options {
  /** The client's `defaultModel`, also used for requests with an empty model. Default `claude-sonnet-4-5`. */
  readonly defaultModel?: string
}

const statusError = (status: number, headers: Readonly<Record<string, string>>, body: unknown): ApiError =>
  errorFromBody(status, typeof body === "string" ? body : JSON.stringify(body), headers["request-id"] ?? null)

/** The events of a raw SSE body, decoded with the real decoder. */
const rawEvents = (body: string): Effect.Effect<ReadonlyArray<StreamEvent>, ParseError> =>
  Effect.suspend(() => {
    const events: Array<StreamEvent> = []
    for (const frame of Sse.decode(new TextEncoder().encode(body))) {
      const event = Sse.toEvent(frame)
      if (event._tag === "Failure") return Effect.fail(event.failure)
      events.push(event.success)
    }
    return Effect.succeed(events)
  })

const play = (compiled: CompiledTurn, request: MessagesRequest, model: string): Stream.Stream<StreamEvent, ApiError> => {
  const turn = compiled.turn
  switch (turn._tag) {
    case "Error":
      return Stream.fail(turn.error)
    case "Status":
      return Stream.fail(statusError(turn.status, turn.headers, turn.body))
    default:
  }
  const fault = faultFor(turn, 0)
  if (fault?._tag === "Status") return Stream.fail(statusError(fault.status, fault.headers, fault.body))
  if (fault?._tag === "NoResponse") return Stream.never
  const source: Effect.Effect<ReadonlyArray<StreamEvent>, ParseError> =
    turn._tag === "Raw"
      ? rawEvents(turn.body)
      : Effect.succeed(turnEvents(compiled, { model: request.model === "" ? model : request.model, inputTokens: estimateTokens(request) }))
  return Stream.unwrap(
    Effect.map(source, (all) => {
      const sent = fault === undefined ? all : all.slice(0, fault.afterEvents)
      let events: Stream.Stream<StreamEvent, ApiError> = Stream.fromIterable(sent)
      if (turn.options.delay !== undefined) {
        const delay = Duration.fromInputUnsafe(turn.options.delay)
        events = Stream.mapEffect(events, (event) => Effect.as(Effect.sleep(delay), event))
      }
      switch (fault?._tag) {
        case "Reset":
          events = Stream.concat(
            events,
            Stream.fail(new StreamAbortedError({ message: "The stream broke off (scripted reset)", status: null, requestId: null }))
          )
          break
        case "ErrorEvent":
          events = Stream.concat(
            events,
            Stream.succeed<StreamEvent>({ type: "error", error: { type: fault.errorType, message: fault.message } })
          )
          break
        case "Stall":
          events = Stream.concat(events, Stream.never)
          break
        default:
      }
      return completeEvents(null)(events)
    })
  )
}

export class ScriptedModel extends Context.Service<ScriptedModel, Interface>()("weft/testing/ScriptedModel") {
  /** Provides `ApiClient` (playing `script`) and `ScriptedModel` (what it received). */
  static layer = (script: Script, options: Options = {}): Layer.Layer<ApiClient | ScriptedModel> =>
    Layer.effectContext(
      Effect.gen(function* () {
        const turns = compile(script)
        const received = yield* Ref.make<ReadonlyArray<MessagesRequest>>([])
        const model = options.defaultModel ?? defaultModel

        const stream = (request: MessagesRequest): Stream.Stream<StreamEvent, ApiError> =>
          Stream.unwrap(
            Effect.gen(function* () {
              const previous = yield* Ref.getAndUpdate(received, (list) => [...list, request])
              const compiled = turns[previous.length]
              if (compiled === undefined) {
                return yield* Effect.fail(
                  new InvalidRequestError({
                    message: `script exhausted: call ${previous.length + 1} to ApiClient.stream, but the script has ${turns.length} turn${turns.length === 1 ? "" : "s"}`,
                    status: null,
                    requestId: null
                  })
                )
              }
              return play(compiled, request, model)
            }).pipe(Effect.withSpan("ScriptedModel.stream"))
          )

        const countTokens = Effect.fn("ScriptedModel.countTokens")(function* (request: MessagesRequest) {
          return yield* Effect.sync(() => estimateTokens(request))
        })

        return Context.make(ApiClient, { stream, countTokens, defaultModel: model, resolveModel: (name: string) => Models.resolve(name) }).pipe(
          Context.add(ScriptedModel, { requests: Ref.get(received) })
        )
      })
    )
}

export const layer = ScriptedModel.layer
