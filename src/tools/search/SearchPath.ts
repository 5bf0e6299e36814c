/**
 * Where Glob and Grep search. One function, `searchPathOf`, turns the `path` input into the absolute path searched,
 * and both the permission target (the tool's `target`) and the run call it: what Permissions checks is exactly
 * what is read.
 *
 * The base is the context's `cwd`. Claude Code resolves against the current directory, which a Bash `cd` moves;
 * here `target` is synchronous and sees only the ToolContext, so it cannot read the ShellSession's directory, and
 * resolving the run against the shell while the target used `context.cwd` let a `cd ../outside` search outside
 * what was checked. Both use `context.cwd`; when the shell has moved away, the answer says so (`shellNote`).
 */
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { ShellSession } from "../ShellSession.js"
import { SearchFiles } from "./SearchFiles.js"
import { fail, type ToolContext, type ToolFailed } from "../Tool.js"

/** The absolute path a search names: `path` (absolute, or relative to `context.cwd`), else `context.cwd`. */
export const searchPathOf = (context: ToolContext, path: string | undefined): string =>
  path === undefined || path.trim() === "" ? context.cwd : nodePath.resolve(context.cwd, path)

export interface SearchPath {
  readonly path: string
  readonly isDirectory: boolean
}

/** Checks that the absolute `path` (from `searchPathOf`) exists, and whether it is a directory. */
export const statSearchPath = (
  tool: string,
  context: ToolContext,
  path: string
): Effect.Effect<SearchPath, ToolFailed, SearchFiles> =>
  SearchFiles.use((files) => {
    const kind = files.kind(path)
    return kind === undefined
      ? Effect.fail(fail(tool, `Path does not exist: ${path}. Note: relative paths are resolved against ${context.cwd}.`, "not_found"))
      : Effect.succeed({ path, isDirectory: kind === "Directory" })
  })

/**
 * A note for the model when the Bash shell's current directory is not the directory relative paths resolve
 * against (after a `cd`) and the call named a relative path or none, so it does not take the answer for a search of
 * the shell's directory. Empty otherwise.
 */
export const shellNote = (context: ToolContext, resolvedRelative: boolean): Effect.Effect<string, never, ShellSession> =>
  Effect.gen(function* () {
    if (!resolvedRelative) return ""
    const shellCwd = yield* ShellSession.use((session) => session.cwd)
    return shellCwd === context.cwd
      ? ""
      : `\n\n(Relative paths and the default are resolved against ${context.cwd}, not the shell's current ` +
          `directory ${shellCwd}: pass an absolute path to search there.)`
  })
