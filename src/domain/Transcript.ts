/**
 * Session transcript entries, one per line of a session's JSONL file, in the shape Claude Code writes them
 * (so tools that read Claude Code transcripts mostly work on weft's). Every entry carries the envelope
 * `uuid`, `parentUuid` (null for the first), `timestamp` (ISO 8601), `sessionId`, `cwd` and `type`; fields
 * weft does not model (`version`, `gitBranch`, `userType`, ...) are kept by the record index, and an entry of
 * a type weft does not know is kept whole as an `UnknownEntry`.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { knownTypes } from "./TranscriptGuards.js"
import { AssistantMessage, MessageParam } from "./Message.js"

export * from "./TranscriptGuards.js"

const Extra = Schema.Record(Schema.String, Schema.Unknown)

/** A struct that keeps every other key it is given (the record index). */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.StructWithRest(Schema.Struct(fields), [Extra])

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
export const UserEntry = open({
  ...envelope,
  type: Schema.Literal("user"),
  message: MessageParam.check(Schema.makeFilter((m) => m.role === "user", { identifier: "UserMessageParam" })),
  /** Structured output of the tool whose result this entry carries (for renderers, never sent to the model). */
  toolUseResult: Schema.optional(Schema.Unknown)
})
export type UserEntry = typeof UserEntry.Type

/** One complete assistant response (the folded stream). */
export const AssistantEntry = open({
  ...envelope,
  type: Schema.Literal("assistant"),
  message: AssistantMessage,
  requestId: Schema.optional(Schema.String),
  costUSD: Schema.optional(Schema.Number),
  durationMs: Schema.optional(Schema.Number)
})
export type AssistantEntry = typeof AssistantEntry.Type

/** Known subtypes; any string is accepted so a newer writer never breaks an older reader. */
export type SystemSubtype = "init" | "error" | "compact_boundary" | "informational" | (string & {})

/** Something the runtime noted in the session: start-up, an error, a compaction boundary. */
export const SystemEntry = open({
  ...envelope,
  type: Schema.Literal("system"),
  subtype: Schema.String,
  content: Schema.String,
  level: Schema.optional(Schema.String)
})
export type SystemEntry = typeof SystemEntry.Type

/** A title for the conversation up to `leafUuid` (what a session picker shows). */
export const SummaryEntry = open({
  ...envelope,
  type: Schema.Literal("summary"),
  summary: Schema.String,
  leafUuid: Schema.String
})
export type SummaryEntry = typeof SummaryEntry.Type

/** An entry of a type this version of weft does not know: kept whole and written back as it came. */
export const UnknownEntry = open({ ...envelope, type: Schema.String }).check(
  Schema.makeFilter((entry) => !knownTypes.has(entry.type), { identifier: "UnknownEntry" })
)
export type UnknownEntry = typeof UnknownEntry.Type

export const KnownEntry = Schema.Union([UserEntry, AssistantEntry, SystemEntry, SummaryEntry])
export type KnownEntry = typeof KnownEntry.Type

export const TranscriptEntry = Schema.Union([KnownEntry, UnknownEntry])
/**
 * Narrow with the guards (`isUser(entry)`, from TranscriptGuards.ts, re-exported here): `UnknownEntry.type` is any
 * string, so a plain `entry.type === "user"` check does not narrow the union on its own.
 */
export type TranscriptEntry = typeof TranscriptEntry.Type

type Decoder = (input: unknown) => Result.Result<TranscriptEntry, Schema.SchemaError>

let decoders: { readonly byType: ReadonlyMap<string, Decoder>; readonly other: Decoder } | undefined

/**
 * Decodes one parsed JSON line; a `Result` failure for a line that is not an entry. The schema is picked by the entry's
 * `type` (the same answer as decoding the `TranscriptEntry` union, at a fraction of the cost: the union tries its
 * members). The decoders are compiled on first use: compiling them costs start-up that a run which only writes
 * entries never needs.
 */
export const decodeEntry = (input: unknown): Result.Result<TranscriptEntry, Schema.SchemaError> => {
  decoders ??= {
    byType: new Map<string, Decoder>([
      ["user", Schema.decodeUnknownResult(UserEntry)],
      ["assistant", Schema.decodeUnknownResult(AssistantEntry)],
      ["system", Schema.decodeUnknownResult(SystemEntry)],
      ["summary", Schema.decodeUnknownResult(SummaryEntry)]
    ]),
    other: Schema.decodeUnknownResult(TranscriptEntry)
  }
  const type = typeof input === "object" && input !== null && "type" in input ? input.type : undefined
  return ((typeof type === "string" ? decoders.byType.get(type) : undefined) ?? decoders.other)(input)
}

/** A transcript file's entries, with what had to be left out. */
export interface ParsedTranscript {
  readonly entries: ReadonlyArray<TranscriptEntry>
  /** Complete lines that were not entries (corrupt JSON, a known type with missing fields): skipped. */
  readonly skippedLines: number
  /** True when the file ended in an unterminated, unparseable line (a write cut by a crash): skipped. */
  readonly tornTail: boolean
}

/**
 * Parses a transcript file's text. Never fails: a corrupt complete line is skipped and counted; an unterminated
 * last line is kept if it is a whole entry (a hand-written file without a final newline) and otherwise skipped
 * as a torn write.
 */
export const parseTranscript = (text: string): ParsedTranscript => {
  const entries: Array<TranscriptEntry> = []
  let skippedLines = 0
  let tornTail = false
  const lines = text.split("\n")
  // After the last "\n" comes either "" (a clean end) or an unterminated tail.
  const tail = lines.pop() ?? ""
  const decode = (line: string): TranscriptEntry | undefined => {
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      return undefined
    }
    const decoded = decodeEntry(json)
    return Result.isSuccess(decoded) ? decoded.success : undefined
  }
  for (const line of lines) {
    if (line.trim() === "") continue
    const entry = decode(line)
    if (entry === undefined) skippedLines++
    else entries.push(entry)
  }
  if (tail.trim() !== "") {
    const entry = decode(tail)
    if (entry === undefined) tornTail = true
    else entries.push(entry)
  }
  return { entries, skippedLines, tornTail }
}
