/**
 * Whether a path exists, and as what, answering "absent" without an error. @effect/platform's FileSystem answers
 * an absent path with a SystemError, a Schema.TaggedError whose fields are validated when it is made: about
 * 0.3 ms each, and start-up asks after dozens of paths that are usually absent (memory files in every ancestor
 * directory, `.git`, earlier sessions' files). Measured: 22 absent paths took 4-14 ms through FileSystem.stat and
 * 1-2 ms here.
 *
 * `probe` and `readSmallText` are synchronous: each is one or a few system calls on a local path (a stat; a settings
 * file of a few KB), far cheaper than a round trip through libuv's thread pool and a suspended fiber, and start-up
 * makes a dozen or more of them in sequence (memory files, `.git`, settings of every scope, trust, MCP files)
 * while nothing else runs.
 */
import * as Effect from "effect/Effect"
import { readdir, readFileSync, statSync } from "node:fs"

export type Kind = "File" | "Directory" | "Other"

/** What `path` is (following symlinks), or undefined when it does not exist or cannot be reached. */
export const probe = (path: string): Effect.Effect<Kind | undefined> =>
  Effect.sync(() => {
    try {
      // throwIfNoEntry: an absent path (the usual answer) makes no error object.
      const info = statSync(path, { throwIfNoEntry: false })
      return info === undefined ? undefined : info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other"
    } catch {
      return undefined
    }
  })

/**
 * The text (UTF-8) of a small file read whole, such as a settings or configuration file, or the error that kept it
 * from being read (ENOENT when absent).
 */
export const readSmallText = (
  path: string
): Effect.Effect<{ readonly text: string } | { readonly error: NodeJS.ErrnoException }> =>
  Effect.sync(() => {
    try {
      return { text: readFileSync(path, "utf8") }
    } catch (error) {
      // Node's file errors are Errors with `code` (ErrnoException's fields are all optional).
      return { error: error instanceof Error ? error : new Error(String(error)) }
    }
  })

/**
 * The names in directory `path`. FileSystem.readDirectory reads through `fs.promises`, whose first use loads
 * Node's promise file API and, with it, readline: about 7 M instructions (callgrind) of a `weft -p` whose only
 * listing is the session store's project folders.
 */
export const listNames = (path: string): Effect.Effect<ReadonlyArray<string>, NodeJS.ErrnoException> =>
  Effect.callback<ReadonlyArray<string>, NodeJS.ErrnoException>((resume) => {
    readdir(path, (error, names) => resume(error !== null ? Effect.fail(error) : Effect.succeed(names)))
  })
