/**
 * Glob {pattern, path?}: files whose path (relative to `path`) matches the pattern, newest first, at most
 * MAX_RESULTS. .gitignore/.ignore files are respected, `.git` is never entered, and `*`/`**` skip names starting
 * with `.` unless the pattern spells the dot (`.github/**`). Symbolic links are not followed.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as nodePath from "node:path"
import * as Tool from "../Tool.js"
import { compile, GlobSyntaxError, splitBase } from "../search/GlobPattern.js"
import { searchPathOf, shellNote, statSearchPath } from "../search/SearchPath.js"
import { SearchFiles } from "../search/SearchFiles.js"
import { loop, walk } from "../search/Walk.js"

/** Claude Code's cap on Glob results. */
export const MAX_RESULTS = 100

export const GlobInput = Schema.Struct({
  pattern: Schema.String.annotate({ description: "The glob pattern to match files against" }),
  path: Schema.optional(
    Schema.String.annotate({
      description:
        'The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.'
    })
  )
})
export type GlobInput = typeof GlobInput.Type

export interface GlobMatches {
  /** Absolute paths, newest first. */
  readonly files: ReadonlyArray<string>
  readonly truncated: boolean
}

/**
 * The directory a pattern walks from `directory`: its literal leading directories joined on (`src/*.ts` walks
 * `src`, `../other/**` walks `../other`, `/etc/*` walks `/etc`), with the rest of the pattern matched below it.
 */
export const walkRoot = (pattern: string, directory: string): { readonly root: string; readonly rest: string } => {
  const { base, rest } = splitBase(pattern)
  return { root: base === "" ? directory : nodePath.resolve(directory, base), rest }
}

/**
 * What a Glob call reads: the directory walked and the pattern matched below it. The permission target (`root`) and
 * the run both come from here, so a pattern like `../outside/**` is checked as the directory it lists.
 */
export const globPlan = (input: GlobInput, context: Tool.ToolContext): { readonly root: string; readonly rest: string } =>
  walkRoot(input.pattern, searchPathOf(context, input.path))

/** Finds files under the absolute directory `directory`; the engine of the tool, usable on its own. */
export const glob = (
  pattern: string,
  directory: string,
  limit = MAX_RESULTS
): Effect.Effect<GlobMatches, GlobSyntaxError, SearchFiles> =>
  Effect.suspend(() => {
    const { root, rest } = walkRoot(pattern, directory)
    return globUnder(root, rest, limit)
  })

/** Files under the absolute directory `root` matching `rest`, a pattern relative to it. */
const globUnder = (root: string, rest: string, limit: number): Effect.Effect<GlobMatches, GlobSyntaxError, SearchFiles> =>
  Effect.flatMap(SearchFiles, (files) => {
    const matcher = Effect.try({
      try: () => compile(rest),
      catch: (error) => (error instanceof GlobSyntaxError ? error : new GlobSyntaxError(String(error)))
    })
    return Effect.flatMap(matcher, (matcher) => {
      const found: Array<string> = []
      if (files.kind(root) !== "Directory") return Effect.succeed({ files: [], truncated: false })
      const dated: Array<{ readonly path: string; readonly mtime: number }> = []
      return walk(
        root,
        {
          root: matcher.initial,
          directory: (state, name) => matcher.enter(state, name),
          file: (state, name, _relative, path) => {
            if (matcher.matchesFile(state, name)) found.push(path)
          }
        },
        // Dot entries are the matcher's call (only where the pattern spells the dot).
        { hidden: true }
      ).pipe(
        Effect.andThen(
          loop(() => {
            const path = found[dated.length]
            if (path === undefined) return false
            dated.push({ path, mtime: files.mtime(path) })
            return true
          })
        ),
        Effect.map(() => {
          dated.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
          return { files: dated.slice(0, limit).map((file) => file.path), truncated: dated.length > limit }
        })
      )
    })
  })

export const GlobTool = Tool.fromEffect({
  name: "Glob",
  description: `- Fast file pattern matching tool that works with any codebase size
- Supports glob patterns like "**/*.js" or "src/**/*.ts"
- Returns matching file paths sorted by modification time (newest first), at most ${MAX_RESULTS}
- Files ignored by .gitignore are left out
- Use this tool when you need to find files by name patterns
- You can call multiple tools in a single response. It is always better to speculatively perform multiple searches in parallel if they are potentially useful.`,
  input: GlobInput,
  readOnly: true,
  target: (input, context) => ({ _tag: "Path", path: globPlan(input, context).root, access: "read" }),
  run: (input, context) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const where = yield* statSearchPath("Glob", context, searchPathOf(context, input.path))
      if (!where.isDirectory) return yield* Tool.fail("Glob", `Path is not a directory: ${where.path}`)
      const plan = globPlan(input, context)
      const matches = yield* globUnder(plan.root, plan.rest, MAX_RESULTS).pipe(
        Effect.mapError((error) => Tool.fail("Glob", `Invalid glob pattern: ${error.message}`))
      )
      const relative = !nodePath.isAbsolute(input.path ?? "") && !nodePath.isAbsolute(input.pattern)
      const shell = yield* shellNote(context, relative)
      const data = { numFiles: matches.files.length, truncated: matches.truncated, filenames: matches.files }
      // Claude Code's Glob result, for PostToolUse hooks: the same fields and how long the search took.
      const response = { ...data, durationMs: (yield* Clock.currentTimeMillis) - started }
      if (matches.files.length === 0) return Tool.withResponse(Tool.result(`No files found${shell}`, data), response)
      const note = matches.truncated
        ? "\n(Results are truncated. Consider using a more specific path or pattern.)"
        : ""
      return Tool.withResponse(Tool.result(matches.files.join("\n") + note + shell, data), response)
    })
})
