/**
 * What Permissions needs to know about a Bash command line, from the parser (ShellCommand.ts): how its rules decide
 * it, which files its redirections write, and, for the commands no rule covers, whether each only reads (and
 * which paths). An interface, so the parser loads only when a Bash call is checked and tests can stand in for it.
 */
import * as Effect from "effect/Effect"

/** Bash rule specifiers by behaviour; `undefined` is the whole tool (`Bash`). */
export interface BashRuleSet {
  readonly allow: ReadonlyArray<string | undefined>
  readonly ask: ReadonlyArray<string | undefined>
  readonly deny: ReadonlyArray<string | undefined>
}

export interface UncoveredCommand {
  /** The command as written. */
  readonly source: string
  /** Read-only (with the paths it reads, as written) or why not. */
  readonly readOnly: { readonly _tag: "ReadOnly"; readonly paths: ReadonlyArray<string> } | { readonly _tag: "NotReadOnly"; readonly reason: string }
}

export type BashVerdict =
  /** A deny rule may match a command, or the line cannot be analysed while a deny rule for Bash exists. */
  | { readonly _tag: "Deny"; readonly reason: string }
  /** An ask rule may match (`unanalysable` false), or the line cannot be analysed (true). */
  | { readonly _tag: "Ask"; readonly reason: string; readonly unanalysable: boolean }
  /** Every command is covered by an allow rule; `writes` are the redirections' targets (undefined: not static). */
  | {
    readonly _tag: "Allow"
    readonly writes: ReadonlyArray<string | undefined>
    readonly files?: ReadonlyArray<FileWrite>
    readonly directoryChanges?: DirectoryChanges
  }
  /** Some commands no allow rule covers. */
  | {
    readonly _tag: "NoRule"
    readonly uncovered: ReadonlyArray<UncoveredCommand>
    readonly writes: ReadonlyArray<string | undefined>
    readonly files?: ReadonlyArray<FileWrite>
    readonly directoryChanges?: DirectoryChanges
  }

/**
 * A file a command of the line writes through its operands (`cp x dest`, `rm -r dir`, `tee f`): ProgramWrites.ts.
 * `path` as written (undefined: known only at run time); `tree`: what lies under it is written too; `glob`: the path
 * is a pattern; `granted`: an allow rule covers the command, which then stands for the edit inside the workspace
 * (deny and ask rules, protected paths and the workspace boundary still apply).
 */
export interface FileWrite {
  readonly path: string | undefined
  readonly tree: boolean
  readonly glob: boolean
  readonly granted: boolean
}

/**
 * The directories the line changes to (`cd x`, `pushd x`), in order, as written; undefined where it is not known
 * before the line runs (`cd $D`). A relative path later in the line may be relative to any of them.
 */
export type DirectoryChanges = ReadonlyArray<string | undefined>

export interface Interface {
  /** Why a Bash rule specifier does not parse, or undefined. */
  readonly validate: (specifier: string) => string | undefined
  readonly check: (command: string, rules: BashRuleSet) => Effect.Effect<BashVerdict>
}

/**
 * Analyses nothing: every line is one that cannot be analysed, so it is asked about, denied while any Bash deny
 * rule exists, and never allowed by a rule. The safe stand-in where no parser is available.
 */
export const unanalysed: Interface = {
  validate: () => undefined,
  check: (_command, rules) =>
    Effect.succeed(
      rules.deny.length > 0
        ? { _tag: "Deny", reason: "The command cannot be analysed, and a deny rule for Bash is in force." }
        : { _tag: "Ask", reason: "The command cannot be analysed.", unanalysable: true }
    )
}
