/**
 * Sessions through the built binary: `--resume`, `--continue`, `--fork-session`, `--session-id`,
 * `--no-session-persistence` and `weft sessions`, checked on what the mock server was sent (a resumed run's first
 * request carries the stored conversation exactly) and on the files under $WEFT_HOME; then kill -9 at 20 points of
 * a multi-turn run, each followed by `--continue`.
 */
import type { ChildProcess } from "node:child_process"
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { decodeEntry } from "../../src/domain/Transcript.js"
import type { RecordedRequest } from "../../src/testing/MockAnthropicServer.js"
import { Fault, ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, resultFrame, runWeft, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
interface Message {
  readonly role: string
  readonly content: ReadonlyArray<Record<string, unknown>>
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A value without its `cache_control` marks (where the breakpoints sit moves from one request to the next). */
const withoutCacheControl = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutCacheControl)
    : isRecord(value)
      ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== "cache_control").map(([key, v]) => [key, withoutCacheControl(v)]))
      : value

/** The agents listing the first prompt of a conversation carries (docs/subagents.md): not what these tests are about. */
const isAgentsListing = (block: Readonly<Record<string, unknown>>) =>
  block["type"] === "text" && typeof block["text"] === "string" && block["text"].startsWith("<system-reminder>\nAvailable agent types")

/** The messages of a request, as sent (cache marks and the agents listing aside), every content a list of blocks. */
const messagesOf = (request: RecordedRequest | undefined): ReadonlyArray<Message> => {
  const body = request?.body
  if (!isRecord(body) || !Array.isArray(body["messages"])) throw new Error(`not a messages request: ${JSON.stringify(body)}`)
  return body["messages"].map((message: unknown): Message => {
    const plain = withoutCacheControl(message)
    if (!isRecord(plain) || typeof plain["role"] !== "string") throw new Error(`not a message: ${JSON.stringify(message)}`)
    const content = plain["content"]
    const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content.filter(isRecord) : []
    return { role: plain["role"], content: blocks.filter((block) => !isAgentsListing(block)) }
  })
}

const messageRequests = (requests: ReadonlyArray<RecordedRequest>) => requests.filter((request) => request.path.startsWith("/v1/messages"))

/**
 * What is wrong with a history as the API would see it, if anything: it starts with the user, roles alternate, and
 * every tool_use is answered by a tool_result at the head of the next message (and only those).
 */
const historyProblem = (messages: ReadonlyArray<Message>): string | undefined => {
  for (const [index, message] of messages.entries()) {
    const expected = index % 2 === 0 ? "user" : "assistant"
    if (message.role !== expected) return `message ${index} is ${message.role}, expected ${expected}`
    const asked = message.role === "assistant" ? message.content.filter((b) => b["type"] === "tool_use").map((b) => b["id"]) : []
    const previous = messages[index - 1]
    const allowed = new Set(previous?.role === "assistant" ? previous.content.filter((b) => b["type"] === "tool_use").map((b) => b["id"]) : [])
    if (message.role === "user") {
      const results = message.content.filter((b) => b["type"] === "tool_result")
      for (const result of results) if (!allowed.has(result["tool_use_id"])) return `message ${index} answers an unknown call ${String(result["tool_use_id"])}`
      const firstOther = message.content.findIndex((b) => b["type"] !== "tool_result")
      if (firstOther !== -1 && message.content.slice(firstOther).some((b) => b["type"] === "tool_result")) return `message ${index}: a tool_result after text`
    }
    if (asked.length > 0) {
      const next = messages[index + 1]
      const answered = new Set(next?.content.filter((b) => b["type"] === "tool_result").map((b) => b["tool_use_id"]) ?? [])
      for (const id of asked) if (!answered.has(id)) return `message ${index}: call ${String(id)} is not answered`
    }
  }
  return undefined
}

/** The session files under $WEFT_HOME/projects, by session id. */
const sessionFiles = (home: string): Record<string, string> => {
  const projects = join(home, "projects")
  if (!existsSync(projects)) return {}
  const files: Record<string, string> = {}
  for (const folder of readdirSync(projects)) {
    for (const name of readdirSync(join(projects, folder))) {
      if (name.endsWith(".jsonl")) files[name.slice(0, -".jsonl".length)] = join(projects, folder, name)
    }
  }
  return files
}

/** The complete lines of a session file, parsed. */
const entriesOf = (file: string): ReadonlyArray<Record<string, Json>> =>
  readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))

const sessionIdOf = (stdout: string): string => {
  const id = resultFrame(stdout)["session_id"]
  if (typeof id !== "string") throw new Error(`no session id in ${stdout}`)
  return id
}

const json = ["--output-format", "stream-json", "--verbose"]

/** The assistant message the mock sent for a text turn, as weft keeps it in the conversation. */
const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] })
const prompt = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] })

/** User settings (in a HOME of the test's own) with a SessionStart hook that keeps each input it gets. */
const withSessionStartLog = async (root: string) => {
  const home = join(root, "home")
  await mkdir(join(home, ".claude"), { recursive: true })
  const log = join(root, "session-start.log")
  const hooks = { SessionStart: [{ hooks: [{ type: "command", command: `cat >> "${log}"; echo >> "${log}"` }] }] }
  await writeFile(join(home, ".claude/settings.json"), JSON.stringify({ hooks }))
  const inputs = () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line): Record<string, unknown> => JSON.parse(line))
      : []
  return { env: { HOME: home }, inputs }
}

describe("weft -p --resume / --continue / --fork-session", { timeout: 120_000 }, () => {
  it("--resume sends the stored conversation exactly, goes on in the same file and chain, under the same id", async () => {
    const { root, dir, env: base, home, server } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo one" }, "call_1")]), textTurn("Done one."), textTurn("Done two.")]
    }))
    const hooks = await withSessionStartLog(root)
    const env = { ...base, ...hooks.env }
    const first = await runWeft(["-p", "first", ...json], { cwd: dir, env })
    expect(first.code).toBe(0)
    const id = sessionIdOf(first.stdout)
    const before = entriesOf(sessionFiles(home)[id] ?? "")
    const runOneRequests = messageRequests(server.requests())
    expect(runOneRequests).toHaveLength(2)

    const second = await runWeft(["-p", "--resume", id, "second", ...json], { cwd: dir, env })
    expect(second.stderr).toBe("")
    expect(second.code).toBe(0)
    const requests = messageRequests(server.requests())
    expect(requests).toHaveLength(3)
    // The first run's last request, its answer, then the new prompt: nothing added, dropped or reordered.
    expect(messagesOf(requests[2])).toEqual([...messagesOf(requests[1]), answer("Done one."), prompt("second")])

    const out = frames(second.stdout)
    expect(out[0]).toMatchObject({ type: "system", subtype: "init", session_id: id })
    const result = resultFrame(second.stdout)
    expect(result).toMatchObject({ subtype: "success", result: "Done two.", session_id: id, num_turns: 1 })

    // One file: the first run's lines untouched, the new entries after them, chained to the last of them.
    expect(Object.keys(sessionFiles(home))).toEqual([id])
    const after = entriesOf(sessionFiles(home)[id] ?? "")
    expect(after.slice(0, before.length)).toEqual(before)
    const added = after.slice(before.length)
    expect(added.map((entry) => entry["type"])).toEqual(["user", "assistant"])
    expect(added[0]?.["parentUuid"]).toBe(before[before.length - 1]?.["uuid"])
    expect(added.every((entry) => entry["sessionId"] === id)).toBe(true)
    // As Claude Code's: the cost is the session's so far (both runs' responses), usage and turns this run's.
    const costs = after.flatMap((entry) => (typeof entry["costUSD"] === "number" ? [entry["costUSD"]] : []))
    expect(costs).toHaveLength(3)
    expect(costs.every((cost) => cost > 0)).toBe(true)
    expect(result["total_cost_usd"]).toBeCloseTo(costs.reduce((sum, cost) => sum + cost, 0), 12)
    expect(result["total_cost_usd"]).toBeGreaterThan(Number(added[1]?.["costUSD"]))
    expect(resultFrame(first.stdout)["usage"]).toMatchObject({ output_tokens: expect.any(Number) })

    expect(hooks.inputs().map((input) => [input["source"], input["session_id"]])).toEqual([
      ["startup", id],
      ["resume", id]
    ])
  })

  it("--continue resumes the latest session of this directory; -c again sees the run it added", async () => {
    const { dir, env, server } = await setup({}, () => ({
      // Turns by the number of answers in the conversation: a new session starts at 0.
      script: [textTurn("A."), textTurn("B after one."), textTurn("C after two.")]
    }))
    const older = await runWeft(["-p", "older", ...json], { cwd: dir, env })
    const newer = await runWeft(["-p", "newer", ...json], { cwd: dir, env })
    const newerId = sessionIdOf(newer.stdout)
    expect(sessionIdOf(older.stdout)).not.toBe(newerId)

    const continued = await runWeft(["-p", "-c", "and then?", ...json], { cwd: dir, env })
    expect(continued.code).toBe(0)
    expect(resultFrame(continued.stdout)).toMatchObject({ session_id: newerId, result: "B after one." })
    const again = await runWeft(["-p", "--continue", "more?", ...json], { cwd: dir, env })
    expect(resultFrame(again.stdout)).toMatchObject({ session_id: newerId, result: "C after two." })

    const requests = messageRequests(server.requests())
    expect(messagesOf(requests[2])).toEqual([prompt("newer"), answer("A."), prompt("and then?")])
    expect(messagesOf(requests[3])).toEqual([...messagesOf(requests[2]), answer("B after one."), prompt("more?")])
  })

  it("--fork-session goes on under a new id in a new file, leaving the session as it was", async () => {
    const { dir, env, home, server } = await setup({}, () => ({
      script: [textTurn("Base."), textTurn("Forked."), textTurn("Base again."), textTurn("Named.")]
    }))
    const base = await runWeft(["-p", "base", ...json], { cwd: dir, env })
    const baseId = sessionIdOf(base.stdout)
    const baseFile = sessionFiles(home)[baseId] ?? ""
    const baseText = readFileSync(baseFile, "utf8")

    const fork = await runWeft(["-p", "-r", baseId, "--fork-session", "fork it", ...json], { cwd: dir, env })
    expect(fork.code).toBe(0)
    const forkId = sessionIdOf(fork.stdout)
    expect(forkId).not.toBe(baseId)
    expect(frames(fork.stdout)[0]).toMatchObject({ subtype: "init", session_id: forkId })
    expect(readFileSync(baseFile, "utf8")).toBe(baseText)
    // The fork's file holds the base conversation (under the fork's id) and then its own.
    const forkEntries = entriesOf(sessionFiles(home)[forkId] ?? "")
    expect(forkEntries.every((entry) => entry["sessionId"] === forkId)).toBe(true)
    expect(forkEntries.map((entry) => entry["uuid"]).slice(0, 2)).toEqual(entriesOf(baseFile).map((entry) => entry["uuid"]))
    expect(forkEntries).toHaveLength(4)

    // The base, resumed, has not seen the fork's turn.
    const resumed = await runWeft(["-p", "-r", baseId, "again", ...json], { cwd: dir, env })
    expect(resultFrame(resumed.stdout)).toMatchObject({ session_id: baseId, result: "Forked." })
    const requests = messageRequests(server.requests())
    expect(messagesOf(requests[1])).toEqual([prompt("base"), answer("Base."), prompt("fork it")])
    expect(messagesOf(requests[2])).toEqual([prompt("base"), answer("Base."), prompt("again")])

    // The fork resumes as a session of its own.
    const forkAgain = await runWeft(["-p", "-r", forkId, "fork more", ...json], { cwd: dir, env })
    expect(resultFrame(forkAgain.stdout)).toMatchObject({ session_id: forkId, result: "Base again." })
    expect(messagesOf(messageRequests(server.requests())[3])).toEqual([
      prompt("base"),
      answer("Base."),
      prompt("fork it"),
      answer("Forked."),
      prompt("fork more")
    ])

    // --continue --fork-session --session-id: the latest session, forked under the id given.
    const named = "0b9c3a52-51c4-4d0e-9a5e-3c1f2b4a6d7e"
    const namedFork = await runWeft(["-p", "-c", "--fork-session", "--session-id", named, "named", ...json], { cwd: dir, env })
    expect(namedFork.code).toBe(0)
    expect(resultFrame(namedFork.stdout)).toMatchObject({ session_id: named, result: "Named." })
    expect(Object.keys(sessionFiles(home)).sort()).toEqual([baseId, forkId, named].sort())
  })

  it("--session-id names the new session; an id in use or not a UUID is refused before anything runs", async () => {
    const { dir, env, home, server } = await setup({}, () => ({ script: [textTurn("Hello."), textTurn("Again.")] }))
    const id = "5f2d7c1e-8a3b-4c6d-9e0f-1a2b3c4d5e6f"
    const run = await runWeft(["-p", "--session-id", id, "hi", ...json], { cwd: dir, env })
    expect(run.code).toBe(0)
    expect(frames(run.stdout)[0]).toMatchObject({ subtype: "init", session_id: id })
    expect(resultFrame(run.stdout)["session_id"]).toBe(id)
    expect(Object.keys(sessionFiles(home))).toEqual([id])

    const reused = await runWeft(["-p", "--session-id", id, "hi again"], { cwd: dir, env })
    expect(reused.code).toBe(1)
    expect(reused.stderr).toContain(`--session-id ${id} is already used by a session`)
    expect(reused.stderr).toContain(`--resume ${id}`)

    const notUuid = await runWeft(["-p", "--session-id", "my-session", "hi"], { cwd: dir, env })
    expect(notUuid.code).toBe(1)
    expect(notUuid.stderr).toMatch(/--session-id must be a UUID .*not "my-session"/)
    expect(messageRequests(server.requests())).toHaveLength(1)

    // Resuming a session under its own id is no conflict.
    const same = await runWeft(["-p", "-r", id, "--session-id", id, "once more", ...json], { cwd: dir, env })
    expect(same.code).toBe(0)
    expect(resultFrame(same.stdout)).toMatchObject({ session_id: id, result: "Again." })
    expect(messageRequests(server.requests())).toHaveLength(2)
  })

  it("--no-session-persistence records nothing, also when resuming or forking", async () => {
    const { dir, env, home, server } = await setup({}, () => ({ script: [textTurn("One."), textTurn("Two."), textTurn("Three.")] }))
    const unrecorded = await runWeft(["-p", "--no-session-persistence", "hi", ...json], { cwd: dir, env })
    expect(unrecorded.code).toBe(0)
    expect(sessionFiles(home)).toEqual({})

    const recorded = await runWeft(["-p", "hi", ...json], { cwd: dir, env })
    const id = sessionIdOf(recorded.stdout)
    const file = sessionFiles(home)[id] ?? ""
    const text = readFileSync(file, "utf8")
    const resumed = await runWeft(["-p", "-r", id, "--no-session-persistence", "again", ...json], { cwd: dir, env })
    expect(resultFrame(resumed.stdout)).toMatchObject({ session_id: id, result: "Two." })
    const forked = await runWeft(["-p", "-c", "--fork-session", "--no-session-persistence", "fork", ...json], { cwd: dir, env })
    expect(sessionIdOf(forked.stdout)).not.toBe(id)
    expect(readFileSync(file, "utf8")).toBe(text)
    expect(Object.keys(sessionFiles(home))).toEqual([id])
    const requests = messageRequests(server.requests())
    expect(messagesOf(requests[2])).toEqual([prompt("hi"), answer("One."), prompt("again")])
    expect(messagesOf(requests[3])).toEqual([prompt("hi"), answer("One."), prompt("fork")])
  })

  it("says what is wrong: an unknown id, flags that conflict", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [] }))
    const refused = async (args: ReadonlyArray<string>, cwd = dir) => {
      const out = await runWeft(["-p", ...args, "hi"], { cwd, env })
      expect(out.code).toBe(1)
      expect(out.stdout).toBe("")
      return out.stderr
    }
    expect(await refused(["--resume", "4d1c9e0a-0000-4000-8000-000000000000"])).toMatch(
      /no session with id "4d1c9e0a-0000-4000-8000-000000000000"\. `weft sessions` lists the sessions of this directory\./
    )
    expect(await refused(["-c", "-r", "x"])).toContain("--resume and --continue both name the session to resume")
    expect(await refused(["--fork-session"])).toContain("--fork-session goes with --resume <id> or --continue")
    expect(await refused(["-c", "--session-id", "0b9c3a52-51c4-4d0e-9a5e-3c1f2b4a6d7e"])).toContain("Add --fork-session")
    expect(messageRequests(server.requests())).toHaveLength(0)
  })

  it("--continue where this directory has no session starts a new one", async () => {
    const { dir, env, home, server } = await setup({}, () => ({ script: [textTurn("Fresh."), textTurn("Again.")] }))
    const first = await runWeft(["-p", "-c", "hi", ...json], { cwd: dir, env })
    expect(first.code).toBe(0)
    expect(first.stderr).toBe("")
    const id = sessionIdOf(first.stdout)
    expect(Object.keys(sessionFiles(home))).toEqual([id])
    expect(messagesOf(messageRequests(server.requests())[0])).toEqual([prompt("hi")])
    // The next -c goes on with it.
    const second = await runWeft(["-p", "-c", "more", ...json], { cwd: dir, env })
    expect(resultFrame(second.stdout)).toMatchObject({ session_id: id, result: "Again." })
  })

  it("--resume of a session recorded in another directory goes on here, in its file, with a note on stderr", async () => {
    const { root, dir, env, home, server } = await setup({}, () => ({ script: [textTurn("Elsewhere."), textTurn("Here.")] }))
    const other = join(root, "other")
    await mkdir(other)
    const elsewhere = await runWeft(["-p", "hi", ...json], { cwd: other, env })
    const id = sessionIdOf(elsewhere.stdout)
    const before = entriesOf(sessionFiles(home)[id] ?? "")

    const resumed = await runWeft(["-p", "-r", id, "and here?", ...json], { cwd: dir, env })
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toContain(`weft: session ${id} was recorded in ${other}; it goes on in this directory (${dir}).`)
    expect(resultFrame(resumed.stdout)).toMatchObject({ session_id: id, result: "Here." })
    expect(frames(resumed.stdout)[0]).toMatchObject({ type: "system", subtype: "init", session_id: id, cwd: dir })
    expect(messagesOf(messageRequests(server.requests())[1])).toEqual([prompt("hi"), answer("Elsewhere."), prompt("and here?")])
    // Still one file, the session's own; the new entries name the directory they ran in.
    expect(Object.keys(sessionFiles(home))).toEqual([id])
    const added = entriesOf(sessionFiles(home)[id] ?? "").slice(before.length)
    expect(added.map((entry) => [entry["type"], entry["cwd"]])).toEqual([
      ["user", dir],
      ["assistant", dir]
    ])
  })

  it("a torn last line is left out with a warning on stderr, and the session goes on", async () => {
    const { dir, env, home, server } = await setup({}, () => ({ script: [textTurn("First."), textTurn("Second."), textTurn("Third.")] }))
    const first = await runWeft(["-p", "first", ...json], { cwd: dir, env })
    const id = sessionIdOf(first.stdout)
    const file = sessionFiles(home)[id] ?? ""
    appendFileSync(file, '{"type":"user","uuid":"torn-')

    const resumed = await runWeft(["-p", "-c", "second", ...json], { cwd: dir, env })
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toMatch(/^weft: .*last line.*cut/m)
    expect(resultFrame(resumed.stdout)).toMatchObject({ session_id: id, result: "Second." })
    const again = await runWeft(["-p", "-c", "third", ...json], { cwd: dir, env })
    expect(again.code).toBe(0)
    const requests = messageRequests(server.requests())
    expect(messagesOf(requests[1])).toEqual([prompt("first"), answer("First."), prompt("second")])
    expect(messagesOf(requests[2])).toEqual([...messagesOf(requests[1]), answer("Second."), prompt("third")])
  })
})

describe("resuming a compacted session", { timeout: 120_000 }, () => {
  it("sends the summary and what followed it, not the turns before the compaction", async () => {
    const { dir, env, server } = await setup({ "a.txt": "the file's words\n" }, (project) => ({
      script: [
        // Usage near the context window: the loop compacts before its next request.
        ScriptTurn.blocks([toolUse("Read", { file_path: join(project, "a.txt") }, "r1")], {
          usage: { input_tokens: 180_000, cache_read_input_tokens: 8_000 }
        }),
        textTurn("<analysis>thinking it over</analysis>\n<summary>The user asked to look at a.txt; it was read.</summary>"),
        textTurn("Looked."),
        textTurn("Next done.")
      ],
      pick: (request) => request.index
    }))
    const first = await runWeft(["-p", "look at a.txt", ...json], { cwd: dir, env })
    expect(first.code).toBe(0)
    expect(frames(first.stdout).some((frame) => frame["subtype"] === "compact_boundary")).toBe(true)
    const id = sessionIdOf(first.stdout)

    const resumed = await runWeft(["-p", "-c", "next", ...json], { cwd: dir, env })
    expect(resumed.code).toBe(0)
    expect(resultFrame(resumed.stdout)).toMatchObject({ session_id: id, result: "Next done." })
    const requests = messageRequests(server.requests())
    expect(requests).toHaveLength(4)
    // The request after the compaction held the summary alone; the resumed run's goes on from exactly that.
    const afterCompaction = messagesOf(requests[2])
    expect(JSON.stringify(afterCompaction)).toContain("The user asked to look at a.txt; it was read.")
    const sent = messagesOf(requests[3])
    expect(sent).toEqual([...afterCompaction, answer("Looked."), prompt("next")])
    expect(historyProblem(sent)).toBeUndefined()
    expect(JSON.stringify(sent)).not.toContain("the file's words")
    expect(JSON.stringify(sent)).not.toContain("thinking it over")
    expect(JSON.stringify(sent)).not.toContain('"r1"')
  })
})

describe("weft sessions", { timeout: 60_000 }, () => {
  it("lists this directory's sessions newest first, as a table and as JSON", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo hi" })]), textTurn("Done.")]
    }))
    const empty = await runWeft(["sessions"], { cwd: dir, env })
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe(`No sessions in ${dir} yet. Start one with weft -p "...".\n`)
    expect(JSON.parse((await runWeft(["sessions", "--json"], { cwd: dir, env })).stdout)).toEqual([])

    const older = sessionIdOf((await runWeft(["-p", "the older\nprompt", ...json], { cwd: dir, env })).stdout)
    const newer = sessionIdOf((await runWeft(["-p", "the newer prompt", ...json], { cwd: dir, env })).stdout)

    const table = await runWeft(["sessions"], { cwd: dir, env })
    expect(table.code).toBe(0)
    const lines = table.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^SESSION ID\s+LAST ACTIVITY\s+TURNS\s+COST\s+FIRST PROMPT$/)
    expect(lines[1]).toMatch(new RegExp(`^${newer}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+2\\s+\\$\\d+\\.\\d{4}\\s+the newer prompt$`))
    expect(lines[2]).toMatch(new RegExp(`^${older}\\s.*\\s2\\s.*the older prompt$`))
    expect(lines).toHaveLength(3)

    const listed = await runWeft(["sessions", "--json"], { cwd: dir, env })
    const sessions: ReadonlyArray<Record<string, unknown>> = JSON.parse(listed.stdout)
    expect(sessions.map((session) => [session["sessionId"], session["firstPrompt"], session["turns"], session["cwd"]])).toEqual([
      [newer, "the newer prompt", 2, dir],
      [older, "the older prompt", 2, dir]
    ])
    for (const session of sessions) {
      expect(session["costUSD"]).toBeGreaterThan(0)
      expect(Number.isNaN(Date.parse(String(session["lastModified"])))).toBe(false)
    }
  })

  it("--help, and an unknown argument refused", async () => {
    const { dir, env } = await setup({}, () => ({ script: [] }))
    const help = await runWeft(["sessions", "--help"], { cwd: dir, env })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("Usage: weft sessions [--json]")
    expect(help.stdout).toContain("--json")
    expect(help.stdout).toContain("--resume <id>")
    const wrong = await runWeft(["sessions", "--all"], { cwd: dir, env })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('weft sessions: unknown option "--all". See weft sessions --help.')
  })
})

// ---------------------------------------------------------------------------------------------------------------
// kill -9 at 20 points of a multi-turn run, then --continue

/** mulberry32: the kill points come from a fixed seed, the same on every run of the test. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** How the run is stopped: when request N arrives; mid-response N (the stream stalled); while the tool of turn N runs. */
type KillMode = "request" | "stream" | "tool"
const toolTurns = 5

const killPoints = (() => {
  const random = seeded(14)
  const modes: ReadonlyArray<KillMode> = ["request", "stream", "tool"]
  return Array.from({ length: 20 }, (_, index) => {
    const mode = modes[index % modes.length] ?? "request"
    // request/stream: the 2nd to the last request (the first has no answer recorded yet, so nothing to continue);
    // tool: any of the tool turns.
    const turn = mode === "tool" ? Math.floor(random() * toolTurns) : 1 + Math.floor(random() * toolTurns)
    return { label: `${mode} at turn ${turn}`, mode, turn, afterEvents: Math.floor(random() * 4) }
  })
})()

describe("kill -9 during a run, then --continue", { timeout: 300_000 }, () => {
  it.each(killPoints)("$label loses no completed entry and sends a valid history", async ({ mode, turn, afterEvents }) => {
    let victim: ChildProcess | undefined
    const killVictim = () => {
      if (victim?.pid !== undefined && victim.exitCode === null && victim.signalCode === null) victim.kill("SIGKILL")
    }
    const { dir, env, home, server } = await setup({}, (project) => {
      const pidFile = join(project, "tool.pid")
      // Turn `turn`'s command, in tool mode, holds the run (once: the continued run finds the file and goes on).
      const command = (index: number) =>
        mode === "tool" && index === turn
          ? `if [ ! -e "${pidFile}" ]; then echo $$ > "${pidFile}.tmp" && mv "${pidFile}.tmp" "${pidFile}" && exec sleep 600; fi; echo again ${index}`
          : `echo step ${index}`
      const script = [
        ...Array.from({ length: toolTurns }, (_, index) =>
          ScriptTurn.blocks([toolUse("Bash", { command: command(index) }, `call_${index}`)], {
            ...(mode === "stream" && index === turn ? { faults: [Fault.stall(afterEvents)] } : {})
          })
        ),
        textTurn("All done.")
      ]
      return {
        script,
        pick: (request: RecordedRequest) => {
          // The first run is stopped when its request `turn` arrives (request mode) or once it is stalled (stream).
          if (victim !== undefined && request.index === turn && mode !== "tool") {
            if (mode === "request") killVictim()
            else setImmediate(killVictim)
          }
          return messagesOf(request).filter((message) => message.role === "assistant").length
        }
      }
    })
    const args = ["-p", "--dangerously-skip-permissions", ...json]
    const run = startWeft([...args, "work through the steps"], { cwd: dir, env })
    victim = run.child
    if (mode === "tool") {
      const pidFile = join(dir, "tool.pid")
      await waitUntil(() => existsSync(pidFile), "the tool to start")
      const toolPid = Number(readFileSync(pidFile, "utf8").trim())
      killVictim()
      // The tool's process group outlives weft under kill -9: end it (it is ours), and see it gone.
      process.kill(-toolPid, "SIGKILL")
      await waitUntil(() => !isAlive(toolPid), "the tool's process to end")
    }
    const killed = await run.done
    expect(killed.signal).toBe("SIGKILL")
    const firstRunRequests = server.requests().length

    // Every complete line is an entry; the file ends with a complete line (one write per entry).
    const file = Object.values(sessionFiles(home))[0] ?? ""
    expect(existsSync(file)).toBe(true)
    const text = readFileSync(file, "utf8")
    expect(text.endsWith("\n")).toBe(true)
    const entries = entriesOf(file)
    for (const entry of entries) expect(Result.isSuccess(decodeEntry(entry))).toBe(true)

    const continued = await runWeft([...args, "-c", "go on"], { cwd: dir, env })
    expect(continued.stderr).toBe("")
    expect(continued.code).toBe(0)
    expect(resultFrame(continued.stdout)).toMatchObject({ subtype: "success", result: "All done.", session_id: entries[0]?.["sessionId"] })

    // The continued run's first request: a valid history holding every recorded block, in order, then the prompt.
    const sent = messagesOf(server.requests()[firstRunRequests])
    expect(historyProblem(sent)).toBeUndefined()
    const blocksSent = sent.flatMap((message) =>
      message.content
        .filter((block) => !(block["type"] === "tool_result" && String(block["content"]).includes("interrupted")))
        .map((block) => [message.role, block])
    )
    const blocksRecorded = entries.flatMap((entry) => {
      const message = entry["message"]
      if (!isRecord(message) || !Array.isArray(message["content"])) return []
      const role = entry["type"] === "assistant" ? "assistant" : "user"
      return message["content"]
        .filter((block: unknown) => !(isRecord(block) && isAgentsListing(block)))
        .map((block: unknown) => [role, withoutCacheControl(block)])
    })
    expect(blocksSent).toEqual([...blocksRecorded, ["user", { type: "text", text: "go on" }]])
    // A call the kill left unanswered is answered as interrupted.
    const answered = new Set(blocksRecorded.flatMap(([, block]) => (isRecord(block) && block["type"] === "tool_result" ? [block["tool_use_id"]] : [])))
    const unanswered = blocksRecorded.flatMap(([, block]) =>
      isRecord(block) && block["type"] === "tool_use" && !answered.has(block["id"]) ? [block["id"]] : []
    )
    const interrupted = sent.flatMap((message) =>
      message.content.filter((block) => block["type"] === "tool_result" && block["is_error"] === true).map((block) => block["tool_use_id"])
    )
    expect(interrupted).toEqual(unanswered)
    if (mode === "tool") expect(unanswered).toEqual([`call_${turn}`])

    // Nothing recorded before the kill was lost or rewritten by the continued run.
    expect(readFileSync(file, "utf8").startsWith(text)).toBe(true)
  })
})
