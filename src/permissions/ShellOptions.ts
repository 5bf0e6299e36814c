/**
 * Command-line options read as the programs themselves read them (getopt: clustered short flags, a short option's
 * value attached or in the next word, `--long=value` or `--long value`, unique abbreviations of long options, `--`
 * ending the options). Wrappers are seen through with it and read-only commands are checked with it: a word that
 * this reading cannot place (an unknown option, a value built at run time) is never guessed at (`parseOptions`).
 *
 * The files a writing program writes are found with the same reading, made lenient (`parseOptionsLeniently`): there
 * a word that cannot be placed must not stop the check, since the question is which words may be written files and
 * the answer must err towards more of them. ProgramWrites says why each lenient choice errs that way.
 */
import { literal, type Word } from "./ShellCommand.js"

export interface OptionSpec {
  /** Short options without a value, e.g. "abc". */
  readonly shortFlags?: string
  /** Short options that take a value, e.g. "nk". */
  readonly shortValues?: string
  /** Short options whose value is optional and only attached (`-i.bak`). */
  readonly shortOptionalValues?: string
  readonly longFlags?: ReadonlyArray<string>
  readonly longValues?: ReadonlyArray<string>
  /** Long options whose value is optional and only given with `=` (`--in-place=.bak`). */
  readonly longOptionalValues?: ReadonlyArray<string>
  /** GNU programs accept a unique prefix of a long option (`--out` for `--output`); true unless said otherwise. */
  readonly abbreviations?: boolean
  /** Options end at the first operand (POSIX, and every wrapper); otherwise options may follow operands (GNU). */
  readonly stopAtOperand?: boolean
  /**
   * The program has no option that writes, runs a program or reads a file list (cat, ls, head...): a glob is an
   * operand even where it could expand to a name beginning with '-'.
   */
  readonly globsAreOperands?: boolean
  /** Single-dash long options (`find -name`, `java -jar`): a word `-name` is one option, not a cluster. */
  readonly singleDashLong?: boolean
}

export interface ParsedOption {
  /** The option's canonical name: a letter for short options, the full long name (abbreviation resolved) otherwise. */
  readonly name: string
  readonly value: Word | string | undefined
  /** True for a long option written as an abbreviation. */
  readonly abbreviated: boolean
}

export interface Parsed {
  readonly _tag: "Parsed"
  readonly options: ReadonlyArray<ParsedOption>
  /** Operands, in order. */
  readonly operands: ReadonlyArray<Word>
  /** Index in the input of the first operand when options stop at operands (the rest are the command's). */
  readonly firstOperand: number
  /**
   * Lenient reading only (a strict one gives Unknown instead): a word built at run time stood where an option may
   * (`$OPTS`, a glob `-*`), and was kept as an operand; it may have been an option, so no operand's role is sure.
   */
  readonly dynamic: boolean
}

export type ParsedOptions = Parsed | { readonly _tag: "Unknown"; readonly word: string; readonly why: string }

/** A word that may become an option when the shell expands it. */
export const mayBeOption = (word: Word): boolean =>
  word.value === undefined || word.brace || word.value.startsWith("-") || (word.glob && /^[*?[@!+]/.test(word.value))

/** `<(cmd)` or `>(cmd)`: the shell puts a /dev/fd path there, never an option. */
export const isProcessSubstitution = (word: Word): boolean => word.value === undefined && /^[<>]\(.*\)$/s.test(word.source)

/** The first word a strict reading cannot place, and why. */
interface Problem {
  readonly word: string
  readonly why: string
}

const resolveLong = (
  name: string,
  spec: OptionSpec
): { readonly name: string; readonly kind: "flag" | "value" | "optional"; readonly abbreviated: boolean } | "ambiguous" | undefined => {
  // An option listed both as a flag and with a value (`--color`, `--color=auto`) is the one with a value.
  const all: Array<{ name: string; kind: "flag" | "value" | "optional" }> = [
    ...(spec.longValues ?? []).map((long) => ({ name: long, kind: "value" as const })),
    ...(spec.longOptionalValues ?? []).map((long) => ({ name: long, kind: "optional" as const })),
    ...(spec.longFlags ?? []).map((long) => ({ name: long, kind: "flag" as const }))
  ]
  const exact = all.find((option) => option.name === name)
  if (exact !== undefined) return { ...exact, abbreviated: false }
  if (spec.abbreviations === false) return undefined
  const candidates = all.filter((option) => option.name.startsWith(name))
  if (candidates.length === 1 && candidates[0] !== undefined) return { ...candidates[0], abbreviated: true }
  return candidates.length > 1 ? "ambiguous" : undefined
}

/**
 * `--include=*.ts` unquoted: a glob, but every name it can expand to begins with `--include=`, so each word it
 * becomes is that option (when the option takes a value), with a value matching the pattern after the `=`.
 */
const globbedLongOption = (word: Word, spec: OptionSpec): ParsedOption | undefined => {
  if (!word.glob || word.brace || word.tilde || word.value === undefined) return undefined
  const match = /^--([A-Za-z0-9][A-Za-z0-9-]*)=(.*)$/s.exec(word.value)
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined
  const resolved = resolveLong(match[1], spec)
  if (resolved === undefined || resolved === "ambiguous" || resolved.kind === "flag") return undefined
  const pattern = match[2]
  return { name: resolved.name, value: { source: word.source, value: pattern, glob: true, brace: false, tilde: false }, abbreviated: resolved.abbreviated }
}

/**
 * The one reading behind both modes. Where the strict reading gives up, the first such word is kept as `problem` and
 * the reading goes on as the lenient one does (an unknown option is a flag named as written, a missing value is
 * undefined): a strict caller drops that result, so the two modes share every step but the run-time word's.
 */
const read = (words: ReadonlyArray<Word>, spec: OptionSpec, lenient: boolean): { readonly parsed: Parsed; readonly problem: Problem | undefined } => {
  const options: Array<ParsedOption> = []
  const operands: Array<Word> = []
  let firstOperand = words.length
  let index = 0
  let optionsEnded = false
  let dynamic = false
  let problem: Problem | undefined
  const cannotPlace = (word: string, why: string): void => {
    problem ??= { word, why }
  }
  while (index < words.length) {
    const word = words[index]
    if (word === undefined) break
    const text = literal(word)
    if (optionsEnded) {
      operands.push(word)
      index++
      continue
    }
    if (text === undefined) {
      if (lenient) {
        // `$OPTS`, or a glob that may expand to `-t...`: kept as an operand (an unknown target to the lenient
        // caller), the whole reading marked. This is ProgramWrites' rule, narrower than mayBeOption: a glob such as
        // `*.txt` stays a plain operand there, so that `cp *.txt dir/` still names dir/ rather than an unknown.
        if (word.value === undefined || word.value.startsWith("-")) dynamic = true
      } else {
        const globbed = globbedLongOption(word, spec)
        if (globbed !== undefined) {
          options.push(globbed)
          index++
          continue
        }
        // A word known only at run time, or a glob or brace expansion: it may stand for an option, or several words.
        // A glob that begins with a pattern may match a file named '-o...' planted in the project.
        const harmlessGlob = spec.globsAreOperands === true && word.glob && word.value !== undefined && !word.value.startsWith("-")
        if (mayBeOption(word) && !harmlessGlob && !isProcessSubstitution(word)) {
          cannotPlace(word.source, "a word built at run time where an option may stand")
        }
      }
      if (spec.stopAtOperand === true) {
        firstOperand = index
        operands.push(...words.slice(index))
        break
      }
      operands.push(word)
      index++
      continue
    }
    if (text === "--") {
      optionsEnded = true
      if (spec.stopAtOperand === true) {
        firstOperand = index + 1
        operands.push(...words.slice(index + 1))
        break
      }
      index++
      continue
    }
    if (text.startsWith("--") || (spec.singleDashLong === true && text.startsWith("-") && text.length > 2)) {
      const body = text.startsWith("--") ? text.slice(2) : text.slice(1)
      const equals = body.indexOf("=")
      const name = equals === -1 ? body : body.slice(0, equals)
      const resolved = resolveLong(name, spec)
      if (resolved === "ambiguous") cannotPlace(text, "an ambiguous abbreviation")
      if (resolved === undefined && spec.singleDashLong === true && !text.startsWith("--")) {
        // Not a long option: read it as a cluster below.
      } else {
        if (resolved === undefined) cannotPlace(text, "an option this check does not know")
        // Leniently, an option not known (or an ambiguous abbreviation) is a flag, named as written.
        const option = resolved === undefined || resolved === "ambiguous" ? { name, kind: "flag" as const, abbreviated: false } : resolved
        if (equals !== -1) {
          if (option.kind === "flag") cannotPlace(text, "a value given to an option that takes none")
          options.push({ name: option.name, value: body.slice(equals + 1), abbreviated: option.abbreviated })
          index++
          continue
        }
        if (option.kind === "value") {
          const value = words[index + 1]
          if (value === undefined) cannotPlace(text, "an option missing its value")
          options.push({ name: option.name, value, abbreviated: option.abbreviated })
          index += 2
          continue
        }
        options.push({ name: option.name, value: undefined, abbreviated: option.abbreviated })
        index++
        continue
      }
    }
    if (text.startsWith("-") && text.length > 1) {
      let position = 1
      let consumedNext = false
      while (position < text.length) {
        const letter = text.charAt(position)
        if (spec.shortFlags?.includes(letter) === true) {
          options.push({ name: letter, value: undefined, abbreviated: false })
          position++
          continue
        }
        if (spec.shortValues?.includes(letter) === true) {
          const attached = text.slice(position + 1)
          if (attached.length > 0) {
            options.push({ name: letter, value: attached, abbreviated: false })
          } else {
            const value = words[index + 1]
            if (value === undefined) cannotPlace(text, "an option missing its value")
            options.push({ name: letter, value, abbreviated: false })
            consumedNext = true
          }
          break
        }
        if (spec.shortOptionalValues?.includes(letter) === true) {
          const attached = text.slice(position + 1)
          options.push({ name: letter, value: attached.length > 0 ? attached : undefined, abbreviated: false })
          break
        }
        cannotPlace(text, `an option this check does not know (-${letter})`)
        // Leniently a flag: were it one that takes a value, that value is read as an operand, never skipped.
        options.push({ name: letter, value: undefined, abbreviated: false })
        position++
      }
      index += consumedNext ? 2 : 1
      continue
    }
    // An operand ('-' alone is one: standard input).
    if (spec.stopAtOperand === true) {
      firstOperand = index
      operands.push(...words.slice(index))
      break
    }
    operands.push(word)
    index++
  }
  return { parsed: { _tag: "Parsed", options, operands, firstOperand, dynamic }, problem }
}

/** Reads `words` (the arguments, without the program's name) by `spec`, strictly: what it cannot place is Unknown. */
export const parseOptions = (words: ReadonlyArray<Word>, spec: OptionSpec): ParsedOptions => {
  const { parsed, problem } = read(words, spec, false)
  return problem === undefined ? parsed : { _tag: "Unknown", word: problem.word, why: problem.why }
}

/**
 * Reads `words` by `spec` leniently, never giving up: an option not in `spec` (or an ambiguous abbreviation) is a
 * flag named as written, `--flag=value` keeps its value, an option missing its value has none, and a word built at
 * run time where an option may stand is an operand with the result marked `dynamic`.
 */
export const parseOptionsLeniently = (words: ReadonlyArray<Word>, spec: OptionSpec): Parsed => read(words, spec, true).parsed

/** An option's value as text, when static. */
export const optionValue = (option: ParsedOption): string | undefined =>
  option.value === undefined ? undefined : typeof option.value === "string" ? option.value : literal(option.value)
