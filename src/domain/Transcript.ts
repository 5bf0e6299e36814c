/**
 * Session transcript entries, one per line of a session's JSONL file, in the shape Claude Code writes them
 * (so tools that read Claude Code transcripts mostly work on weft's). Every entry carries the envelope
 * `uuid`, `parentUuid` (null for the first), `timestamp` (ISO 8601), `sessionId`, `cwd` and `type`; fields
 * weft does not model (`version`, `gitBranch`, `userType`, ...) are kept by the record index, and an entry of
 * a type weft does not know is kept whole as an `UnknownEntry`.
 */
import type * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { isText } from "./Content.js"
import { AssistantMessage, MessageParam } from "./Message.js"

const Extra = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const envelope = {
  uuid: Schema.String,
  parentUuid: Schema.NullOr(Schema.String),
  timestamp: Schema.String,
  sessionId: Schema.String,
  cwd: Schema.String,
  /** True for the entries of a subagent's side conversation (Claude Code's field). */
  isSidechain: Schema.optional(Schema.Boolean)
}

/** The fields every entry has, whatever its type. */
export const Envelope = Schema.Struct(envelope)
export type Envelope = typeof Envelope.Type

/** A prompt, or the tool_result blocks answering the previous assistant message. */
export const UserEntry = Schema.Struct(
  {
    ...envelope,
    type: Schema.Literal("user"),
    message: MessageParam.pipe(Schema.filter((m) => m.role === "user", { identifier: "UserMessageParam" })),
    /** Structured output of the tool whose result this entry carries (for renderers, never sent to the model). */
    toolUseResult: Schema.optional(Schema.Unknown)
  },
  Extra
)
export type UserEntry = typeof UserEntry.Type

/** One complete assistant response (the folded stream). */
export const AssistantEntry = Schema.Struct(
  {
    ...envelope,
    type: Schema.Literal("assistant"),
    message: AssistantMessage,
    requestId: Schema.optional(Schema.String),
    costUSD: Schema.optional(Schema.Number),
    durationMs: Schema.optional(Schema.Number)
  },
  Extra
)
export type AssistantEntry = typeof AssistantEntry.Type

/** Known subtypes; any string is accepted so a newer writer never breaks an older reader. */
export type SystemSubtype = "init" | "error" | "compact_boundary" | "informational" | (string & {})

/** Something the runtime noted in the session: start-up, an error, a compaction boundary. */
export const SystemEntry = Schema.Struct(
  {
    ...envelope,
    type: Schema.Literal("system"),
    subtype: Schema.String,
    content: Schema.String,
    level: Schema.optional(Schema.String)
  },
  Extra
)
export type SystemEntry = typeof SystemEntry.Type

/** A title for the conversation up to `leafUuid` (what a session picker shows). */
export const SummaryEntry = Schema.Struct(
  {
    ...envelope,
    type: Schema.Literal("summary"),
    summary: Schema.String,
    leafUuid: Schema.String
  },
  Extra
)
export type SummaryEntry = typeof SummaryEntry.Type

const knownTypes = new Set(["user", "assistant", "system", "summary"])

/** An entry of a type this version of weft does not know: kept whole and written back as it came. */
export const UnknownEntry = Schema.Struct({ ...envelope, type: Schema.String }, Extra).pipe(
  Schema.filter((entry) => !knownTypes.has(entry.type), { identifier: "UnknownEntry" })
)
export type UnknownEntry = typeof UnknownEntry.Type

export const KnownEntry = Schema.Union(UserEntry, AssistantEntry, SystemEntry, SummaryEntry)
export type KnownEntry = typeof KnownEntry.Type

export const TranscriptEntry = Schema.Union(KnownEntry, UnknownEntry)
/**
 * Narrow with the guards below (`isUser(entry)`): `UnknownEntry.type` is any string, so a plain
 * `entry.type === "user"` check does not narrow the union on its own.
 */
export type TranscriptEntry = typeof TranscriptEntry.Type

const guard =
  <T extends KnownEntry>(type: T["type"]) =>
  (entry: TranscriptEntry): entry is T =>
    entry.type === type

export const isUser = guard<UserEntry>("user")
export const isAssistant = guard<AssistantEntry>("assistant")
export const isSystem = guard<SystemEntry>("system")
export const isSummary = guard<SummaryEntry>("summary")
export const isKnown = (entry: TranscriptEntry): entry is KnownEntry => knownTypes.has(entry.type)

let decoder: ((input: unknown) => Either.Either<TranscriptEntry, ParseResult.ParseError>) | undefined

/**
 * Decodes one parsed JSON line; `Either.left` for a line that is not an entry. The decoder is compiled on first
 * use: compiling it for the whole entry union costs start-up that a run which only writes entries never needs.
 */
export const decodeEntry = (input: unknown): Either.Either<TranscriptEntry, ParseResult.ParseError> =>
  (decoder ??= Schema.decodeUnknownEither(TranscriptEntry))(input)

/**
 * The text of a prompt entry, or undefined for an entry that is not a typed prompt (tool results, meta
 * entries). What a session list shows as the session's first prompt.
 */
export const promptText = (entry: TranscriptEntry): string | undefined => {
  if (!isUser(entry) || entry["isMeta"] === true) return undefined
  const content = entry.message.content
  if (typeof content === "string") return content
  let out = ""
  for (const block of content) if (isText(block)) out += (out === "" ? "" : "\n") + block.text
  return out === "" ? undefined : out
}
