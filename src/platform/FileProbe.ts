/**
 * Whether a path exists, and as what, answering "absent" without an error. @effect/platform's FileSystem answers
 * an absent path with a SystemError, a Schema.TaggedError whose fields are validated when it is made: about
 * 0.3 ms each, and start-up asks after dozens of paths that are usually absent (memory files in every ancestor
 * directory, `.git`, earlier sessions' files). Measured: 22 absent paths took 4-14 ms through FileSystem.stat and
 * 1-2 ms here.
 */
import * as Effect from "effect/Effect"
import { readdir, stat } from "node:fs"

export type Kind = "File" | "Directory" | "Other"

/** What `path` is (following symlinks), or undefined when it does not exist or cannot be reached. */
export const probe = (path: string): Effect.Effect<Kind | undefined> =>
  Effect.async<Kind | undefined>((resume) => {
    stat(path, (error, info) =>
      resume(Effect.succeed(error !== null ? undefined : info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other"))
    )
  })

/**
 * The names in directory `path`. FileSystem.readDirectory reads through `fs.promises`, whose first use loads
 * Node's promise file API and, with it, readline: about 7 M instructions (callgrind) of a `weft -p` whose only
 * listing is the session store's project folders.
 */
export const listNames = (path: string): Effect.Effect<ReadonlyArray<string>, NodeJS.ErrnoException> =>
  Effect.async<ReadonlyArray<string>, NodeJS.ErrnoException>((resume) => {
    readdir(path, (error, names) => resume(error !== null ? Effect.fail(error) : Effect.succeed(names)))
  })
