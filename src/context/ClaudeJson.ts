/**
 * Claude Code's own file of per-user state, `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set, as
 * Claude Code finds it): weft reads its MCP servers (McpConfig.ts) and its record of the projects the user trusted
 * and whose `.mcp.json` servers the user approved (Trust.ts). weft never writes it: Claude Code rewrites it all the
 * time.
 *
 * The file can be large (Claude Code keeps history there) and several parts of a start read it, so a read is kept
 * for as long as the file's size and modification time stay the same. Built-ins only: the settings loader asks on
 * every run.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import * as Variables from "../platform/Variables.js"
import { isRecord } from "../domain/Json.js"

/** Where Claude Code keeps the file: `$CLAUDE_CONFIG_DIR/.claude.json`, else `<home>/.claude.json`. */
export const pathOf = (home: string): Effect.Effect<string> =>
  Effect.map(Variables.nonEmpty("CLAUDE_CONFIG_DIR"), (dir) => join(Option.getOrElse(dir, () => home), ".claude.json"))

/** The file as read: absent, an object, or why it could not be used (not JSON, not an object, unreadable). */
export type Read =
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Object"; readonly value: Record<string, unknown> }
  | { readonly _tag: "Unusable"; readonly message: string }

const cache = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly read: Read }>()

const errorCode = (error: unknown): unknown => (isRecord(error) ? error["code"] : undefined)
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Reads and parses `path`, once for as long as the file stays the same. */
export const read = (path: string): Effect.Effect<Read> =>
  Effect.sync((): Read => {
    let size: number
    let mtimeMs: number
    try {
      const stat = statSync(path)
      size = stat.size
      mtimeMs = stat.mtimeMs
    } catch (error) {
      const code = errorCode(error)
      if (code === "ENOENT" || code === "ENOTDIR") return { _tag: "Absent" }
      return { _tag: "Unusable", message: `could not read ${path}: ${messageOf(error)}` }
    }
    const cached = cache.get(path)
    if (cached !== undefined && cached.size === size && cached.mtimeMs === mtimeMs) return cached.read
    let result: Read
    try {
      const value: unknown = JSON.parse(readFileSync(path, "utf8"))
      result = isRecord(value) ? { _tag: "Object", value } : { _tag: "Unusable", message: `${path}: expected a JSON object` }
    } catch (error) {
      const code = errorCode(error)
      if (code === "ENOENT" || code === "ENOTDIR") return { _tag: "Absent" }
      result = {
        _tag: "Unusable",
        message: error instanceof SyntaxError ? `${path} is not valid JSON: ${error.message}` : `could not read ${path}: ${messageOf(error)}`
      }
    }
    cache.set(path, { size, mtimeMs, read: result })
    return result
  })

/** `projects[dir]` of the file, when it is an object. */
export const projectEntry = (file: Record<string, unknown>, dir: string): Record<string, unknown> | undefined => {
  const projects = file["projects"]
  if (!isRecord(projects) || !Object.hasOwn(projects, dir)) return undefined
  const entry = projects[dir]
  return isRecord(entry) ? entry : undefined
}
