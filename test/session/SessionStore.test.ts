import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach } from "vitest"
import { isAssistant, isUser, parseTranscript, type TranscriptEntry } from "../../src/domain/Transcript.js"
import { cwdSlug, SessionStore } from "../../src/session/SessionStore.js"
import * as SessionState from "../../src/session/SessionState.js"
import { assistantEntry, conversation, systemEntry, userEntry } from "./entries.js"

const temporaryDirs: Array<string> = []
const tempDir = (): string => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "weft-session-")))
  temporaryDirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

const sessionFile = (home: string, cwd: string, sessionId: string) =>
  path.join(home, "projects", cwdSlug(cwd), `${sessionId}.jsonl`)

const unknownEntry = (sessionId: string, cwd: string): TranscriptEntry => ({
  uuid: "x-1",
  parentUuid: null,
  timestamp: "2025-01-01T00:00:00.000Z",
  sessionId,
  cwd,
  type: "file-history-snapshot",
  snapshot: { files: 3 }
})

// The same contract, run against both layers.
const contract = (name: string, makeLayer: () => Layer.Layer<SessionStore>) =>
  describe(`SessionStore contract (${name})`, () => {
    it.effect("a session's first prompt is what the user typed, not the hooks' context added to its message", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        const reminder = (text: string) => ({ type: "text" as const, text: `<system-reminder>\n${text}\n</system-reminder>` })
        yield* store.append(systemEntry("s1", "/w/a", 0))
        yield* store.append(
          userEntry("s1", "/w/a", 1, [
            reminder("SessionStart:startup hook additional context: branch main, 3 open issues"),
            { type: "text", text: "fix the bug" },
            reminder("UserPromptSubmit hook additional context: the time is 10:00")
          ])
        )
        yield* store.append(assistantEntry("s1", "/w/a", 2, "Sure."))
        expect((yield* store.list("/w/a"))[0]?.firstPrompt).toBe("fix the bug")
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("appends and loads entries in order, whatever their type", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        const entries = [...conversation("s1", "/w/a", "fix the bug"), unknownEntry("s1", "/w/a")]
        for (const entry of entries) yield* store.append(entry)
        const loaded = yield* store.load("s1")
        expect(loaded).toEqual(entries)
        expect(loaded.map((entry) => entry.type)).toEqual(["system", "user", "assistant", "user", "file-history-snapshot"])
        const assistant = loaded.find(isAssistant)
        expect(assistant?.message.usage.output_tokens).toBe(5)
        expect(assistant?.costUSD).toBe(0.001)
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("a missing session is SessionNotFound", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        const missing = yield* Effect.flip(store.load("nope"))
        expect(missing._tag).toBe("SessionNotFound")
        expect(missing.message).toContain("nope")
        expect((yield* Effect.flip(store.fork("nope")))._tag).toBe("SessionNotFound")
        // An id that would leave the project folder is not a session either.
        expect((yield* Effect.flip(store.load("../../etc/passwd")))._tag).toBe("SessionNotFound")
        expect((yield* Effect.flip(store.append(userEntry("../x", "/w/a", 0, "hi"))))._tag).toBe("SessionStoreError")
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("a session stays one session when a later entry has another cwd", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        yield* store.append(userEntry("s1", "/w/a", 0, "start here"))
        yield* store.append(assistantEntry("s1", "/w/a/sub", 1, "moved"))
        expect((yield* store.load("s1")).length).toBe(2)
        expect((yield* store.list("/w/a")).map((info) => info.sessionId)).toEqual(["s1"])
        expect(yield* store.list("/w/a/sub")).toEqual([])
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("fork copies the entries under a new session id", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        for (const entry of conversation("s1", "/w/a", "first")) yield* store.append(entry)
        const forkId = yield* store.fork("s1")
        expect(forkId).not.toBe("s1")
        const original = yield* store.load("s1")
        const forked = yield* store.load(forkId)
        expect(forked.map((entry) => entry.sessionId)).toEqual(original.map(() => forkId))
        expect(forked.map((entry) => ({ ...entry, sessionId: "s1" }))).toEqual(original)
        // The fork goes its own way.
        yield* store.append(assistantEntry(forkId, "/w/a", 4, "only in the fork"))
        expect((yield* store.load(forkId)).length).toBe(5)
        expect((yield* store.load("s1")).length).toBe(4)
        expect((yield* store.list("/w/a")).map((info) => info.sessionId).sort()).toEqual([forkId, "s1"].sort())
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("fork under a chosen id; an id taken or invalid is refused", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        for (const entry of conversation("s1", "/w/a", "first")) yield* store.append(entry)
        expect(yield* store.fork("s1", "chosen")).toBe("chosen")
        expect((yield* store.load("chosen")).map((entry) => entry.sessionId)).toEqual(["chosen", "chosen", "chosen", "chosen"])
        expect((yield* Effect.flip(store.fork("s1", "chosen")))._tag).toBe("SessionStoreError")
        expect((yield* Effect.flip(store.fork("s1", "../x")))._tag).toBe("SessionStoreError")
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("read streams the entries; resume folds them into the conversation and totals", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        const entries = conversation("s1", "/w/a", "fix the bug")
        for (const entry of entries) yield* store.append(entry)
        expect(yield* Stream.runCollect(store.read("s1"))).toEqual(entries)
        expect((yield* Effect.flip(Stream.runDrain(store.read("nope"))))._tag).toBe("SessionNotFound")
        const resumed = yield* store.resume("s1")
        expect(resumed.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"])
        expect(resumed.leafUuid).toBe("u-3")
        expect(resumed.turns).toBe(1)
        expect(resumed.totalCostUSD).toBe(0.001)
        expect(resumed.warnings).toEqual([])
        expect((yield* Effect.flip(store.resume("nope")))._tag).toBe("SessionNotFound")
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("list tells each session's turns and cost, as resume counts them", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        for (const entry of conversation("s1", "/w/a", "first")) yield* store.append(entry)
        yield* store.append(assistantEntry("s1", "/w/a", 4, "again"))
        // One response written as two entries (one per block, as Claude Code does): one turn, both costs.
        const split = assistantEntry("s1", "/w/a", 5, "more of the same response")
        yield* store.append({ ...split, message: { ...split.message, id: "msg_4" } })
        const [info] = yield* store.list("/w/a")
        expect(info?.turns).toBe(2)
        expect(info?.costUSD).toBeCloseTo(0.003)
        expect(info?.entryCount).toBe(6)
        const resumed = yield* store.resume("s1")
        expect([resumed.turns, resumed.totalCostUSD]).toEqual([info?.turns, info?.costUSD])
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("resume starts from the last compact boundary", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        for (const entry of conversation("s1", "/w/a", "before compaction")) yield* store.append(entry)
        yield* store.append({
          ...systemEntry("s1", "/w/a", 4),
          parentUuid: null,
          subtype: "compact_boundary",
          content: "Conversation compacted",
          logicalParentUuid: "u-3",
          compactMetadata: { trigger: "manual", preTokens: 1234 }
        })
        yield* store.append({ ...userEntry("s1", "/w/a", 5, "the summary"), isCompactSummary: true })
        yield* store.append(assistantEntry("s1", "/w/a", 6, "after compaction"))
        const resumed = yield* store.resume("s1")
        expect(resumed.messages).toEqual([
          { role: "user", content: [{ type: "text", text: "the summary" }] },
          { role: "assistant", content: [{ type: "text", text: "after compaction" }] }
        ])
        expect(resumed.leafUuid).toBe("u-6")
        expect(resumed.turns).toBe(2)
        expect(resumed.warnings).toEqual([])
        // read still gives every entry, the boundary's own fields kept.
        const read = yield* Stream.runCollect(store.read("s1"))
        expect(read.length).toBe(7)
        expect(read[4]?.["compactMetadata"]).toEqual({ trigger: "manual", preTokens: 1234 })
      }).pipe(Effect.provide(makeLayer()))
    )

    it.effect("entries of unknown types and unknown fields survive read, resume and fork", () =>
      Effect.gen(function* () {
        const store = yield* SessionStore
        const [system, prompt, answer] = conversation("s1", "/w/a", "hello")
        if (system === undefined || prompt === undefined || answer === undefined) throw new Error("fixture")
        const entries: Array<TranscriptEntry> = [
          system,
          { ...prompt, gitBranch: "main", futureField: { nested: [1] } },
          { ...unknownEntry("s1", "/w/a"), uuid: "x-9", parentUuid: "u-1" },
          answer
        ]
        for (const entry of entries) yield* store.append(entry)
        expect(yield* Stream.runCollect(store.read("s1"))).toEqual(entries)
        expect((yield* store.resume("s1")).messages.map((m) => m.role)).toEqual(["user", "assistant"])
        const forkId = yield* store.fork("s1")
        expect(yield* Stream.runCollect(store.read(forkId))).toEqual(
          entries.map((entry) => ({ ...entry, sessionId: forkId }))
        )
      }).pipe(Effect.provide(makeLayer()))
    )
  })

contract("memory", () => SessionStore.layerMemory())
contract("jsonl", () => SessionStore.layerNode({ home: tempDir() }))

describe("SessionStore.layerMemory", () => {
  it.effect("lists newest first and finds the latest session of a cwd", () =>
    Effect.gen(function* () {
      const store = yield* SessionStore
      expect(yield* store.latest("/w/a")).toEqual(Option.none())
      for (const entry of conversation("old", "/w/a", "older prompt")) yield* store.append(entry)
      for (const entry of conversation("other", "/w/b", "elsewhere")) yield* store.append(entry)
      yield* store.append(userEntry("new", "/w/a", 0, "newer prompt"))
      const infos = yield* store.list("/w/a")
      expect(infos.map((info) => [info.sessionId, info.firstPrompt, info.entryCount, info.cwd])).toEqual([
        ["new", "newer prompt", 1, "/w/a"],
        ["old", "older prompt", 4, "/w/a"]
      ])
      expect((yield* store.list()).map((info) => info.sessionId)).toEqual(["new", "other", "old"])
      expect(yield* store.latest("/w/a")).toEqual(Option.some("new"))
      // Writing to the older session makes it the latest.
      yield* store.append(assistantEntry("old", "/w/a", 4, "more"))
      expect(yield* store.latest("/w/a")).toEqual(Option.some("old"))
    }).pipe(Effect.provide(SessionStore.layerMemory()))
  )
})

describe("SessionStore.layer", () => {
  it.effect("writes Claude Code's layout: one JSON line per entry, private files", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const entries = conversation("s1", "/w/my_project.v2", "hello")
      for (const entry of entries) yield* store.append(entry)
      const file = path.join(home, "projects", "-w-my-project-v2", "s1.jsonl")
      const text = fs.readFileSync(file, "utf8")
      expect(text).toBe(entries.map((entry) => JSON.stringify(entry) + "\n").join(""))
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("resumes: a new store appends to the existing file, found by session id alone", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      yield* Effect.scoped(
        Effect.gen(function* () {
          const store = yield* SessionStore
          yield* store.append(userEntry("s1", "/w/a", 0, "one"))
        }).pipe(Effect.provide(SessionStore.layerNode({ home, fsync: true })))
      )
      const store = yield* SessionStore
      yield* store.append(assistantEntry("s1", "/w/elsewhere", 1, "two"))
      expect((yield* store.load("s1")).map((entry) => entry.uuid)).toEqual(["u-0", "u-1"])
      expect(fs.readdirSync(path.join(home, "projects"))).toEqual([cwdSlug("/w/a")])
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  // Linux's /proc/self/fd names what each descriptor of this process has open.
  it.effect.skipIf(!fs.existsSync("/proc/self/fd"))("closing its scope closes the session files it keeps open", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const holding = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === file
        } catch {
          return false // the listing's own descriptor, closed by now
        }
      }).length
    return Effect.gen(function* () {
      const scope = yield* Scope.make()
      const store = Context.get(yield* Layer.buildWithScope(SessionStore.layerNode({ home }), scope), SessionStore)
      yield* store.append(userEntry("s1", "/w/a", 0, "one"))
      expect(holding()).toBe(1)
      yield* Scope.close(scope, Exit.void)
      expect(holding()).toBe(0)
    })
  })

  it.effect("keeps at most maxOpenFiles files open and reopens evicted ones", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      const store = yield* SessionStore
      for (let round = 0; round < 3; round++) {
        for (const id of ["a", "b", "c"]) yield* store.append(userEntry(id, "/w/a", round, `${id}${round}`))
      }
      for (const id of ["a", "b", "c"]) {
        expect((yield* store.load(id)).map((entry) => entry.uuid)).toEqual(["u-0", "u-1", "u-2"])
      }
    }).pipe(Effect.provide(SessionStore.layerNode({ home, maxOpenFiles: 1 })))
  })

  // Appending is synchronous (one step: locate, open, write), so the guarantee holds without a lock.
  it.effect("an append returns with its line in the file; concurrent appends to a new session keep their order", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const entries = Array.from({ length: 20 }, (_, i) => userEntry("s1", "/w/a", i, `prompt ${i}`))
      yield* Effect.forEach(
        entries,
        (entry, i) =>
          store.append(entry).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                // On disk (in the page cache) when append returns: a kill -9 now loses nothing.
                const lines = fs.readFileSync(file, "utf8").split("\n").slice(0, -1)
                expect(lines.length).toBeGreaterThanOrEqual(i + 1)
              })
            )
          ),
        { concurrency: "unbounded", discard: true }
      )
      expect(fs.readFileSync(file, "utf8")).toBe(entries.map((entry) => JSON.stringify(entry) + "\n").join(""))
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("a store that cannot create its folder fails with a SessionStoreError naming it", () => {
    const home = tempDir()
    fs.writeFileSync(path.join(home, "projects"), "not a folder")
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const error = yield* Effect.flip(store.append(userEntry("s1", "/w/a", 0, "one")))
      expect(error._tag).toBe("SessionStoreError")
      expect(error.message).toMatch(/^Cannot create .*projects.*-w-a: /)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("skips a torn last line and a corrupt middle line, and keeps going after a torn tail", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const entries = conversation("s1", "/w/a", "hello")
    const lines = entries.map((entry) => JSON.stringify(entry))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // A corrupt line in the middle, a known type missing its fields, and a write cut short at the end.
    const torn = JSON.stringify(assistantEntry("s1", "/w/a", 9, "cut")).slice(0, 40)
    fs.writeFileSync(
      file,
      [lines[0], "{not json", lines[1], `{"type":"user","uuid":"bad"}`, lines[2], lines[3]].join("\n") + "\n" + torn
    )
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const result = yield* store.loadDetailed("s1")
      expect(result.entries).toEqual(entries)
      expect(result.skippedLines).toBe(2)
      expect(result.tornTail).toBe(true)
      // The next entry must not be glued onto the torn fragment.
      const next = assistantEntry("s1", "/w/a", 4, "after the crash")
      yield* store.append(next)
      const after = yield* store.loadDetailed("s1")
      expect(after.entries).toEqual([...entries, next])
      expect(after.tornTail).toBe(false)
      expect(after.skippedLines).toBe(3)
      expect(fs.readFileSync(file, "utf8").endsWith(JSON.stringify(next) + "\n")).toBe(true)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("lists sessions newest first by file time, with first prompt and entry count", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      const store = yield* SessionStore
      for (const entry of conversation("old", "/w/a", "  the   older\nprompt ")) yield* store.append(entry)
      yield* store.append(userEntry("new", "/w/a", 0, [{ type: "text", text: "x".repeat(300) }]))
      for (const entry of conversation("other", "/w/b", "elsewhere")) yield* store.append(entry)
      // A session of another cwd whose slug is the same (`/w/a` and `/w-a`).
      yield* store.append(userEntry("clash", "/w-a", 0, "same slug"))
      // An empty file is no session.
      fs.writeFileSync(sessionFile(home, "/w/a", "empty"), "")
      const setTime = (cwd: string, id: string, seconds: number) =>
        fs.utimesSync(sessionFile(home, cwd, id), seconds, seconds)
      setTime("/w/a", "old", 1_000)
      setTime("/w/a", "new", 2_000)
      setTime("/w/b", "other", 3_000)
      setTime("/w-a", "clash", 4_000)

      const infos = yield* store.list("/w/a")
      expect(infos.map((info) => info.sessionId)).toEqual(["new", "old"])
      expect(infos[1]).toEqual({
        sessionId: "old",
        cwd: "/w/a",
        firstPrompt: "the older prompt",
        lastModified: new Date(1_000_000),
        entryCount: 4,
        turns: 1,
        costUSD: 0.001
      })
      expect(infos[0]?.firstPrompt).toBe("x".repeat(99) + "…")
      expect((yield* store.list()).map((info) => info.sessionId)).toEqual(["clash", "other", "new", "old"])
      expect(yield* store.latest("/w/a")).toEqual(Option.some("new"))
      expect(yield* store.latest("/w-a")).toEqual(Option.some("clash"))
      expect(yield* store.latest("/w/none")).toEqual(Option.none())
      setTime("/w/a", "old", 5_000)
      expect(yield* store.latest("/w/a")).toEqual(Option.some("old"))
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("read and resume stream a torn file: the torn tail and bad lines are skipped, counted and named", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const entries = conversation("s1", "/w/a", "hello")
    const lines = entries.map((entry) => JSON.stringify(entry))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const torn = JSON.stringify(assistantEntry("s1", "/w/a", 4, "cut")).slice(0, 60)
    fs.writeFileSync(file, [lines[0], "{not json", lines[1], "[1,2]", lines[2], lines[3]].join("\n") + "\n" + torn)
    return Effect.gen(function* () {
      const store = yield* SessionStore
      expect(yield* Stream.runCollect(store.read("s1"))).toEqual(entries)
      const resumed = yield* store.resume("s1")
      expect(resumed.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"])
      expect(resumed.leafUuid).toBe("u-3")
      expect(resumed.warnings).toEqual([
        `Session s1: the last line of ${file} was cut short (an interrupted write) and was skipped.`,
        `Session s1: skipped 2 unreadable line(s) in ${file}.`
      ])
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("resume folds only from the last compact boundary; the totals still cover the whole file", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const boundary = (index: number, parent: string): TranscriptEntry => ({
      ...systemEntry("s1", "/w/a", index),
      parentUuid: null,
      subtype: "compact_boundary",
      content: "Conversation compacted",
      logicalParentUuid: parent,
      compactMetadata: { trigger: "auto", preTokens: 100 }
    })
    const before = conversation("s1", "/w/a", "before")
    const after: Array<TranscriptEntry> = [
      boundary(4, "u-3"),
      { ...userEntry("s1", "/w/a", 5, "the summary"), isCompactSummary: true },
      assistantEntry("s1", "/w/a", 6, "after")
    ]
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // A damaged tool result before the boundary: never parsed, so not even noticed.
    const lines = [...before.map((entry) => JSON.stringify(entry)), `{"type":"user","message":{"content":[{"type":"tool_result"`]
    fs.writeFileSync(file, [...lines, ...after.map((entry) => JSON.stringify(entry))].join("\n") + "\n")
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const resumed = yield* store.resume("s1")
      expect(resumed.messages.map((m) => m.content)).toEqual([
        [{ type: "text", text: "the summary" }],
        [{ type: "text", text: "after" }]
      ])
      expect(resumed.turns).toBe(2)
      expect(resumed.totalCostUSD).toBeCloseTo(0.002)
      expect(resumed.warnings).toEqual([])
      // A boundary with nothing after it yet (a crash mid-compaction): the conversation before it.
      yield* store.append(boundary(7, "u-6"))
      const crashed = yield* store.resume("s1")
      expect(crashed.messages.map((m) => m.content)).toEqual([
        [{ type: "text", text: "the summary" }],
        [{ type: "text", text: "after" }]
      ])
      expect(crashed.leafUuid).toBe("u-6")
      // A run resumed from there continues that conversation (its first entry names u-6, before the boundary).
      yield* store.append({ ...userEntry("s1", "/w/a", 8, "go on"), parentUuid: "u-6" })
      yield* store.append({ ...userEntry("s1", "/w/a", 9, "and on"), parentUuid: "u-8" })
      const continued = yield* store.resume("s1")
      expect(continued.brokenChain).toBe(false)
      expect(continued.messages.map((m) => m.content)).toEqual([
        [{ type: "text", text: "the summary" }],
        [{ type: "text", text: "after" }],
        [
          { type: "text", text: "go on" },
          { type: "text", text: "and on" }
        ]
      ])
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("the summary requests a compact boundary records are in the totals once, in resume and list alike", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const boundary = (index: number, parent: string, costUSD: number): TranscriptEntry => ({
      ...systemEntry("s1", "/w/a", index),
      parentUuid: null,
      subtype: "compact_boundary",
      content: "Conversation compacted",
      logicalParentUuid: parent,
      compactMetadata: { trigger: "auto", preTokens: 100 },
      model: "claude-sonnet-4-5",
      costUSD
    })
    const entries: Array<TranscriptEntry> = [
      ...conversation("s1", "/w/a", "first"),
      boundary(4, "u-3", 0.25),
      { ...userEntry("s1", "/w/a", 5, "the first summary"), isCompactSummary: true },
      assistantEntry("s1", "/w/a", 6, "middle"),
      boundary(7, "u-6", 0.5),
      { ...userEntry("s1", "/w/a", 8, "the second summary"), isCompactSummary: true },
      assistantEntry("s1", "/w/a", 9, "last")
    ]
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n")
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const resumed = yield* store.resume("s1")
      const whole = SessionState.fromEntries(entries)
      // Three responses at 0.001 each, and the two summaries; the summaries are no turns.
      expect(whole.totalCostUSD).toBeCloseTo(0.753)
      expect(whole.turns).toBe(3)
      expect(whole.modelUsage["claude-sonnet-4-5"]?.costUSD).toBeCloseTo(0.75)
      expect(resumed.totalCostUSD).toBeCloseTo(whole.totalCostUSD)
      expect(resumed.turns).toBe(whole.turns)
      const [info] = yield* store.list("/w/a")
      expect(info?.costUSD).toBeCloseTo(whole.totalCostUSD)
      expect(info?.turns).toBe(whole.turns)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("a file of another writer is read as far as it is valid; its metadata lines are no warning", () => {
    const home = tempDir()
    const file = sessionFile(home, "/w/a", "s1")
    const entries = conversation("s1", "/w/a", "hello")
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // Claude Code's title and file-snapshot lines carry no uuid; a newer entry type and newer fields do.
    const lines = [
      JSON.stringify({ type: "summary", summary: "Saying hello", leafUuid: "u-3" }),
      ...entries.map((entry) => JSON.stringify({ ...entry, version: "9.9.9", userType: "external" })),
      JSON.stringify({ type: "file-history-snapshot", messageId: "m1", snapshot: { trackedFileBackups: {} } })
    ]
    fs.writeFileSync(file, lines.join("\r\n") + "\r\n")
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const read = yield* Stream.runCollect(store.read("s1"))
      expect(read.map((entry) => entry.uuid)).toEqual(["u-0", "u-1", "u-2", "u-3"])
      expect(read[1]?.["userType"]).toBe("external")
      const resumed = yield* store.resume("s1")
      expect(resumed.warnings).toEqual([])
      expect(resumed.messages.length).toBe(3)
      expect((yield* store.list("/w/a"))[0]?.firstPrompt).toBe("hello")
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("lines longer than a read, and many of them, come back whole and in order", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      const store = yield* SessionStore
      const big = "é漢".repeat(200_000) // 1 MB of multi-byte characters: one line over several 256 KiB reads.
      const entries: Array<TranscriptEntry> = [userEntry("s1", "/w/a", 0, big)]
      for (let index = 1; index < 2_000; index++) {
        entries.push(index % 2 === 1 ? assistantEntry("s1", "/w/a", index, `answer ${index}`) : userEntry("s1", "/w/a", index, `prompt ${index}`))
      }
      for (const entry of entries) yield* store.append(entry)
      expect(yield* Stream.runCollect(store.read("s1"))).toEqual(entries)
      const resumed = yield* store.resume("s1")
      expect(resumed.messages.length).toBe(2_000)
      expect(resumed.messages[0]?.content).toEqual([{ type: "text", text: big }])
      expect(resumed.turns).toBe(1_000)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("fork streams the copy and writes it aside first: nothing half-copied is left", () => {
    const home = tempDir()
    return Effect.gen(function* () {
      const store = yield* SessionStore
      for (const entry of conversation("s1", "/w/a", "hello")) yield* store.append(entry)
      const forkId = yield* store.fork("s1", "the-fork")
      expect(fs.readdirSync(path.join(home, "projects", cwdSlug("/w/a"))).sort()).toEqual(["s1.jsonl", "the-fork.jsonl"])
      expect(fs.statSync(sessionFile(home, "/w/a", forkId)).mode & 0o777).toBe(0o600)
      expect((yield* store.resume(forkId)).messages).toEqual((yield* store.resume("s1")).messages)
    }).pipe(Effect.provide(SessionStore.layerNode({ home })))
  })

  it.effect("reads $WEFT_HOME when no home is given", () => {
    const home = tempDir()
    const previous = process.env["WEFT_HOME"]
    process.env["WEFT_HOME"] = home
    return Effect.gen(function* () {
      const store = yield* SessionStore
      yield* store.append(userEntry("s1", "/w/a", 0, "hi"))
      expect(fs.existsSync(sessionFile(home, "/w/a", "s1"))).toBe(true)
    }).pipe(
      Effect.provide(SessionStore.layerNode()),
      Effect.ensuring(
        Effect.sync(() => {
          if (previous === undefined) delete process.env["WEFT_HOME"]
          else process.env["WEFT_HOME"] = previous
        })
      )
    )
  })
})

describe("parseTranscript", () => {
  const line = (entry: TranscriptEntry) => JSON.stringify(entry) + "\n"

  it("keeps an unterminated last line that is a whole entry (a hand-written file)", () => {
    const [a, b] = conversation("s", "/w", "p")
    if (a === undefined || b === undefined) throw new Error("fixture")
    const result = parseTranscript(line(a) + JSON.stringify(b))
    expect(result).toEqual({ entries: [a, b], skippedLines: 0, tornTail: false })
  })

  it("ignores blank lines and counts a known type with the wrong shape", () => {
    const entries = conversation("s", "/w", "p")
    const wrongRole = { ...userEntry("s", "/w", 7, "x"), message: { role: "assistant", content: "x" } }
    const text = "\n" + entries.map(line).join("\n") + JSON.stringify(wrongRole) + "\n"
    const result = parseTranscript(text)
    expect(result.entries).toEqual(entries)
    expect(result.skippedLines).toBe(1)
    expect(result.entries.filter(isUser).length).toBe(2)
  })
})
