/**
 * Where Glob and Grep search: a path relative to the session's current directory (the ShellSession's, when the
 * session has one, so a `cd` in Bash moves the default as in Claude Code; else the context's cwd).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { ShellSession } from "../ShellSession.js"
import { fail, type ToolContext, type ToolFailed } from "../Tool.js"

export const currentDirectory = (context: ToolContext): Effect.Effect<string> =>
  Effect.flatMap(Effect.serviceOption(ShellSession), (session) =>
    Option.isSome(session) ? session.value.cwd : Effect.succeed(context.cwd)
  )

export interface SearchPath {
  readonly path: string
  readonly isDirectory: boolean
}

/** Resolves the `path` input (absolute, or relative to the current directory) to something that exists. */
export const resolveSearchPath = (
  tool: string,
  context: ToolContext,
  path: string | undefined
): Effect.Effect<SearchPath, ToolFailed> =>
  Effect.flatMap(currentDirectory(context), (cwd) => {
    const resolved = path === undefined || path.trim() === "" ? cwd : nodePath.resolve(cwd, path)
    try {
      const stats = fs.statSync(resolved)
      return Effect.succeed({ path: resolved, isDirectory: stats.isDirectory() })
    } catch {
      return Effect.fail(fail(tool, `Path does not exist: ${resolved}. Note: your current working directory is ${cwd}.`))
    }
  })
