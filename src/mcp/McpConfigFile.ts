/**
 * The configuration files `weft mcp add | remove` write, and every file `weft mcp list | get` shows:
 *
 *   - local:   `projects["<project dir>"].mcpServers` of weft's own `$WEFT_HOME/mcp.json` (private to you, in this
 *              project)
 *   - project: `mcpServers` of `.mcp.json` at the project root (shared through the repository)
 *   - user:    `mcpServers` of `$WEFT_HOME/mcp.json` (yours, in every project)
 *
 * Claude Code keeps its local and user servers in `~/.claude.json`; weft reads them from there too (McpConfig.ts),
 * and shows them, but never rewrites that file: Claude Code rewrites it all the time (a concurrent write of weft's
 * would lose one of the two), and it holds far more than servers.
 *
 * A write reads the file, changes one server, and writes the whole through a temporary file renamed over it (a crash
 * never leaves half a file), keeping every other key as it was; a file that is not a JSON object is refused rather
 * than replaced. weft's own file is created readable by its owner only: servers' `env` and `headers` hold tokens.
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { chmodSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import * as ClaudeJson from "../context/ClaudeJson.js"
import { readJsonFile, weftFile } from "./McpConfig.js"
import { isRecord } from "../domain/Json.js"

export type FileScope = "local" | "project" | "user"

export const fileScopes: ReadonlyArray<FileScope> = ["local", "project", "user"]

export const isFileScope = (value: string): value is FileScope => fileScopes.some((scope) => scope === value)

/** What each scope means, for `get` and the help. */
export const scopeDescription: Readonly<Record<FileScope, string>> = {
  local: "private to you in this project",
  project: "shared with everyone through .mcp.json",
  user: "yours, in every project"
}

/** A server as a file defines it, before expansion: what `list` and `get` show. */
export interface Entry {
  readonly name: string
  readonly scope: FileScope
  /** The file. */
  readonly path: string
  /** Whether weft writes this file (`~/.claude.json` is Claude Code's). */
  readonly writable: boolean
  readonly raw: unknown
}

export class McpConfigFileError extends Data.TaggedError("McpConfigFileError")<{ readonly message: string }> {}

export interface Locations {
  /** The project directory. */
  readonly cwd: string
  /** Home, for `~/.claude.json`. */
  readonly home: string
  /** weft's home, for `mcp.json`. */
  readonly weftHome: string
}

/** The file a scope's servers are written to. */
export const fileOf = (scope: FileScope, locations: Locations): string =>
  scope === "project" ? join(resolve(locations.cwd), ".mcp.json") : weftFile(locations.weftHome)

/** A JSON file as an object; undefined when it does not exist (McpConfig's reader, its error as this module's). */
const readObject = (path: string): Effect.Effect<Record<string, unknown> | undefined, McpConfigFileError> =>
  Effect.mapError(readJsonFile(path), (error) => new McpConfigFileError({ message: error.message }))

/** The `mcpServers` object at `keys` of `file` (created on the way when `create`). */
const serversAt = (file: Record<string, unknown>, keys: ReadonlyArray<string>, create: boolean): Record<string, unknown> | undefined => {
  let node = file
  for (const key of [...keys, "mcpServers"]) {
    const next = node[key]
    if (isRecord(next)) node = next
    else if (create && next === undefined) {
      const made: Record<string, unknown> = {}
      node[key] = made
      node = made
    } else return undefined
  }
  return node
}

const keysOf = (scope: FileScope, cwd: string): ReadonlyArray<string> => (scope === "local" ? ["projects", resolve(cwd)] : [])

/**
 * Every server of every scope's files, in precedence order (local, project, user; for local and user, Claude Code's
 * `~/.claude.json` before weft's file, as McpConfig reads them), with the files that could not be read.
 * `.mcp.json` is only read here, never run: listing an untrusted project's servers is safe.
 */
export const entries = (
  locations: Locations
): Effect.Effect<{ readonly entries: ReadonlyArray<Entry>; readonly warnings: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const found: Array<Entry> = []
    const warnings: Array<string> = []
    const claudeJson = yield* ClaudeJson.pathOf(locations.home)
    const sources: ReadonlyArray<readonly [FileScope, string, boolean]> = [
      ["local", claudeJson, false],
      ["local", weftFile(locations.weftHome), true],
      ["project", fileOf("project", locations), true],
      ["user", claudeJson, false],
      ["user", weftFile(locations.weftHome), true]
    ]
    const files = new Map<string, Record<string, unknown> | undefined>()
    for (const [scope, path, writable] of sources) {
      if (!files.has(path)) {
        const read = yield* Effect.result(readObject(path))
        if (read._tag === "Failure") warnings.push(`${read.failure.message} (its MCP servers are left out)`)
        files.set(path, read._tag === "Success" ? read.success : undefined)
      }
      const file = files.get(path)
      if (file === undefined) continue
      const servers = serversAt(file, keysOf(scope, locations.cwd), false)
      if (servers === undefined) continue
      for (const [name, raw] of Object.entries(servers)) found.push({ name, scope, path, writable, raw })
    }
    return { entries: found, warnings }
  })

/** Writes `file` to `path` through a temporary file renamed over it; a new file gets `mode`, an old one keeps its. */
const writeAtomically = (path: string, file: Record<string, unknown>, mode: number) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.try({
    try: () => {
      // A symbolic link (a dotfiles repository's) stays one: the file it points to is what is replaced.
      let target = path
      try {
        target = realpathSync(path)
      } catch {
        // does not exist yet
      }
      let existingMode: number | undefined
      try {
        existingMode = statSync(target).mode & 0o777
      } catch {
        existingMode = undefined
      }
      mkdirSync(dirname(target), { recursive: true })
      const temporary = `${target}.${process.pid}.${now.toString(36)}.tmp`
      try {
        writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: existingMode ?? mode, flag: "wx" })
        if (existingMode !== undefined) chmodSync(temporary, existingMode)
        renameSync(temporary, target)
      } catch (error) {
        rmSync(temporary, { force: true })
        throw error
      }
      return target
    },
    catch: (error) =>
      new McpConfigFileError({ message: `could not write ${path}: ${error instanceof Error ? error.message : String(error)}` })
  }))

const modeOf = (scope: FileScope) => (scope === "project" ? 0o644 : 0o600)

/** Adds server `name` to `scope`'s file; refuses a name the scope already has. Answers the file written. */
export const add = (scope: FileScope, locations: Locations, name: string, config: Record<string, unknown>) =>
  Effect.gen(function* () {
    const path = fileOf(scope, locations)
    const file = (yield* readObject(path)) ?? {}
    const servers = serversAt(file, keysOf(scope, locations.cwd), true)
    if (servers === undefined) {
      return yield* new McpConfigFileError({ message: `${path}: its "mcpServers" is not an object; fix the file by hand first` })
    }
    if (Object.hasOwn(servers, name)) {
      return yield* new McpConfigFileError({
        message: `an MCP server named "${name}" already exists in the ${scope} configuration (${path}). Remove it first: weft mcp remove ${name} --scope ${scope}`
      })
    }
    servers[name] = config
    return yield* writeAtomically(path, file, modeOf(scope))
  })

/** Removes server `name` from `scope`'s file; false when the scope has no such server. */
export const remove = (scope: FileScope, locations: Locations, name: string) =>
  Effect.gen(function* () {
    const path = fileOf(scope, locations)
    const file = yield* readObject(path)
    if (file === undefined) return false
    const servers = serversAt(file, keysOf(scope, locations.cwd), false)
    if (servers === undefined || !Object.hasOwn(servers, name)) return false
    delete servers[name]
    yield* writeAtomically(path, file, modeOf(scope))
    return true
  })
