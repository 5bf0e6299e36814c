/**
 * A Bash command line parsed, not split: every simple command it would run (inside pipelines, lists, subshells,
 * compound commands, function bodies, `$()`, backticks, `<()` and `>()`), each with its words resolved where they
 * are static, the wrappers it runs through (`timeout -s KILL 5 rm x` runs `rm x`), its environment assignments and
 * its redirections; plus the reasons, if any, why the line cannot be analysed. Permissions decide on this.
 *
 * Parser: tree-sitter-bash through web-tree-sitter. Both run as WebAssembly (no native build, nothing compiled at
 * install), the grammar is the one editors and GitHub use for Bash and is maintained under the tree-sitter
 * organisation, and its tree marks what it could not parse (ERROR and MISSING nodes), so a line it does not
 * understand is refused rather than guessed at. Considered: `bash-parser` (unmaintained since 2017, no process
 * substitution, throws on much of Bash), `sh-syntax` (mvdan/sh compiled from Go to WebAssembly: a fine parser, but
 * a 1.5 MB Go runtime started per process and an AST shaped for printing back). The two .wasm files ship beside the
 * bundled binary (scripts/build-bin.mjs copies them) and load on the first Bash call checked, never at start-up.
 *
 * Unanalysable means the caller must ask, never allow, and deny where any deny rule names Bash.
 *
 * What this cannot see, by design: what a script file or a program does once started (`bash build.sh`, `make`,
 * `npm test` run what the project says), and what the environment already holds (an alias or function defined by
 * an earlier command of the session, a variable whose text Bash evaluates as arithmetic). Code given as a string
 * is never read as commands: `sh -c 'ls'` is unanalysable, not `ls`, so that no quoting trick can reach the parser
 * by another route than the one Bash takes.
 */
import * as Effect from "effect/Effect"

/** A word of the command line: its text as written, and its value after quote removal when that is static. */
export interface Word {
  /** The word as written. */
  readonly source: string
  /**
   * The word's value after quote removal and escapes, when it does not depend on run-time state; undefined when it
   * holds a parameter expansion, a command or process substitution, arithmetic or a `$"..."` translation.
   */
  readonly value: string | undefined
  /** An unquoted `*`, `?`, `[...]` or extended glob: the shell replaces the word by the names it matches. */
  readonly glob: boolean
  /** An unquoted brace expansion (`{a,b}`, `{1..3}`): the shell makes several words of it. */
  readonly brace: boolean
  /** An unquoted leading `~`: the shell replaces it by a home directory. */
  readonly tilde: boolean
}

/** A word that stands for exactly its value: static, no glob, no brace, no tilde. */
export const literal = (word: Word): string | undefined =>
  word.value !== undefined && !word.glob && !word.brace && !word.tilde ? word.value : undefined

/** A word that is exactly `text` (a value taken out of another word: `--opt=value`, a path's last component). */
export const wordOf = (text: string): Word => ({ source: text, value: text, glob: false, brace: false, tilde: false })

/** The last component of a command's path (`/usr/bin/git` is `git`). */
export const baseName = (name: string): string => name.slice(name.lastIndexOf("/") + 1)

/** A word known only when the command runs (xargs' input, find's `{}`): it may be any words, or none. */
export const unknownWord = (source: string): Word => ({ source, value: undefined, glob: false, brace: false, tilde: false })

export interface Assignment {
  readonly name: string
  /** The assigned value (`name=` assigns an empty word). */
  readonly value: Word
}

/**
 * A redirection: `write` for `>`, `>>`, `>|`, `&>`, `&>>`, `<>` and `>&file` (a write to `target`, except to
 * /dev/null, /dev/stdout, /dev/stderr, which are `discard`), `read` for `<`, `duplicate` for `2>&1`, `>&-`,
 * `input` for here-documents and here-strings (no file involved).
 */
export interface Redirect {
  readonly kind: "write" | "read" | "discard" | "duplicate" | "input"
  readonly operator: string
  readonly fd: number | undefined
  readonly target: Word | undefined
  readonly source: string
}

/** A command a wrapper runs (`sudo`, `timeout 5`, `xargs -0`): its own words, the command's excluded. */
export interface Wrapper {
  readonly name: string
  readonly argv: ReadonlyArray<Word>
  /**
   * False when the wrapper changes who or where the command runs as (sudo, doas, chroot, su...): a rule allowing
   * the command does not allow it wrapped so; only a rule naming the wrapper does.
   */
  readonly transparent: boolean
}

/** One command that the line runs. */
export interface SimpleCommand {
  /** The text of the command as written (the whole command, wrappers included). */
  readonly source: string
  /** The command that runs, wrappers seen through: `argv[0]` is its name. Empty for a bare assignment. */
  readonly argv: ReadonlyArray<Word>
  /** `argv[0]`'s literal value (a name built at run time makes the analysis unanalysable). */
  readonly name: string | undefined
  /** The words as written, wrappers included: rules may name a wrapper (`sudo:*`). */
  readonly fullArgv: ReadonlyArray<Word>
  /** Wrappers seen through, outermost first. */
  readonly wrappers: ReadonlyArray<Wrapper>
  /** `NAME=value` before the command, and those an `env` wrapper sets. */
  readonly assignments: ReadonlyArray<Assignment>
  /** Redirections written on this command itself (those on an enclosing compound are in Analysis.redirects). */
  readonly redirects: ReadonlyArray<Redirect>
  /** Where it sits: `top` (a list or pipeline of the line), `substitution` (`$()`, backticks, `<()`, `>()`), `nested` (run by another command: `find -exec`), `function` (a function's body). */
  readonly context: "top" | "substitution" | "nested" | "function"
}

export type UnanalysableKind =
  | "TooLong"
  | "TooDeep"
  | "ParseError"
  | "ParserUnavailable"
  | "DynamicCommandName"
  | "Eval"
  | "ShellString"
  | "InterpreterString"
  | "ShellFromInput"
  | "Source"
  | "FunctionCall"
  | "UnknownWrapperOption"
  | "ArithmeticSubscript"
  | "HiddenCharacters"
  | "Unsupported"

/** Why a line cannot be analysed: written for a person (and the model) reading the prompt or the denial. */
export interface Unanalysable {
  readonly kind: UnanalysableKind
  readonly message: string
}

export interface Analysis {
  readonly source: string
  /** Every command the line may run, in source order (a substitution's commands before the command using them). */
  readonly commands: ReadonlyArray<SimpleCommand>
  /** Every redirection in the line, on simple commands and on compound ones (`{ ...; } > out`, `done < in`). */
  readonly redirects: ReadonlyArray<Redirect>
  /** Empty when the line was analysed; otherwise the caller must ask (never allow), and deny if any deny rule names Bash. */
  readonly unanalysable: ReadonlyArray<Unanalysable>
}

/** Input longer than this is not parsed: unanalysable. */
export const maxSourceLength = 64 * 1024

/** Files the line writes through redirections (targets of `write` redirections). */
export const writes = (analysis: Analysis): ReadonlyArray<Word> =>
  analysis.redirects.flatMap((redirect) => (redirect.kind === "write" && redirect.target !== undefined ? [redirect.target] : []))

/** Files the line reads through redirections (`< file`). */
export const reads = (analysis: Analysis): ReadonlyArray<Word> =>
  analysis.redirects.flatMap((redirect) => (redirect.kind === "read" && redirect.target !== undefined ? [redirect.target] : []))

export const isAnalysed = (analysis: Analysis): boolean => analysis.unanalysable.length === 0

const unanalysableOnly = (source: string, kind: UnanalysableKind, message: string): Analysis => ({
  source,
  commands: [],
  redirects: [],
  unanalysable: [{ kind, message }]
})

/**
 * Parses and analyses a command line. Never fails: input that cannot be analysed (too long, not parsed cleanly,
 * or the parser could not be loaded) is an Analysis whose `unanalysable` says why. The parser loads on the first
 * call (a few tens of milliseconds) and is kept for the process.
 */
export const analyze = Effect.fn("ShellCommand.analyze")(function* (command: string) {
  if (command.length > maxSourceLength) {
    return unanalysableOnly(command, "TooLong", `The command is longer than ${maxSourceLength} characters and was not analysed.`)
  }
  const syntax = yield* Effect.result(
    Effect.tryPromise({ try: () => import("./ShellSyntax.js").then((module) => module.loadParser()), catch: (cause) => cause })
  )
  if (syntax._tag === "Failure") {
    return unanalysableOnly(command, "ParserUnavailable", `The shell parser could not be loaded (${String(syntax.failure)}).`)
  }
  return syntax.success(command)
})

// ---------------------------------------------------------------------------------------------------------------
// Bash rules: `Bash(exact words)`, `Bash(prefix:*)`, `Bash(npm run test *)`, matched word by word on the parsed argv.

/** A word of a rule: literal text, a pattern with `*` inside a word, or a lone `*` (any number of words). */
export type RuleWord =
  | { readonly _tag: "Literal"; readonly text: string }
  | { readonly _tag: "Glob"; readonly text: string; readonly pattern: RegExp }
  | { readonly _tag: "Rest" }

/** A parsed Bash rule specifier. `Any` is `Bash`, `Bash()` or `Bash(*)`: every command. */
export type BashRule =
  | { readonly _tag: "Any"; readonly specifier: string }
  | { readonly _tag: "Words"; readonly specifier: string; readonly words: ReadonlyArray<RuleWord> }

export type RuleParse = { readonly _tag: "Rule"; readonly rule: BashRule } | { readonly _tag: "Invalid"; readonly message: string }

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Parses a Bash rule's specifier (what is inside `Bash(...)`; undefined for a bare `Bash`). Words are split on
 * unquoted blanks; quotes and backslashes make `*` and blanks literal. `prefix:*` (Claude Code's legacy form) is
 * the words of prefix followed by anything; a lone `*` word is any number of words (none included); a `*` inside a
 * word matches any characters in that word, and a `*` ending the last word also admits further words (`ls*` matches
 * `lsof` and `ls -la`, as in Claude Code). A prefix never matches part of a word: `git:*` does not match `gitx`.
 */
export const parseRule = (specifier: string | undefined): RuleParse => {
  const trimmed = specifier?.trim() ?? ""
  if (trimmed === "" || trimmed === "*" || trimmed === ":*") return { _tag: "Rule", rule: { _tag: "Any", specifier: trimmed } }
  const legacy = trimmed.endsWith(":*")
  const body = legacy ? trimmed.slice(0, -2) : trimmed
  const words: Array<RuleWord> = []
  let literalText = ""
  let regex = ""
  let wildcard = false
  let inWord = false
  let endsWithWildcard = false
  const flush = () => {
    if (!inWord) return
    if (!wildcard) words.push({ _tag: "Literal", text: literalText })
    else if (literalText === "" && regex === ".*") words.push({ _tag: "Rest" })
    else words.push({ _tag: "Glob", text: literalText, pattern: new RegExp(`^${regex}$`, "s") })
    literalText = ""
    regex = ""
    wildcard = false
    inWord = false
  }
  const addLiteral = (char: string) => {
    literalText += char
    regex += escapeRegExp(char)
    inWord = true
    endsWithWildcard = false
  }
  for (let index = 0; index < body.length; index++) {
    const char = body.charAt(index)
    if (/\s/.test(char)) {
      flush()
      continue
    }
    if (char === "\\") {
      const next = body.charAt(index + 1)
      if (next === "") return { _tag: "Invalid", message: `The Bash rule "${trimmed}" ends in a backslash.` }
      addLiteral(next)
      index++
      continue
    }
    if (char === "'" || char === '"') {
      const end = body.indexOf(char, index + 1)
      if (end === -1) return { _tag: "Invalid", message: `The Bash rule "${trimmed}" has an unterminated quote.` }
      const quoted = body.slice(index + 1, end)
      inWord = true
      for (const quotedChar of quoted) addLiteral(quotedChar)
      index = end
      continue
    }
    if (char === "*") {
      regex += ".*"
      wildcard = true
      inWord = true
      endsWithWildcard = true
      continue
    }
    addLiteral(char)
  }
  const lastEndsWithWildcard = endsWithWildcard && inWord && !(literalText === "" && regex === ".*")
  flush()
  if (words.length === 0) return { _tag: "Rule", rule: { _tag: "Any", specifier: trimmed } }
  if (words[0]?._tag === "Rest") return { _tag: "Invalid", message: `The Bash rule "${trimmed}" does not name a command.` }
  if (legacy || lastEndsWithWildcard) words.push({ _tag: "Rest" })
  return { _tag: "Rule", rule: { _tag: "Words", specifier: trimmed, words } }
}

/**
 * Whether `argv` matches the rule's words. `must`: the words match whatever the shell makes of them (a word known
 * only at run time matches only a lone `*`), the sense an allow rule needs. `may`: the words could match (a word
 * known only at run time may be any words), the sense a deny or ask rule needs.
 */
export const argvMatches = (argv: ReadonlyArray<Word>, words: ReadonlyArray<RuleWord>, sense: "must" | "may"): boolean => {
  // matches[i][j]: argv from i matches the rule's words from j. Filled from the end, without recursion (a line may
  // hold tens of thousands of words).
  const n = argv.length
  const m = words.length
  let next: Array<boolean> = Array.from({ length: m + 1 }, (_, j) => j === m || words.slice(j).every((word) => word._tag === "Rest"))
  for (let i = n - 1; i >= 0; i--) {
    const current: Array<boolean> = new Array<boolean>(m + 1).fill(false)
    const word = argv[i]
    const text = word === undefined ? undefined : literal(word)
    for (let j = m; j >= 0; j--) {
      const pattern = words[j]
      if (word === undefined) {
        current[j] = false
      } else if (text === undefined && sense === "may") {
        // May be any words, or none: it may take any number of the rule's words from j (none left included).
        let any = false
        for (let k = j; k <= m && !any; k++) any = next[k] === true
        current[j] = any
      } else if (pattern === undefined) {
        current[j] = false
      } else if (pattern._tag === "Rest") {
        // A lone `*` takes this word (and stays), or no more words.
        current[j] = next[j] === true || current[j + 1] === true
      } else if (text === undefined) {
        // `~/x` as written matches a rule word `~/x`; nothing else known only at run time matches a fixed word.
        current[j] = word.tilde && !word.glob && !word.brace && pattern._tag === "Literal" && word.value === pattern.text && next[j + 1] === true
      } else {
        const matches = pattern._tag === "Literal" ? text === pattern.text : pattern.pattern.test(text)
        current[j] = matches && next[j + 1] === true
      }
    }
    next = current
  }
  return next[0] === true
}

const inertNameRe =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|NODE_ENV|RUST_LOG|RUST_BACKTRACE|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|GIT_PAGER_IN_USE)$/

/**
 * An assignment that cannot change what a command runs or where it reads: the locale, colours, the terminal's size,
 * and lowercase shell variables (by convention not exported), proxies excepted.
 */
export const isInertAssignment = (assignment: Assignment): boolean =>
  inertNameRe.test(assignment.name) || (/^[a-z_][a-z0-9_]*$/.test(assignment.name) && !assignment.name.endsWith("_proxy"))


/** The argv seen at each wrapper level: the whole line, then after each wrapper (`sudo timeout 5 rm x`: three). */
export const argvLevels = (command: SimpleCommand): ReadonlyArray<{ readonly argv: ReadonlyArray<Word>; readonly wrappedBy: ReadonlyArray<Wrapper> }> => {
  const levels: Array<{ argv: ReadonlyArray<Word>; wrappedBy: ReadonlyArray<Wrapper> }> = []
  for (let level = 0; level < command.wrappers.length; level++) {
    const argv: Array<Word> = []
    for (const wrapper of command.wrappers.slice(level)) argv.push(wordOf(wrapper.name), ...wrapper.argv)
    argv.push(...command.argv)
    levels.push({ argv, wrappedBy: command.wrappers.slice(0, level) })
  }
  levels.push({ argv: command.argv, wrappedBy: command.wrappers })
  return levels
}

const basenameOfCommand = (argv: ReadonlyArray<Word>): ReadonlyArray<Word> | undefined => {
  const first = argv[0]
  const name = first === undefined ? undefined : literal(first)
  if (name === undefined || !name.includes("/")) return undefined
  const base = baseName(name)
  return base === "" ? undefined : [wordOf(base), ...argv.slice(1)]
}

/**
 * Whether a deny or ask rule may apply to the command: at any wrapper level (`sudo:*` and `rm:*` both apply to
 * `sudo rm x`), by its name as written or by the last component of a path (`/bin/rm`).
 */
export const commandMayMatch = (command: SimpleCommand, rule: BashRule): boolean => {
  if (rule._tag === "Any") return true
  if (command.argv.length === 0 && command.wrappers.length === 0) return false
  return argvLevels(command).some(({ argv }) => {
    if (argvMatches(argv, rule.words, "may")) return true
    const base = basenameOfCommand(argv)
    return base !== undefined && argvMatches(base, rule.words, "may")
  })
}

/**
 * Whether an allow rule covers the command: at a wrapper level under only transparent wrappers (a rule for
 * `npm test` covers `timeout 60 npm test`, not `sudo npm test`), with every assignment inert. A bare assignment of
 * an inert variable needs no rule.
 */
export const commandMustMatch = (command: SimpleCommand, rule: BashRule): boolean => {
  if (!command.assignments.every(isInertAssignment)) return false
  if (command.argv.length === 0 && command.wrappers.length === 0) return true
  if (rule._tag === "Any") return true
  return argvLevels(command).some(({ argv, wrappedBy }) => wrappedBy.every((wrapper) => wrapper.transparent) && argvMatches(argv, rule.words, "must"))
}

/** `x=1` alone runs nothing and changes nothing another program sees. */
const isInertBareAssignment = (command: SimpleCommand): boolean =>
  command.argv.length === 0 && command.wrappers.length === 0 && command.assignments.every(isInertAssignment)

export interface BashRules {
  readonly allow: ReadonlyArray<BashRule>
  readonly ask: ReadonlyArray<BashRule>
  readonly deny: ReadonlyArray<BashRule>
  /** Deny rules naming Bash exist that did not parse (and so are not in `deny`): unanalysable lines are still denied. */
  readonly unparsedDeny?: string
}

export type RuleDecision =
  /** A deny rule may apply to a command, or the line is unanalysable while deny rules exist. */
  | { readonly _tag: "Deny"; readonly rule: BashRule | undefined; readonly command: SimpleCommand | undefined; readonly reason: string }
  /** An ask rule may apply, or the line is unanalysable: ask (never allow). */
  | { readonly _tag: "Ask"; readonly rule: BashRule | undefined; readonly reason: string }
  /** Every command is covered by an allow rule. `writes` are files written by redirections: check them as edits. */
  | { readonly _tag: "Allow"; readonly writes: ReadonlyArray<Word> }
  /** No rule decides; `uncovered` are the commands no allow rule covers (the read-only table and the mode decide). */
  | { readonly _tag: "NoRule"; readonly uncovered: ReadonlyArray<SimpleCommand>; readonly writes: ReadonlyArray<Word> }

const ruleText = (rule: BashRule) => (rule._tag === "Any" && rule.specifier === "" ? "Bash" : `Bash(${rule.specifier})`)

/**
 * Decides a Bash call by its rules. Deny beats ask beats allow: any command a deny rule may match denies, and an
 * unanalysable line is denied when there is any deny rule, else asked about; every command must be covered for an
 * allow. Pure: perms applies modes, the read-only table and paths after it.
 */
export const decide = (analysis: Analysis, rules: BashRules): RuleDecision => {
  const firstDeny = rules.deny[0]
  if (!isAnalysed(analysis) && (firstDeny !== undefined || rules.unparsedDeny !== undefined)) {
    const why = analysis.unanalysable.map((reason) => reason.message).join(" ")
    const named = firstDeny === undefined ? `Bash(${rules.unparsedDeny ?? ""})` : ruleText(firstDeny)
    return { _tag: "Deny", rule: firstDeny, command: undefined, reason: `${why} A command that cannot be analysed is denied while a deny rule (${named}) is in force.` }
  }
  for (const command of analysis.commands) {
    for (const rule of rules.deny) {
      if (commandMayMatch(command, rule)) {
        return { _tag: "Deny", rule, command, reason: `\`${command.source}\` is denied by the rule ${ruleText(rule)}.` }
      }
    }
  }
  if (!isAnalysed(analysis)) {
    return { _tag: "Ask", rule: undefined, reason: analysis.unanalysable.map((reason) => reason.message).join(" ") }
  }
  for (const command of analysis.commands) {
    for (const rule of rules.ask) {
      if (commandMayMatch(command, rule)) return { _tag: "Ask", rule, reason: `\`${command.source}\` matches the rule ${ruleText(rule)}, which asks.` }
    }
  }
  const uncovered = analysis.commands.filter((command) => !isInertBareAssignment(command) && !rules.allow.some((rule) => commandMustMatch(command, rule)))
  return uncovered.length === 0 ? { _tag: "Allow", writes: writes(analysis) } : { _tag: "NoRule", uncovered, writes: writes(analysis) }
}
