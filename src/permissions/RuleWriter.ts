/**
 * Rules kept in a settings file (an "always allow" answered with a destination, a host's `addRules`): the file the
 * destination names is read, the rules are added to `permissions.<behavior>` (those already there are not repeated),
 * and the whole file is written to a temporary file beside it and renamed over it, so a reader never sees half a
 * file and the other keys stay as they were. A file that is not a JSON object is left alone (an error says why).
 *
 * Synchronous node:fs, as the session's other small writes: a few hundred bytes, once per answer.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { PermissionUpdateDestination } from "../domain/AgentEvent.js"
import { isRecord } from "../domain/Json.js"
import type { Behavior } from "./Rules.js"

export class RuleWriteError extends Data.TaggedError("RuleWriteError")<{ readonly path: string; readonly message: string }> {}

/** The settings file a destination names, and its scope; none for the session's own (`session`, `cliArg`). */
export const fileOf = (
  destination: PermissionUpdateDestination,
  dirs: { readonly projectDir: string; readonly home: string }
): { readonly path: string; readonly scope: "local" | "project" | "user" } | undefined => {
  switch (destination) {
    case "localSettings":
      return { path: join(dirs.projectDir, ".claude", "settings.local.json"), scope: "local" }
    case "projectSettings":
      return { path: join(dirs.projectDir, ".claude", "settings.json"), scope: "project" }
    case "userSettings":
      return { path: join(dirs.home, ".claude", "settings.json"), scope: "user" }
    case "session":
    case "cliArg":
      return undefined
  }
}

/** Tells the temporary files of one process apart. */
let written = 0

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const readObject = (path: string): Record<string, unknown> => {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    if (isRecord(error) && error["code"] === "ENOENT") return {}
    throw error
  }
  if (text.trim() === "") return {}
  const parsed: unknown = JSON.parse(text)
  if (!isRecord(parsed)) throw new Error("it is not a JSON object")
  return parsed
}

/** Adds `rules` to `permissions.<behavior>` of the settings file at `path` (created with its directory if absent). */
export const addRules = (path: string, behavior: Behavior, rules: ReadonlyArray<string>): Effect.Effect<void, RuleWriteError> =>
  Effect.try({
    try: () => {
      const settings = readObject(path)
      const permissions = isRecord(settings["permissions"]) ? { ...settings["permissions"] } : {}
      const existing = permissions[behavior]
      const list = Array.isArray(existing) ? [...existing] : []
      for (const rule of rules) if (!list.includes(rule)) list.push(rule)
      permissions[behavior] = list
      const text = `${JSON.stringify({ ...settings, permissions }, null, 2)}\n`
      mkdirSync(dirname(path), { recursive: true })
      const temporary = `${path}.${process.pid}.${++written}.tmp`
      try {
        writeFileSync(temporary, text, { mode: 0o600 })
        renameSync(temporary, path)
      } catch (error) {
        rmSync(temporary, { force: true })
        throw error
      }
    },
    catch: (error) => new RuleWriteError({ path, message: `could not add the rules to ${path}: ${messageOf(error)}` })
  })
