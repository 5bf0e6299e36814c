/**
 * gitignore rules (the format of `.gitignore`, `.ignore`, `.rgignore`, and ripgrep's `--glob`), matched the way
 * git does: the last matching rule of a file wins, `!` re-includes, a trailing `/` matches only directories, a
 * pattern with a `/` before its end is anchored to the file's directory, one without matches a name at any
 * depth, `**` spans directories. A file inside an ignored directory cannot be re-included: the walker never
 * enters the directory, exactly as git documents.
 */
import { globSource } from "./GlobPattern.js"

export interface Rule {
  readonly pattern: string
  readonly negate: boolean
  readonly directoryOnly: boolean
  /** Matched against the entry name only (pattern had no `/`), else against the path relative to the base. */
  readonly basenameOnly: boolean
  readonly regex: RegExp
}

/** Compiles one gitignore line; undefined for blanks and comments. */
export const parseRule = (line: string): Rule | undefined => {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line
  // Trailing spaces are ignored unless escaped with a backslash.
  let end = text.length
  while (end > 0 && text[end - 1] === " " && text[end - 2] !== "\\") end--
  text = text.slice(0, end)
  if (text === "" || text.startsWith("#")) return undefined
  let negate = false
  if (text.startsWith("!")) {
    negate = true
    text = text.slice(1)
  } else if (text.startsWith("\\!") || text.startsWith("\\#")) {
    text = text.slice(1)
  }
  let directoryOnly = false
  if (text.endsWith("/") && !text.endsWith("\\/")) {
    directoryOnly = true
    text = text.replace(/\/+$/, "")
  }
  if (text === "") return undefined
  const anchored = text.includes("/")
  if (text.startsWith("/")) text = text.slice(1)
  const pattern = line
  if (!anchored) {
    return { pattern, negate, directoryOnly, basenameOnly: true, regex: new RegExp(`^${segmentSource(text)}$`) }
  }
  const parts = text.split("/")
  let source = ""
  parts.forEach((part, index) => {
    const last = index === parts.length - 1
    if (part === "**") {
      source += last ? ".*" : "(?:.*/)?"
    } else {
      source += segmentSource(part) + (last ? "" : "/")
    }
  })
  return { pattern, negate, directoryOnly, basenameOnly: false, regex: new RegExp(`^${source}$`) }
}

const segmentSource = (part: string): string => (part === "**" ? ".*" : part === "" ? "" : globSource(part))

/** Parses a whole ignore file. Lines that are not valid globs are skipped, as git does. */
export const parse = (content: string): ReadonlyArray<Rule> => {
  const rules: Array<Rule> = []
  for (const line of content.split("\n")) {
    try {
      const rule = parseRule(line)
      if (rule !== undefined) rules.push(rule)
    } catch {
      // An invalid pattern (an unclosed brace) is ignored rather than failing the whole search.
    }
  }
  return rules
}

export type Decision = "ignore" | "include" | "none"

/** The decision of a rule list for one entry: the last matching rule wins. */
export const decide = (
  rules: ReadonlyArray<Rule>,
  relativePath: string,
  name: string,
  isDirectory: boolean
): Decision => {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]
    if (rule === undefined || (rule.directoryOnly && !isDirectory)) continue
    if (rule.regex.test(rule.basenameOnly ? name : relativePath)) return rule.negate ? "include" : "ignore"
  }
  return "none"
}

/**
 * The ignore rules in force in one directory: its own files' rules on top of its parent's. `base` is the
 * absolute directory the rules are relative to.
 */
export class IgnoreStack {
  constructor(
    readonly base: string,
    readonly rules: ReadonlyArray<Rule>,
    readonly parent: IgnoreStack | undefined
  ) {}

  static readonly empty = new IgnoreStack("/", [], undefined)

  push(base: string, rules: ReadonlyArray<Rule>): IgnoreStack {
    return rules.length === 0 ? this : new IgnoreStack(base, rules, this)
  }

  /** The decision for the entry at absolute path `path` (named `name`): deeper files override shallower ones. */
  decide(path: string, name: string, isDirectory: boolean): Decision {
    for (let layer: IgnoreStack | undefined = this; layer !== undefined; layer = layer.parent) {
      if (layer.rules.length === 0) continue
      const relative = layer.base === "/" ? path.slice(1) : path.slice(layer.base.length + 1)
      const decision = decide(layer.rules, relative, name, isDirectory)
      if (decision !== "none") return decision
    }
    return "none"
  }

  ignored(path: string, name: string, isDirectory: boolean): boolean {
    return this.decide(path, name, isDirectory) === "ignore"
  }
}

/** The ignore files ripgrep reads, in its order of precedence (a match in an earlier kind wins). */
export const IGNORE_FILES = [".rgignore", ".ignore", ".gitignore"] as const
export type IgnoreFile = (typeof IGNORE_FILES)[number]

/**
 * The rules in force in one directory, one stack per kind of ignore file. As in ripgrep, the kinds are consulted in
 * order, each deepest file first, and the first kind with a matching rule decides: a root `.rgignore` `!keep.txt`
 * beats a deeper `.ignore` `*.txt`, which beats a deeper `.gitignore` `!keep.txt`.
 */
export class IgnoreRules {
  constructor(readonly stacks: Readonly<Record<IgnoreFile, IgnoreStack>>) {}

  static readonly empty = new IgnoreRules({
    ".rgignore": IgnoreStack.empty,
    ".ignore": IgnoreStack.empty,
    ".gitignore": IgnoreStack.empty
  })

  push(file: IgnoreFile, base: string, rules: ReadonlyArray<Rule>): IgnoreRules {
    return rules.length === 0 ? this : new IgnoreRules({ ...this.stacks, [file]: this.stacks[file].push(base, rules) })
  }

  get isEmpty(): boolean {
    return IGNORE_FILES.every((file) => this.stacks[file].parent === undefined && this.stacks[file].rules.length === 0)
  }

  decide(path: string, name: string, isDirectory: boolean): Decision {
    for (const file of IGNORE_FILES) {
      const decision = this.stacks[file].decide(path, name, isDirectory)
      if (decision !== "none") return decision
    }
    return "none"
  }
}

/**
 * ripgrep's `--glob` overrides: gitignore syntax with the meaning inverted, relative to the search root. Checked
 * before anything else, as in ripgrep's `ignore` crate.
 */
export class Overrides {
  private readonly rules: ReadonlyArray<Rule>
  private readonly hasPositive: boolean

  constructor(globs: ReadonlyArray<string>) {
    const rules: Array<Rule> = []
    for (const glob of globs) {
      const rule = parseRule(glob)
      if (rule !== undefined) rules.push(rule)
    }
    this.rules = rules
    this.hasPositive = rules.some((rule) => !rule.negate)
  }

  get isEmpty(): boolean {
    return this.rules.length === 0
  }

  /**
   * "include" when a positive glob matches (this beats every other rule: ignore files, types, hidden), "ignore"
   * when a `!` glob matches, or when there are positive globs and a file matches none; else "none".
   */
  decide(relativePath: string, name: string, isDirectory: boolean): Decision {
    if (this.rules.length === 0) return "none"
    const decision = decide(this.rules, relativePath, name, isDirectory)
    // Rules are kept as written: a positive glob "ignores" in gitignore terms, which here means "include".
    if (decision === "ignore") return "include"
    if (decision === "include") return "ignore"
    return this.hasPositive && !isDirectory ? "ignore" : "none"
  }
}
