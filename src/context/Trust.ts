/**
 * Which projects the user trusts:
 *
 *   - weft's record: a list of directories in `$WEFT_HOME/trusted-projects.json`, written by `weft trust [dir]` and
 *     `weft trust --revoke [dir]`. A project is trusted when its real path is a listed directory or lies under one,
 *     by whole path components (trusting `/work/app` does not trust `/work/app-fork`).
 *   - Claude Code's record: a project whose entry in `~/.claude.json` (`projects[<dir>]`, the directory or one of
 *     its parents, by real path, as Claude Code looks it up) has `hasTrustDialogAccepted: true`; the user accepted
 *     Claude Code's trust dialog there. The same entry holds the `.mcp.json` servers the user approved or refused
 *     in Claude Code (`enabledMcpjsonServers`, `disabledMcpjsonServers`, `enableAllProjectMcpServers`), which
 *     apply too. A file or an entry that is not what Claude Code writes grants nothing.
 *
 * Built-ins only (node:fs, node:path): the settings loader asks this on every run.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { mkdir, realpathSync, rename, writeFile } from "node:fs"
import { readSmallText } from "../platform/FileProbe.js"
import { dirname, join, resolve, sep } from "node:path"
import { isRecord } from "../domain/Json.js"
import * as ClaudeJson from "./ClaudeJson.js"

export const trustFileName = "trusted-projects.json"

export const trustFile = (weftHome: string): string => join(weftHome, trustFileName)

/** The real path of `path`, or `path` resolved when it cannot be reached. */
export const realPathOf = (path: string): Effect.Effect<string> =>
  // Synchronous: one system call, asked on every start (see FileProbe).
  Effect.sync(() => {
    try {
      return realpathSync.native(path)
    } catch {
      return resolve(path)
    }
  })

const readText = (path: string): Effect.Effect<string | undefined> =>
  Effect.map(readSmallText(path), (read) => ("text" in read ? read.text : undefined))

/** The trusted directories recorded under `weftHome` (none when the file is absent or unreadable). */
export const trustedDirectories = (weftHome: string): Effect.Effect<ReadonlyArray<string>> =>
  Effect.map(readText(trustFile(weftHome)), (text) => {
    if (text === undefined) return []
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== "object" || parsed === null || !("projects" in parsed)) return []
      const projects = parsed.projects
      return Array.isArray(projects) ? projects.filter((entry): entry is string => typeof entry === "string") : []
    } catch {
      return []
    }
  })

/** `child` is `parent` or lies under it, by whole components. */
export const isWithin = (child: string, parent: string): boolean => {
  if (child === parent) return true
  const base = parent.endsWith(sep) ? parent : parent + sep
  return child.startsWith(base)
}

/** Whether `projectDir` (resolved through symlinks) is trusted. */
export const isTrusted = (weftHome: string, projectDir: string): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const real = yield* realPathOf(projectDir)
    const trusted = yield* trustedDirectories(weftHome)
    return trusted.some((dir) => isWithin(real, dir))
  })

/** Failed to record trust (the home is not writable, ...). */
export class TrustWriteError extends Data.TaggedError("TrustWriteError")<{ readonly message: string }> {}

/**
 * Records `projectDir` (its real path) as trusted under `weftHome`; the file is replaced atomically (written
 * beside, then renamed), so a crash leaves the old list or the new one.
 */
export const trust = (weftHome: string, projectDir: string): Effect.Effect<string, TrustWriteError> =>
  Effect.gen(function* () {
    const real = yield* realPathOf(projectDir)
    const current = yield* trustedDirectories(weftHome)
    if (current.includes(real)) return real
    yield* writeList(weftHome, [...current, real])
    return real
  })

/**
 * Takes `projectDir` (its real path, or the path as given when it no longer exists) off weft's list. Answers the
 * entry removed, or undefined when the list did not hold it.
 */
export const revoke = (weftHome: string, projectDir: string): Effect.Effect<string | undefined, TrustWriteError> =>
  Effect.gen(function* () {
    const real = yield* realPathOf(projectDir)
    const current = yield* trustedDirectories(weftHome)
    const given = resolve(projectDir)
    const removed = current.find((dir) => dir === real) ?? current.find((dir) => dir === given)
    if (removed === undefined) return undefined
    yield* writeList(weftHome, current.filter((dir) => dir !== removed))
    return removed
  })

/** Replaces weft's list atomically (written beside, then renamed). */
const writeList = (weftHome: string, projects: ReadonlyArray<string>): Effect.Effect<void, TrustWriteError> =>
  Effect.suspend(() => {
    const file = trustFile(weftHome)
    const text = JSON.stringify({ projects }, null, 2) + "\n"
    const temporary = `${file}.${process.pid}.tmp`
    return Effect.callback<void, TrustWriteError>((resume) => {
      mkdir(dirname(file), { recursive: true }, (mkdirError) => {
        if (mkdirError !== null) return resume(Effect.fail(new TrustWriteError({ message: `cannot create ${dirname(file)}: ${mkdirError.message}` })))
        writeFile(temporary, text, { mode: 0o600 }, (writeError) => {
          if (writeError !== null) return resume(Effect.fail(new TrustWriteError({ message: `cannot write ${file}: ${writeError.message}` })))
          rename(temporary, file, (renameError) =>
            resume(renameError !== null ? Effect.fail(new TrustWriteError({ message: `cannot write ${file}: ${renameError.message}` })) : Effect.void)
          )
        })
      })
    })
  })

/** The approvals of a project's `.mcp.json` servers the user made in Claude Code (the keys of its settings). */
export type ClaudeCodeApprovals = {
  readonly enableAllProjectMcpServers?: boolean
  readonly enabledMcpjsonServers?: ReadonlyArray<string>
  readonly disabledMcpjsonServers?: ReadonlyArray<string>
}

/** What `~/.claude.json` records of a project. */
export interface ClaudeCodeRecord {
  /** The file read (for messages). */
  readonly path: string
  /** Whether the user accepted Claude Code's trust dialog in the project or a parent of it. */
  readonly trusted: boolean
  /** The project's own entry's approvals (empty when it has none, or they are not what Claude Code writes). */
  readonly approvals: ClaudeCodeApprovals
}

const strings = (value: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(value) && value.every((item): item is string => typeof item === "string") ? value : undefined

/**
 * An entry's approvals, taken only when each key present has the type Claude Code writes: a refusal list that
 * cannot be read could hide a refusal, so then none of the entry's approvals count.
 */
const approvalsOf = (entry: Record<string, unknown> | undefined): ClaudeCodeApprovals => {
  if (entry === undefined) return {}
  const all = entry["enableAllProjectMcpServers"]
  const enabled = entry["enabledMcpjsonServers"]
  const disabled = entry["disabledMcpjsonServers"]
  const enabledList = strings(enabled ?? [])
  const disabledList = strings(disabled ?? [])
  if ((all !== undefined && typeof all !== "boolean") || enabledList === undefined || disabledList === undefined) return {}
  return {
    ...(typeof all === "boolean" ? { enableAllProjectMcpServers: all } : {}),
    ...(enabledList.length > 0 ? { enabledMcpjsonServers: enabledList } : {}),
    ...(disabledList.length > 0 ? { disabledMcpjsonServers: disabledList } : {})
  }
}

/** The directory and each of its parents, the directory first. */
const selfAndParents = (dir: string): ReadonlyArray<string> => {
  const out: Array<string> = [dir]
  for (let current = dir, parent = dirname(dir); parent !== current; current = parent, parent = dirname(parent)) out.push(parent)
  return out
}

/**
 * What Claude Code's `~/.claude.json` (under `home`, or `$CLAUDE_CONFIG_DIR`) records of `projectDir`, looked up by
 * its real path. A missing or malformed file records nothing.
 */
export const claudeCodeRecord = (home: string, projectDir: string): Effect.Effect<ClaudeCodeRecord> =>
  Effect.gen(function* () {
    const path = yield* ClaudeJson.pathOf(home)
    const read = yield* ClaudeJson.read(path)
    if (read._tag !== "Object") return { path, trusted: false, approvals: {} }
    const real = yield* realPathOf(projectDir)
    const trusted = selfAndParents(real).some((dir) => ClaudeJson.projectEntry(read.value, dir)?.["hasTrustDialogAccepted"] === true)
    return { path, trusted, approvals: trusted ? approvalsOf(ClaudeJson.projectEntry(read.value, real)) : {} }
  })

/** The directories Claude Code's record trusts (for `weft trust --list`). */
export const claudeCodeTrusted = (home: string): Effect.Effect<{ readonly path: string; readonly directories: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const path = yield* ClaudeJson.pathOf(home)
    const read = yield* ClaudeJson.read(path)
    if (read._tag !== "Object" || !isRecord(read.value["projects"])) return { path, directories: [] }
    const projects = read.value["projects"]
    return {
      path,
      directories: Object.keys(projects).filter((dir) => {
        const entry = projects[dir]
        return isRecord(entry) && entry["hasTrustDialogAccepted"] === true
      })
    }
  })
