import type { AgentEvent, Result } from "../../src/domain/AgentEvent.js"

/** The run's Result: the last event of its stream (a stream that ends otherwise fails the test). */
export const resultOf = (events: ReadonlyArray<AgentEvent>): Result => {
  const last = events[events.length - 1]
  if (last?._tag !== "Result") throw new Error(`the stream did not end with a Result: ${JSON.stringify(last)}`)
  return last
}
