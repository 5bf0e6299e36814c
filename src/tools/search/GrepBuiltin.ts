/**
 * The built-in Grep engine, used when `rg` is not on PATH (or WEFT_GREP_ENGINE=builtin): the Glob walker
 * (gitignore-aware, hidden entries skipped), ripgrep's regex syntax translated to JavaScript (search/RustRegex.ts:
 * an invalid pattern is an error, as in ripgrep), files over MAX_FILE_BYTES skipped.
 *
 * As ripgrep: a walked file holding a NUL byte anywhere is binary and skipped (ripgrep stops at the NUL and
 * suppresses the file; it may still list or print matches it found in 64 KiB buffers before a late NUL, which this
 * engine does not imitate); a file named as the path is searched whatever it holds. Each line is searched alone,
 * so `\A`/`\z` are its ends; with multiline a match may span lines, and the count is of matches when the pattern
 * can match a newline, of matching lines otherwise (`rg -c -U`).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { Overrides } from "./Gitignore.js"
import { typeMatcher, FILE_TYPES } from "./FileTypes.js"
import { Collector, type FileFindings, GrepFailed, type GrepQuery, type Line, MAX_FILE_BYTES } from "./GrepOutput.js"
import { translateRegex } from "./RustRegex.js"
import { SearchFiles, type Interface as SearchFilesInterface } from "./SearchFiles.js"
import { comparePaths, loop, walk } from "./Walk.js"

/** A literal pattern (no regex syntax) can be searched as bytes without decoding the file. */
const literalOf = (pattern: string): string | undefined => (/[\\^$.|?*+()[\]{}]/.test(pattern) ? undefined : pattern)

interface Matcher {
  /** Quick whole-file check on the raw bytes, when the pattern allows one; undefined = must decode. */
  readonly bytes: Buffer | undefined
  /** Per line (no `g`): used to find matching lines. */
  readonly line: RegExp
  /** Whole text (`g`). */
  readonly whole: RegExp
  /** Multiline count mode counts matches, not lines (the pattern can match a newline, as ripgrep decides). */
  readonly countMatches: boolean
}

const makeMatcher = (query: GrepQuery): Result.Result<Matcher, GrepFailed> =>
  translateRegex(query.pattern, { multiline: query.multiline, dotAll: query.multiline, ignoreCase: query.ignoreCase }).pipe(
    Result.mapError((message) => new GrepFailed({ message })),
    Result.map((translated) => {
      const literal = translated.flags === "u" ? literalOf(query.pattern) : undefined
      return {
        bytes: literal !== undefined && literal.length > 0 ? Buffer.from(literal, "utf8") : undefined,
        line: new RegExp(translated.source, translated.flags),
        whole: new RegExp(translated.source, `${translated.flags}g`),
        countMatches: query.multiline && translated.canMatchNewline
      }
    })
  )

/** Offsets where each line starts. */
const lineStarts = (text: string): Array<number> => {
  const starts = [0]
  for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) starts.push(i + 1)
  return starts
}

const lineAt = (starts: ReadonlyArray<number>, offset: number): number => {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if ((starts[mid] ?? 0) <= offset) low = mid
    else high = mid - 1
  }
  return low
}

/** A line without its `\n`; for display also without a `\r` before it (ripgrep matches with the `\r`). */
const lineText = (text: string, starts: ReadonlyArray<number>, index: number, display: boolean): string => {
  const start = starts[index] ?? 0
  const next = starts[index + 1]
  let end = next !== undefined ? next - 1 : text.endsWith("\n") ? text.length - 1 : text.length
  if (display && end > start && text.charCodeAt(end - 1) === 13) end--
  return text.slice(start, end)
}

/** Indexes (0-based) of the matching lines of a text (in multiline mode, every line a match spans), and the matches. */
const matchingLines = (
  text: string,
  matcher: Matcher,
  multiline: boolean,
  starts: ReadonlyArray<number>
): { readonly lines: Array<number>; readonly matches: number } => {
  const matched = new Set<number>()
  let matches = 0
  if (multiline) {
    const regex = matcher.whole
    regex.lastIndex = 0
    for (let m = regex.exec(text); m !== null && onALine(text, m.index); m = regex.exec(text)) {
      matches++
      const first = lineAt(starts, m.index)
      const last = m[0].length > 0 ? lineAt(starts, m.index + m[0].length - 1) : first
      for (let i = first; i <= last; i++) matched.add(i)
      if (m[0].length === 0) regex.lastIndex++
    }
  } else {
    for (let i = 0; i < starts.length; i++) {
      if (matcher.line.test(lineText(text, starts, i, false))) matched.add(i)
    }
    matches = matched.size
  }
  return { lines: [...matched].sort((a, b) => a - b), matches }
}

/**
 * Whether a match at `index` lies on a line. After a final `\n` there is no line: ripgrep reports no (empty) match
 * there, whether from `$`, `^$` or `\z`.
 */
const onALine = (text: string, index: number): boolean => index < text.length || (text.length > 0 && !text.endsWith("\n"))

/** Whether any line of a text matches (the files_with_matches question), avoiding the per-line split. */
const anyLineMatches = (text: string, matcher: Matcher, multiline: boolean): boolean => {
  const regex = matcher.whole
  regex.lastIndex = 0
  const m = regex.exec(text)
  // The leftmost match: when it is past the last line, there is no other.
  if (m === null || !onALine(text, m.index)) return false
  // Outside multiline mode a match must lie within one line; a match spanning lines needs the line-by-line check.
  if (multiline || !m[0].includes("\n")) return true
  return matchingLines(text, matcher, false, lineStarts(text)).lines.length > 0
}

/** A reusable read buffer: most source files fit, so most reads allocate nothing. */
const SCRATCH_BYTES = 1024 * 1024

const searchFile = (
  files: SearchFilesInterface,
  path: string,
  query: GrepQuery,
  matcher: Matcher,
  scratch: Buffer
): FileFindings | undefined => {
  const bytes = files.readBytes(path, scratch, MAX_FILE_BYTES)
  if (bytes === undefined || bytes.length === 0) return undefined
  if (matcher.bytes !== undefined && bytes.indexOf(matcher.bytes) === -1) return undefined
  // Binary: a NUL byte anywhere. A file named as the path is searched anyway, as ripgrep does.
  if (!query.rootIsFile && bytes.indexOf(0) !== -1) return undefined
  const text = bytes.toString("utf8")
  if (query.mode === "files_with_matches") {
    return matcher.bytes !== undefined || anyLineMatches(text, matcher, query.multiline)
      ? { path, lines: [], count: 1 }
      : undefined
  }
  if (matcher.bytes === undefined) {
    matcher.whole.lastIndex = 0
    if (!matcher.whole.test(text)) return undefined
  }
  const starts = lineStarts(text)
  const found = matchingLines(text, matcher, query.multiline, starts)
  const matched = found.lines
  if (matched.length === 0) return undefined
  if (query.mode === "count") return { path, lines: [], count: matcher.countMatches ? found.matches : matched.length }
  const lines: Array<Line> = []
  const isMatch = new Set(matched)
  let next = 0
  for (const index of matched) {
    const from = Math.max(next, index - query.before)
    const to = Math.min(starts.length - 1, index + query.after)
    for (let i = from; i <= to; i++) {
      // A context window may reach a later match; that line is then printed once, as a match.
      lines.push({ number: i + 1, text: lineText(text, starts, i, true), match: isMatch.has(i) })
    }
    next = Math.max(next, to + 1)
  }
  return { path, lines, count: matched.length }
}

/** Runs a query over the file system. Content and count answers come in path order, as `rg --sort path`. */
export const search = (query: GrepQuery): Effect.Effect<Collector, GrepFailed, SearchFiles> =>
  SearchFiles.use((files) => {
    return Effect.flatMap(Effect.fromResult(makeMatcher(query)), (matcher) => {
      let ofType: ((name: string) => boolean) | undefined
      if (query.type !== undefined) {
        ofType = typeMatcher(query.type)
        if (ofType === undefined) {
          return Effect.fail(
            new GrepFailed({
              message: `unrecognized file type: ${query.type}. Known types: ${Object.keys(FILE_TYPES).join(", ")}`
            })
          )
        }
      }
      const overrides = new Overrides(query.globs)
      const candidates: Array<string> = []
      const collect = query.rootIsFile
        ? Effect.sync(() => candidates.push(query.root))
        : walk(
            query.root,
            { root: true, directory: () => true, file: (_state, _name, _relative, path) => void candidates.push(path) },
            { overrides, ...(ofType === undefined ? {} : { fileType: ofType }) }
          )
      const collector = new Collector(query)
      const scratch = Buffer.allocUnsafe(SCRATCH_BYTES)
      return collect.pipe(
        Effect.andThen(
          Effect.suspend(() => {
            if (query.mode !== "files_with_matches") candidates.sort(comparePaths)
            let index = 0
            return loop(() => {
              const path = candidates[index++]
              if (path === undefined) return false
              const found = searchFile(files, path, query, matcher, scratch)
              return found === undefined ? true : collector.add(found)
            })
          })
        ),
        Effect.as(collector)
      )
    })
  })
