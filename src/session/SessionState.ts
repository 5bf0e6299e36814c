/**
 * What a loaded transcript means for resuming it: the conversation to send back to the API, where to continue
 * the parentUuid chain, and what the session has cost so far. Pure: a fold over the entries.
 *
 * The conversation is the parentUuid chain ending at the last main-line (non-sidechain) message entry, as
 * Claude Code resumes it, so abandoned branches and a subagent's side conversation are left out, and a compact
 * boundary (an entry whose parentUuid is null) starts the history afresh.
 */
import type { ContentBlock, ToolResultBlock } from "../domain/Content.js"
import { blocksOf, isToolResult, isToolUse } from "../domain/ContentGuards.js"
import type { MessageParam } from "../domain/Message.js"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { isAssistant, isSystem, isUser } from "../domain/TranscriptGuards.js"
import type { ModelUsage } from "../domain/AgentEvent.js"
import type { Usage } from "../domain/Usage.js"
import * as UsageTotals from "../domain/UsageTotals.js"
import * as ModelUsageTotals from "../model/ModelUsage.js"

/** A session's account: what its model responses used and cost, in all and per model. */
export interface Totals {
  readonly usage: Usage
  readonly costUSD: number
  /** Model responses counted (each API response once). */
  readonly responses: number
  /** By the model id each response named. */
  readonly modelUsage: Readonly<Record<string, ModelUsage>>
}

/** The account of a session that made no request: every usage field at zero. */
export const emptyTotals: Totals = { usage: UsageTotals.zero, costUSD: 0, responses: 0, modelUsage: {} }

/**
 * `totals` plus one model response's usage and cost. The running loop and a loaded transcript both sum with it;
 * `usage` undefined adds the cost alone (a response recorded over several entries counts its usage once).
 */
export const addResponse = (totals: Totals, model: string, usage: Usage | undefined, costUSD: number): Totals => ({
  usage: usage === undefined ? totals.usage : UsageTotals.add(totals.usage, usage),
  costUSD: totals.costUSD + costUSD,
  responses: totals.responses + (usage === undefined ? 0 : 1),
  modelUsage: {
    ...totals.modelUsage,
    [model]: ModelUsageTotals.add(totals.modelUsage[model], model, usage ?? UsageTotals.empty, costUSD)
  }
})

export interface SessionState {
  /** The history for the next request: alternating user/assistant messages, every tool_use answered. */
  readonly messages: ReadonlyArray<MessageParam>
  /** The uuid a new entry should name as its parentUuid; null for an empty session. */
  readonly leafUuid: string | null
  /** Sum of the recorded `costUSD` of every assistant response in the file. */
  readonly totalCostUSD: number
  /** Token usage summed over every assistant response in the file (each API response counted once). */
  readonly usage: Usage
  /** Assistant responses in the file (each API response counted once). */
  readonly turns: number
  /** Tokens and cost by model. */
  readonly modelUsage: Readonly<Record<string, ModelUsage>>
  /** True when the chain named a parent that is not in the file (a line was lost): history starts after it. */
  readonly brokenChain: boolean
}

/** The tool_result weft puts in for a tool_use the transcript never answered (the run was killed mid-call). */
export const interruptedResult = (toolUseId: string): ToolResultBlock => ({
  type: "tool_result",
  tool_use_id: toolUseId,
  content: "[The tool call was interrupted before it finished; its result is unknown.]",
  is_error: true
})

/**
 * What the fold keeps of an entry: its links, and for a message entry its role and content (shared with the
 * decoded entry, not copied). Everything else an entry carries (`toolUseResult`, metadata) is let go at once.
 */
interface Node {
  readonly uuid: string
  readonly parentUuid: string | null
  readonly message: { readonly role: "user" | "assistant"; readonly content: MessageParam["content"] } | undefined
}

/** The entries from one chain start (a main-line entry with no parent) to the next. */
interface Segment {
  readonly byUuid: Map<string, Node>
  /** The last main-line (non-sidechain) message entry: where the conversation ends. */
  leaf: Node | undefined
}

const newSegment = (): Segment => ({ byUuid: new Map(), leaf: undefined })

/** The chain from the root (or the last break) to `leaf`, oldest first. */
const chainTo = (
  leaf: Node,
  byUuid: ReadonlyMap<string, Node>
): { readonly chain: ReadonlyArray<Node>; readonly broken: boolean } => {
  const chain: Array<Node> = []
  const visited = new Set<string>()
  let current: Node | undefined = leaf
  let broken = false
  while (current !== undefined && !visited.has(current.uuid)) {
    visited.add(current.uuid)
    if (current.message !== undefined) chain.push(current)
    const parent: string | null = current.parentUuid
    if (parent === null) break
    current = byUuid.get(parent)
    if (current === undefined) broken = true
  }
  return { chain: chain.reverse(), broken }
}

/**
 * Folds the chain into API messages: consecutive entries of one role are merged (Claude Code writes one
 * assistant entry per content block of a response, and tool results may come one per entry).
 */
const toMessages = (chain: ReadonlyArray<Node>): Array<MessageParam> => {
  const messages: Array<{ role: "user" | "assistant"; content: Array<ContentBlock> }> = []
  for (const { message } of chain) {
    if (message === undefined) continue
    const role = message.role
    const blocks = blocksOf(message.content)
    const last = messages[messages.length - 1]
    if (last !== undefined && last.role === role) last.content.push(...blocks)
    else messages.push({ role, content: [...blocks] })
  }
  // Every tool_use must be answered by the next message, or the API refuses the history.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (message === undefined || message.role !== "assistant") continue
    const asked = message.content.filter(isToolUse).map((block) => block.id)
    if (asked.length === 0) continue
    const next = messages[index + 1]
    const answered = new Set(next?.role === "user" ? next.content.filter(isToolResult).map((b) => b.tool_use_id) : [])
    const missing = asked.filter((id) => !answered.has(id)).map(interruptedResult)
    if (missing.length === 0) continue
    if (next !== undefined && next.role === "user") {
      // Tool results come first in a user message; the rest (a new prompt) follows them.
      const results = next.content.filter(isToolResult)
      const rest = next.content.filter((block) => !isToolResult(block))
      next.content = [...results, ...missing, ...rest]
    } else {
      messages.splice(index + 1, 0, { role: "user", content: missing })
    }
  }
  return messages
}

/** A compact boundary as Claude Code and weft write it: a main-line `system` entry that starts a fresh chain. */
export const isCompactBoundary = (entry: TranscriptEntry): boolean =>
  isSystem(entry) && entry.subtype === "compact_boundary" && entry.parentUuid === null && entry.isSidechain !== true

/**
 * The cost of the summary request a compact boundary records (its `model` and `costUSD`): paid for, but no message
 * of the conversation, so it counts in the totals (cost only: it is not a turn). Undefined for any other entry.
 */
export const summaryCostOf = (entry: TranscriptEntry): { readonly model: string; readonly costUSD: number } | undefined => {
  if (!isSystem(entry) || entry.subtype !== "compact_boundary") return undefined
  const { model, costUSD } = entry
  return typeof model === "string" && typeof costUSD === "number" && Number.isFinite(costUSD) ? { model, costUSD } : undefined
}

/** A user entry that is not the answer to tool calls: a prompt (or a summary), where a new exchange starts. */
export const startsExchange = (entry: TranscriptEntry): boolean =>
  isUser(entry) && (typeof entry.message.content === "string" || !entry.message.content.some(isToolResult))

/** A session's account summed one entry at a time: what `makeFold` counts, without the conversation. */
export interface TotalsFold {
  readonly add: (entry: TranscriptEntry) => void
  readonly totals: () => Totals
}

export const makeTotalsFold = (): TotalsFold => {
  let totals: Totals = { ...emptyTotals, usage: UsageTotals.empty }
  // One response split over several entries shares its message id (and its usage): counted once. Ids are
  // remembered within an exchange only (from one prompt to the next), as a response's entries never span a
  // prompt: runs of a test double that number their responses from 1 each time still count every response.
  const countedResponses = new Set<string>()
  const add = (entry: TranscriptEntry): void => {
    if (startsExchange(entry)) countedResponses.clear()
    const summary = summaryCostOf(entry)
    if (summary !== undefined) totals = addResponse(totals, summary.model, undefined, summary.costUSD)
    if (!isAssistant(entry)) return
    const first = !countedResponses.has(entry.message.id)
    countedResponses.add(entry.message.id)
    totals = addResponse(totals, entry.message.model, first ? entry.message.usage : undefined, entry.costUSD ?? 0)
  }
  return { add, totals: () => totals }
}

/** A SessionState built one entry at a time, holding only what the resumed conversation needs. */
export interface Fold {
  readonly add: (entry: TranscriptEntry) => void
  /** The state of the entries added so far. */
  readonly result: () => SessionState
}

/**
 * The fold behind `fromEntries` and a streamed resume. Totals count every entry; the conversation is the chain
 * ending at the last main-line message entry, and a main-line entry without a parent (a compact boundary, or a
 * run that started afresh) after earlier entries starts a new segment: the entries before it are let go as soon
 * as the new segment holds a message, so memory follows the conversation, not the file. (A chain that reached
 * back across a boundary would be cut there and reported as broken; nothing weft writes does that, except a run
 * resumed after a boundary that has no summary yet, which goes on with the conversation before it.)
 *
 * `totals`: a sum to go on from (the entries before those this fold is given); default a new one.
 */
export const makeFold = (totals: TotalsFold = makeTotalsFold()): Fold => {
  let segment = newSegment()
  // The last segment that ended in a message, kept while the current one has none (a boundary written just
  // before a crash, with no summary after it yet): the conversation is then still the one before it.
  let previous: Segment | undefined
  let lastUuid: string | null = null

  const add = (entry: TranscriptEntry): void => {
    lastUuid = entry.uuid
    const mainLine = entry.isSidechain !== true
    totals.add(entry)
    if (mainLine && entry.parentUuid === null && segment.byUuid.size > 0) {
      if (segment.leaf !== undefined) previous = segment
      segment = newSegment()
    } else if (
      previous !== undefined &&
      entry.parentUuid !== null &&
      !segment.byUuid.has(entry.parentUuid) &&
      previous.byUuid.has(entry.parentUuid)
    ) {
      // A boundary with no summary after it (a compaction cut short), then a run resumed from the conversation
      // before it (its leaf is what `result` names): that conversation goes on, the lone boundary is let go.
      segment = previous
      previous = undefined
    }
    const message = isUser(entry) || isAssistant(entry) ? { role: entry.message.role, content: entry.message.content } : undefined
    const node: Node = { uuid: entry.uuid, parentUuid: entry.parentUuid, message }
    segment.byUuid.set(entry.uuid, node)
    if (message !== undefined && mainLine) {
      segment.leaf = node
      previous = undefined
    }
  }

  const result = (): SessionState => {
    const source = segment.leaf !== undefined ? segment : previous ?? segment
    const leaf = source.leaf
    const { chain, broken } = leaf === undefined ? { chain: [], broken: false } : chainTo(leaf, source.byUuid)
    const sums = totals.totals()
    return {
      messages: toMessages(chain),
      leafUuid: leaf?.uuid ?? lastUuid,
      totalCostUSD: sums.costUSD,
      usage: sums.usage,
      turns: sums.responses,
      modelUsage: sums.modelUsage,
      brokenChain: broken
    }
  }

  return { add, result }
}

export const fromEntries = (entries: Iterable<TranscriptEntry>): SessionState => {
  const fold = makeFold()
  for (const entry of entries) fold.add(entry)
  return fold.result()
}
