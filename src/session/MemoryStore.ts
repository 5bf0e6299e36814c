/**
 * A session store in memory, for tests (`SessionStore.layerMemory`): the JSONL store's semantics without files
 * (nothing is ever torn or skipped).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { TranscriptEntry } from "../domain/Transcript.js"
import { emptyReport } from "./JsonlReader.js"
import { notFound, type SessionError, SessionStoreError, warningsOf } from "./SessionErrors.js"
import { forkIdFor, validSessionId } from "./SessionIds.js"
import { fromEntries } from "./SessionState.js"
import type { Interface, LoadResult, Resumed, SessionInfo } from "./SessionStore.js"
import { summarize } from "./SessionSummary.js"

/** A store in memory (see `SessionStore.layerMemory`). */
export const makeMemory = (): Interface => {
  interface Stored {
    readonly entries: Array<TranscriptEntry>
    lastModified: number
    sequence: number
  }
  const sessions = new Map<string, Stored>()
  let sequence = 0

  const find = (sessionId: string) => {
    const stored = sessions.get(sessionId)
    return stored === undefined ? Effect.fail(notFound(sessionId)) : Effect.succeed(stored)
  }

  const infos = (cwd: string | undefined): Array<SessionInfo> => {
    const out: Array<{ info: SessionInfo; sequence: number }> = []
    for (const [sessionId, stored] of sessions) {
      const info = summarize(sessionId, stored.entries, new Date(stored.lastModified))
      if (info !== undefined && (cwd === undefined || info.cwd === cwd)) out.push({ info, sequence: stored.sequence })
    }
    // Same clock tick (TestClock): the later write is the newer.
    return out
      .sort((a, b) => b.info.lastModified.getTime() - a.info.lastModified.getTime() || b.sequence - a.sequence)
      .map(({ info }) => info)
  }

  const append = Effect.fn("SessionStore.append")(function* (entry: TranscriptEntry) {
    if (!validSessionId(entry.sessionId)) {
      return yield* new SessionStoreError({ message: `Invalid session id: ${JSON.stringify(entry.sessionId)}` })
    }
    const now = yield* Clock.currentTimeMillis
    // A copy, as the file store keeps: later mutation of the caller's object cannot reach the store.
    const copy = structuredClone(entry)
    const stored = sessions.get(entry.sessionId)
    if (stored === undefined) {
      sessions.set(entry.sessionId, { entries: [copy], lastModified: now, sequence: ++sequence })
    } else {
      stored.entries.push(copy)
      stored.lastModified = now
      stored.sequence = ++sequence
    }
  })

  const loadDetailed = Effect.fn("SessionStore.loadDetailed")(function* (sessionId: string) {
    const stored = yield* find(sessionId)
    const result: LoadResult = { entries: [...stored.entries], skippedLines: 0, tornTail: false }
    return result
  })

  const load = Effect.fn("SessionStore.load")(function* (sessionId: string) {
    return (yield* loadDetailed(sessionId)).entries
  })

  // The entries as they are when the stream starts (later appends are not seen, as with a file read to its end).
  const read = (sessionId: string): Stream.Stream<TranscriptEntry, SessionError> =>
    Stream.unwrap(Effect.map(find(sessionId), (stored) => Stream.fromIterable([...stored.entries])))

  const resume = Effect.fn("SessionStore.resume")(function* (sessionId: string) {
    const stored = yield* find(sessionId)
    const state = fromEntries(stored.entries)
    const resumed: Resumed = { ...state, warnings: warningsOf(sessionId, `session ${sessionId}`, emptyReport(), state) }
    return resumed
  })

  const list = Effect.fn("SessionStore.list")(function* (cwd?: string) {
    return infos(cwd)
  })

  const latest = Effect.fn("SessionStore.latest")(function* (cwd: string) {
    return Option.map(Option.fromNullishOr(infos(cwd)[0]), (info) => info.sessionId)
  })

  const fork = Effect.fn("SessionStore.fork")(function* (sessionId: string, newId?: string) {
    const stored = yield* find(sessionId)
    const forkId = yield* forkIdFor(newId, (id) => Effect.succeed(sessions.has(id)))
    const now = yield* Clock.currentTimeMillis
    sessions.set(forkId, {
      entries: stored.entries.map((entry) => ({ ...entry, sessionId: forkId })),
      lastModified: now,
      sequence: ++sequence
    })
    return forkId
  })

  const store: Interface = { append, read, resume, load, loadDetailed, list, latest, fork }
  return store
}
