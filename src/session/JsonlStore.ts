/**
 * The JSONL session store: one file per session under `$WEFT_HOME/projects/<cwd-slug>/<session-id>.jsonl`, one
 * line per entry (Claude Code's layout). Its parts: where the files are (SessionFiles), the writer (JsonlWriter),
 * the reader (SessionReader) and the listings (SessionListing); `fork` copies a file under a new id.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import * as Result from "effect/Result"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { Credentials } from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import { makeJsonlWriter } from "./JsonlWriter.js"
import { ioError } from "./SessionErrors.js"
import { makeSessionFiles } from "./SessionFiles.js"
import { forkIdFor } from "./SessionIds.js"
import { makeSessionListing } from "./SessionListing.js"
import { makeSessionReader } from "./SessionReader.js"
import type { Interface, JsonlOptions } from "./SessionStore.js"

export const makeJsonl = (options: JsonlOptions) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const home = path.resolve(
      options.home ?? (yield* Variables.weftHomeOf(yield* Variables.home))
    )
    const files = makeSessionFiles(path, path.join(home, "projects"))
    // weft's credentials never reach the file, whatever a tool or the model printed.
    const { redactJson } = yield* Credentials
    const { append } = yield* makeJsonlWriter(files, path, {
      fsync: options.fsync ?? false,
      maxOpenFiles: Math.max(1, options.maxOpenFiles ?? 16),
      redactJson
    })
    const reader = makeSessionReader(fs, files)
    const { read, resume, load, loadDetailed, itemsOf } = reader
    const { list, latest } = makeSessionListing(fs, path, files, reader)
    const encoder = new TextEncoder()

    const fork = Effect.fn("SessionStore.fork")(function* (sessionId: string, newId?: string) {
      const source = yield* files.fileOf(sessionId)
      const forkId = yield* forkIdFor(newId, (id) => Effect.map(files.locate(id), Option.isSome))
      const target = files.fileIn(path.dirname(source), forkId)
      // Written aside and renamed, so a crash never leaves a half-copied fork behind; copied entry by entry.
      const temporary = `${target}.tmp`
      yield* itemsOf(source).pipe(
        Stream.filterMap((item) => (item._tag === "Entry" ? Result.succeed(item.entry) : Result.failVoid)),
        Stream.map((entry) => encoder.encode(redactJson(JSON.stringify({ ...entry, sessionId: forkId })) + "\n")),
        Stream.run(Sink.mapError(fs.sink(temporary, { flag: "w", mode: 0o600 }), ioError("write", temporary))),
        Effect.tapError(() => Effect.ignore(fs.remove(temporary)))
      )
      yield* fs.rename(temporary, target).pipe(Effect.mapError(ioError("write", target)))
      files.remember(forkId, target)
      return forkId
    })

    const store: Interface = { append, read, resume, load, loadDetailed, list, latest, fork }
    return store
  })
