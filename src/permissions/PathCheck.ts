/**
 * The decision for a file access: a file tool's, or a file a Bash line writes (a redirection, a program's operand)
 * or reads. Deny rules first, then the protected paths and ask rules (asked in every mode), then the mode, allow
 * rules and the workspace: reads inside it run, edits inside it run in acceptEdits (or when a Bash allow rule
 * stands for them), the rest is asked about.
 */
import * as Effect from "effect/Effect"
import { join, resolve } from "node:path"
import type { Interface as SettingsInterface, PermissionMode } from "../context/Settings.js"
import { allow, ask, type Decision, deny } from "./PermissionDecision.js"
import { type CompiledRules, denyMessage, ruleLabel } from "./PermissionRules.js"
import {
  homeProtectedLocations,
  isInsideAny,
  protectedPatternReason,
  protectedReason,
  protectedUnder,
  realPath,
  rootProtectedLocations
} from "./PathGuard.js"

export const expandHome = (path: string, home: string) => (path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path)

/** The workspace: the project, --add-dir, additionalDirectories (as real paths). */
export const workspaceRoots = (
  settings: SettingsInterface,
  additionalDirectories: ReadonlyArray<string> | undefined
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.gen(function* () {
    const home = settings.home
    const cwd = settings.projectDir
    const rootsWanted = [
      cwd,
      ...(additionalDirectories ?? []),
      ...(settings.value.permissions?.additionalDirectories ?? []),
      ...(settings.value.additionalDirectories ?? [])
    ]
    const roots: Array<string> = []
    for (const dir of rootsWanted) roots.push(yield* realPath(resolve(cwd, expandHome(dir, home))))
    return roots
  })

/**
 * How a write is reached, beyond the path itself: `tree`, what lies under it is written too (a recursive delete, a
 * rename); `glob`, the path is a shell pattern; `granted`, an allow rule for the Bash command that writes stands for
 * the edit inside the workspace (`Bash(mkdir:*)` makes directories there in default mode; outside it is asked about).
 */
export interface WriteShape {
  readonly tree: boolean
  readonly glob: boolean
  readonly granted: boolean
  /** What writes, when it is not the tool itself (a Bash command's redirection): named when the write is refused. */
  readonly writer?: string
}
export const plainWrite: WriteShape = { tree: false, glob: false, granted: false }

const withProtected = (location: string | undefined): string | undefined =>
  location === undefined ? undefined : `it reaches ${location}, which is protected`

export type CheckPath = (
  toolName: string,
  lexicalPath: string,
  access: "read" | "write",
  readOnlyTool: boolean,
  shape?: WriteShape
) => Effect.Effect<Decision>

export interface PathCheckOptions {
  /** The project directory, which relative paths are resolved from. */
  readonly cwd: string
  readonly home: string
  /** weft's home, as a real path (protected). */
  readonly weftHome: string
  /** The workspace roots (see `workspaceRoots`). */
  readonly roots: ReadonlyArray<string>
  readonly mode: PermissionMode
  readonly rules: CompiledRules
}

export const makePathCheck = (options: PathCheckOptions): Effect.Effect<CheckPath> =>
  Effect.gen(function* () {
    const { cwd, home, weftHome, roots, mode } = options
    const { pathRule, ruleUnder } = options.rules

    // Protected paths that exist in known places: what a write reaching under a directory (`rm -r .`) may take along.
    const protectedLocations = [...roots.flatMap(rootProtectedLocations), weftHome, ...homeProtectedLocations(yield* realPath(home))]

    /** The decision for a file access (a file tool, or a Bash redirection or program writing a file). */
    const checkPath = Effect.fn("Permissions.checkPath")(function* (
      toolName: string,
      lexicalPath: string,
      access: "read" | "write",
      readOnlyTool: boolean,
      shape: WriteShape = plainWrite
    ) {
      const lexical = resolve(cwd, lexicalPath)
      const real = yield* realPath(lexical)
      const paths = { lexical, real }
      // A pattern or a tree reaches what lies under it: rules and protected paths there count too.
      const reaching = access === "write" && (shape.tree || shape.glob)
      const reached = reaching ? [lexical, real] : []
      const denied = pathRule(toolName, "deny", paths) ?? (reaching ? ruleUnder(toolName, "deny", reached) : undefined)
      if (denied !== undefined) return deny(denyMessage(toolName, denied, ` on ${lexical}`))
      const protection =
        access === "write"
          ? (protectedReason(lexical, weftHome) ??
            protectedReason(real, weftHome) ??
            (shape.glob ? protectedPatternReason(lexical) : undefined) ??
            (reaching ? withProtected(reached.map((path) => protectedUnder(path, protectedLocations)).find((found) => found !== undefined)) : undefined))
          : undefined
      if (protection !== undefined) return ask(`${toolName} would write ${lexical}, and ${protection}: every change to it is asked about.`)
      const asked = pathRule(toolName, "ask", paths) ?? (reaching ? ruleUnder(toolName, "ask", reached) : undefined)
      if (asked !== undefined) return ask(`${toolName} on ${lexical} matches the rule ${ruleLabel(asked.rule)}, which asks.`)
      if (mode === "bypassPermissions") return allow
      if (mode === "plan" && !readOnlyTool) {
        return deny(
          shape.writer === undefined
            ? `${toolName} changes files, and the session is in plan mode, where only read-only tools run.`
            : `${shape.writer} would write ${lexical}, and the session is in plan mode, where only read-only commands run.`
        )
      }
      if (pathRule(toolName, "allow", paths) !== undefined) return allow
      const inside = isInsideAny(real, roots)
      if (access === "read" && inside) return allow
      if (access === "write" && inside && (mode === "acceptEdits" || shape.granted)) return allow
      return ask(
        inside
          ? `${toolName} would change ${lexical}.`
          : `${lexical} is outside the workspace (${roots.join(", ")}).`
      )
    })

    return checkPath
  })
