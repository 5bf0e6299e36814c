/**
 * What a Grep search asks and finds, independent of the engine (ripgrep or the built-in one), and the one
 * formatter that turns findings into the text the model sees, so both engines answer a query identically.
 * The formats are ripgrep's (`path:12:text`, `path-13-context`, `--` between context groups, `path:N` counts)
 * wrapped the way Claude Code's Grep wraps them ("Found N files", "No matches found", ...).
 */
import * as Data from "effect/Data"

/** The search could not run (bad pattern, unknown type, engine failure); the message is for the model. */
export class GrepFailed extends Data.TaggedError("GrepFailed")<{ readonly message: string }> {}

export type OutputMode = "content" | "files_with_matches" | "count"

export interface GrepQuery {
  readonly pattern: string
  /** Absolute path searched: a directory, or one file. */
  readonly root: string
  readonly rootIsFile: boolean
  /** ripgrep `--glob` values (gitignore syntax, `!` excludes). */
  readonly globs: ReadonlyArray<string>
  readonly type: string | undefined
  readonly mode: OutputMode
  readonly ignoreCase: boolean
  readonly lineNumbers: boolean
  readonly before: number
  readonly after: number
  readonly multiline: boolean
  readonly headLimit: number | undefined
}

export interface Line {
  readonly number: number
  readonly text: string
  /** A matching line (printed with `:`), else a context line (printed with `-`). */
  readonly match: boolean
}

export interface FileFindings {
  /** Absolute path. */
  readonly path: string
  /** Matching and context lines in order (content mode only). */
  readonly lines: ReadonlyArray<Line>
  /** Number of matching lines. */
  readonly count: number
}

/** Bound on the text returned to the model; an engine stops searching once a content/count answer exceeds it. */
export const MAX_OUTPUT_CHARS = 30_000
/** Longer lines are cut in content output (minified files would otherwise flood the answer). */
export const MAX_LINE_CHARS = 500
/** Files larger than this are not searched by either engine (`rg --max-filesize`). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024
export const MAX_FILE_SIZE_FLAG = "64M"

const hasContext = (query: GrepQuery): boolean => query.before > 0 || query.after > 0

const cutLine = (text: string): string =>
  text.length > MAX_LINE_CHARS
    ? `${text.slice(0, MAX_LINE_CHARS)} [... ${text.length - MAX_LINE_CHARS} characters cut]`
    : text

/** The content-mode lines of one file, with the `--` separators ripgrep prints before each new context group. */
const contentLines = (query: GrepQuery, file: FileFindings, first: boolean, out: Array<string>): void => {
  const context = hasContext(query)
  const prefix = query.rootIsFile ? "" : file.path
  let previous = -1
  for (const line of file.lines) {
    if (context && previous !== line.number - 1 && !(first && previous === -1)) out.push("--")
    previous = line.number
    const separator = line.match ? ":" : "-"
    const head = query.rootIsFile ? "" : prefix + separator
    out.push(query.lineNumbers ? `${head}${line.number}${separator}${cutLine(line.text)}` : `${head}${cutLine(line.text)}`)
  }
}

/**
 * Accumulates findings in the order they must be printed (content and count modes: path order) and tells the
 * engine when it has enough: past head_limit lines or the character bound, later files cannot be shown.
 */
export class Collector {
  readonly files: Array<FileFindings> = []
  private lines = 0
  private chars = 0
  constructor(readonly query: GrepQuery) {}

  /** Adds one file's findings; false when no further file can appear in the answer. */
  add(file: FileFindings): boolean {
    this.files.push(file)
    if (this.query.mode === "files_with_matches") return true
    if (this.query.mode === "count") {
      this.lines += 1
      this.chars += (this.query.rootIsFile ? `${file.count}` : `${file.path}:${file.count}`).length + 1
    } else {
      const out: Array<string> = []
      contentLines(this.query, file, this.files.length === 1, out)
      this.lines += out.length
      for (const line of out) this.chars += line.length + 1
    }
    return this.lines < (this.query.headLimit ?? Infinity) && this.chars <= MAX_OUTPUT_CHARS
  }
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many)

/**
 * Keeps whole lines within the character bound, saying what was cut. An engine that stopped early did so only
 * past head_limit or past this bound, so the note appears exactly when something was left out.
 */
const capText = (lines: ReadonlyArray<string>): string => {
  let chars = 0
  let kept = 0
  for (const line of lines) {
    if (chars + line.length + 1 > MAX_OUTPUT_CHARS) break
    chars += line.length + 1
    kept++
  }
  const text = lines.slice(0, kept).join("\n")
  if (kept < lines.length) {
    return `${text}\n\n[Output truncated at ${MAX_OUTPUT_CHARS} characters. Narrow the search with path, glob, type or a more specific pattern, or use head_limit.]`
  }
  return text
}

/**
 * The answer for the model. For files_with_matches, `mtimes` gives each file's modification time: newest first,
 * as Claude Code sorts them.
 */
export const format = (
  query: GrepQuery,
  collector: Collector,
  mtimes: (path: string) => number
): string => answer(query, collector, mtimes).text

/**
 * Claude Code's Grep result, what PostToolUse hooks get as `tool_response`: the mode, the files (listed in
 * files_with_matches mode) and their number, and in the other modes the text with its line or match count.
 */
export type GrepResponse =
  | { readonly mode: "files_with_matches"; readonly filenames: ReadonlyArray<string>; readonly numFiles: number }
  | {
      readonly mode: "content"
      readonly filenames: ReadonlyArray<string>
      readonly numFiles: number
      readonly content: string
      readonly numLines: number
    }
  | {
      readonly mode: "count"
      readonly filenames: ReadonlyArray<string>
      readonly numFiles: number
      readonly content: string
      readonly numMatches: number
    }

/** The text for the model (`format`) and the structured result for hooks. */
export const answer = (
  query: GrepQuery,
  collector: Collector,
  mtimes: (path: string) => number
): { readonly text: string; readonly response: GrepResponse } => {
  const files = collector.files
  const limit = query.headLimit ?? Infinity
  switch (query.mode) {
    case "files_with_matches": {
      const sorted = files
        .map((file) => ({ path: file.path, mtime: mtimes(file.path) }))
        .sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .slice(0, limit)
        .map((file) => file.path)
      const response = { mode: "files_with_matches" as const, filenames: sorted, numFiles: sorted.length }
      if (files.length === 0) return { text: "No files found", response }
      return { text: capText([`Found ${sorted.length} ${plural(sorted.length, "file", "files")}`, ...sorted]), response }
    }
    case "count": {
      if (files.length === 0) {
        return { text: "No matches found", response: { mode: "count", filenames: [], numFiles: 0, content: "", numMatches: 0 } }
      }
      const shown = files.slice(0, limit)
      const total = shown.reduce((sum, file) => sum + file.count, 0)
      const lines = shown.map((file) => (query.rootIsFile ? `${file.count}` : `${file.path}:${file.count}`))
      const body = capText(lines)
      return {
        text: `${body}\n\nFound ${total} total ${plural(total, "occurrence", "occurrences")} across ${shown.length} ${plural(shown.length, "file", "files")}.`,
        response: { mode: "count", filenames: [], numFiles: shown.length, content: body, numMatches: total }
      }
    }
    case "content": {
      if (files.length === 0) {
        return { text: "No matches found", response: { mode: "content", filenames: [], numFiles: 0, content: "", numLines: 0 } }
      }
      const out: Array<string> = []
      files.forEach((file, index) => contentLines(query, file, index === 0, out))
      const limited = out.slice(0, limit)
      const text = capText(limited)
      return { text, response: { mode: "content", filenames: [], numFiles: 0, content: text, numLines: limited.length } }
    }
  }
}
