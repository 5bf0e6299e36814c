/**
 * Which projects the user trusts: a list of directories in `$WEFT_HOME/trusted-projects.json`, written by
 * `weft trust [dir]`. A project is trusted when its real path is a listed directory or lies under one, by whole
 * path components (trusting `/work/app` does not trust `/work/app-fork`).
 *
 * Built-ins only (node:fs, node:path): the settings loader asks this on every run.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { mkdir, realpathSync, rename, writeFile } from "node:fs"
import { readSmallText } from "../platform/FileProbe.js"
import { dirname, join, resolve, sep } from "node:path"

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
    const file = trustFile(weftHome)
    const text = JSON.stringify({ projects: [...current, real] }, null, 2) + "\n"
    const temporary = `${file}.${process.pid}.tmp`
    yield* Effect.callback<void, TrustWriteError>((resume) => {
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
    return real
  })
