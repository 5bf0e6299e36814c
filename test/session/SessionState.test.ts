import { describe, expect, it } from "vitest"
import type { AssistantEntry, SystemEntry, TranscriptEntry, UserEntry } from "../../src/domain/Transcript.js"
import { fromEntries, interruptedResult, makeFold } from "../../src/session/SessionState.js"
import { assistantEntry, systemEntry, userEntry } from "./entries.js"

const S = "s1"
const CWD = "/w"

const linked = <T extends TranscriptEntry>(entry: T, uuid: string, parentUuid: string | null): T => ({
  ...entry,
  uuid,
  parentUuid
})

const toolCall = (index: number, ids: ReadonlyArray<string>, messageId = `msg_${index}`): AssistantEntry => {
  const base = assistantEntry(S, CWD, index, "calling")
  return {
    ...base,
    message: {
      ...base.message,
      id: messageId,
      content: ids.map((id) => ({ type: "tool_use", id, name: "Read", input: { file_path: "/w/a" } })),
      stop_reason: "tool_use"
    }
  }
}

const toolResult = (index: number, id: string): UserEntry =>
  userEntry(S, CWD, index, [{ type: "tool_result", tool_use_id: id, content: "file text" }])

describe("SessionState.fromEntries", () => {
  it("an empty session", () => {
    const state = fromEntries([])
    expect(state.messages).toEqual([])
    expect(state.leafUuid).toBeNull()
    expect(state.turns).toBe(0)
    expect(state.totalCostUSD).toBe(0)
  })

  it("rebuilds the conversation along the chain, merging split entries, and sums cost and usage", () => {
    const first = toolCall(2, ["t1"], "msg_A")
    // Claude Code writes one entry per block of a response: same message id, same usage.
    const text = assistantEntry(S, CWD, 3, "let me look")
    const firstText: AssistantEntry = { ...text, message: { ...text.message, id: "msg_A" } }
    const entries: Array<TranscriptEntry> = [
      systemEntry(S, CWD, 0),
      userEntry(S, CWD, 1, "read a"),
      first,
      firstText,
      toolResult(4, "t1"),
      assistantEntry(S, CWD, 5, "done")
    ]
    const state = fromEntries(entries)
    expect(state.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "read a" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/w/a" } },
          { type: "text", text: "let me look" }
        ]
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "file text" }] },
      { role: "assistant", content: [{ type: "text", text: "done" }] }
    ])
    expect(state.leafUuid).toBe("u-5")
    expect(state.turns).toBe(2)
    expect(state.usage.input_tokens).toBe(20)
    expect(state.usage.output_tokens).toBe(10)
    expect(state.totalCostUSD).toBeCloseTo(0.003)
    expect(state.brokenChain).toBe(false)
  })

  it("follows the chain from the last main-line message: abandoned branches and sidechains are left out", () => {
    const entries: Array<TranscriptEntry> = [
      linked(userEntry(S, CWD, 0, "root"), "a", null),
      linked(assistantEntry(S, CWD, 1, "first answer"), "b", "a"),
      linked(userEntry(S, CWD, 2, "abandoned prompt"), "c", "b"),
      linked(userEntry(S, CWD, 3, "edited prompt"), "d", "b"),
      linked(assistantEntry(S, CWD, 4, "second answer"), "e", "d"),
      { ...linked(userEntry(S, CWD, 5, "subagent task"), "f", "e"), isSidechain: true }
    ]
    const state = fromEntries(entries)
    expect(state.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "root" }]],
      ["assistant", [{ type: "text", text: "first answer" }]],
      ["user", [{ type: "text", text: "edited prompt" }]],
      ["assistant", [{ type: "text", text: "second answer" }]]
    ])
    expect(state.leafUuid).toBe("e")
  })

  it("a response id is one turn within an exchange; the next prompt starts counting afresh", () => {
    // Two runs of a test double that numbers its responses from 1 each time: both responses count.
    const entries: Array<TranscriptEntry> = [
      userEntry(S, CWD, 0, "first run"),
      { ...assistantEntry(S, CWD, 1, "one"), message: { ...assistantEntry(S, CWD, 1, "one").message, id: "msg_1" } },
      toolResult(2, "t0"),
      { ...assistantEntry(S, CWD, 3, "same response"), message: { ...assistantEntry(S, CWD, 3, "x").message, id: "msg_1" } },
      userEntry(S, CWD, 4, "second run"),
      { ...assistantEntry(S, CWD, 5, "two"), message: { ...assistantEntry(S, CWD, 5, "two").message, id: "msg_1" } }
    ]
    expect(fromEntries(entries).turns).toBe(2)
    expect(fromEntries(entries).totalCostUSD).toBeCloseTo(0.003)
  })

  it("a lost parent breaks the chain: history starts after the gap", () => {
    const entries: Array<TranscriptEntry> = [
      linked(userEntry(S, CWD, 0, "lost context"), "a", null),
      linked(userEntry(S, CWD, 2, "after the gap"), "c", "missing"),
      linked(assistantEntry(S, CWD, 3, "ok"), "d", "c")
    ]
    const state = fromEntries(entries)
    expect(state.brokenChain).toBe(true)
    expect(state.messages.length).toBe(2)
    expect(state.messages[0]?.content).toEqual([{ type: "text", text: "after the gap" }])
  })

  it("answers tool calls a killed run left open, so the history is valid for the API", () => {
    const entries: Array<TranscriptEntry> = [
      userEntry(S, CWD, 0, "go"),
      toolCall(1, ["t1", "t2"]),
      toolResult(2, "t1"),
      userEntry(S, CWD, 3, "what happened?"),
      toolCall(4, ["t3"])
    ]
    const state = fromEntries(entries)
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"])
    expect(state.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "file text" },
      interruptedResult("t2"),
      { type: "text", text: "what happened?" }
    ])
    expect(state.messages[4]?.content).toEqual([interruptedResult("t3")])
  })
})

/** Claude Code's compaction: a boundary that starts a fresh chain, then the summary as a user entry. */
const boundary = (uuid: string, logicalParent: string): SystemEntry => ({
  ...systemEntry(S, CWD, 50),
  uuid,
  parentUuid: null,
  subtype: "compact_boundary",
  content: "Conversation compacted",
  logicalParentUuid: logicalParent,
  compactMetadata: { trigger: "auto", preTokens: 1000 }
})
const summary = (uuid: string, parent: string, text: string): UserEntry => ({
  ...linked(userEntry(S, CWD, 51, text), uuid, parent),
  isCompactSummary: true
})

describe("SessionState: compact boundaries", () => {
  const before: Array<TranscriptEntry> = [
    linked(userEntry(S, CWD, 0, "old prompt"), "a", null),
    linked(assistantEntry(S, CWD, 1, "old answer"), "b", "a")
  ]

  it("the conversation starts at the last boundary; totals still count the whole file", () => {
    const state = fromEntries([
      ...before,
      boundary("c", "b"),
      summary("d", "c", "summary one"),
      linked(assistantEntry(S, CWD, 2, "middle answer"), "e", "d"),
      boundary("f", "e"),
      summary("g", "f", "summary two"),
      linked(assistantEntry(S, CWD, 3, "new answer"), "h", "g")
    ])
    expect(state.messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "summary two" }],
      [{ type: "text", text: "new answer" }]
    ])
    expect(state.leafUuid).toBe("h")
    expect(state.turns).toBe(3)
    expect(state.totalCostUSD).toBeCloseTo(0.003)
    expect(state.brokenChain).toBe(false)
  })

  it("lets go of what came before a boundary: a chain reaching back across it is cut there", () => {
    // Entry "z" names "b", from before the boundary: the fold no longer holds it (the file's entries before a
    // boundary are dropped as it reads), so the chain is reported broken and starts after the gap.
    const state = fromEntries([
      ...before,
      boundary("c", "b"),
      summary("d", "c", "summary"),
      linked(userEntry(S, CWD, 4, "back to the old branch"), "z", "b")
    ])
    expect(state.brokenChain).toBe(true)
    expect(state.messages.map((m) => m.content)).toEqual([[{ type: "text", text: "back to the old branch" }]])
  })

  it("a boundary with nothing after it yet (a crash mid-compaction) leaves the conversation before it", () => {
    const state = fromEntries([...before, boundary("c", "b")])
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant"])
    expect(state.leafUuid).toBe("b")
    // ... and once the summary follows, the conversation is the new one.
    const fold = makeFold()
    for (const entry of [...before, boundary("c", "b"), boundary("c2", "b"), summary("d", "c2", "summary")]) fold.add(entry)
    expect(fold.result().messages.map((m) => m.content)).toEqual([[{ type: "text", text: "summary" }]])
  })

  it("a run resumed after a boundary with nothing after it goes on with the conversation before it", () => {
    // The resumed run's entries name "b" (the leaf before the boundary): read back, they continue that chain.
    const state = fromEntries([
      ...before,
      boundary("c", "b"),
      linked(userEntry(S, CWD, 2, "resumed prompt"), "x", "b"),
      linked(assistantEntry(S, CWD, 3, "resumed answer"), "y", "x")
    ])
    expect(state.brokenChain).toBe(false)
    expect(state.leafUuid).toBe("y")
    expect(state.messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "old prompt" }],
      [{ type: "text", text: "old answer" }],
      [{ type: "text", text: "resumed prompt" }],
      [{ type: "text", text: "resumed answer" }]
    ])
  })

  it("a side conversation's root is no boundary", () => {
    const state = fromEntries([
      ...before,
      { ...linked(userEntry(S, CWD, 2, "subagent task"), "s1", null), isSidechain: true },
      linked(userEntry(S, CWD, 3, "next prompt"), "c", "b")
    ])
    expect(state.brokenChain).toBe(false)
    expect(state.messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "old prompt" }],
      [{ type: "text", text: "old answer" }],
      [{ type: "text", text: "next prompt" }]
    ])
  })

  it("the fold's result can be taken at any point and the fold goes on", () => {
    const fold = makeFold()
    fold.add(before[0] ?? userEntry(S, CWD, 0, "x"))
    expect(fold.result().messages.length).toBe(1)
    fold.add(before[1] ?? userEntry(S, CWD, 0, "x"))
    expect(fold.result().messages.length).toBe(2)
    expect(fold.result()).toEqual(fromEntries(before))
  })
})
