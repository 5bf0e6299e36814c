import { describe, expect, it } from "@effect/vitest"
import { wordOf, type Word } from "../../src/permissions/ShellCommand.js"
import { type OptionSpec, optionValue, parseOptions, parseOptionsLeniently } from "../../src/permissions/ShellOptions.js"

/** `$OPTS` as the analysis gives it: a word known only at run time. */
const runTime = (source: string): Word => ({ source, value: undefined, glob: false, brace: false, tilde: false })
const words = (...texts: ReadonlyArray<string>): ReadonlyArray<Word> => texts.map(wordOf)

// cp's reading as ProgramWrites has it: -t and -S take a value; -r, -v and the rest are not listed.
const cp: OptionSpec = { shortValues: "St", longValues: ["suffix", "target-directory"], longFlags: ["recursive", "no-target-directory"] }

describe("ShellOptions lenient reading (ProgramWrites)", () => {
  it("reads an option it does not know as a flag, where the strict reading gives up", () => {
    const input = words("-rv", "--zap", "a", "-t", "dir")
    const lenient = parseOptionsLeniently(input, cp)
    expect(lenient.options.map((option) => [option.name, optionValue(option)])).toEqual([["r", undefined], ["v", undefined], ["zap", undefined], ["t", "dir"]])
    expect(lenient.operands.map((word) => word.value)).toEqual(["a"])
    expect(lenient.dynamic).toBe(false)
    expect(parseOptions(input, cp)).toEqual({ _tag: "Unknown", word: "-rv", why: "an option this check does not know (-r)" })
  })

  it("keeps an unknown long option's value, and reads an ambiguous abbreviation as a flag named as written", () => {
    const lenient = parseOptionsLeniently(words("--zap=x", "--no", "a", "b"), { ...cp, longFlags: ["no-clobber", "no-target-directory"] })
    expect(lenient.options.map((option) => [option.name, optionValue(option)])).toEqual([["zap", "x"], ["no", undefined]])
    expect(lenient.operands.map((word) => word.value)).toEqual(["a", "b"])
    expect(parseOptions(words("--no", "a"), { ...cp, longFlags: ["no-clobber", "no-target-directory"] })).toEqual({ _tag: "Unknown", word: "--no", why: "an ambiguous abbreviation" })
  })

  it("keeps a word built at run time as an operand and marks the reading dynamic", () => {
    const input = [runTime("$OPTS"), ...words("a", "b")]
    const lenient = parseOptionsLeniently(input, cp)
    expect(lenient.dynamic).toBe(true)
    expect(lenient.operands.map((word) => word.source)).toEqual(["$OPTS", "a", "b"])
    expect(parseOptions(input, cp)).toEqual({ _tag: "Unknown", word: "$OPTS", why: "a word built at run time where an option may stand" })
  })

  it("does not mark a run-time word after `--`, where no option may stand", () => {
    const lenient = parseOptionsLeniently([wordOf("--"), runTime("$F")], cp)
    expect(lenient.dynamic).toBe(false)
    expect(lenient.operands.map((word) => word.source)).toEqual(["$F"])
  })

  it("reads what both readings place the same way, and the strict one is never dynamic", () => {
    const input = words("-t", "dir", "--suffix=~", "a", "b")
    const strict = parseOptions(input, cp)
    expect(strict).toEqual(parseOptionsLeniently(input, cp))
    expect(strict).toMatchObject({ _tag: "Parsed", dynamic: false })
  })
})
