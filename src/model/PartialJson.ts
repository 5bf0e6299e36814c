/**
 * Incremental JSON for streamed tool input (`input_json_delta`). A renderer wants the input as it grows
 * (`{"path":"src/ma` -> `{ path: "src/ma" }`), and re-parsing the whole buffer on every delta is quadratic (the
 * SDK's `inputJson` listener takes ~27 s for a 400 KB input). This parser is a push-driven state machine that
 * builds the value in place: each character is looked at once, so the whole input costs O(length) however often
 * `value()` is called in between (`value()` scans only what arrived since the last call).
 *
 * What a partial value shows (the same document fed whole or one character at a time gives the same values):
 * - a string shows as far as it has arrived (a half-received escape is held back until complete);
 * - an object shows its members whose value has started; a key without a value yet is not shown;
 * - an array shows its items so far; open objects and arrays are closed;
 * - a number shows only once something ends it (`1` may still become `12`); at the top level `end()` ends it;
 * - `t`, `f`, `n` complete to `true`, `false`, `null` at once (nothing else can follow), and a later mismatch
 *   is an error.
 * Once the input can no longer be JSON, `error()` says why and where; `value()` keeps what was built before.
 *
 * `value()` returns the parser's own live value: containers and the trailing string are updated in place by
 * later pushes (that is what keeps it O(1)). Copy it (`structuredClone`) to keep a snapshot. A value returned
 * once `isComplete()` is true never changes again.
 */

// Parser states.
const VALUE = 0 // a value must start here (the root, after `:`, after `,` in an array)
const ARRAY_FIRST = 1 // after `[`: a value or `]`
const OBJECT_FIRST = 2 // after `{`: a key or `}`
const OBJECT_KEY = 3 // after `,` in an object: a key
const KEY_STRING = 4 // inside a key
const AFTER_KEY = 5 // `:` must follow
const VALUE_STRING = 6 // inside a string value
const AFTER_VALUE = 7 // `,` or a closer; at the root only whitespace
const NUMBER = 8
const LITERAL = 9
const FAILED = 10

// Number sub-states (the JSON number grammar).
const N_MINUS = 0 // after `-`: a digit must follow
const N_ZERO = 1 // a leading `0`: `.`, `e` or the end
const N_INT = 2
const N_DOT = 3 // after `.`: a digit must follow
const N_FRAC = 4
const N_EXP = 5 // after `e`: a sign or a digit
const N_EXP_SIGN = 6 // after the exponent sign: a digit must follow
const N_EXP_DIGITS = 7

const LITERALS: Record<string, { readonly word: string; readonly value: boolean | null }> = {
  t: { word: "true", value: true },
  f: { word: "false", value: false },
  n: { word: "null", value: null }
}

type Container = Record<string, unknown> | Array<unknown>

interface Level {
  readonly container: Container
  /** For an object: the key whose value is being read (set once the key string closes). */
  key: string
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

const hexValue = (c: number): number => {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x57
  if (c >= 0x41 && c <= 0x46) return c - 0x37
  return -1
}

const simpleEscape = (c: number): string | undefined => {
  switch (c) {
    case 0x22:
      return "\""
    case 0x5c:
      return "\\"
    case 0x2f:
      return "/"
    case 0x62:
      return "\b"
    case 0x66:
      return "\f"
    case 0x6e:
      return "\n"
    case 0x72:
      return "\r"
    case 0x74:
      return "\t"
  }
  return undefined
}

/** Sets an own property, `__proto__` included (plain assignment would change the prototype; JSON.parse doesn't). */
const setProperty = (object: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  } else {
    object[key] = value
  }
}

const describe = (c: number): string => (c < 0x20 ? `U+${c.toString(16).padStart(4, "0")}` : JSON.stringify(String.fromCharCode(c)))

export class PartialJsonParser {
  private parts: Array<string> = []
  /** Fragments pushed but not scanned yet. */
  private pending: Array<string> = []
  /** Characters scanned before the current fragment (for error positions). */
  private offset = 0
  private state = VALUE
  private readonly stack: Array<Level> = []
  private root: unknown = undefined
  private hasRoot = false
  private failure: string | undefined = undefined

  // The string being read (a key or a value), built with `+=`: V8 ropes make that O(1) until it is read.
  private str = ""
  /** 0: not in an escape; 1: after `\`; 2..5: reading the hex digits of `\u`. */
  private escape = 0
  private unicode = 0
  /** Where the string value being read lives: its array index, or -1 for the open object's key / the root. */
  private stringIndex = -1

  // The number being read: text from earlier fragments plus the sub-state.
  private numberText = ""
  private numberState = N_MINUS

  private literal = ""
  private literalPos = 0

  /** Everything pushed so far. Joined lazily and cached, so reading it once at the end is linear. */
  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join("")]
    return this.parts[0] ?? ""
  }

  /**
   * Feeds the next fragment. O(1) here: fragments are scanned when a value is asked for, each exactly once, so a
   * fold nobody watches pays nothing until `end()` (which then uses the native JSON.parse when it can).
   */
  push(fragment: string): void {
    if (fragment.length === 0) return
    this.parts.push(fragment)
    this.pending.push(fragment)
  }

  /** The best value so far (`undefined` before any value started). Live: see the module doc. */
  value(): unknown {
    this.catchUp()
    return this.root
  }

  /** A whole JSON value has been read and only whitespace followed it. */
  isComplete(): boolean {
    this.catchUp()
    return this.state === AFTER_VALUE && this.stack.length === 0 && this.hasRoot
  }

  /** Why the input can no longer be JSON, once it can't. */
  error(): string | undefined {
    this.catchUp()
    return this.failure
  }

  /**
   * No more input is coming: a number that ran to the end is complete now (a top-level `42`); anything still
   * open stays incomplete. When nothing was scanned yet, the native JSON.parse reads the whole text (several
   * times faster than this scanner), and the scanner runs only if that fails, to find the best partial value.
   */
  end(): void {
    if (this.offset === 0 && this.state === VALUE && this.pending.length > 0) {
      const text = this.text
      try {
        this.root = JSON.parse(text)
        this.hasRoot = true
        this.state = AFTER_VALUE
        this.offset = text.length
        this.pending = []
        return
      } catch {
        // Not JSON (yet): the scanner below says how far it gets and why.
      }
    }
    this.catchUp()
    if (this.state === NUMBER && this.stack.length === 0) this.finishNumber("", 0, 0)
  }

  private catchUp(): void {
    if (this.pending.length === 0) return
    const pending = this.pending
    this.pending = []
    for (const fragment of pending) {
      if (this.state !== FAILED) this.scan(fragment)
      this.offset += fragment.length
    }
  }

  private fail(reason: string, index: number): false {
    // Keep what a string value had before the bad character, as for any other value.
    if (this.state === VALUE_STRING) this.publishString()
    this.failure = `${reason} at position ${this.offset + index}`
    this.state = FAILED
    return false
  }

  /** Puts a finished (or started container / string) value where it belongs. */
  private attach(value: unknown): void {
    const level = this.stack[this.stack.length - 1]
    if (level === undefined) {
      this.root = value
      this.hasRoot = true
    } else if (Array.isArray(level.container)) {
      level.container.push(value)
    } else {
      setProperty(level.container, level.key, value)
    }
  }

  /** A value ended: the next character must be a separator, a closer, or (at the root) whitespace. */
  private valueEnded(): void {
    this.state = AFTER_VALUE
  }

  /** Writes the string value being read into its place, so `value()` shows it as far as it goes. */
  private publishString(): void {
    const level = this.stack[this.stack.length - 1]
    if (level === undefined) this.root = this.str
    else if (Array.isArray(level.container)) level.container[this.stringIndex] = this.str
    else setProperty(level.container, level.key, this.str)
  }

  private open(container: Container): void {
    this.attach(container)
    this.stack.push({ container, key: "" })
    this.state = Array.isArray(container) ? ARRAY_FIRST : OBJECT_FIRST
  }

  /** Starts the value whose first character is `c` (at `i`), or fails if no value can start with it. */
  private startValue(c: number, s: string, i: number): boolean {
    if (c === 0x22) {
      this.str = ""
      this.escape = 0
      this.attach("")
      const level = this.stack[this.stack.length - 1]
      this.stringIndex = level !== undefined && Array.isArray(level.container) ? level.container.length - 1 : -1
      this.state = VALUE_STRING
    } else if (c === 0x7b) {
      this.open({})
    } else if (c === 0x5b) {
      this.open([])
    } else if (c === 0x2d || isDigit(c)) {
      this.numberText = ""
      this.numberState = c === 0x2d ? N_MINUS : c === 0x30 ? N_ZERO : N_INT
      this.state = NUMBER
    } else {
      const literal = LITERALS[s.charAt(i)]
      if (literal === undefined) return this.fail(`Unexpected character ${describe(c)}`, i)
      this.literal = literal.word
      this.literalPos = 1
      this.attach(literal.value)
      this.state = LITERAL
    }
    return true
  }

  /** Ends the number whose text is `numberText` + `s[from, to)`. */
  private finishNumber(s: string, from: number, to: number): boolean {
    const st = this.numberState
    if (st !== N_ZERO && st !== N_INT && st !== N_FRAC && st !== N_EXP_DIGITS) return this.fail("Incomplete number", to)
    this.attach(Number(this.numberText + s.slice(from, to)))
    this.numberText = ""
    this.valueEnded()
    return true
  }

  private closeContainer(c: number, i: number): boolean {
    const level = this.stack[this.stack.length - 1]
    if (level === undefined || Array.isArray(level.container) !== (c === 0x5d)) {
      return this.fail(`Unexpected character ${describe(c)}`, i)
    }
    this.stack.pop()
    this.valueEnded()
    return true
  }

  private scan(s: string): void {
    const n = s.length
    let i = 0
    /** Where the number being read starts in `s` (0 when it started in an earlier fragment). */
    let numberStart = 0
    while (i < n) {
      switch (this.state) {
        case KEY_STRING:
        case VALUE_STRING: {
          // Fast path: copy the run of plain characters in one slice.
          if (this.escape === 0) {
            const start = i
            let c = 0
            while (i < n) {
              c = s.charCodeAt(i)
              if (c === 0x22 || c === 0x5c || c < 0x20) break
              i++
            }
            if (i > start) this.str += s.slice(start, i)
            if (i === n) break
            i++
            if (c === 0x22) {
              if (this.state === KEY_STRING) {
                const level = this.stack[this.stack.length - 1]
                if (level !== undefined) level.key = this.str
                this.str = ""
                this.state = AFTER_KEY
              } else {
                this.publishString()
                this.str = ""
                this.valueEnded()
              }
            } else if (c === 0x5c) {
              this.escape = 1
            } else {
              return void this.fail(`Bad control character ${describe(c)} in string`, i - 1)
            }
            break
          }
          const c = s.charCodeAt(i)
          if (this.escape === 1) {
            if (c === 0x75) {
              this.escape = 2
              this.unicode = 0
            } else {
              const decoded = simpleEscape(c)
              if (decoded === undefined) return void this.fail(`Bad escape ${describe(c)}`, i)
              this.str += decoded
              this.escape = 0
            }
          } else {
            const digit = hexValue(c)
            if (digit < 0) return void this.fail(`Bad Unicode escape ${describe(c)}`, i)
            this.unicode = this.unicode * 16 + digit
            // A surrogate pair arrives as two escapes; JS strings are UTF-16, so appending each half is exact.
            if (++this.escape === 6) {
              this.str += String.fromCharCode(this.unicode)
              this.escape = 0
            }
          }
          i++
          break
        }
        case NUMBER: {
          let st = this.numberState
          while (i < n) {
            const c = s.charCodeAt(i)
            if (isDigit(c)) {
              if (st === N_MINUS) st = c === 0x30 ? N_ZERO : N_INT
              else if (st === N_ZERO) break
              else if (st === N_DOT) st = N_FRAC
              else if (st === N_EXP || st === N_EXP_SIGN) st = N_EXP_DIGITS
            } else if (c === 0x2e && (st === N_ZERO || st === N_INT)) {
              st = N_DOT
            } else if ((c === 0x65 || c === 0x45) && (st === N_ZERO || st === N_INT || st === N_FRAC)) {
              st = N_EXP
            } else if ((c === 0x2b || c === 0x2d) && st === N_EXP) {
              st = N_EXP_SIGN
            } else {
              break
            }
            i++
          }
          this.numberState = st
          // At the end of the fragment the text so far is kept after the loop; otherwise `c` ends the number
          // and is looked at again in AFTER_VALUE.
          if (i < n && !this.finishNumber(s, numberStart, i)) return
          break
        }
        case LITERAL: {
          const c = s.charCodeAt(i)
          if (c !== this.literal.charCodeAt(this.literalPos)) return void this.fail(`Unexpected character ${describe(c)}`, i)
          i++
          if (++this.literalPos === this.literal.length) this.valueEnded()
          break
        }
        default: {
          const c = s.charCodeAt(i)
          if (isWhitespace(c)) {
            i++
            break
          }
          switch (this.state) {
            case VALUE:
              numberStart = i
              if (!this.startValue(c, s, i)) return
              i++
              break
            case ARRAY_FIRST:
              numberStart = i
              if (!(c === 0x5d ? this.closeContainer(c, i) : this.startValue(c, s, i))) return
              i++
              break
            case OBJECT_FIRST:
            case OBJECT_KEY:
              if (c === 0x22) {
                this.str = ""
                this.escape = 0
                this.state = KEY_STRING
              } else if (c === 0x7d && this.state === OBJECT_FIRST) {
                if (!this.closeContainer(c, i)) return
              } else {
                return void this.fail(`Expected a property name but found ${describe(c)}`, i)
              }
              i++
              break
            case AFTER_KEY:
              if (c !== 0x3a) return void this.fail(`Expected ':' but found ${describe(c)}`, i)
              this.state = VALUE
              i++
              break
            case AFTER_VALUE: {
              const level = this.stack[this.stack.length - 1]
              if (level === undefined) return void this.fail("Unexpected data after the JSON value", i)
              if (c === 0x2c) {
                this.state = Array.isArray(level.container) ? VALUE : OBJECT_KEY
              } else if (c === 0x7d || c === 0x5d) {
                if (!this.closeContainer(c, i)) return
              } else {
                return void this.fail(`Expected ',' or a closing bracket but found ${describe(c)}`, i)
              }
              i++
              break
            }
          }
        }
      }
    }
    if (this.state === VALUE_STRING) this.publishString()
    else if (this.state === NUMBER) this.numberText += s.slice(numberStart, n)
  }
}

/** One-shot: the best value of a (possibly truncated) JSON text, `undefined` if no value started. */
export const parsePartial = (text: string): unknown => {
  const parser = new PartialJsonParser()
  parser.push(text)
  parser.end()
  return parser.value()
}
