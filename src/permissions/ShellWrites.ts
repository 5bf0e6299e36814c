/**
 * Files a command writes through its own options: `git diff --output=x` (and its abbreviations, `--outp=x`), find's
 * `-fprint x` / `-fprint0` / `-fprintf` / `-fls`, `sort -o x`. They are writes as a redirection is (`git diff > x`):
 * checked as edits of those files even when an allow rule covers the command, so that `Bash(git diff:*)` does not
 * write where `git diff > x` would be asked about (Claude Code lets it), and a protected path stays protected.
 */
import { baseName, literal, unknownWord, type SimpleCommand, type Word, wordOf } from "./ShellCommand.js"

// Where output goes anyway, as for redirections (ShellCommand.Redirect's `discard`).
const discarded = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"])

/** The value of `--opt=value` (a word of its own), or the next word; a word built at run time is unknown. */
const valueOf = (word: Word, equals: number, next: Word | undefined): Word | undefined => {
  if (equals === -1) return next
  const text = literal(word)
  // Stryker disable next-line ConditionalExpression: callers pass a word whose literal text they read, so `text` is never undefined here (the check is for the type).
  return text === undefined ? unknownWord(word.source) : wordOf(text.slice(equals + 1))
}

/**
 * `--output=x` or `--output x` (as `text`, the literal of `args[index]`): adds its value to `out`; the index of the
 * last word it took.
 */
const readOutput = (args: ReadonlyArray<Word>, index: number, word: Word, text: string, out: Array<Word>): number => {
  const value = valueOf(word, text.indexOf("="), args[index + 1])
  if (value !== undefined) out.push(value)
  return text.includes("=") ? index : index + 1
}

// `--output` and the prefixes of it that git's parse-options and GNU getopt (sort) take: `--ou`, `--outp`...
const outputOptionRe = /^--o(u(t(p(u(t)?)?)?)?)?(=|$)/

// git's options before the subcommand that take the next word as their value.
export const gitGlobalValues = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source", "--super-prefix"])

// The subcommands that take diff options, `--output` among them.
const gitDiffFamily = new Set(["diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "format-patch", "range-diff", "stash", "reflog"])

/** The subcommand's name, or undefined when a word built at run time stands before it. */
const gitSubcommand = (args: ReadonlyArray<Word>): string | undefined => {
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    // Stryker disable next-line ConditionalExpression: `word` is never undefined below args.length (the check is for the type).
    const text = word === undefined ? undefined : literal(word)
    if (text === undefined) return undefined
    if (!text.startsWith("-")) return text
    if (gitGlobalValues.has(text)) index++
  }
  // Stryker disable next-line StringLiteral: no subcommand; any name outside gitDiffFamily answers the same.
  return ""
}

/**
 * Walks the words of `args` up to `--` (or the end): `visit` gets each one's index, the word and its text (undefined
 * when built at run time), and answers the index of the last word it took (its own, or its option's value's).
 */
const eachWordBeforeEnd = (args: ReadonlyArray<Word>, visit: (index: number, word: Word, text: string | undefined) => number): void => {
  // Stryker disable next-line EqualityOperator: one step past the end reads no word, which ends the walk as the loop's end does.
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    // Stryker disable next-line ConditionalExpression,BlockStatement: unreachable below args.length (the check is for the type).
    if (word === undefined) return
    const text = literal(word)
    if (text === "--") return
    index = visit(index, word, text)
  }
}

const gitWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Word> => {
  const subcommand = gitSubcommand(args)
  // In a command taking diff options, a word built at run time may be `--output=...`; elsewhere (`git commit -m
  // "$(...)"`) it is left to the rule, as `--output` means nothing there.
  const takesDiffOptions = subcommand === undefined || gitDiffFamily.has(subcommand)
  const out: Array<Word> = []
  eachWordBeforeEnd(args, (index, word, text) => {
    if (text === undefined) {
      if (takesDiffOptions) out.push(unknownWord(word.source))
      return index
    }
    return outputOptionRe.test(text) ? readOutput(args, index, word, text, out) : index
  })
  return out.map((target) => inGitDirectory(args, target))
}

/** `git -C dir ... --output=x` writes dir/x: a relative target is taken from the last `-C` (unknown if not static). */
export const inGitDirectory = (args: ReadonlyArray<Word>, target: Word): Word => {
  let directory: string | undefined = ""
  // Stryker disable next-line EqualityOperator: one step past the end reads no word, which ends the options as a non-option does.
  for (let index = 0; index < args.length; index++) {
    // Stryker disable next-line StringLiteral: the fallback word is unreachable below args.length (for the type only).
    const text = literal(args[index] ?? unknownWord(""))
    if (text === undefined || !text.startsWith("-")) break
    if (text === "-C") {
      const value = args[index + 1]
      const next = value === undefined ? undefined : literal(value)
      directory = next === undefined ? undefined : directory === undefined ? undefined : directory === "" || next.startsWith("/") ? next : `${directory}/${next}`
    }
    if (gitGlobalValues.has(text)) index++
  }
  const path = literal(target)
  if (directory === "" || (path !== undefined && path.startsWith("/"))) return target
  return directory === undefined || path === undefined ? unknownWord(target.source) : wordOf(`${directory}/${path}`)
}

const findWritingPredicates = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"])

const findWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Word> => {
  const out: Array<Word> = []
  // Stryker disable next-line EqualityOperator: one step past the end reads no word, which names no predicate.
  for (let index = 0; index < args.length; index++) {
    const word = args[index]
    // Stryker disable next-line ConditionalExpression,StringLiteral: `word` is never undefined below args.length, and a word built at run time matches no predicate whatever it is read as.
    if (word !== undefined && findWritingPredicates.has(literal(word) ?? "")) {
      const target = args[index + 1]
      if (target !== undefined) out.push(target)
    }
  }
  return out
}

// sort's short options that take a value (the rest of the word or the next one).
const sortValueLetters = "ktST"

const sortWrites = (args: ReadonlyArray<Word>): ReadonlyArray<Word> => {
  const out: Array<Word> = []
  eachWordBeforeEnd(args, (index, word, text) => {
    if (text === undefined) return index
    if (text.startsWith("--")) return outputOptionRe.test(text) ? readOutput(args, index, word, text, out) : index
    // Stryker disable next-line ConditionalExpression,StringLiteral: `-` alone falls through the letter loop (no letters) to the same `return index`; the test names the case (an empty word, the StringLiteral mutant's, is no option either).
    if (!text.startsWith("-") || text === "-") return index
    // Stryker disable next-line EqualityOperator: one step past the end reads the letter "", which "ktST".includes, answering `index` as the loop's end does.
    for (let position = 1; position < text.length; position++) {
      const letter = text.charAt(position)
      if (letter === "o") {
        const rest = text.slice(position + 1)
        const value = rest !== "" ? wordOf(rest) : args[index + 1]
        if (value !== undefined) out.push(value)
        return rest === "" ? index + 1 : index
      }
      if (sortValueLetters.includes(letter)) return position === text.length - 1 ? index + 1 : index
    }
    return index
  })
  return out
}

/** The files `command` writes through its options (words as written; unknown where built at run time). */
export const optionWrites = (command: SimpleCommand): ReadonlyArray<Word> => {
  if (command.name === undefined) return []
  const args = command.argv.slice(1)
  const written = (() => {
    switch (baseName(command.name)) {
      case "git":
        return gitWrites(args)
      case "find":
        return findWrites(args)
      case "sort":
        return sortWrites(args)
      default:
        return []
    }
  })()
  // Stryker disable next-line StringLiteral: a word built at run time is no discarded path whatever text stands for it.
  return written.filter((word) => !discarded.has(literal(word) ?? ""))
}

/** The files every command of a line writes through its options. */
export const optionWritesOf = (commands: ReadonlyArray<SimpleCommand>): ReadonlyArray<Word> => commands.flatMap(optionWrites)
