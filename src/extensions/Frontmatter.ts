/**
 * The YAML frontmatter of a command, skill or agent file: the part between a first line `---` and the next line
 * `---`. Only what these files use is read: `key: value` scalars (plain, 'single' or "double" quoted), `true` /
 * `false`, inline lists `[a, b]`, block lists (`- item` lines under `key:`) and block scalars (`|`, `>`). Anything
 * else is skipped with a warning naming the line; the file still loads (a bad header never stops a run).
 */

export type Value = string | boolean | ReadonlyArray<string>

export interface Parsed {
  /** The header's keys, as written (`allowed-tools`, `argument-hint`, ...). */
  readonly attributes: ReadonlyMap<string, Value>
  /** The text after the header (the whole text when there is none). */
  readonly body: string
  /** What could not be read, for a warning naming the file. */
  readonly warnings: ReadonlyArray<string>
}

const unquote = (raw: string): string => {
  const text = raw.trim()
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(["\\nt])/g, (_, escaped: string) =>
      escaped === "n" ? "\n" : escaped === "t" ? "\t" : escaped
    )
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'")
  // A comment after a plain scalar (`model: haiku # cheap`) is not part of it.
  return text.replace(/\s+#.*$/, "")
}

const scalar = (raw: string): Value => {
  const text = unquote(raw)
  if (raw.trim() === "true") return true
  if (raw.trim() === "false") return false
  return text
}

/** `[a, "b, c"]`: the items, split at commas outside quotes. */
const inlineList = (raw: string): ReadonlyArray<string> => {
  const inner = raw.trim().slice(1, -1)
  const items: Array<string> = []
  let current = ""
  let quote: string | undefined
  for (const char of inner) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      current += char
    } else if (char === '"' || char === "'") {
      quote = char
      current += char
    } else if (char === ",") {
      items.push(current)
      current = ""
    } else current += char
  }
  if (current.trim() !== "" || items.length > 0) items.push(current)
  return items.map(unquote).filter((item) => item !== "")
}

const keyLine = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$/

/** Splits `text` into its frontmatter attributes and body. */
export const parse = (text: string): Parsed => {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n")
  const lines = normalized.split("\n")
  if (lines[0]?.trim() !== "---") return { attributes: new Map(), body: normalized, warnings: [] }
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---")
  if (end === -1) {
    return { attributes: new Map(), body: normalized, warnings: ["the frontmatter starts with --- but never ends; read as plain text"] }
  }
  const attributes = new Map<string, Value>()
  const warnings: Array<string> = []
  const header = lines.slice(1, end)
  let index = 0
  while (index < header.length) {
    const line = header[index] ?? ""
    index++
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue
    const match = keyLine.exec(line)
    if (match === null) {
      warnings.push(`frontmatter line ${index + 1} is not \`key: value\`: ${line.trim().slice(0, 80)}`)
      continue
    }
    const key = match[1] ?? ""
    const rest = (match[2] ?? "").trim()
    // Indented lines that follow belong to this key (a block list or a block scalar).
    const nested: Array<string> = []
    while (index < header.length && (/^\s+\S/.test(header[index] ?? "") || (header[index] ?? "").trim() === "")) {
      nested.push(header[index] ?? "")
      index++
    }
    while (nested.length > 0 && (nested[nested.length - 1] ?? "").trim() === "") nested.pop()
    if (rest === "|" || rest === ">" || /^[|>][+-]?$/.test(rest)) {
      const indent = Math.min(...nested.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length))
      const body = nested.map((l) => l.slice(Number.isFinite(indent) ? indent : 0))
      attributes.set(key, rest.startsWith("|") ? body.join("\n") : body.map((l) => l.trim()).join(" ").replace(/\s+/g, " ").trim())
    } else if (rest === "") {
      if (nested.length === 0) attributes.set(key, "")
      else if (nested.every((l) => l.trim() === "" || l.trimStart().startsWith("- ") || l.trim() === "-")) {
        attributes.set(key, nested.filter((l) => l.trim() !== "").map((l) => unquote(l.trimStart().slice(1))).filter((item) => item !== ""))
      } else {
        warnings.push(`frontmatter key ${key} holds a structure this reader does not take (a map?); it is ignored`)
      }
    } else if (rest.startsWith("[")) {
      if (rest.endsWith("]")) attributes.set(key, inlineList(rest))
      else warnings.push(`frontmatter key ${key}: the list is not closed on its line; it is ignored`)
    } else if (rest.startsWith("{")) {
      warnings.push(`frontmatter key ${key} holds a map, which this reader does not take; it is ignored`)
    } else {
      // A plain scalar may go on over indented lines (folded into one).
      const continued = nested.length > 0 ? `${rest} ${nested.map((l) => l.trim()).join(" ")}` : rest
      attributes.set(key, scalar(continued))
    }
  }
  return { attributes, body: lines.slice(end + 1).join("\n").replace(/^\n+/, ""), warnings }
}

/** A string attribute (a list joined by ", "; a boolean written out); undefined when absent or empty. */
export const stringOf = (attributes: ReadonlyMap<string, Value>, key: string): string | undefined => {
  const value = attributes.get(key)
  if (value === undefined) return undefined
  const text = typeof value === "string" ? value : typeof value === "boolean" ? String(value) : value.join(", ")
  return text.trim() === "" ? undefined : text.trim()
}

/** A boolean attribute: `true` / `false` (also quoted). */
export const booleanOf = (attributes: ReadonlyMap<string, Value>, key: string): boolean => {
  const value = attributes.get(key)
  return value === true || value === "true"
}

/**
 * A list of permission rules (`allowed-tools`): a YAML list, or one string of rules separated by commas or spaces
 * outside parentheses (`Bash(git add:*), Bash(git commit:*) Read`), as Claude Code reads it.
 */
export const rulesOf = (attributes: ReadonlyMap<string, Value>, key: string): ReadonlyArray<string> => {
  const value = attributes.get(key)
  if (value === undefined || typeof value === "boolean") return []
  const texts = typeof value === "string" ? [value] : value
  const rules: Array<string> = []
  for (const text of texts) {
    let depth = 0
    let current = ""
    for (const char of text) {
      if (char === "(") depth++
      if (char === ")") depth = Math.max(0, depth - 1)
      if (depth === 0 && (char === "," || /\s/.test(char))) {
        if (current.trim() !== "") rules.push(current.trim())
        current = ""
      } else current += char
    }
    if (current.trim() !== "") rules.push(current.trim())
  }
  return rules
}
