/**
 * ripgrep's regex syntax (Rust's `regex` crate) translated to a JavaScript RegExp source (with the `u` flag) for the
 * built-in Grep engine, so both engines accept, refuse and match the same patterns.
 *
 * Translated to Rust's meaning: `.` (never `\n` unless dot-all), `^`/`$` (at `\n` only, not `\r`), `\A`/`\z` (ends
 * of the file with -U, of the line otherwise, as ripgrep searches line by line), Unicode `\w \d \s \b` and their
 * negations, `\<`/`\>` (word start/end, as newer ripgrep), `\pL`/`\p{Greek}`, `\x{..}`/`\U........`, `\a`, POSIX
 * and nested classes, `(?P<name>..)`, leading inline flags `(?imsUux)`/`(?-flags)`, escaped punctuation (`\#`, `\-`),
 * a literal `]` first in a class, a lone `}`, repeated repetitions (`a**`). Refused as ripgrep refuses them: unclosed
 * groups and classes, a repetition with nothing to repeat, malformed `{n,m}`, unknown escapes and class names, a
 * literal `\n` outside multiline mode. Refused because JavaScript cannot say them: inline flags after the start
 * (`a(?i)b`, `(?i:..)`) and the class set operations `&&`, `--`, `~~`. Left as JavaScript has them (ripgrep refuses
 * them): look-around and back-references.
 */
import * as Result from "effect/Result"

export interface RegexOptions {
  /** rg -U: a match may span lines, and `\A`/`\z` are the ends of the file. Otherwise each line is searched alone. */
  readonly multiline: boolean
  /** `.` matches `\n` too (rg --multiline-dotall); a leading `(?s)` / `(?-s)` overrides it. */
  readonly dotAll: boolean
  /** rg -i; a leading `(?i)` / `(?-i)` overrides it. */
  readonly ignoreCase: boolean
}

export interface TranslatedRegex {
  readonly source: string
  /** `u`, plus `i` for a case-insensitive search. */
  readonly flags: string
  /**
   * Whether a match could contain `\n` (some literal, class or `.` can match one). ripgrep's count in multiline mode
   * counts matches for such patterns, matching lines for the others.
   */
  readonly canMatchNewline: boolean
}

/** Unicode `\w` as Rust defines it (UTS#18 word characters). */
const WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}"
const WORD_BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`
const NOT_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`
const WORD_START = `(?<![${WORD}])(?=[${WORD}])`
const WORD_END = `(?<=[${WORD}])(?![${WORD}])`
const LINE_START = "(?<![^\\n])"
const LINE_END = "(?![^\\n])"
const INPUT_START = "(?<![^])"
const INPUT_END = "(?![^])"

/** POSIX classes (`[[:alpha:]]`), ASCII as in Rust. */
const POSIX: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f"
}

/** Characters escapable in Rust; the ones JavaScript's `u` mode rejects escaped are emitted bare or as `\u{..}`. */
const isAsciiPunctuation = (c: string): boolean => /^[!-/:-@[-`{-~]$/.test(c)
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"])

class RegexError {
  constructor(readonly message: string) {}
}

const hex = (code: number): string => `\\u{${code.toString(16)}}`

/** A single character as a JavaScript atom outside a class. */
const literalAtom = (code: number): string => {
  const c = String.fromCodePoint(code)
  if (SYNTAX.has(c)) return `\\${c}`
  return code < 0x20 || code === 0x7f ? hex(code) : c
}

/** A single character inside a JavaScript class. */
const classChar = (code: number): string => {
  const c = String.fromCodePoint(code)
  if (c === "\\" || c === "]" || c === "[" || c === "-" || c === "^") return `\\${c}`
  return code < 0x20 || code === 0x7f ? hex(code) : c
}

/** Candidate JavaScript spellings of a Rust Unicode class name (Rust is loose about case and separators). */
const propertyCandidates = (name: string): Array<string> => {
  const titled = (text: string) =>
    text
      .split(/[\s_-]+/)
      .filter((part) => part !== "")
      .map((part) => (part.length <= 2 ? part : part[0]?.toUpperCase() + part.slice(1).toLowerCase()))
      .join("_")
  const [key, value] = name.includes("=") || name.includes(":") ? name.split(/[=:]/, 2) : [undefined, name]
  if (value === undefined) return []
  if (key !== undefined) {
    const keys: Record<string, string> = {
      sc: "Script",
      script: "Script",
      scx: "Script_Extensions",
      script_extensions: "Script_Extensions",
      gc: "General_Category",
      general_category: "General_Category"
    }
    const jsKey = keys[key.trim().toLowerCase().replace(/[\s-]/g, "_")]
    return jsKey === undefined ? [] : [`${jsKey}=${value.trim()}`, `${jsKey}=${titled(value)}`]
  }
  return [value.trim(), titled(value), `Script=${value.trim()}`, `Script=${titled(value)}`]
}

const propertyClass = (name: string, negated: boolean): string => {
  for (const candidate of propertyCandidates(name)) {
    const source = `\\${negated ? "P" : "p"}{${candidate}}`
    try {
      new RegExp(source, "u")
      return source
    } catch {
      // try the next spelling
    }
  }
  throw new RegexError(`unrecognized Unicode class name: ${name}`)
}

type ClassItem =
  | { readonly _tag: "Char"; readonly code: number }
  | { readonly _tag: "Set"; readonly source: string }
  | { readonly _tag: "NegatedSet"; readonly source: string }

/** One translation; state lives here rather than in closures so each step reads as a method. */
class Translator {
  private i = 0
  private out = ""
  private caseless: boolean
  private dotAll: boolean
  private lineAnchors = true
  private swapGreed = false
  private verbose = false
  private unicode = true
  canMatchNewline = false
  /** Where the last atom starts in `out`, and what it is (a quantifier needs something to repeat). */
  private atomStart = 0
  private atom: "none" | "atom" | "assertion" | "quantified" = "none"
  /** Where `out` ended after the last literal word character (see `wordBoundary`). */
  private wordLiteralEnd = -1
  private readonly groups: Array<{ readonly start: number; readonly lookaround: boolean }> = []

  constructor(
    private readonly pattern: string,
    private readonly options: RegexOptions
  ) {
    this.caseless = options.ignoreCase
    this.dotAll = options.dotAll
  }

  translate(): TranslatedRegex {
    const p = this.pattern
    while (this.i < p.length) {
      const c = p[this.i] ?? ""
      if (this.verbose && /\s/.test(c)) {
        this.i++
        continue
      }
      if (this.verbose && c === "#") {
        while (this.i < p.length && p[this.i] !== "\n") this.i++
        continue
      }
      switch (c) {
        case "\\":
          this.escape()
          break
        case "[":
          this.emitAtom(this.characterClass())
          break
        case "(":
          this.openGroup()
          break
        case ")":
          this.closeGroup()
          break
        case "|":
          this.i++
          this.out += "|"
          this.atom = "none"
          break
        case "*":
        case "+":
        case "?":
          this.i++
          this.quantify(c)
          break
        case "{":
          this.countedRepetition()
          break
        case ".":
          this.i++
          if (this.dotAll) this.canMatchNewline = true
          this.emitAtom(this.dotAll ? "[^]" : "[^\\n]")
          break
        case "^":
          this.i++
          this.emitAssertion(this.lineAnchors ? LINE_START : this.inputStart())
          break
        case "$":
          this.i++
          this.emitAssertion(this.lineAnchors ? LINE_END : this.inputEnd())
          break
        default: {
          const code = p.codePointAt(this.i) ?? 0
          this.i += code > 0xffff ? 2 : 1
          this.literal(code)
        }
      }
    }
    if (this.groups.length > 0) throw new RegexError("unclosed group: a `(` has no matching `)`")
    return { source: this.out, flags: this.caseless ? "iu" : "u", canMatchNewline: this.canMatchNewline }
  }

  private inputStart(): string {
    return this.options.multiline ? INPUT_START : LINE_START
  }

  private inputEnd(): string {
    return this.options.multiline ? INPUT_END : LINE_END
  }

  private emitAtom(source: string): void {
    this.atomStart = this.out.length
    this.out += source
    this.atom = "atom"
  }

  /**
   * Unicode `\b`. Next to a literal word character only one side needs checking (`\bfoo` is "no word character
   * before"), which V8 runs about twice as fast as the two-sided test.
   */
  private wordBoundary(): string {
    const p = this.pattern
    const next = p[this.i]
    const afterNext = p[this.i + 1]
    const optional = afterNext !== undefined && /[*?{]/.test(afterNext)
    const nextIsWord = !this.verbose && next !== undefined && /[\p{L}\p{Nd}_]/u.test(next) && !optional
    if (nextIsWord) return `(?<![${WORD}])`
    if (this.wordLiteralEnd === this.out.length) return `(?![${WORD}])`
    return WORD_BOUNDARY
  }

  private emitAssertion(source: string): void {
    this.atomStart = this.out.length
    this.out += source
    this.atom = "assertion"
  }

  private literal(code: number): void {
    if (code === 10) {
      if (!this.options.multiline) {
        throw new RegexError(
          "the literal \\n is not allowed in a regex outside multiline mode; set multiline: true to match across lines"
        )
      }
      this.canMatchNewline = true
    }
    this.emitAtom(literalAtom(code))
    if (/[\p{L}\p{Nd}_]/u.test(String.fromCodePoint(code))) this.wordLiteralEnd = this.out.length
  }

  /** Records whether a character set can match `\n`, then emits it. */
  private emitSet(source: string): void {
    if (!this.canMatchNewline && new RegExp(`^(?:${source})$`, "u").test("\n")) this.canMatchNewline = true
    this.emitAtom(source)
  }

  private quantify(quantifier: string): void {
    if (this.atom === "none") {
      throw new RegexError(`repetition operator missing expression: nothing before \`${quantifier}\` to repeat`)
    }
    let lazy = false
    if (this.pattern[this.i] === "?") {
      lazy = true
      this.i++
    }
    if (this.swapGreed) lazy = !lazy
    // JavaScript cannot repeat an assertion or a repetition directly (`a**`); Rust can.
    if (this.atom !== "atom") this.out = `${this.out.slice(0, this.atomStart)}(?:${this.out.slice(this.atomStart)})`
    this.out += quantifier + (lazy ? "?" : "")
    this.atom = "quantified"
  }

  private countedRepetition(): void {
    const match = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(this.pattern.slice(this.i))
    if (this.atom === "none") {
      throw new RegexError("repetition operator missing expression: nothing before `{` to repeat; escape a literal brace as \\{")
    }
    if (match === null) {
      throw new RegexError("invalid counted repetition: write {n}, {n,} or {n,m}; escape a literal brace as \\{")
    }
    const min = Number(match[1])
    const max = match[3] === undefined || match[3] === "" ? undefined : Number(match[3])
    if (max !== undefined && max < min) {
      throw new RegexError(`invalid repetition range ${match[0]}: the minimum is above the maximum`)
    }
    this.i += match[0].length
    this.quantify(`{${min}${match[2] === undefined ? "" : `,${max ?? ""}`}}`)
  }

  private openGroup(): void {
    const rest = this.pattern.slice(this.i)
    const start = this.out.length
    let open: string
    let lookaround = false
    let flags: RegExpExecArray | null
    let named: RegExpExecArray | null
    if (!rest.startsWith("(?")) open = "("
    else if (rest.startsWith("(?:")) open = "(?:"
    else if ((named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest)) !== null) open = `(?<${named[1]}>`
    else if (/^\(\?(=|!|<=|<!)/.test(rest)) {
      open = /^\(\?<?[=!]/.exec(rest)?.[0] ?? ""
      lookaround = true
    } else if ((flags = /^\(\?([a-zA-Z-]*)([):])/.exec(rest)) !== null) {
      if (flags[2] === ")" && this.out === "" && this.groups.length === 0) {
        this.setFlags(flags[1] ?? "")
        this.i += flags[0].length
        return
      }
      throw new RegexError(
        `inline flags like ${flags[0]} are supported only at the start of the pattern by the built-in engine ` +
          "(ripgrep is not installed); move them to the start or use the -i parameter"
      )
    } else throw new RegexError(`unrecognized group syntax at ${rest.slice(0, 4)}`)
    // The source consumed is the JavaScript opener's length, except for `(?P<`, one longer.
    this.i += rest.startsWith("(?P<") ? open.length + 1 : open.length
    this.groups.push({ start, lookaround })
    this.out += open
    this.atom = "none"
  }

  private closeGroup(): void {
    this.i++
    const group = this.groups.pop()
    if (group === undefined) throw new RegexError("unopened group: a `)` has no matching `(`")
    this.out += ")"
    this.atomStart = group.start
    this.atom = group.lookaround ? "assertion" : "atom"
  }

  private setFlags(flags: string): void {
    let on = true
    for (const flag of flags) {
      switch (flag) {
        case "-":
          on = false
          break
        case "i":
          this.caseless = on
          break
        case "s":
          this.dotAll = on
          break
        case "m":
          this.lineAnchors = on
          break
        case "U":
          this.swapGreed = on
          break
        case "x":
          this.verbose = on
          break
        case "u":
          this.unicode = on
          break
        default:
          throw new RegexError(`unrecognized flag ${flag} in (?${flags})`)
      }
    }
  }

  /** `\` outside a class. */
  private escape(): void {
    const p = this.pattern
    const c = p[this.i + 1]
    if (c === undefined) throw new RegexError("incomplete escape sequence: the pattern ends with \\")
    switch (c) {
      case "A":
        this.i += 2
        return this.emitAssertion(this.inputStart())
      case "z":
        this.i += 2
        return this.emitAssertion(this.inputEnd())
      case "b":
        this.i += 2
        return this.emitAssertion(this.unicode ? this.wordBoundary() : "\\b")
      case "B":
        this.i += 2
        return this.emitAssertion(this.unicode ? NOT_WORD_BOUNDARY : "\\B")
      case "<":
        this.i += 2
        return this.emitAssertion(this.unicode ? WORD_START : "\\b(?=\\w)")
      case ">":
        this.i += 2
        return this.emitAssertion(this.unicode ? WORD_END : "\\b(?<=\\w)")
      case "k": {
        // A JavaScript named back-reference: passed through (ripgrep refuses back-references).
        const named = /^\\k<[A-Za-z_][A-Za-z0-9_]*>/.exec(p.slice(this.i))
        if (named === null) throw new RegexError("unrecognized escape sequence \\k")
        this.i += named[0].length
        return this.emitAtom(named[0])
      }
    }
    if (/[0-9]/.test(c)) {
      // Back-references (and \0) as JavaScript has them.
      const digits = /^\\[0-9]+/.exec(p.slice(this.i))?.[0] ?? "\\0"
      this.i += digits.length
      return this.emitAtom(digits)
    }
    const item = this.escapeItem()
    if (item._tag === "Char") return this.literal(item.code)
    this.emitSet(item._tag === "Set" ? `[${item.source}]` : `[^${item.source}]`)
  }

  /** An escape standing for one character or a set, in or out of a class; `this.i` is at the backslash. */
  private escapeItem(): ClassItem {
    const p = this.pattern
    const c = p[this.i + 1] ?? ""
    this.i += 2
    const char = (code: number): ClassItem => ({ _tag: "Char", code })
    switch (c) {
      case "n":
        return char(10)
      case "t":
        return char(9)
      case "r":
        return char(13)
      case "f":
        return char(12)
      case "v":
        return char(11)
      case "a":
        return char(7)
      case "x":
      case "u":
      case "U": {
        const width = c === "x" ? 2 : c === "u" ? 4 : 8
        const braced = /^\{([0-9a-fA-F]{1,8})\}/.exec(p.slice(this.i))
        const fixed = new RegExp(`^[0-9a-fA-F]{${width}}`).exec(p.slice(this.i))
        const digits = braced?.[1] ?? fixed?.[0]
        if (digits === undefined) {
          throw new RegexError(`invalid escape \\${c}: expected ${width} hex digits or \\${c}{...}`)
        }
        this.i += (braced ?? fixed)?.[0].length ?? 0
        const code = parseInt(digits, 16)
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          throw new RegexError(`invalid Unicode scalar value \\${c}{${digits}}`)
        }
        return char(code)
      }
      case "d":
        return { _tag: "Set", source: this.unicode ? "\\p{Nd}" : "0-9" }
      case "D":
        return this.unicode ? { _tag: "Set", source: "\\P{Nd}" } : { _tag: "NegatedSet", source: "0-9" }
      case "s":
        return { _tag: "Set", source: this.unicode ? "\\p{White_Space}" : "\\t\\n\\v\\f\\r " }
      case "S":
        return this.unicode
          ? { _tag: "Set", source: "\\P{White_Space}" }
          : { _tag: "NegatedSet", source: "\\t\\n\\v\\f\\r " }
      case "w":
        return { _tag: "Set", source: this.unicode ? WORD : "0-9A-Za-z_" }
      case "W":
        return { _tag: "NegatedSet", source: this.unicode ? WORD : "0-9A-Za-z_" }
      case "p":
      case "P": {
        const braced = /^\{(\^?)([^}]*)\}/.exec(p.slice(this.i))
        const name = braced?.[2] ?? p[this.i]
        if (name === undefined || name === "" || (braced === null && name === "{")) {
          throw new RegexError(`incomplete Unicode class \\${c}: write \\${c}L or \\${c}{Name}`)
        }
        this.i += braced?.[0].length ?? 1
        return { _tag: "Set", source: propertyClass(name, (c === "P") !== (braced?.[1] === "^")) }
      }
    }
    if (c === " " || isAsciiPunctuation(c)) return char(c.charCodeAt(0))
    throw new RegexError(`unrecognized escape sequence \\${c}`)
  }

  /** `[...]`, Rust's syntax: a leading `]` is literal, classes nest, `[:name:]` is POSIX. Returns a JS atom. */
  private characterClass(): string {
    const { negated, items } = this.classItems()
    const source = classSource(negated, items)
    if (!this.canMatchNewline && new RegExp(`^(?:${source})$`, "u").test("\n")) this.canMatchNewline = true
    return source
  }

  private classItems(): { readonly negated: boolean; readonly items: Array<ClassItem> } {
    const p = this.pattern
    this.i++
    const negated = p[this.i] === "^"
    if (negated) this.i++
    const items: Array<ClassItem> = []
    let first = true
    for (;;) {
      const c = p[this.i]
      if (c === undefined) throw new RegexError("unclosed character class: a `[` has no matching `]`")
      if (c === "]" && !first) {
        this.i++
        return { negated, items }
      }
      if (this.verbose && /\s/.test(c)) {
        this.i++
        continue
      }
      if (!first && (p.startsWith("&&", this.i) || p.startsWith("--", this.i) || p.startsWith("~~", this.i))) {
        throw new RegexError(
          `character class set operations (${p.slice(this.i, this.i + 2)}) are not supported by the built-in ` +
            "engine (ripgrep is not installed)"
        )
      }
      first = false
      if (c === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i))
        if (posix !== null) {
          const body = POSIX[posix[2] ?? ""]
          if (body === undefined) throw new RegexError(`unrecognized POSIX class [:${posix[2]}:]`)
          this.i += posix[0].length
          items.push({ _tag: posix[1] === "^" ? "NegatedSet" : "Set", source: body })
          continue
        }
        const nested = this.classItems()
        if (!nested.negated) items.push(...nested.items)
        else if (nested.items.every((item) => item._tag !== "NegatedSet")) {
          items.push({ _tag: "NegatedSet", source: nested.items.map(itemSource).join("") })
        } else {
          throw new RegexError("a negated class nested in a class cannot hold \\W or [:^name:] in the built-in engine")
        }
        continue
      }
      const start = this.classAtom()
      if (start._tag === "Char" && p[this.i] === "-" && p[this.i + 1] !== "]" && p[this.i + 1] !== undefined) {
        this.i++
        const end = this.classAtom()
        if (end._tag !== "Char") {
          throw new RegexError("invalid character class range: a range must run between two characters")
        }
        if (end.code < start.code) throw new RegexError("invalid character class range: its start is after its end")
        items.push({ _tag: "Set", source: `${classChar(start.code)}-${classChar(end.code)}` })
      } else items.push(start)
    }
  }

  private classAtom(): ClassItem {
    const p = this.pattern
    if (p[this.i] === "\\") {
      const next = p[this.i + 1]
      if (next === "b" || next === "B" || next === "A" || next === "z" || (next !== undefined && /[0-9k]/.test(next))) {
        throw new RegexError(`\\${next} is not allowed in a character class`)
      }
      return this.escapeItem()
    }
    const code = p.codePointAt(this.i) ?? 0
    this.i += code > 0xffff ? 2 : 1
    return { _tag: "Char", code }
  }
}

const itemSource = (item: ClassItem): string => (item._tag === "Char" ? classChar(item.code) : item.source)

/**
 * A class as a JavaScript atom. Sets given as negations (`\W`, `[:^alpha:]`, `[^..]` nested) cannot be unioned
 * inside one JavaScript class, so such a class becomes an alternation (or, negated, look-aheads).
 */
const classSource = (negated: boolean, items: ReadonlyArray<ClassItem>): string => {
  const positive = items.filter((item) => item._tag !== "NegatedSet").map(itemSource).join("")
  const negatives = items.filter((item) => item._tag === "NegatedSet").map((item) => item.source)
  if (negatives.length === 0) return positive === "" ? (negated ? "[^]" : "[]") : `[${negated ? "^" : ""}${positive}]`
  if (!negated) {
    const parts = [...(positive === "" ? [] : [`[${positive}]`]), ...negatives.map((source) => `[^${source}]`)]
    return `(?:${parts.join("|")})`
  }
  // Not (P or not N1 or not N2) = not P, and N1, and N2.
  const [first, ...others] = negatives
  const lookaheads = others.map((source) => `(?=[${source}])`).join("")
  return `(?:${lookaheads}${positive === "" ? "" : `(?![${positive}])`}[${first}])`
}

/** Translates a ripgrep pattern, or explains why it is not valid (the message is for the model). */
export const translateRegex = (pattern: string, options: RegexOptions): Result.Result<TranslatedRegex, string> => {
  try {
    const translated = new Translator(pattern, options).translate()
    new RegExp(translated.source, translated.flags)
    return Result.succeed(translated)
  } catch (error) {
    const reason =
      error instanceof RegexError
        ? error.message
        : error instanceof SyntaxError
          ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")
          : String(error)
    return Result.fail(`regex parse error in ${JSON.stringify(pattern)}: ${reason}`)
  }
}
