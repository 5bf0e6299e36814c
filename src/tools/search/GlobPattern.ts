/**
 * Glob patterns, compiled once and matched path segment by path segment, so a walker can prune a directory as
 * soon as no pattern can match below it. Supports `*`, `?`, `**` (whole segments), `[abc]`, `[a-z]`, `[!x]` /
 * `[^x]`, `{a,b}` (nested, may contain `/`) and `\` escapes. As in the shell (and the `glob` package Claude Code
 * used), `*`, `?` and `**` do not match a name that starts with `.` unless the pattern spells the dot.
 */

/** Upper bound on brace alternatives: `{a,b}{c,d}...` grows exponentially; beyond this the pattern is refused. */
const MAX_ALTERNATIVES = 1024

export class GlobSyntaxError extends Error {}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g
export const escapeRegex = (text: string): string => text.replace(REGEX_SPECIAL, "\\$&")

/** True when the text contains glob syntax (outside escapes). */
export const hasMagic = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "*" || c === "?" || c === "[" || c === "{") return true
  }
  return false
}

/** Index of the `]` closing the class opened at `start`, or -1 when there is none (then `[` is literal). */
const classEnd = (text: string, start: number): number => {
  let i = start + 1
  if (text[i] === "!" || text[i] === "^") i++
  if (text[i] === "]") i++
  for (; i < text.length; i++) {
    if (text[i] === "\\") i++
    else if (text[i] === "[" && text[i + 1] === ":") {
      // A POSIX class `[:digit:]` has its own `]`.
      const close = text.indexOf(":]", i + 2)
      if (close > 0) i = close + 1
    } else if (text[i] === "]") return i
  }
  return -1
}

/** POSIX bracket classes (`[[:digit:]]`) as regex class bodies; shared by glob patterns and the grep engine. */
export const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: "\\s",
  blank: " \\t",
  xdigit: "0-9A-Fa-f",
  punct: "!-\\/:-@\\[-`{-~",
  word: "\\w",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e"
}

/** The regex source of a bracket class `[...]` spanning text[start..end]. Never matches `/`. */
const classSource = (text: string, start: number, end: number): string => {
  let i = start + 1
  let negate = false
  if (text[i] === "!" || text[i] === "^") {
    negate = true
    i++
  }
  let body = ""
  for (; i < end; i++) {
    const c = text[i] ?? ""
    if (c === "\\" && i + 1 < end) {
      body += escapeRegex(text[++i] ?? "")
    } else if (c === "[" && text[i + 1] === ":") {
      const close = text.indexOf(":]", i + 2)
      const name = close > 0 ? text.slice(i + 2, close) : ""
      const posix = POSIX_CLASSES[name]
      if (posix !== undefined && close < end) {
        body += posix
        i = close + 1
      } else body += "\\["
    } else if (c === "-" && body.length > 0 && i + 1 < end) {
      body += "-"
    } else {
      body += escapeRegex(c)
    }
  }
  return negate ? `[^/${body}]` : `[${body}]`
}

/**
 * Regex source for a glob without `**` handling: `*` -> `[^/]*`, `?` -> `[^/]`, classes, `{a,b}` -> `(?:a|b)`.
 * Used for one path segment (Glob) and for gitignore-style patterns (which handle `**` around it).
 */
export const globSource = (text: string): string => {
  let out = ""
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? ""
    if (c === "\\") {
      out += escapeRegex(text[i + 1] ?? "\\")
      i++
    } else if (c === "*") {
      while (text[i + 1] === "*") i++
      out += "[^/]*"
    } else if (c === "?") {
      out += "[^/]"
    } else if (c === "[") {
      const end = classEnd(text, i)
      if (end < 0) out += "\\["
      else {
        out += classSource(text, i, end)
        i = end
      }
    } else if (c === "{") {
      depth++
      out += "(?:"
    } else if (c === "}" && depth > 0) {
      depth--
      out += ")"
    } else if (c === "," && depth > 0) {
      out += "|"
    } else {
      out += escapeRegex(c)
    }
  }
  if (depth > 0) throw new GlobSyntaxError(`unclosed "{" in glob pattern: ${text}`)
  return out
}

/** Index of the `}` matching the `{` at `start`, and whether the group has a top-level comma. */
const braceEnd = (text: string, start: number): { readonly end: number; readonly comma: boolean } => {
  let depth = 0
  let comma = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "[") {
      const end = classEnd(text, i)
      if (end > 0) i = end
    } else if (c === "{") depth++
    else if (c === "}") {
      depth--
      if (depth === 0) return { end: i, comma }
    } else if (c === "," && depth === 1) comma = true
  }
  return { end: -1, comma }
}

/** Splits the body of a brace group at its top-level commas. */
const splitAlternatives = (body: string): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let last = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}") depth--
    else if (c === "," && depth === 0) {
      parts.push(body.slice(last, i))
      last = i + 1
    }
  }
  parts.push(body.slice(last))
  return parts
}

/** Expands `{a,b}` groups (nested) into separate patterns, as a shell would. A group without a comma is literal. */
export const expandBraces = (pattern: string): Array<string> => {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === "\\") {
      i++
      continue
    }
    if (c !== "{") continue
    const { end, comma } = braceEnd(pattern, i)
    if (end < 0) throw new GlobSyntaxError(`unclosed "{" in glob pattern: ${pattern}`)
    if (!comma) continue
    const head = pattern.slice(0, i)
    const tails = expandBraces(pattern.slice(end + 1))
    const out: Array<string> = []
    for (const alternative of splitAlternatives(pattern.slice(i + 1, end))) {
      for (const middle of expandBraces(alternative)) {
        for (const tail of tails) {
          out.push(head + middle + tail)
          if (out.length > MAX_ALTERNATIVES) {
            throw new GlobSyntaxError(`glob pattern expands to more than ${MAX_ALTERNATIVES} alternatives: ${pattern}`)
          }
        }
      }
    }
    return out
  }
  return [pattern]
}

type Segment =
  | { readonly _tag: "Globstar" }
  | { readonly _tag: "Literal"; readonly value: string }
  | { readonly _tag: "Pattern"; readonly regex: RegExp; readonly explicitDot: boolean }

const unescape = (text: string): string => text.replace(/\\(.)/g, "$1")

const compileSegment = (text: string): Segment => {
  if (text === "**") return { _tag: "Globstar" }
  if (!hasMagic(text)) return { _tag: "Literal", value: unescape(text) }
  return { _tag: "Pattern", regex: new RegExp(`^${globSource(text)}$`), explicitDot: text.startsWith(".") }
}

const segmentMatches = (segment: Segment, name: string): boolean => {
  switch (segment._tag) {
    case "Literal":
      return segment.value === name
    case "Pattern":
      return (segment.explicitDot || name.charCodeAt(0) !== 46) && segment.regex.test(name)
    case "Globstar":
      return name.charCodeAt(0) !== 46
  }
}

/**
 * Where a walker stands in the pattern: the set of (alternative, segment index) positions still alive for the
 * current directory, closed over `**` matching zero segments. Opaque to callers.
 */
export interface GlobState {
  readonly positions: ReadonlyArray<number>
}

export interface GlobMatcher {
  readonly pattern: string
  /** The state for the directory the pattern is relative to. */
  readonly initial: GlobState
  /** The state inside subdirectory `name`, or undefined when nothing below it can match (prune it). */
  readonly enter: (state: GlobState, name: string) => GlobState | undefined
  /** Does file `name` in the directory of `state` match. */
  readonly matchesFile: (state: GlobState, name: string) => boolean
  /** Does a relative path (`/`-separated) match as a file. */
  readonly matches: (relativePath: string) => boolean
}

// A position packs (alternative, index) into one number so states are cheap arrays of ints.
const STRIDE = 4096

/**
 * Compiles a glob relative to a directory. Leading `./` is dropped; empty segments (`a//b`) are ignored.
 * Throws GlobSyntaxError on an unclosed brace or too many alternatives.
 */
export const compile = (pattern: string): GlobMatcher => {
  const alternatives = expandBraces(pattern).map((alternative) =>
    alternative
      .split("/")
      .filter((part, index) => part !== "" && !(part === "." && index === 0))
      .map(compileSegment)
  )
  for (const segments of alternatives) {
    if (segments.length >= STRIDE) throw new GlobSyntaxError(`glob pattern has too many segments: ${pattern}`)
  }

  const close = (alternative: number, index: number, into: Set<number>): void => {
    const segments = alternatives[alternative] ?? []
    let i = index
    into.add(alternative * STRIDE + i)
    while (segments[i]?._tag === "Globstar") {
      i++
      into.add(alternative * STRIDE + i)
    }
  }
  const reachesEnd = (alternative: number, index: number): boolean => {
    const segments = alternatives[alternative] ?? []
    for (let i = index; i < segments.length; i++) if (segments[i]?._tag !== "Globstar") return false
    return true
  }

  const start = new Set<number>()
  alternatives.forEach((_, alternative) => close(alternative, 0, start))
  const initial: GlobState = { positions: [...start] }

  const enter = (state: GlobState, name: string): GlobState | undefined => {
    const next = new Set<number>()
    for (const position of state.positions) {
      const alternative = Math.floor(position / STRIDE)
      const index = position % STRIDE
      const segment = alternatives[alternative]?.[index]
      if (segment === undefined || !segmentMatches(segment, name)) continue
      if (segment._tag === "Globstar") close(alternative, index, next)
      else close(alternative, index + 1, next)
    }
    // A directory only helps when some position still has a segment left to match inside it.
    for (const position of next) {
      const segments = alternatives[Math.floor(position / STRIDE)] ?? []
      if (position % STRIDE < segments.length) return { positions: [...next] }
    }
    return undefined
  }

  const matchesFile = (state: GlobState, name: string): boolean => {
    for (const position of state.positions) {
      const alternative = Math.floor(position / STRIDE)
      const index = position % STRIDE
      const segment = alternatives[alternative]?.[index]
      if (segment === undefined || !segmentMatches(segment, name)) continue
      if (segment._tag === "Globstar" ? reachesEnd(alternative, index) : reachesEnd(alternative, index + 1)) return true
    }
    return false
  }

  const matches = (relativePath: string): boolean => {
    const parts = relativePath.split("/").filter((part) => part !== "")
    const last = parts.pop()
    if (last === undefined) return false
    let state: GlobState | undefined = initial
    for (const part of parts) {
      state = enter(state, part)
      if (state === undefined) return false
    }
    return matchesFile(state, last)
  }

  return { pattern, initial, enter, matchesFile, matches }
}

/**
 * Splits a pattern into the literal directory it starts with and the rest: `/abs/src/**\/*.ts` ->
 * { base: "/abs/src", rest: "**\/*.ts" }. Lets an absolute or `../` pattern be walked from the right place.
 */
export const splitBase = (pattern: string): { readonly base: string; readonly rest: string } => {
  const parts = pattern.split("/")
  let literal = 0
  while (literal < parts.length - 1 && !hasMagic(parts[literal] ?? "")) literal++
  if (literal === 0) return { base: "", rest: pattern }
  const base = parts.slice(0, literal).join("/")
  return { base: base === "" ? "/" : unescape(base), rest: parts.slice(literal).join("/") }
}
