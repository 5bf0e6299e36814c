/**
 * The files a Bash line touches, checked as file accesses (PathCheck.ts) once its rules allow it or leave it
 * uncovered: the files its redirections and its writing programs write (edits, allow rule or not), and those its
 * uncovered read-only commands read. A `cd` earlier in the line moves where a relative path lands, so such a path
 * is checked from every directory the line may be in by then, the strictest answer standing.
 */
import * as Effect from "effect/Effect"
import { isAbsolute, resolve } from "node:path"
import type { PermissionMode } from "../context/Settings.js"
import type * as BashCheck from "./BashCheck.js"
import { allow, ask, type Decision, deny } from "./PermissionDecision.js"
import { type CheckPath, expandHome, plainWrite, type WriteShape } from "./PathCheck.js"

/** Directories a line's `cd`s may lead to beyond which its relative paths are not checked but asked about. */
const maxDirectories = 32

export interface BashFilesOptions {
  /** The command line, named when one of its writes is refused. */
  readonly command: string
  readonly home: string
  readonly mode: PermissionMode
  readonly checkPath: CheckPath
  /**
   * The command runs in the OS sandbox with `autoAllowBashIfSandboxed`: a command no rule covers needs no
   * approval for what it runs (the sandbox holds it); the files it names are still checked (protected paths ask).
   */
  readonly sandboxed?: boolean
}

type Analysed = Extract<BashCheck.BashVerdict, { readonly _tag: "Allow" | "NoRule" }>

/** The decision for the files of a line Bash runs in `start` (the verdict's rules allowed it or left it uncovered). */
export const checkBashFiles = (
  verdict: Analysed,
  start: string,
  options: BashFilesOptions
): Effect.Effect<Decision> =>
  Effect.gen(function* () {
    const { home, mode, checkPath } = options
    // A `cd` earlier in the line moves where a relative path lands (`cd .git && echo x > config`): such a path
    // is checked from every directory the line may be in by then, the strictest answer standing.
    const directories = [start]
    let unknownDirectory = false
    for (const change of verdict.directoryChanges ?? []) {
      if (change === undefined || directories.length > maxDirectories) {
        unknownDirectory = true
        continue
      }
      for (const directory of [...directories]) {
        const next = resolve(directory, expandHome(change, home))
        if (!directories.includes(next)) directories.push(next)
      }
    }
    const checkFromEach = Effect.fn("Permissions.checkBashPath")(function* (
      toolName: string,
      path: string,
      access: "read" | "write",
      readOnlyTool: boolean,
      shape: WriteShape = plainWrite
    ) {
      const expanded = expandHome(path, home)
      if (unknownDirectory && !isAbsolute(expanded)) {
        return ask(`\`${path}\` is relative to a directory the command changes to, which is known only when it runs.`)
      }
      let strictest: Decision = allow
      for (const directory of isAbsolute(expanded) ? [start] : directories) {
        const decision = yield* checkPath(toolName, resolve(directory, expanded), access, readOnlyTool, shape)
        if (decision._tag === "Deny") return decision
        if (decision._tag === "Ask" && strictest._tag === "Allow") strictest = decision
      }
      return strictest
    })
    // Redirections write files: each is checked as an edit of that file (a refusal names the command, not Edit).
    const line = `The Bash command \`${options.command}\``
    let pending: Decision | undefined
    for (const target of verdict.writes) {
      if (target === undefined) {
        pending ??= ask("The command writes to a file whose name is known only when it runs.")
        continue
      }
      const decision = yield* checkFromEach("Edit", target, "write", false, { ...plainWrite, writer: `${line} (its redirection to ${target})` })
      if (decision._tag === "Deny") return decision
      if (decision._tag === "Ask") pending ??= decision
    }
    // Files the programs write (`cp x dest`, `rm -r dir`): edits of those files, allow rule or not.
    for (const file of verdict.files ?? []) {
      if (file.path === undefined) {
        pending ??= ask("The command writes a file whose name is known only when it runs.")
        continue
      }
      const decision = yield* checkFromEach("Edit", file.path, "write", false, { ...file, writer: line })
      if (decision._tag === "Deny") return decision
      if (decision._tag === "Ask") pending ??= decision
    }
    if (verdict._tag === "NoRule") {
      for (const command of verdict.uncovered) {
        if (command.readOnly._tag === "NotReadOnly") {
          if (mode === "bypassPermissions") continue
          if (options.sandboxed === true && mode !== "plan") continue
          if (mode === "plan") return deny(`\`${command.source}\` is not read-only (${command.readOnly.reason}), and in plan mode only read-only commands run.`)
          pending ??= ask(`\`${command.source}\` needs approval: ${command.readOnly.reason}.`)
          continue
        }
        for (const path of command.readOnly.paths) {
          const decision = yield* checkFromEach("Read", path, "read", true)
          if (decision._tag === "Deny") return decision
          if (decision._tag === "Ask") pending ??= decision
        }
      }
    }
    return pending ?? allow
  })
