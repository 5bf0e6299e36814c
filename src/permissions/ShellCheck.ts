/**
 * BashCheck on the parser: Bash rules decided on the parsed line (ShellCommand.decide), and for the commands no
 * rule covers, the read-only table's verdict with the paths each reads. The parser and the table load on the first
 * call to `check` (a lazy `import()`), so a session that never checks a Bash call never loads them.
 */
import * as Effect from "effect/Effect"
import type * as BashCheck from "./BashCheck.js"
import * as ShellCommand from "./ShellCommand.js"
import { programWrites } from "./ProgramWrites.js"
import { optionWritesOf } from "./ShellWrites.js"

// A rule that does not parse is reported by validate (a warning naming it) and matches nothing; a deny rule that
// does not parse still names Bash, so unanalysable lines stay denied (unparsedDeny).
const rulesOf = (parsed: ReadonlyArray<ShellCommand.RuleParse>): ReadonlyArray<ShellCommand.BashRule> =>
  parsed.flatMap((rule) => (rule._tag === "Rule" ? [rule.rule] : []))

// Stryker disable next-line StringLiteral: the tracing span's name, which no decision reads.
export const check = Effect.fn("ShellCheck.check")(function* (command: string, rules: BashCheck.BashRuleSet) {
  const analysis = yield* ShellCommand.analyze(command)
  // Each deny specifier parsed once: for the rules, and for the first that does not parse.
  const deny = rules.deny.map(ShellCommand.parseRule)
  // Stryker disable next-line ConditionalExpression: read only while no deny rule parses (the first valid one is named otherwise), when every rule is Invalid and index 0 is the first of them.
  const unparsedDeny = rules.deny[deny.findIndex((rule) => rule._tag === "Invalid")]
  const decision = ShellCommand.decide(analysis, {
    allow: rulesOf(rules.allow.map(ShellCommand.parseRule)),
    ask: rulesOf(rules.ask.map(ShellCommand.parseRule)),
    deny: rulesOf(deny),
    // Stryker disable next-line ConditionalExpression: `{ unparsedDeny: undefined }` is read as no unparsed deny rule, as `{}` is.
    ...(unparsedDeny === undefined ? {} : { unparsedDeny })
  })
  const directoryChanges = directoryChangesOf(analysis.commands)
  // Files written by options (`git diff --output=x`) are checked as the redirections' are, allow rule or not.
  const writes = (redirected: ReadonlyArray<ShellCommand.Word>) => [...redirected, ...optionWritesOf(analysis.commands)].map(ShellCommand.literal)
  // Files the programs write through their operands (`cp x .git/hooks/pre-commit`), checked as edits too; a command
  // an allow rule covers stands for its own edits inside the workspace.
  const files = (uncovered: ReadonlyArray<ShellCommand.SimpleCommand>): ReadonlyArray<BashCheck.FileWrite> =>
    analysis.commands.flatMap((command) =>
      programWrites(command).map((target) => ({ path: target.path, tree: target.tree, glob: target.glob, granted: !uncovered.includes(command) }))
    )
  switch (decision._tag) {
    case "Deny":
      return { _tag: "Deny", reason: decision.reason } satisfies BashCheck.BashVerdict
    case "Ask":
      return { _tag: "Ask", reason: decision.reason, unanalysable: !ShellCommand.isAnalysed(analysis) } satisfies BashCheck.BashVerdict
    case "Allow":
      // Stryker disable next-line ArrayDeclaration: no command is uncovered; a list holding anything but a command is the same.
      return { _tag: "Allow", writes: writes(decision.writes), files: files([]), directoryChanges } satisfies BashCheck.BashVerdict
    case "NoRule": {
      const ReadOnlyCommands = yield* Effect.promise(() => import("./ReadOnlyCommands.js"))
      const verdicts = new Map(ReadOnlyCommands.commandVerdicts(analysis).map(({ command, verdict }) => [command, verdict]))
      const uncovered: Array<BashCheck.UncoveredCommand> = decision.uncovered.map((command) => {
        // Stryker disable next-line StringLiteral,ObjectLiteral: unreachable fallback: commandVerdicts answers for every command of the analysis, and uncovered ones are among them.
        const verdict = verdicts.get(command) ?? { _tag: "NotReadOnly", reason: "not analysed" }
        return {
          source: command.source,
          readOnly: verdict._tag === "ReadOnly" ? { _tag: "ReadOnly", paths: verdict.paths.map((path) => path.path) } : verdict
        }
      })
      // Files read by redirections on compound commands (`while ...; done < file`): paths to check like any other.
      const compound = ReadOnlyCommands.readPaths(ReadOnlyCommands.compoundReads(analysis))
      if (compound._tag === "NotReadOnly" || compound.paths.length > 0) {
        uncovered.push({
          // Stryker disable next-line StringLiteral: the entry's label in messages; decisions read its paths.
          source: "<redirection>",
          readOnly: compound._tag === "ReadOnly" ? { _tag: "ReadOnly", paths: compound.paths.map((path) => path.path) } : compound
        })
      }
      return { _tag: "NoRule", uncovered, writes: writes(decision.writes), files: files(decision.uncovered), directoryChanges } satisfies BashCheck.BashVerdict
    }
  }
})

/**
 * Where `cd` and `pushd` move the shell: the operand after options (`cd` alone is home). `cd -`, `popd` and a
 * `pushd` without a directory go back to a directory the line was already in, so they add none.
 */
const directoryChangesOf = (commands: ReadonlyArray<ShellCommand.SimpleCommand>): BashCheck.DirectoryChanges =>
  commands.flatMap((command) => {
    if (command.name !== "cd" && command.name !== "pushd") return []
    const operands = command.argv.slice(1).filter((word, index, all) => {
      const text = ShellCommand.literal(word)
      // Options come first (`cd -P dir`); `--` ends them (`cd -- -P` goes to the directory -P).
      // Stryker disable next-line ConditionalExpression,StringLiteral: `text !== undefined` forced true tests the regex on "undefined", which it does not match; `startsWith("")` differs only once a word not an option came before, which is then the first operand either way.
      return !(text !== undefined && /^-[LPe@]+$/.test(text) && all.slice(0, index).every((before) => ShellCommand.literal(before)?.startsWith("-") === true && ShellCommand.literal(before) !== "--"))
    })
    const first = operands[0]
    if (first === undefined) return command.name === "cd" ? ["~"] : []
    const text = ShellCommand.literal(first)
    if (text === "--") return operands[1] === undefined ? ["~"] : [ShellCommand.literal(operands[1])]
    // Stryker disable next-line ConditionalExpression: `text !== undefined` forced true tests the regex on "undefined", which it does not match (the line's other conditions are pinned by tests).
    if (text === "-" || (command.name === "pushd" && text !== undefined && /^[+-][0-9]+$/.test(text))) return []
    return [text]
  })

/** Why a Bash rule specifier does not parse, or undefined. */
export const validate = (specifier: string): string | undefined => {
  const parsed = ShellCommand.parseRule(specifier)
  // Stryker disable next-line ConditionalExpression: a rule that parses has no message, so reading it answers undefined too.
  return parsed._tag === "Invalid" ? parsed.message : undefined
}

/** BashCheck backed by the tree-sitter parse. */
export const parsed: BashCheck.Interface = { validate, check }

/**
 * Whether Bash rule patterns cover every command of a line, as allow rules must (the sandbox's `excludedCommands`):
 * a line that cannot be analysed is covered by none.
 */
export const matchesPatterns = (command: string, patterns: ReadonlyArray<string>): Effect.Effect<boolean> =>
  Effect.map(check(command, { allow: patterns, ask: [], deny: [] }), (verdict) => verdict._tag === "Allow")
