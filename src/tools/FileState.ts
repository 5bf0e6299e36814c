/**
 * What the model has seen of each file this session, so Write and Edit can refuse to clobber a file the model
 * never read or that changed (a user's edit, a formatter) since it last looked. Keyed by real path (the tools
 * resolve symbolic links first, see `realPathOf` in Read), so a file read through a link and edited by its real
 * path is one file; one instance per session (the loop provides `FileState.layer` once per session).
 *
 * A file is identified by its mtime and size at read time, as Claude Code does: cheap, and a change that keeps
 * both (same size, same millisecond) is vanishingly rare for edits made by people and tools. When the model saw
 * the whole file, a content hash is kept too, so a file that was only touched (mtime moved, bytes the same: a
 * `touch`, a formatter with nothing to do, a stash and pop) still counts as unchanged; see `contentHash`.
 */
import * as NodeCrypto from "node:crypto"
import type * as FileSystem from "effect/FileSystem"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

/** The identity of a file's content as far as FileState cares. */
export interface FileStamp {
  readonly mtimeMs: number
  readonly size: number
}

/** The hash FileState compares contents by (sha256, hex). */
export const contentHash = (bytes: Uint8Array): string => NodeCrypto.createHash("sha256").update(bytes).digest("hex")

/** An incremental `contentHash`, for files read in chunks. */
export const makeContentHasher = () => {
  const hash = NodeCrypto.createHash("sha256")
  return { update: (bytes: Uint8Array) => void hash.update(bytes), digest: (): string => hash.digest("hex") }
}

export interface ReadRecord extends FileStamp {
  /** `contentHash` of the whole file as seen, when the model saw (or weft wrote) all of it. */
  readonly hash?: string
  /** True when only some lines were returned (offset/limit, or the output was cut). */
  readonly partial: boolean
  /** Wall-clock time of the read (ms since epoch). */
  readonly readAt: number
  /** True when the record comes from a write by weft rather than a Read. */
  readonly fromWrite: boolean
}

export type FileCheck =
  | { readonly _tag: "Ok"; readonly record: ReadRecord }
  | { readonly _tag: "NeverRead" }
  | { readonly _tag: "Changed"; readonly record: ReadRecord; readonly current: FileStamp }

export interface RecordOptions {
  readonly partial?: boolean
  /** `contentHash` of the whole file; give it only when every byte was read. */
  readonly hash?: string
}

export interface Interface {
  /** The model was shown (part of) the file as it was at `stamp`. */
  readonly recordRead: (path: string, stamp: FileStamp, options?: RecordOptions) => Effect.Effect<void>
  /** weft wrote the file: the model knows what it now holds, as if it had read it whole. */
  readonly recordWrite: (path: string, stamp: FileStamp, options?: { readonly hash?: string }) => Effect.Effect<void>
  /** Compares the file's current stamp with what the model last saw. */
  readonly check: (path: string, current: FileStamp) => Effect.Effect<FileCheck>
  readonly get: (path: string) => Effect.Effect<Option.Option<ReadRecord>>
  /** Forgets everything (e.g. after compaction, when the model no longer holds the contents in context). */
  readonly clear: Effect.Effect<void>
}

/**
 * Bound on remembered files. An evicted file (the oldest touched) only has to be read again before an edit, so
 * the bound costs nothing in correctness and keeps a long session's memory flat.
 */
export const maxTrackedFiles = 10_000

/** The stamp of a file from its stat (a missing mtime, on exotic file systems, counts as 0). */
export const stampOf = (info: FileSystem.File.Info): FileStamp => ({
  mtimeMs: Option.match(info.mtime, { onNone: () => 0, onSome: (date) => date.getTime() }),
  size: Number(info.size)
})

export const sameStamp = (a: FileStamp, b: FileStamp): boolean => a.mtimeMs === b.mtimeMs && a.size === b.size

export const make: Effect.Effect<Interface> = Effect.gen(function* () {
  const records = yield* Ref.make<ReadonlyMap<string, ReadRecord>>(new Map())

  const put = (path: string, record: ReadRecord) =>
    Ref.update(records, (current) => {
      const next = new Map(current)
      // Re-inserting moves the path to the end, so the first key is always the least recently touched.
      next.delete(path)
      next.set(path, record)
      while (next.size > maxTrackedFiles) {
        const oldest = next.keys().next()
        if (oldest.done === true) break
        next.delete(oldest.value)
      }
      return next
    })

  const recordRead = Effect.fn("FileState.recordRead")(function* (
    path: string,
    stamp: FileStamp,
    options?: RecordOptions
  ) {
    const readAt = yield* Clock.currentTimeMillis
    const base = { mtimeMs: stamp.mtimeMs, size: stamp.size, partial: options?.partial ?? false, readAt, fromWrite: false }
    yield* put(path, options?.hash === undefined ? base : { ...base, hash: options.hash })
  })

  const recordWrite = Effect.fn("FileState.recordWrite")(function* (
    path: string,
    stamp: FileStamp,
    options?: { readonly hash?: string }
  ) {
    const readAt = yield* Clock.currentTimeMillis
    const base = { mtimeMs: stamp.mtimeMs, size: stamp.size, partial: false, readAt, fromWrite: true }
    yield* put(path, options?.hash === undefined ? base : { ...base, hash: options.hash })
  })

  const get = Effect.fn("FileState.get")(function* (path: string) {
    const current = yield* Ref.get(records)
    return Option.fromNullishOr(current.get(path))
  })

  const check = Effect.fn("FileState.check")(function* (path: string, current: FileStamp) {
    const record = Option.getOrUndefined(yield* get(path))
    if (record === undefined) return { _tag: "NeverRead" } satisfies FileCheck
    if (sameStamp(record, current)) return { _tag: "Ok", record } satisfies FileCheck
    return { _tag: "Changed", record, current } satisfies FileCheck
  })

  return { recordRead, recordWrite, check, get, clear: Ref.set(records, new Map()) }
})

export class FileState extends Context.Service<FileState, Interface>()("weft/FileState") {
  static make = make
  /** A fresh, empty record: provide one per session. */
  static layer: Layer.Layer<FileState> = Layer.effect(FileState, make)
}

export const layer = FileState.layer
