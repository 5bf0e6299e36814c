/**
 * Append-only session transcripts: the SessionStore service. The default layer keeps Claude Code's layout: one
 * JSONL file per session under `$WEFT_HOME/projects/<cwd-slug>/<session-id>.jsonl` (default `~/.weft`), one line
 * per entry (JsonlStore.ts, whose parts say how entries are written, durably, and read back); `layerMemory` keeps
 * them in memory, for tests (MemoryStore.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type { ParsedTranscript, TranscriptEntry } from "../domain/Transcript.js"
import { Credentials } from "../platform/Credentials.js"
import { makeJsonl } from "./JsonlStore.js"
import { makeMemory } from "./MemoryStore.js"
import type { SessionError, SessionStoreError } from "./SessionErrors.js"
import type { SessionState } from "./SessionState.js"

export { SessionNotFound, SessionStoreError, type SessionError } from "./SessionErrors.js"
export { cwdSlug, newSessionId } from "./SessionIds.js"
export { firstPromptLength } from "./SessionSummary.js"

// ---------------------------------------------------------------------------------------------------------
// Contract

export interface SessionInfo {
  readonly sessionId: string
  /** The working directory the session started in (its first entry's `cwd`). */
  readonly cwd: string
  /** The first typed prompt, on one line and cut to `firstPromptLength` characters; "" when there is none. */
  readonly firstPrompt: string
  readonly lastModified: Date
  /**
   * Entries in the session. The JSONL layer counts lines without parsing the bulky ones (tool results), so a
   * damaged tool result line in the middle of a file is counted too.
   */
  readonly entryCount: number
  /** Model responses recorded (each API response once). */
  readonly turns: number
  /** The recorded cost of those responses, in US dollars. */
  readonly costUSD: number
}

/**
 * A session read back to go on with it: the conversation from its last compact boundary, where to continue the
 * chain, its totals, and what reading it had to leave out (a torn last line, skipped lines, a broken chain), one
 * sentence each, naming the file.
 */
export interface Resumed extends SessionState {
  readonly warnings: ReadonlyArray<string>
}

/** A loaded transcript, with what had to be left out. */
export type LoadResult = ParsedTranscript

export interface Interface {
  /** Appends one entry to the session named by `entry.sessionId`, creating it (under `entry.cwd`) if new. */
  readonly append: (entry: TranscriptEntry) => Effect.Effect<void, SessionStoreError>
  /** The session's entries in the order they were appended, streamed; unreadable lines are skipped (and logged). */
  readonly read: (sessionId: string) => Stream.Stream<TranscriptEntry, SessionError>
  /** What resuming the session needs (see `Resumed`), folded from `read`. */
  readonly resume: (sessionId: string) => Effect.Effect<Resumed, SessionError>
  /** The session's entries in the order they were appended. */
  readonly load: (sessionId: string) => Effect.Effect<ReadonlyArray<TranscriptEntry>, SessionError>
  /** `load`, also telling how many lines were skipped. */
  readonly loadDetailed: (sessionId: string) => Effect.Effect<LoadResult, SessionError>
  /** Sessions (all, or those started in `cwd`) newest first; sessions without entries are left out. */
  readonly list: (cwd?: string) => Effect.Effect<ReadonlyArray<SessionInfo>, SessionStoreError>
  /** The most recently modified session started in `cwd` (what `--continue` resumes). */
  readonly latest: (cwd: string) => Effect.Effect<Option.Option<string>, SessionStoreError>
  /**
   * Copies a session under a new id (each entry's `sessionId` rewritten) and returns that id: `newId` if given
   * (it must be a valid id no session has yet), else a fresh uuid.
   */
  readonly fork: (sessionId: string, newId?: string) => Effect.Effect<string, SessionError>
}

export interface JsonlOptions {
  /** The store's root; default `$WEFT_HOME`, else `~/.weft`. */
  readonly home?: string
  /** fsync after every entry (survives power loss; costs milliseconds per entry). Default false. */
  readonly fsync?: boolean
  /** How many session files stay open at once; the least recently written is closed first. Default 16. */
  readonly maxOpenFiles?: number
}


// ---------------------------------------------------------------------------------------------------------

export class SessionStore extends Context.Service<SessionStore, Interface>()("weft/SessionStore") {
  /** JSONL files under `$WEFT_HOME/projects/<cwd-slug>/`; open files are closed when the scope ends. */
  static make = (
    options: JsonlOptions = {}
  ): Effect.Effect<Interface, never, FileSystem.FileSystem | Path.Path | Credentials | Scope.Scope> => makeJsonl(options)

  /** `make` as a layer: open files are closed when the layer's scope ends. */
  static layer = (
    options: JsonlOptions = {}
  ): Layer.Layer<SessionStore, never, FileSystem.FileSystem | Path.Path | Credentials> =>
    Layer.effect(SessionStore, makeJsonl(options))

  /** `layer` on Node's file system, redacting this process's credentials: needs nothing. */
  static layerNode = (options: JsonlOptions = {}): Layer.Layer<SessionStore> =>
    SessionStore.layer(options).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer, Credentials.layer]))

  /**
   * In memory, for tests: the same semantics without files (nothing is ever torn or skipped). Each call makes a
   * new, empty store; the layer it returns shares that one store wherever it is provided (a run, then a resume).
   */
  static layerMemory = (): Layer.Layer<SessionStore> => Layer.succeed(SessionStore, makeMemory())
}

// The entry points at the module's top level: `import { SessionStore } from "weft"` reads `SessionStore.layer...(...)`, and
// `SessionStore.SessionStore` is the Tag (`yield* SessionStore.SessionStore`).
export const make = SessionStore.make
export const layer = SessionStore.layer
export const layerNode = SessionStore.layerNode
export const layerMemory = SessionStore.layerMemory
