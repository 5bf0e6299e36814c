/**
 * The built-in Grep engine against ripgrep on what used to differ: invalid patterns, `\A`/`\z`, multiline counts,
 * binary files, Unicode `\w`/`\b`. Every answer is compared with the real `rg`'s.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as nodePath from "node:path"
import { translateRegex } from "../../../src/tools/search/RustRegex.js"
import { bothEngines, type Engine, runGrep } from "./grepEngines.js"
import { makeTree, removeTree, runTool, textOf } from "./support.js"

let root = ""

beforeAll(() => {
  root = makeTree({
    "brace.txt": "alpha{ beta\nfoo(bar)\n",
    "ends.txt": "first\nlast\n",
    "multi.txt": "a\nb\nx a\nb a\nb\n",
    "same-line.txt": "a b a b\n",
    // A NUL past the first 8 KB: still binary for ripgrep, which skips the file.
    "late-nul.dat": Buffer.concat([Buffer.from("NEEDLE at the start\n"), Buffer.alloc(10_000, 0x78), Buffer.from([0]), Buffer.from("\nNEEDLE\n")]),
    "words.txt": "naïve café\nnaive cafe\nÉcole\n",
    "crlf.txt": "line one\r\nline two\r\n"
  })
})

afterAll(() => removeTree(root))

const run = (engine: Engine, input: Record<string, unknown>) =>
  Effect.map(runGrep(engine, input, root), Exit.map(({ result }) => textOf(result)))

const both = (input: Record<string, unknown>) => bothEngines(input, root)

/** Both engines refuse the input; returns the built-in engine's message. */
const bothFail = (input: Record<string, unknown>) =>
  Effect.gen(function* () {
    const builtin = yield* run("builtin", input)
    const rg = yield* run("rg", input)
    expect(Exit.isFailure(rg), `rg accepted ${JSON.stringify(input)}`).toBe(true)
    if (Exit.isSuccess(builtin)) return yield* Effect.die(new Error(`the built-in engine accepted ${JSON.stringify(input)}: ${builtin.value}`))
    return Option.match(Cause.findErrorOption(builtin.cause), { onNone: () => "(no failure)", onSome: (error) => error.message })
  })

const p = (relative: string) => nodePath.join(root, relative)

describe("built-in Grep engine parity with ripgrep", () => {
  it.effect("an invalid pattern is an error naming the problem, never 'No matches'", () =>
    Effect.gen(function* () {
      expect(yield* bothFail({ pattern: "a{" })).toBe(
        'regex parse error in "a{": invalid counted repetition: write {n}, {n,} or {n,m}; escape a literal brace as \\{'
      )
      expect(yield* bothFail({ pattern: "(" })).toBe('regex parse error in "(": unclosed group: a `(` has no matching `)`')
      expect(yield* bothFail({ pattern: "{" })).toMatch(/repetition operator missing expression/)
      expect(yield* bothFail({ pattern: "x{,2}", output_mode: "content" })).toMatch(/invalid counted repetition/)
      expect(yield* bothFail({ pattern: "\\q", output_mode: "count" })).toMatch(/unrecognized escape sequence \\q$/)
      expect(yield* bothFail({ pattern: "[abc" })).toMatch(/unclosed character class/)
      expect(yield* bothFail({ pattern: "a\\nb" })).toMatch(/set multiline: true/)
      // What ripgrep accepts still works: an escaped brace, a lone `}`, a leading `]` in a class.
      expect(yield* both({ pattern: "alpha\\{", output_mode: "content" })).toBe(`${p("brace.txt")}:1:alpha{ beta`)
      expect(yield* both({ pattern: "[]x]}|foo\\(", output_mode: "content" })).toBe(`${p("brace.txt")}:2:foo(bar)`)
    }))

  it.effect("\\A and \\z: the ends of the file in multiline mode, of each line otherwise", () =>
    Effect.gen(function* () {
      const ends = { path: "ends.txt", output_mode: "content" }
      expect(yield* both({ ...ends, pattern: "first\\z", multiline: true })).toBe("No matches found")
      expect(yield* both({ ...ends, pattern: "\\Alast", multiline: true })).toBe("No matches found")
      expect(yield* both({ ...ends, pattern: "last\\n\\z", multiline: true })).toBe("2:last")
      expect(yield* both({ ...ends, pattern: "\\Afirst\\nlast", multiline: true })).toBe("1:first\n2:last")
      expect(yield* both({ ...ends, pattern: "first\\z" })).toBe("1:first")
      expect(yield* both({ ...ends, pattern: "\\Alast" })).toBe("2:last")
      expect(yield* both({ ...ends, pattern: "^$", multiline: true, output_mode: "count" })).toBe("No matches found")
      // `$` is before `\n` only: a CRLF line does not end at its `\r`.
      expect(yield* both({ pattern: "one$", path: "crlf.txt" })).toBe("No files found")
      expect(yield* both({ pattern: "one\\r$", path: "crlf.txt", output_mode: "content" })).toBe("1:line one")
    }))

  it.effect("multiline count: matches when the pattern can match a newline, matching lines otherwise (rg -c -U)", () =>
    Effect.gen(function* () {
      const count = { output_mode: "count", multiline: true }
      expect(yield* both({ ...count, pattern: "a\\nb", path: "multi.txt" })).toBe(
        "3\n\nFound 3 total occurrences across 1 file."
      )
      expect(yield* both({ ...count, pattern: "a\\s*b", path: "same-line.txt" })).toBe(
        "2\n\nFound 2 total occurrences across 1 file."
      )
      expect(yield* both({ ...count, pattern: "a b", path: "same-line.txt" })).toBe(
        "1\n\nFound 1 total occurrence across 1 file."
      )
      expect(yield* both({ ...count, pattern: "a\\nb" })).toBe(
        `${p("multi.txt")}:3\n\nFound 3 total occurrences across 1 file.`
      )
    }))

  it.effect("a walked file with a NUL anywhere is binary and skipped; a file named as the path is searched", () =>
    Effect.gen(function* () {
      expect(yield* both({ pattern: "NEEDLE" })).toBe("No files found")
      expect(yield* both({ pattern: "NEEDLE", output_mode: "content" })).toBe("No matches found")
      expect(yield* both({ pattern: "NEEDLE", output_mode: "count" })).toBe("No matches found")
      expect(yield* both({ pattern: "NEEDLE", path: "late-nul.dat", output_mode: "count" })).toBe(
        "2\n\nFound 2 total occurrences across 1 file."
      )
    }))

  it.effect("\\w, \\b and \\d are Unicode-aware, as in ripgrep", () =>
    Effect.gen(function* () {
      const words = { path: "words.txt", output_mode: "content" }
      expect(yield* both({ ...words, pattern: "\\bcafé\\b" })).toBe("1:naïve café")
      expect(yield* both({ ...words, pattern: "^\\w+\\s\\w+$" })).toBe("1:naïve café\n2:naive cafe")
      expect(yield* both({ ...words, pattern: "^\\w+$" })).toBe("3:École")
      expect(yield* both({ ...words, pattern: "(?i)école" })).toBe("3:École")
      expect(yield* both({ ...words, pattern: "\\bna\\W" })).toBe("No matches found")
    }))
})

describe("translateRegex", () => {
  const translate = (pattern: string, multiline = false) =>
    translateRegex(pattern, { multiline, dotAll: multiline, ignoreCase: false })
  const matches = (pattern: string, text: string, multiline = false) => {
    const translated = translate(pattern, multiline)
    if (Result.isFailure(translated)) throw new Error(translated.failure)
    return new RegExp(translated.success.source, translated.success.flags).test(text)
  }

  it("translates ripgrep's syntax to what it means there", () => {
    expect(matches("(?P<word>x)y", "xy")).toBe(true)
    expect(matches("^\\pL+$", "Été")).toBe(true)
    expect(matches("^\\p{Greek}+$", "λόγος")).toBe(true)
    expect(matches("^[[:alpha:]]+$", "abc")).toBe(true)
    expect(matches("^\\x{41}\\u0042\\U00000043$", "ABC")).toBe(true)
    expect(matches("^a**$", "aaa")).toBe(true)
    expect(matches("^[\\w-]+$", "é-x_1")).toBe(true)
    expect(matches("^[^\\W\\d]+$", "éa")).toBe(true)
    expect(matches("^[^\\W\\d]+$", "é1")).toBe(false)
    expect(matches("(?x) a \\  b # comment", "a b")).toBe(true)
    expect(matches("a.b", "a\nb")).toBe(false)
    expect(matches("a.b", "a\nb", true)).toBe(true)
    expect(matches("(?-s)a.b", "a\nb", true)).toBe(false)
    expect(matches("(?i)ÉCOLE", "école")).toBe(true)
    expect(matches("\\#\\&\\~\\-", "#&~-")).toBe(true)
  })

  it("(?U) swaps greediness", () => {
    const translated = translate("(?U)a+b*?")
    expect(Result.isSuccess(translated) && translated.success.source).toBe("a+?b*")
  })

  it("says whether a match can hold a newline (what rg -c -U counts by)", () => {
    const canMatchNewline = (pattern: string) =>
      Result.getOrThrow(translateRegex(pattern, { multiline: true, dotAll: true, ignoreCase: false })).canMatchNewline
    expect(canMatchNewline("a b")).toBe(false)
    expect(canMatchNewline("a[^\\n]b\\S")).toBe(false)
    expect(canMatchNewline("a\\nb")).toBe(true)
    expect(canMatchNewline("a\\sb")).toBe(true)
    expect(canMatchNewline("a.b")).toBe(true)
    expect(canMatchNewline("a[^x]b")).toBe(true)
  })

  it("refuses what JavaScript cannot say, saying so", () => {
    expect(translate("a(?i)b")).toEqual(Result.fail(expect.stringMatching(/inline flags like \(\?i\) are supported only at the start/)))
    expect(translate("[a-z&&b]")).toEqual(Result.fail(expect.stringMatching(/set operations \(&&\) are not supported/)))
    expect(translate("\\p{NoSuchScript}")).toEqual(Result.fail(expect.stringMatching(/unrecognized Unicode class name/)))
  })
})
