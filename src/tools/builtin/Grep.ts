/**
 * Grep: ripgrep semantics with Claude Code's input fields and answers. Runs `rg` when it is on PATH, else the
 * built-in engine (search/GrepBuiltin.ts); both feed one formatter, so an answer does not depend on the engine.
 * WEFT_GREP_ENGINE=rg|builtin forces one (rg then must be on PATH).
 *
 * Answers: files_with_matches (default) "Found N files" then absolute paths, newest first; content: ripgrep's
 * lines (`path:12:text`, context `path-13-text`, `--` between groups; line numbers on unless "-n" is false;
 * no path prefix when `path` is a file) in path order; count: `path:N` lines in path order and a total.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as nodePath from "node:path"
import * as Tool from "../Tool.js"
import * as Variables from "../../platform/Variables.js"
import * as GrepBuiltin from "../search/GrepBuiltin.js"
import { answer, type GrepFailed, type GrepQuery, type GrepResponse } from "../search/GrepOutput.js"
import * as Ripgrep from "../search/Ripgrep.js"
import { searchPathOf, shellNote, statSearchPath } from "../search/SearchPath.js"
import { SearchFiles } from "../search/SearchFiles.js"
import { loop } from "../search/Walk.js"

/** A count of lines or entries (context lines, head_limit). */
const count = (description: string) => Tool.integerField(description, 0)

export const GrepInput = Schema.Struct({
  pattern: Schema.String.annotate({
    description: "The regular expression pattern to search for in file contents"
  }),
  path: Schema.optional(
    Schema.String.annotate({
      description: "File or directory to search in (rg PATH). Defaults to current working directory."
    })
  ),
  glob: Schema.optional(
    Schema.String.annotate({
      description: 'Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'
    })
  ),
  output_mode: Schema.optional(
    Schema.Literals(["content", "files_with_matches", "count"]).annotate({
      description:
        'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".'
    })
  ),
  "-B": Schema.optional(
    count('Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.')
  ),
  "-A": Schema.optional(
    count('Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.')
  ),
  "-C": Schema.optional(
    count(
      'Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.'
    )
  ),
  "-n": Schema.optional(
    Schema.Boolean.annotate({
      description: 'Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.'
    })
  ),
  "-i": Schema.optional(Schema.Boolean.annotate({ description: "Case insensitive search (rg -i)" })),
  type: Schema.optional(
    Schema.String.annotate({
      description:
        "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types."
    })
  ),
  head_limit: Schema.optional(
    count(
      'Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). When unspecified, shows all results (up to 30000 characters).'
    )
  ),
  multiline: Schema.optional(
    Schema.Boolean.annotate({
      description:
        "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false."
    })
  )
})
export type GrepInput = typeof GrepInput.Type

const DESCRIPTION = `A powerful search tool built on ripgrep

  Usage:
  - ALWAYS use Grep for search tasks. NEVER invoke \`grep\` or \`rg\` as a Bash command. The Grep tool has been optimized for correct permissions and access.
  - Supports full regex syntax (e.g., "log.*Error", "function\\s+\\w+")
  - Filter files with glob parameter (e.g., "*.js", "**/*.tsx") or type parameter (e.g., "js", "py", "rust")
  - Output modes: "content" shows matching lines, "files_with_matches" shows only file paths (default), "count" shows match counts
  - Pattern syntax: Uses ripgrep (not grep) - literal braces need escaping (use \`interface\\{\\}\` to find \`interface{}\` in Go code)
  - Multiline matching: By default patterns match within single lines only. For cross-line patterns like \`struct \\{[\\s\\S]*?field\`, use \`multiline: true\`
`

/** Splits the glob input at whitespace outside braces, so "*.ts *.tsx" filters on both. */
export const splitGlobs = (glob: string | undefined): Array<string> => {
  if (glob === undefined) return []
  const out: Array<string> = []
  let depth = 0
  let current = ""
  for (const c of glob) {
    if (c === "{") depth++
    else if (c === "}" && depth > 0) depth--
    if (/\s/.test(c) && depth === 0) {
      if (current !== "") out.push(current)
      current = ""
    } else current += c
  }
  if (current !== "") out.push(current)
  return out
}

export type Engine = { readonly _tag: "Builtin" } | { readonly _tag: "Ripgrep"; readonly executable: string }

/** A variable read through Config (absent or empty: none). */
const variable = (name: string): Effect.Effect<string | undefined> => Effect.map(Variables.nonEmpty(name), Option.getOrUndefined)

/** Which engine runs: WEFT_GREP_ENGINE=builtin|rg, else rg when it is on PATH. */
export const selectEngine: Effect.Effect<Engine, Tool.ToolFailed, SearchFiles> = Effect.gen(function* () {
  const builtin: Engine = { _tag: "Builtin" }
  const forced = yield* variable("WEFT_GREP_ENGINE")
  if (forced === "builtin") return builtin
  const executable = Ripgrep.findRipgrep(yield* variable("PATH"), yield* SearchFiles)
  if (executable !== undefined) return { _tag: "Ripgrep", executable }
  if (forced === "rg") return yield* Tool.fail("Grep", "WEFT_GREP_ENGINE=rg is set but rg is not on PATH.")
  return builtin
})

/** Runs a query on an engine and formats the answer. */
export const grep = (query: GrepQuery, engine: Engine): Effect.Effect<string, GrepFailed, SearchFiles> =>
  Effect.map(grepAnswer(query, engine), (found) => found.text)

/** Runs a query on an engine: the answer for the model, and Claude Code's structured result for hooks. */
export const grepAnswer = (
  query: GrepQuery,
  engine: Engine
): Effect.Effect<{ readonly text: string; readonly response: GrepResponse }, GrepFailed, SearchFiles> =>
  Effect.gen(function* () {
    const files = yield* SearchFiles
    const collector = yield* engine._tag === "Ripgrep" ? Ripgrep.search(query, engine.executable) : GrepBuiltin.search(query)
    const mtimes = new Map<string, number>()
    if (query.mode === "files_with_matches") {
      let index = 0
      yield* loop(() => {
        const file = collector.files[index++]
        if (file === undefined) return false
        mtimes.set(file.path, files.mtime(file.path))
        return true
      })
    }
    return answer(query, collector, (path) => mtimes.get(path) ?? 0)
  })

export const GrepTool = Tool.fromEffect({
  name: "Grep",
  description: DESCRIPTION,
  input: GrepInput,
  readOnly: true,
  // The permission target and the searched path come from the same function (search/SearchPath.ts).
  target: (input, context) => ({ _tag: "Path", path: searchPathOf(context, input.path), access: "read" }),
  run: (input, context) =>
    Effect.gen(function* () {
      const where = yield* statSearchPath("Grep", context, searchPathOf(context, input.path))
      const mode = input.output_mode ?? "files_with_matches"
      const query: GrepQuery = {
        pattern: input.pattern,
        root: where.path,
        rootIsFile: !where.isDirectory,
        globs: splitGlobs(input.glob),
        type: input.type === undefined || input.type.trim() === "" ? undefined : input.type.trim(),
        mode,
        ignoreCase: input["-i"] ?? false,
        lineNumbers: input["-n"] ?? true,
        before: mode === "content" ? (input["-B"] ?? input["-C"] ?? 0) : 0,
        after: mode === "content" ? (input["-A"] ?? input["-C"] ?? 0) : 0,
        multiline: input.multiline ?? false,
        // 0 means no limit, as in Claude Code.
        headLimit: input.head_limit === 0 ? undefined : input.head_limit
      }
      const engine = yield* selectEngine
      const found = yield* grepAnswer(query, engine).pipe(Effect.mapError((error) => Tool.fail("Grep", error.message)))
      const note = yield* shellNote(context, !nodePath.isAbsolute(input.path ?? ""))
      return Tool.withResponse(Tool.result(found.text + note, { engine: engine._tag === "Ripgrep" ? "rg" : "builtin" }), found.response)
    })
})
