/**
 * Compaction: when the conversation nears the model's context window (or the API refused it as too long), the
 * model is asked for a structured summary of it, and the run goes on from that summary instead of the whole
 * history. In order: PreCompact hooks (they may add instructions for the summary); the summary request (the
 * conversation so far plus the summary instruction, through the loop's own request so system prompt and tools
 * are the same bytes and the cached prefix is read, not written again); a `compact_boundary` system entry that
 * starts a fresh chain in the transcript (a resumed session starts from it) and the summary as the first user
 * entry after it; the tools forget what the model had seen (a file must be read again before it is edited); a
 * `Compacted` event for renderers.
 *
 * Clearing old tool results (keeping the calls, replacing old outputs with a note) before a full compaction is not
 * done as a step of its own, because it does not pay reliably. Every clearing rewrites the prompt from the first
 * cleared result on, so the next request writes all of that to the cache again (1.25x the input price) instead of
 * reading it (0.1x), and the context stays large afterwards, where a full compaction leaves a small one. The cost
 * model in scratchpad/bench/clear-tool-results.mjs (400 turns, Sonnet prices, clearing all but the last 3 results
 * once the context passes 100k and it frees at least 40k): results of ~400 tokens $10.70 -> $10.34 (-3%), ~2k
 * $14.38 -> $13.66 (-5%), a heavy tail (10% of 20k) $14.32 -> $14.68 (+3%), large reads (~8k, what a coding
 * session's Reads look like) $23.94 -> $27.62 (+15%); clearing at a fixed size without the 40k floor thrashes the
 * cache (+32% for large reads). What clearing does buy is fewer lossy summaries, which the model cannot price; that
 * gain alone did not justify a second, cache-breaking rewrite of the conversation. Clearing is used in one place
 * where the cache is lost anyway: a summary request that is itself too long is sent again with the old results
 * cleared, then with the oldest exchanges left out.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { AgentEvent } from "../domain/AgentEvent.js"
import * as Content from "../domain/ContentGuards.js"
import type { AssistantMessage, MessageParam } from "../domain/Message.js"
import type { Hooks } from "../hooks/Hooks.js"
import { isPromptTooLong } from "../model/ApiError.js"
import * as HookReport from "./HookReport.js"
import { appendUser } from "./Request.js"
import type { Transcript } from "./Transcript.js"

/** What the step needs from the run; `request` is the loop's own model request (same system prompt and tools). */
export interface Context<E> {
  readonly sessionId: string
  readonly cwd: string
  readonly permissionMode: string
  readonly hooks: Hooks["Service"]
  readonly transcript: Transcript["Service"]
  readonly emit: (event: AgentEvent) => Effect.Effect<void>
  /** One model request with this history and `max_tokens`, its deltas not shown. */
  readonly request: (history: ReadonlyArray<MessageParam>, maxTokens: number) => Effect.Effect<AssistantMessage, E>
  /** The tools forget what the model had seen (ToolRegistry.forgetContext). */
  readonly forgetContext: Effect.Effect<void>
  /** What a response cost and the model that answered it (the loop's pricing), recorded with the boundary. */
  readonly costOf: (response: AssistantMessage) => { readonly model: string; readonly costUSD: number }
}

/** The summary could not be made: the run goes on without compacting, or fails if it cannot. */
export class CompactionFailed extends Data.TaggedError("CompactionFailed")<{
  readonly message: string
  /** The summary request's response when one came back (unusable, but paid for: the run counts its usage). */
  readonly response?: AssistantMessage
}> {}

export type Outcome = Data.TaggedEnum<{
  Compacted: {
    /** The history to go on with: the summary (and the prompt that was waiting, if any). */
    readonly history: ReadonlyArray<MessageParam>
    /** The summary response, whose usage and cost the run counts. */
    readonly response: AssistantMessage
  }
  /** A PreCompact hook stopped the run (`continue: false`). */
  Stopped: { readonly reason: string }
}>
export const Outcome = Data.taggedEnum<Outcome>()

/** `max_tokens` of the summary request (Claude Code's: 20k), or the run's own when smaller. */
export const summaryMaxTokens = 20_000

/** Summary requests that were themselves too long, retried smaller before giving up. */
const maxShrinks = 3

/** The instruction that ends the summary request. */
export const summaryInstruction = (customInstructions: string | undefined): string =>
  [
    "Your task is to write a detailed summary of the conversation so far. It will replace the conversation: the work",
    "continues from it alone, so it must hold everything needed to carry on without losing context. Do not call any",
    "tool; answer with text only.",
    "",
    "First think it through inside <analysis> tags: go through the conversation in order and note each request of the",
    "user, what you did about it, the decisions taken, file names, code, commands and errors met. Then write the",
    "summary inside <summary> tags, with these sections:",
    "1. Primary request and intent: everything the user asked for, in detail.",
    "2. Key technical concepts: technologies, frameworks and conventions involved.",
    "3. Files and code: each file read, changed or created, why it matters, with the important snippets.",
    "4. Errors and fixes: what went wrong and how it was fixed, and what the user said about it.",
    "5. Problem solving: problems solved and troubleshooting still going on.",
    "6. All user messages: every message of the user that is not a tool result, in order.",
    "7. Pending tasks: what was asked for and is not done yet.",
    "8. Current work: precisely what was being worked on just before this summary, with file names and snippets.",
    "9. Next step: the next step, directly in line with the most recent request (quote it); none if the work is done.",
    ...(customInstructions === undefined || customInstructions.trim() === ""
      ? []
      : ["", "Additional instructions for this summary:", customInstructions.trim()])
  ].join("\n")

/** The user message the run goes on from (Claude Code's wording, in substance). */
export const continuationText = (summary: string): string =>
  [
    "This session is being continued from a previous conversation that ran out of context. The summary below covers",
    "the earlier part of the conversation.",
    "",
    summary,
    "",
    "Continue the conversation from where it left off without asking the user any further questions. Continue with the",
    "last task you were asked to work on."
  ].join("\n")

/** The summary's text: what is inside <summary> tags when the model used them, the whole text (less analysis) otherwise. */
export const extractSummary = (message: AssistantMessage): string => {
  const text = Content.joinText(message.content)
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(text)
  const body = tagged?.[1] ?? text.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/gi, "")
  return body.trim()
}

const hasToolResult = (message: MessageParam): boolean =>
  typeof message.content !== "string" && message.content.some(Content.isToolResult)

/**
 * What is summarized and what waits for after the summary: a trailing prompt (a user message with no tool result)
 * is kept as it is, after the summary, since it is what the model must answer next; tool results are summarized
 * with the calls they answer (alone after a summary they would answer nothing).
 */
export const split = (
  history: ReadonlyArray<MessageParam>
): { readonly summarized: ReadonlyArray<MessageParam>; readonly pending: MessageParam | undefined } => {
  const last = history[history.length - 1]
  if (last !== undefined && last.role === "user" && !hasToolResult(last) && history.length > 1) {
    return { summarized: history.slice(0, -1), pending: last }
  }
  return { summarized: history, pending: undefined }
}

/** The summary request's messages: the conversation, then the instruction (in the last user message if it ends with one). */
export const summaryRequest = (summarized: ReadonlyArray<MessageParam>, instruction: string): ReadonlyArray<MessageParam> =>
  appendUser(summarized, { role: "user", content: [Content.text(instruction)] })

/** The note an old tool result is replaced with (the call itself is kept). */
export const clearedResultNote = "[Old tool result cleared to save context.]"

/** Every tool result but those of the last `keepLast` user messages, replaced with a note. */
export const clearOldToolResults = (messages: ReadonlyArray<MessageParam>, keepLast: number): ReadonlyArray<MessageParam> => {
  let seen = 0
  const out: Array<MessageParam> = []
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]
    if (message === undefined) continue
    if (message.role === "user" && hasToolResult(message)) seen += 1
    if (message.role !== "user" || seen <= keepLast || !hasToolResult(message)) {
      out.push(message)
      continue
    }
    out.push({
      role: "user",
      content: Content.blocksOf(message.content).map((block) =>
        Content.isToolResult(block) ? { ...block, content: clearedResultNote } : block
      )
    })
  }
  return out.reverse()
}

/**
 * The conversation without its oldest `fraction`: cut where a user message begins, that message's tool results (now
 * answering calls that are left out) turned into a note, and a note that something was left out.
 */
export const dropOldest = (messages: ReadonlyArray<MessageParam>, fraction: number): ReadonlyArray<MessageParam> => {
  let cut = Math.max(1, Math.floor(messages.length * fraction))
  while (cut < messages.length && messages[cut]?.role !== "user") cut++
  if (cut >= messages.length - 1) return messages
  const first = messages[cut]
  if (first === undefined) return messages
  const note = Content.text("[The oldest part of the conversation is left out here: it did not fit.]")
  const rest = Content.blocksOf(first.content).filter((block) => !Content.isToolResult(block))
  return [{ role: "user", content: [note, ...rest] }, ...messages.slice(cut + 1)]
}

/** Runs the summary request, smaller each time the API says it is too long. */
const requestSummary = <E extends { readonly _tag: string; readonly message: string }>(
  context: Context<E>,
  summarized: ReadonlyArray<MessageParam>,
  instruction: string,
  maxTokens: number
): Effect.Effect<AssistantMessage, E | CompactionFailed> => {
  const attempt = (messages: ReadonlyArray<MessageParam>, shrinks: number): Effect.Effect<AssistantMessage, E | CompactionFailed> =>
    context.request(summaryRequest(messages, instruction), maxTokens).pipe(
      Effect.catchIf(
        (error): error is E => isPromptTooLong(error) && shrinks < maxShrinks,
        () => attempt(shrinks === 0 ? clearOldToolResults(messages, 0) : dropOldest(messages, 0.3), shrinks + 1)
      )
    )
  return attempt(summarized, 0)
}

/**
 * Compacts `history`: see the module doc. Fails with the request's error (an API error, an abort) or
 * CompactionFailed (the summary came back empty); the transcript and the tools are untouched then.
 */
export const compact = <E extends { readonly _tag: string; readonly message: string }>(
  context: Context<E>,
  history: ReadonlyArray<MessageParam>,
  options: {
    readonly trigger: "auto" | "manual"
    readonly preTokens: number
    readonly maxTokens: number
    /** Instructions for the summary given with a compaction asked for (`/compact ...`), before the hooks' own. */
    readonly customInstructions?: string
  }
): Effect.Effect<Outcome, E | CompactionFailed> =>
  Effect.gen(function* () {
    const given = options.customInstructions === undefined || options.customInstructions.trim() === "" ? undefined : options.customInstructions
    const hooked = yield* context.hooks.preCompact({
      sessionId: context.sessionId,
      cwd: context.cwd,
      permissionMode: context.permissionMode,
      trigger: options.trigger,
      customInstructions: given ?? null
    })
    yield* HookReport.report(context.emit, "PreCompact", hooked)
    if (hooked.stopRun !== undefined) return Outcome.Stopped({ reason: hooked.stopRun })

    const { summarized, pending } = split(history)
    if (summarized.length === 0) return yield* new CompactionFailed({ message: "There is no conversation to summarize." })
    const response = yield* requestSummary(
      context,
      summarized,
      summaryInstruction(
        given === undefined ? hooked.customInstructions : hooked.customInstructions === undefined ? given : `${given}\n${hooked.customInstructions}`
      ),
      Math.min(options.maxTokens, summaryMaxTokens)
    )
    const summary = extractSummary(response)
    if (summary === "") {
      return yield* new CompactionFailed({ message: "The model answered the summary request with no text.", response })
    }

    const summaryMessage: MessageParam = { role: "user", content: [Content.text(continuationText(summary))] }
    const uuid = yield* context.transcript.system(
      context.sessionId,
      "compact_boundary",
      "Conversation compacted",
      // The summary request is paid for but is no message of the conversation: its cost goes with the boundary, so
      // a resumed session's totals and `weft sessions` count it (SessionState.makeTotalsFold).
      { compactMetadata: { trigger: options.trigger, preTokens: options.preTokens }, ...context.costOf(response) },
      { freshChain: true }
    )
    yield* context.transcript.userWith(context.sessionId, summaryMessage, { isCompactSummary: true })
    if (pending !== undefined) yield* context.transcript.user(context.sessionId, pending)
    yield* context.forgetContext
    yield* context.emit({ _tag: "Compacted", uuid, trigger: options.trigger, preTokens: options.preTokens })
    // One user message: the summary, then the prompt that was waiting (a resumed transcript merges them the same way).
    const next = pending === undefined ? [summaryMessage] : appendUser([summaryMessage], pending)
    return Outcome.Compacted({ history: next, response })
  }).pipe(Effect.withSpan("Compaction.compact"))
