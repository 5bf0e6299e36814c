import { describe, expect, it } from "vitest"
import type { StreamEvent } from "../../src/domain/StreamEvent.js"
import * as Sse from "../../src/model/Sse.js"
import { compile, Fault, faultFor, frame, ScriptTurn, text, thinking, toolUse, turnEvents } from "../../src/testing/Script.js"

/** The `key` field of the deltas of type `type` of block `index`. */
const deltaValues = (events: ReadonlyArray<StreamEvent>, type: string, key: string, index: number): Array<string> =>
  events.flatMap((event) => {
    if (event.type !== "content_block_delta" || event["index"] !== index) return []
    const delta = event["delta"]
    if (typeof delta !== "object" || delta === null || !("type" in delta) || delta.type !== type) return []
    const value: unknown = key in delta ? Object.entries(delta).find(([name]) => name === key)?.[1] : undefined
    return typeof value === "string" ? [value] : []
  })

const context = { model: "claude-test", inputTokens: 12 }

describe("Script", () => {
  it("turns blocks into the API's event sequence", () => {
    const [turn] = compile([ScriptTurn.blocks([thinking("hmm, let me see", "sig"), text("Hi there!"), toolUse("Read", { file_path: "x" })])])
    if (turn === undefined) throw new Error("no turn")
    const events = turnEvents(turn, context)
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop"
    ])
    expect(events[0]).toMatchObject({
      type: "message_start",
      message: { id: "msg_scripted_1", model: "claude-test", content: [], usage: { input_tokens: 12 } }
    })
    // The text arrives in pieces that join to the whole; the tool input as JSON text in pieces.
    const deltas = (index: number, type: string, key: string) => deltaValues(events, type, key, index)
    expect(deltas(1, "text_delta", "text").join("")).toBe("Hi there!")
    expect(JSON.parse(deltas(2, "input_json_delta", "partial_json").join(""))).toEqual({ file_path: "x" })
    expect(deltas(0, "thinking_delta", "thinking").join("")).toBe("hmm, let me see")
    expect(deltas(0, "signature_delta", "signature")).toEqual(["sig"])
    expect(events[17]).toMatchObject({ type: "message_delta", delta: { stop_reason: "tool_use" } })
  })

  it("stops with end_turn without tool calls, or with what the turn says", () => {
    const turns = compile([ScriptTurn.blocks([text("a")]), ScriptTurn.blocks([text("b")], { stopReason: "max_tokens", usage: { output_tokens: 7 } })])
    const last = (index: number) => {
      const turn = turns[index]
      if (turn === undefined) throw new Error("no turn")
      return turnEvents(turn, context).at(-2)
    }
    expect(last(0)).toMatchObject({ delta: { stop_reason: "end_turn" } })
    expect(last(1)).toMatchObject({ delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 7 } })
  })

  it("gives deterministic ids in script order, keeping explicit ones", () => {
    const turns = compile([
      ScriptTurn.blocks([toolUse("A", {}), toolUse("B", {}, "toolu_mine")]),
      ScriptTurn.blocks([toolUse("C", {})])
    ])
    const ids = turns.map((turn) => (turn.turn._tag === "Blocks" ? turn.turn.blocks.map((block) => block["id"]) : []))
    expect(ids).toEqual([["toolu_scripted_1", "toolu_mine"], ["toolu_scripted_2"]])
    expect(turns.map((turn) => turn.messageId)).toEqual(["msg_scripted_1", "msg_scripted_2"])
  })

  it("splits text on code points, never inside a surrogate pair", () => {
    const [turn] = compile([ScriptTurn.blocks([text("🎉🎉🎉🎉")])])
    if (turn === undefined) throw new Error("no turn")
    const pieces = deltaValues(turnEvents(turn, context), "text_delta", "text", 0)
    // No lone surrogate at either end of a piece.
    for (const piece of pieces) expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(piece)).toBe(false)
    expect(pieces.join("")).toBe("🎉🎉🎉🎉")
  })

  it("applies faults to the first attempts, in order", () => {
    const turn = ScriptTurn.blocks([text("x")], { faults: [Fault.status(429, { times: 2 }), Fault.reset(3)] })
    expect([0, 1, 2, 3].map((attempt) => faultFor(turn, attempt)?._tag)).toEqual(["Status", "Status", "Reset", undefined])
  })

  it("frames events so the real decoder reads them back", () => {
    const [turn] = compile([ScriptTurn.blocks([text("round trip")])])
    if (turn === undefined) throw new Error("no turn")
    const events = turnEvents(turn, context)
    const body = new TextEncoder().encode(events.map(frame).join(""))
    const decoded = Sse.decode(body).map((f) => Sse.toEvent(f))
    expect(decoded.map((e) => (e._tag === "Success" ? e.success : null))).toEqual(events)
  })
})
