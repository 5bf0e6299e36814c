/**
 * What a listing shows of a session (SessionInfo): from its entries (the memory store), or from its file's lines,
 * parsing only those that can matter (the JSONL store: see `scanLine`).
 */
import * as Result from "effect/Result"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { isAssistant, promptText } from "../domain/TranscriptGuards.js"
import { type Decode, type Line, parseJson } from "./JsonlReader.js"
import { mayCount } from "./LineMarkers.js"
import { fromEntries, startsExchange, summaryCostOf } from "./SessionState.js"
import type { SessionInfo } from "./SessionStore.js"

export const firstPromptLength = 100

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > firstPromptLength ? flat.slice(0, firstPromptLength - 1) + "…" : flat
}

export const summarize = (
  sessionId: string,
  entries: ReadonlyArray<TranscriptEntry>,
  lastModified: Date
): SessionInfo | undefined => {
  const first = entries[0]
  if (first === undefined) return undefined
  let firstPrompt = ""
  for (const entry of entries) {
    const prompt = promptText(entry)
    if (prompt !== undefined) {
      firstPrompt = oneLine(prompt)
      break
    }
  }
  const state = fromEntries(entries)
  return {
    sessionId,
    cwd: first.cwd,
    firstPrompt,
    lastModified,
    entryCount: entries.length,
    turns: state.turns,
    costUSD: state.totalCostUSD
  }
}

export const newestFirst = (a: SessionInfo, b: SessionInfo): number =>
  b.lastModified.getTime() - a.lastModified.getTime() || (a.sessionId < b.sessionId ? -1 : 1)

/** What `list` gathers from a file's lines. */
export interface Summary {
  cwd: string | undefined
  firstPrompt: string | undefined
  entryCount: number
  turns: number
  /** Response ids of the current exchange (see SessionState.makeFold). */
  readonly responses: Set<string>
  costUSD: number
}

export const newSummary = (): Summary => ({
  cwd: undefined,
  firstPrompt: undefined,
  entryCount: 0,
  turns: 0,
  responses: new Set(),
  costUSD: 0
})

/**
 * Counts one line into `summary`, parsing it only when it can matter: the first entry (its cwd), a user entry
 * that is no tool result (a prompt: the first one is shown, and each starts an exchange), an assistant entry.
 * The bulky lines, tool results, are only split, never parsed (see `mayCount`). A complete line that is not
 * parsed is counted as an entry: `entryCount` counts a damaged tool result line too.
 */
export const scanLine = (summary: Summary, line: Line, decode: Decode): void => {
  if (line.unread === true) {
    summary.entryCount++
    return
  }
  if (!/\S/.test(line.text)) return
  const needsCwd = summary.cwd === undefined
  if (!needsCwd && !mayCount(line.text) && line.terminated) {
    summary.entryCount++
    return
  }
  const json = parseJson(line.text)
  const decoded = json === undefined ? undefined : decode(json)
  if (decoded === undefined || Result.isFailure(decoded)) return
  const entry = decoded.success
  summary.entryCount++
  if (needsCwd) summary.cwd = entry.cwd
  if (summary.firstPrompt === undefined) {
    const prompt = promptText(entry)
    if (prompt !== undefined) summary.firstPrompt = oneLine(prompt)
  }
  if (startsExchange(entry)) summary.responses.clear()
  summary.costUSD += summaryCostOf(entry)?.costUSD ?? 0
  if (isAssistant(entry)) {
    // One response split over several entries shares its message id: one turn (as SessionState counts them).
    if (!summary.responses.has(entry.message.id)) summary.turns++
    summary.responses.add(entry.message.id)
    summary.costUSD += entry.costUSD ?? 0
  }
}
