/**
 * What code that handles transcript entries needs, without their schemas (Transcript.ts, which re-exports all of
 * this): guards and the prompt text. A run that only writes entries never builds the schemas.
 */
import { isText } from "./ContentGuards.js"
import type { AssistantEntry, KnownEntry, SummaryEntry, SystemEntry, TranscriptEntry, UserEntry } from "./Transcript.js"

/** The entry types weft models; any other is an `UnknownEntry`. */
export const knownTypes: ReadonlySet<string> = new Set(["user", "assistant", "system", "summary"])

const guard =
  <T extends KnownEntry>(type: T["type"]) =>
  (entry: TranscriptEntry): entry is T =>
    entry.type === type

export const isUser = guard<UserEntry>("user")
export const isAssistant = guard<AssistantEntry>("assistant")
export const isSystem = guard<SystemEntry>("system")
export const isSummary = guard<SummaryEntry>("summary")
export const isKnown = (entry: TranscriptEntry): entry is KnownEntry => knownTypes.has(entry.type)

/**
 * Text the loop adds to a prompt's message beside what the user typed: hooks' additional context (SessionStart,
 * UserPromptSubmit), wrapped as a system reminder for the model.
 */
const isSystemReminder = (text: string): boolean => {
  const trimmed = text.trim()
  return trimmed.startsWith("<system-reminder>") && trimmed.endsWith("</system-reminder>")
}

/**
 * The text of a prompt entry, what the user typed (without the system reminders weft added beside it: hooks' context, the agents listing), or undefined for an
 * entry that is not a typed prompt (tool results, meta entries). What a session list shows as the session's first
 * prompt.
 */
export const promptText = (entry: TranscriptEntry): string | undefined => {
  if (!isUser(entry) || entry["isMeta"] === true) return undefined
  const content = entry.message.content
  if (typeof content === "string") return content
  let out = ""
  for (const block of content) if (isText(block) && !isSystemReminder(block.text)) out += (out === "" ? "" : "\n") + block.text
  return out === "" ? undefined : out
}
