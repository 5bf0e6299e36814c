/**
 * The built-in Grep engine, used when `rg` is not on PATH (or WEFT_GREP_ENGINE=builtin): the Glob walker
 * (gitignore-aware, hidden entries skipped), JavaScript regular expressions, binary files (a NUL byte in the
 * first 8 KB) skipped, files over MAX_FILE_BYTES skipped.
 *
 * Regex syntax: ripgrep's Rust syntax is close to JavaScript's. Translated: leading inline flags `(?i)`, `(?s)`,
 * `(?m)`, `(?is)`...; `(?P<name>...)` groups; `\A` and `\z`; POSIX classes `[[:alpha:]]` inside brackets; `\pL`
 * (one-letter Unicode classes). Not translated (differ or fail): inline flags in the middle of a pattern, `(?x)`
 * verbose mode, `\Q...\E`, Unicode class names JavaScript lacks. JavaScript extras that ripgrep refuses
 * (look-around, back-references) simply work here.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { Overrides } from "./Gitignore.js"
import { typeMatcher, FILE_TYPES } from "./FileTypes.js"
import { Collector, type FileFindings, GrepFailed, type GrepQuery, type Line, MAX_FILE_BYTES } from "./GrepOutput.js"
import { POSIX_CLASSES } from "./GlobPattern.js"
import { comparePaths, loop, walk } from "./Walk.js"


export interface TranslatedRegex {
  readonly source: string
  readonly flags: string
}

/** Translates the ripgrep-only syntax listed above; everything else passes through unchanged. */
export const translateRegex = (pattern: string): TranslatedRegex => {
  let source = pattern
  let flags = ""
  const leading = /^\(\?([imsU]+)\)/.exec(source)
  if (leading !== null) {
    source = source.slice(leading[0].length)
    for (const flag of leading[1] ?? "") if (flag !== "U" && !flags.includes(flag)) flags += flag
  }
  source = source
    .replace(/\(\?P</g, "(?<")
    .replace(/\\A/g, "^")
    .replace(/\\z/g, "$")
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negate: string, name: string) => {
      const body = POSIX_CLASSES[name]
      return body === undefined || negate !== "" ? whole : body
    })
    .replace(/\\([pP])([A-Z])(?![{])/g, "\\$1{$2}")
  return { source, flags }
}

/** A literal pattern (no regex syntax) can be searched as bytes without decoding the file. */
const literalOf = (pattern: string): string | undefined => (/[\\^$.|?*+()[\]{}]/.test(pattern) ? undefined : pattern)

const compile = (source: string, flags: string): RegExp => {
  try {
    return new RegExp(source, `${flags}u`)
  } catch {
    // Without the `u` flag JavaScript accepts what ripgrep accepts in more cases (`\-`, a lone `{`).
    return new RegExp(source, flags)
  }
}

interface Matcher {
  /** Quick whole-file check on the raw bytes, when the pattern allows one; undefined = must decode. */
  readonly bytes: Buffer | undefined
  /** Per line (no `g`): used to find matching lines. */
  readonly line: RegExp
  /** Whole text (`g`, `m`, plus `s` in multiline mode). */
  readonly whole: RegExp
}

const makeMatcher = (query: GrepQuery): Matcher => {
  const translated = translateRegex(query.pattern)
  let flags = translated.flags
  if (query.ignoreCase && !flags.includes("i")) flags += "i"
  if (!flags.includes("m")) flags += "m"
  if (query.multiline && !flags.includes("s")) flags += "s"
  const literal = flags === "m" || flags === "ms" ? literalOf(translated.source) : undefined
  try {
    return {
      bytes: literal !== undefined && literal.length > 0 ? Buffer.from(literal, "utf8") : undefined,
      line: compile(translated.source, flags),
      whole: compile(translated.source, `${flags}g`)
    }
  } catch (error) {
    throw new GrepFailed({
      message: `regex parse error: ${error instanceof Error ? error.message : String(error)}`
    })
  }
}

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

const lineText = (text: string, starts: ReadonlyArray<number>, index: number): string => {
  const start = starts[index] ?? 0
  const next = starts[index + 1]
  let end = next !== undefined ? next - 1 : text.endsWith("\n") ? text.length - 1 : text.length
  if (end > start && text.charCodeAt(end - 1) === 13) end--
  return text.slice(start, end)
}

/** Indexes (0-based) of the matching lines of a text. */
const matchingLines = (text: string, matcher: Matcher, multiline: boolean, starts: ReadonlyArray<number>): Array<number> => {
  const matched = new Set<number>()
  if (multiline) {
    const regex = matcher.whole
    regex.lastIndex = 0
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      const first = lineAt(starts, m.index)
      const last = m[0].length > 0 ? lineAt(starts, m.index + m[0].length - 1) : first
      for (let i = first; i <= last; i++) matched.add(i)
      if (m[0].length === 0) regex.lastIndex++
    }
  } else {
    for (let i = 0; i < starts.length; i++) {
      if (matcher.line.test(lineText(text, starts, i))) matched.add(i)
    }
  }
  return [...matched].sort((a, b) => a - b)
}

/** Whether any line of a text matches (the files_with_matches question), avoiding the per-line split. */
const anyLineMatches = (text: string, matcher: Matcher, multiline: boolean): boolean => {
  const regex = matcher.whole
  regex.lastIndex = 0
  const m = regex.exec(text)
  if (m === null) return false
  // Outside multiline mode a match must lie within one line; a match spanning lines needs the line-by-line check.
  if (multiline || !m[0].includes("\n")) return true
  return matchingLines(text, matcher, false, lineStarts(text)).length > 0
}

/** A reusable read buffer: most source files fit, so most reads allocate nothing. */
const SCRATCH_BYTES = 1024 * 1024
const BINARY_PROBE_BYTES = 8192

/**
 * Reads a whole file. Into the scratch buffer first, without an fstat: most files fit, and skipping that call is
 * a quarter of the syscalls per file. Only a file that fills the buffer is measured and read in full.
 */
const readFile = (path: string, scratch: Buffer): Buffer | undefined => {
  let fd: number
  try {
    fd = fs.openSync(path, "r")
  } catch {
    return undefined
  }
  try {
    // A regular file returns less than asked only at its end, so one read settles most files.
    let length = fs.readSync(fd, scratch, 0, scratch.length, null)
    if (length < scratch.length) return scratch.subarray(0, length)
    const size = fs.fstatSync(fd).size
    if (size > MAX_FILE_BYTES) return undefined
    const buffer = Buffer.allocUnsafe(Math.max(size, length))
    scratch.copy(buffer, 0, 0, length)
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
    }
    return buffer.subarray(0, length)
  } catch {
    return undefined
  } finally {
    fs.closeSync(fd)
  }
}

const isBinary = (bytes: Buffer): boolean => bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1

const searchFile = (
  path: string,
  query: GrepQuery,
  matcher: Matcher,
  scratch: Buffer
): FileFindings | undefined => {
  const bytes = readFile(path, scratch)
  if (bytes === undefined || bytes.length === 0 || isBinary(bytes)) return undefined
  if (matcher.bytes !== undefined && bytes.indexOf(matcher.bytes) === -1) return undefined
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
  const matched = matchingLines(text, matcher, query.multiline, starts)
  if (matched.length === 0) return undefined
  if (query.mode === "count") return { path, lines: [], count: matched.length }
  const lines: Array<Line> = []
  const isMatch = new Set(matched)
  let next = 0
  for (const index of matched) {
    const from = Math.max(next, index - query.before)
    const to = Math.min(starts.length - 1, index + query.after)
    for (let i = from; i <= to; i++) {
      // A context window may reach a later match; that line is then printed once, as a match.
      lines.push({ number: i + 1, text: lineText(text, starts, i), match: isMatch.has(i) })
    }
    next = Math.max(next, to + 1)
  }
  return { path, lines, count: matched.length }
}

/** Runs a query over the file system. Content and count answers come in path order, as `rg --sort path`. */
export const search = (query: GrepQuery): Effect.Effect<Collector, GrepFailed> =>
  Effect.suspend(() => {
    const matcher = Effect.try({
      try: () => makeMatcher(query),
      catch: (error) => (error instanceof GrepFailed ? error : new GrepFailed({ message: String(error) }))
    })
    return Effect.flatMap(matcher, (matcher) => {
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
        Effect.zipRight(
          Effect.suspend(() => {
            if (query.mode !== "files_with_matches") candidates.sort(comparePaths)
            let index = 0
            return loop(() => {
              const path = candidates[index++]
              if (path === undefined) return false
              const found = searchFile(path, query, matcher, scratch)
              return found === undefined ? true : collector.add(found)
            })
          })
        ),
        Effect.as(collector)
      )
    })
  })
