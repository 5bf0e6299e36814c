import { describe, expect, it } from "@effect/vitest"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Exit from "effect/Exit"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as Session from "../../src/agent/Session.js"
import * as SessionServices from "../../src/cli/SessionServices.js"
import type { AgentEvent, PermissionAsked } from "../../src/domain/AgentEvent.js"
import type { MessageParam } from "../../src/domain/Message.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import type { PromptAnswer } from "../../src/permissions/Prompter.js"
import { SessionStore } from "../../src/session/SessionStore.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import { isRunning, sleepLive } from "../../src/tools/shell/ProcessGroup.js"
import * as Tool from "../../src/tools/Tool.js"
import { tempDir, write } from "../support/TempFiles.js"
import { collectTurn, Echo, realPermissions, services, sessionLayer, Shout, toolResultsIn } from "./support.js"

/** A session whose host answers the asks of the real permissions, in `dir`. */
const hostAsked = (dir: string, script: Script) =>
  sessionLayer({ script, permissions: realPermissions(dir), options: { prompter: "host" } })

/** The events' tags, raw stream events left out and a run of the same tag (text deltas) counted once. */
const tagsOf = (events: ReadonlyArray<AgentEvent>) =>
  events
    .filter((event) => event._tag !== "StreamDelta")
    .map((event) => event._tag)
    .filter((tag, i, all) => i === 0 || all[i - 1] !== tag)

/** Submits `prompt` and collects the session's events up to its turn's end. */
const turnEvents = (session: Session.Interface, prompt: string) =>
  Effect.gen(function* () {
    const collecting = yield* collectTurn(session)
    const turn = yield* session.submit(prompt)
    const result = yield* turn.result
    return { result, events: yield* Fiber.join(collecting) }
  })

/** Answers every permission ask of the session with `decide`, for as long as the scope lasts. */
const answering = (session: Session.Interface, decide: (asked: PermissionAsked) => PromptAnswer) =>
  Effect.gen(function* () {
    const events = yield* session.subscribe
    yield* Effect.forkScoped(
      Stream.runForEach(events, (event) =>
        event._tag === "PermissionAsked" ? Effect.asVoid(session.answerPermission(event.toolUseId, decide(event))) : Effect.void
      )
    )
  })


/** Every tool_use of the history is answered by a tool_result in the next message (what the API requires). */
const expectValidHistory = (history: ReadonlyArray<MessageParam>) => {
  history.forEach((message, i) => {
    if (message.role !== "assistant" || typeof message.content === "string") return
    const uses = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
    if (uses.length === 0) return
    const next = history[i + 1]
    const answered = next === undefined ? [] : toolResultsIn([next]).map((block) => block.tool_use_id)
    expect(answered).toEqual(uses)
  })
}

describe("Session", () => {
  it.effect("answers prompts in turn, each with the conversation so far; SessionStart runs once, SessionEnd at the end", () => {
    const log: Array<string> = []
    return Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.build(
        sessionLayer({
          script: [textTurn("first answer"), textTurn("second answer")],
          hooks: {
            sessionStart: () => Effect.sync(() => void log.push("start")).pipe(Effect.as({})),
            sessionEnd: () => Effect.sync(() => void log.push("end"))
          }
        })
      ).pipe(Scope.provide(scope))
      const session = Context.get(context, Session.Session)
      const first = yield* turnEvents(session, "one")
      expect(first.result).toMatchObject({ _tag: "Result", subtype: "success", result: "first answer" })
      expect(tagsOf(first.events)).toEqual(["TurnStarted", "SessionStarted", "TextDelta", "AssistantTurn", "Result", "TurnEnded"])
      const second = yield* turnEvents(session, "two")
      expect(second.result.result).toBe("second answer")
      expect(tagsOf(second.events)).not.toContain("SessionStarted")
      const requests = yield* Context.get(context, ScriptedModel).requests
      expect(requests[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"])
      expect((yield* session.history).length).toBe(4)
      const status = yield* session.status
      expect(status).toMatchObject({ busy: false, queued: 0, sessionId: "s-1", ended: false })
      expect(status.totals.responses).toBe(2)
      // The second Result counts the whole session.
      expect(second.result.totalCostUsd).toBeGreaterThanOrEqual(first.result.totalCostUsd)
      expect(log).toEqual(["start"])
      yield* Scope.close(scope, Exit.void)
      expect(log).toEqual(["start", "end"])
    })
  })

  it.effect("prompts submitted together are answered one after the other, in order", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const a = yield* session.submit("a")
      const b = yield* session.submit("b")
      expect((yield* a.result).result).toBe("A")
      expect((yield* b.result).result).toBe("B")
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests[1]?.messages.length).toBe(3)
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("A"), textTurn("B")] })))
  )

  it.effect("an ask answered by the host: allow with a new input (run with it), then deny with interrupt (the turn ends)", () => {
    const dir = tempDir()
    return Effect.gen(function* () {
      const session = yield* Session.Session
      yield* answering(session, (asked): PromptAnswer =>
        asked.toolUseId === "s1"
          ? { _tag: "Allow", updatedInput: { text: "changed" } }
          : { _tag: "Deny", reason: "Not that one.", interrupt: true }
      )
      const first = yield* turnEvents(session, "shout")
      expect(first.result).toMatchObject({ subtype: "success", result: "done" })
      const asked = first.events.find((event) => event._tag === "PermissionAsked")
      expect(asked).toMatchObject({ toolName: "Shout", input: { text: "hi" }, suggestions: [{ type: "addRules", behavior: "allow" }] })
      expect(first.events.find((event) => event._tag === "PermissionAnswered")).toMatchObject({ behavior: "allow" })
      expect(toolResultsIn(yield* session.history).map((block) => block.content)).toEqual(["shout: CHANGED"])
      // The per-call events come as each call runs, before the turn's results.
      const tags = tagsOf(first.events)
      expect(tags.indexOf("ToolStarted")).toBeLessThan(tags.indexOf("PermissionAsked"))
      expect(tags.indexOf("ToolEnded")).toBeLessThan(tags.indexOf("ToolResults"))

      const second = yield* turnEvents(session, "again")
      expect(second.result).toMatchObject({ isError: true, result: "Interrupted by the user." })
      const history = yield* session.history
      expectValidHistory(history)
      expect(toolResultsIn(history).at(-1)).toMatchObject({ tool_use_id: "s2", is_error: true, content: "Not that one." })
      expect((yield* session.status).busy).toBe(false)
    }).pipe(
      Effect.provide(
        hostAsked(dir, [
          ScriptTurn.blocks([toolUse("Shout", { text: "hi" }, "s1")]),
          textTurn("done"),
          ScriptTurn.blocks([toolUse("Shout", { text: "no" }, "s2")]),
          textTurn("never sent")
        ])
      )
    )
  })

  it.effect("an ask waiting when its turn is interrupted is withdrawn, and the session takes the next prompt", () => {
    const dir = tempDir()
    return Effect.gen(function* () {
      const session = yield* Session.Session
      const collecting = yield* collectTurn(session)
      const asked = yield* Deferred.make<void>()
      const watching = yield* session.subscribe
      yield* Effect.forkChild(
        Stream.runForEach(watching, (event) => (event._tag === "PermissionAsked" ? Deferred.succeed(asked, undefined) : Effect.void))
      )
      const turn = yield* session.submit("shout")
      yield* Deferred.await(asked)
      yield* session.interrupt
      expect((yield* turn.result).result).toBe("Interrupted by the user.")
      const seen = yield* Fiber.join(collecting)
      expect(seen.find((event) => event._tag === "PermissionAnswered")).toMatchObject({ behavior: "cancelled" })
      expectValidHistory(yield* session.history)
      expect(yield* session.answerPermission("s1", { _tag: "Allow" })).toBe(false)
      const next = yield* session.submit("next")
      expect((yield* next.result).result).toBe("next answer")
    }).pipe(
      Effect.provide(
        hostAsked(dir, [ScriptTurn.blocks([toolUse("Shout", { text: "hi" }, "s1")]), textTurn("next answer")])
      )
    )
  })

  it.effect("runTool runs a call as the user under the permission rules and hooks, with its events; the history is untouched", () => {
    const dir = tempDir()
    const seen: Array<string> = []
    return Effect.gen(function* () {
      const session = yield* Session.Session
      yield* answering(session, (asked): PromptAnswer =>
        JSON.stringify(asked.input).includes("yes") ? { _tag: "Allow" } : { _tag: "Deny", reason: "Not that one." }
      )
      const collecting = yield* collectTurn(session)
      const allowed = yield* session.runTool("Shout", { text: "yes" })
      expect(allowed).toMatchObject({ type: "tool_result", content: "shout: YES" })
      expect(allowed.is_error).toBeUndefined()
      const tags = tagsOf(yield* Fiber.join(collecting))
      expect(tags).toEqual(["TurnStarted", "ToolStarted", "PermissionAsked", "PermissionAnswered", "ToolEnded", "TurnEnded"])
      expect(seen).toEqual(["PreToolUse:Shout", "PostToolUse:Shout"])
      // Asked and denied: the call does not run, the denial is its result.
      const denied = yield* session.runTool("Shout", { text: "no" })
      expect(denied).toMatchObject({ is_error: true, content: "Not that one." })
      expect(yield* session.history).toEqual([])
      // Queued like a prompt: the next prompt is answered as usual.
      expect((yield* (yield* session.submit("next")).result).result).toBe("next answer")
    }).pipe(
      Effect.provide(
        sessionLayer({
          script: [textTurn("next answer")],
          permissions: realPermissions(dir),
          hooks: {
            preToolUse: (input) => Effect.sync(() => void seen.push(`PreToolUse:${input.toolName}`)).pipe(Effect.as({})),
            postToolUse: (input) => Effect.sync(() => void seen.push(`PostToolUse:${input.toolName}`)).pipe(Effect.as({}))
          },
          options: { prompter: "host" }
        })
      )
    )
  })

  it.effect("the mode changes while the session runs: plan refuses what it would have asked about", () => {
    const dir = tempDir()
    return Effect.gen(function* () {
      const session = yield* Session.Session
      const events = yield* session.subscribe
      const modes = yield* Effect.forkChild(
        Stream.runCollect(events.pipe(Stream.filter((event) => event._tag === "PermissionModeChanged"), Stream.take(1)))
      )
      yield* session.setPermissionMode("plan")
      expect(yield* Fiber.join(modes)).toEqual([{ _tag: "PermissionModeChanged", mode: "plan" }])
      expect((yield* session.status).permissionMode).toBe("plan")
      const turn = yield* turnEvents(session, "shout")
      expect(tagsOf(turn.events)).not.toContain("PermissionAsked")
      expect(toolResultsIn(yield* session.history)[0]?.content).toEqual(expect.stringContaining("plan mode"))
      // bypassPermissions is refused to a session that did not start in it.
      const refused = yield* Effect.flip(session.setPermissionMode("bypassPermissions"))
      expect(refused.message).toContain("bypassPermissions")
      yield* session.setPermissionMode("acceptEdits")
      expect((yield* session.status).permissionMode).toBe("acceptEdits")
    }).pipe(
      Effect.provide(
        hostAsked(dir, [ScriptTurn.blocks([toolUse("Shout", { text: "hi" }, "s1")]), textTurn("done")])
      )
    )
  })

  it.effect("the model changes for the next request", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      yield* (yield* session.submit("one")).result
      yield* session.setModel("claude-haiku-4-5")
      expect((yield* session.status).model).toBe("claude-haiku-4-5")
      yield* (yield* session.submit("two")).result
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests.map((request) => request.model)).toEqual(["claude-sonnet-4-5", "claude-haiku-4-5"])
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("a"), textTurn("b")], options: { model: "claude-sonnet-4-5" } })))
  )

  it.effect("a prompt's prepare runs when its turn begins: its prompt, reminders and model for that turn alone; a refusal answers it with an error", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const model = yield* ScriptedModel
      let requestsWhenPrepared = -1
      const first = yield* session.submit("first")
      const expanded = yield* session.submit("/cmd", {
        prepare: Effect.map(model.requests, (requests): Session.PreparedPrompt => {
          requestsWhenPrepared = requests.length
          return { prompt: "expanded", reminders: ["a note"], model: "claude-haiku-4-5" }
        })
      })
      const refused = yield* session.submit("/bad", { prepare: Effect.fail({ message: "/bad: refused" }) })
      const last = yield* session.submit("last")
      expect((yield* first.result).result).toBe("A")
      expect((yield* expanded.result).result).toBe("B")
      expect(yield* refused.result).toMatchObject({ isError: true, subtype: "error_during_execution", result: "/bad: refused", numTurns: 0 })
      expect((yield* last.result).result).toBe("C")
      // Prepared after the turn before it was answered.
      expect(requestsWhenPrepared).toBe(1)
      const requests = yield* model.requests
      expect(requests.map((request) => request.model)).toEqual(["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-5"])
      const sent = JSON.stringify(requests[1]?.messages.at(-1))
      expect(sent).toContain("expanded")
      expect(sent).toContain("a note")
      expect(sent).not.toContain("/cmd")
      // The refused prompt never entered the conversation.
      expect(JSON.stringify(requests[2]?.messages)).not.toContain("/bad")
      expect((yield* session.status).model).toBe("claude-sonnet-4-5")
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("A"), textTurn("B"), textTurn("C")], options: { model: "claude-sonnet-4-5" } })))
  )

  it.effect("interrupt while a prompt is being prepared: it is answered as interrupted, and the next prompt is taken", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const preparing = yield* Deferred.make<void>()
      const stuck = yield* session.submit("/slow", { prepare: Effect.andThen(Deferred.succeed(preparing, undefined), Effect.never) })
      const next = yield* session.submit("next")
      yield* Deferred.await(preparing)
      yield* session.interrupt
      expect(yield* stuck.result).toMatchObject({ isError: true, result: "The prompt was interrupted before it was sent." })
      expect((yield* next.result).result).toBe("A")
      expect((yield* (yield* ScriptedModel).requests).length).toBe(1)
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("A")] })))
  )

  it.effect("a prompt's own model (a custom command's) is its requests' only; the session's stays for the next", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      yield* (yield* session.submit("one", { model: "claude-haiku-4-5" })).result
      expect((yield* session.status).model).toBe("claude-sonnet-4-5")
      yield* (yield* session.submit("two")).result
      const requests = yield* (yield* ScriptedModel).requests
      expect(requests.map((request) => request.model)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"])
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("a"), textTurn("b")], options: { model: "claude-sonnet-4-5" } })))
  )

  it.effect("addRules writes the settings file atomically, keeping its other keys, and the rule holds at once", () => {
    const dir = tempDir()
    const file = nodePath.join(dir, ".claude", "settings.local.json")
    write(file, JSON.stringify({ model: "kept", permissions: { deny: ["Bash(rm:*)"], allow: ["Read"] } }))
    return Effect.gen(function* () {
      const session = yield* Session.Session
      yield* session.addRules(["Shout"], "allow", "localSettings")
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({
        model: "kept",
        permissions: { deny: ["Bash(rm:*)"], allow: ["Read", "Shout"] }
      })
      // Written whole and renamed into place: nothing else is left in the directory.
      expect(fs.readdirSync(nodePath.dirname(file))).toEqual(["settings.local.json"])
      // Added again: not repeated.
      yield* session.addRules(["Shout"], "allow", "localSettings")
      expect(JSON.parse(fs.readFileSync(file, "utf8")).permissions.allow).toEqual(["Read", "Shout"])
      const turn = yield* turnEvents(session, "shout")
      expect(tagsOf(turn.events)).not.toContain("PermissionAsked")
      expect(toolResultsIn(yield* session.history)[0]?.content).toBe("shout: HI")
      // A file that is not a JSON object is left alone.
      const project = nodePath.join(dir, ".claude", "settings.json")
      write(project, "[1, 2]")
      const refused = yield* Effect.flip(session.addRules(["Echo"], "deny", "projectSettings"))
      expect(refused.message).toContain("not a JSON object")
      expect(fs.readFileSync(project, "utf8")).toBe("[1, 2]")
    }).pipe(
      Effect.provide(
        hostAsked(dir, [ScriptTurn.blocks([toolUse("Shout", { text: "hi" }, "s1")]), textTurn("done")])
      )
    )
  })

  it.effect("an allow's rule updates are kept: the next call of the tool is not asked about", () => {
    const dir = tempDir()
    let asks = 0
    return Effect.gen(function* () {
      const session = yield* Session.Session
      yield* answering(session, (asked) => {
        asks++
        return { _tag: "Allow", updatedPermissions: asked.suggestions.map((update) => ({ ...update, destination: "session" as const })) }
      })
      yield* turnEvents(session, "one")
      yield* turnEvents(session, "two")
      expect(asks).toBe(1)
      expect(toolResultsIn(yield* session.history).map((block) => block.content)).toEqual(["shout: A", "shout: B"])
      expect(fs.existsSync(nodePath.join(dir, ".claude"))).toBe(false)
    }).pipe(
      Effect.provide(
        hostAsked(dir, [
          ScriptTurn.blocks([toolUse("Shout", { text: "a" }, "s1")]),
          textTurn("one"),
          ScriptTurn.blocks([toolUse("Shout", { text: "b" }, "s2")]),
          textTurn("two")
        ])
      )
    )
  })

  it.effect("hooks registered while the session runs act beside the session's, until their scope closes", () => {
    const seen: Array<string> = []
    return Effect.gen(function* () {
      const session = yield* Session.Session
      const scope = yield* Scope.make()
      yield* session
        .registerHooks({
          preToolUse: (input) =>
            Effect.succeed(input.toolUseId === "e1" ? { blocked: "not now" } : {})
        })
        .pipe(Scope.provide(scope))
      yield* turnEvents(session, "one")
      yield* Scope.close(scope, Exit.void)
      yield* turnEvents(session, "two")
      const results = toolResultsIn(yield* session.history)
      expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining("not now") })
      expect(results[1]).toMatchObject({ content: "echo: b" })
      // The session's own hook ran for both calls.
      expect(seen).toEqual(["e1", "e2"])
    }).pipe(
      Effect.provide(
        sessionLayer({
          script: [
            ScriptTurn.blocks([toolUse("Echo", { text: "a" }, "e1")]),
            textTurn("one"),
            ScriptTurn.blocks([toolUse("Echo", { text: "b" }, "e2")]),
            textTurn("two")
          ],
          hooks: { preToolUse: (input) => Effect.sync(() => void seen.push(input.toolUseId)).pipe(Effect.as({})) }
        })
      )
    )
  })

  it.effect("compact replaces the conversation with its summary, which the next prompt goes on from", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      yield* (yield* session.submit("one")).result
      const collecting = yield* collectTurn(session)
      yield* session.compact("Keep the numbers.")
      expect(tagsOf(yield* Fiber.join(collecting))).toEqual(["TurnStarted", "CompactionStarted", "Compacted", "TurnEnded"])
      const history = yield* session.history
      expect(history.length).toBe(1)
      expect(JSON.stringify(history[0])).toContain("the summary")
      const requests = yield* (yield* ScriptedModel).requests
      expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("Keep the numbers.")
      yield* (yield* session.submit("two")).result
      const after = yield* (yield* ScriptedModel).requests
      expect(after[2]?.messages.map((message) => message.role)).toEqual(["user"])
    }).pipe(
      Effect.provide(
        sessionLayer({ script: [textTurn("first"), textTurn("<summary>the summary</summary>"), textTurn("second")] })
      )
    )
  )

  it.effect("auto-compaction before a prompt's first request: the session keeps the compacted history", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      yield* (yield* session.submit("one")).result
      yield* (yield* session.submit("two")).result
      const requests = yield* (yield* ScriptedModel).requests
      // The second prompt's request went out after the summary, carrying it and the prompt.
      expect(requests.length).toBe(3)
      expect(JSON.stringify(requests[2]?.messages)).toContain("the summary")
      expect(JSON.stringify(requests[2]?.messages)).not.toContain("first")
      const history = yield* session.history
      expect(history.map((message) => message.role)).toEqual(["user", "assistant"])
    }).pipe(
      Effect.provide(
        sessionLayer({
          script: [
            textTurn("first", { usage: { input_tokens: 190_000 } }),
            textTurn("<summary>the summary</summary>"),
            textTurn("second")
          ],
          options: { contextWindow: 200_000 }
        })
      )
    )
  )

  it.effect("the transcript is one chain across prompts, each prompt's entries flushed before its Result", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const store = yield* SessionStore
      yield* (yield* session.submit("one")).result
      expect((yield* store.load("s-1")).length).toBe(2)
      yield* (yield* session.submit("two")).result
      const entries = yield* store.load("s-1")
      expect(entries.map((entry) => entry.type)).toEqual(["user", "assistant", "user", "assistant"])
      entries.forEach((entry, i) => expect(entry.parentUuid).toBe(i === 0 ? null : entries[i - 1]?.uuid))
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("a"), textTurn("b")] })))
  )

  it.effect("end: the turn in flight ends gracefully and is waited for, SessionEnd runs once, later prompts are refused", () => {
    const log: Array<string> = []
    return Effect.gen(function* () {
      const running = yield* Deferred.make<void>()
      const session = yield* Session.Session
      const events = yield* session.subscribe
      yield* Effect.forkChild(
        Stream.runForEach(events, (event) => (event._tag === "ToolStarted" ? Deferred.succeed(running, undefined) : Effect.void))
      )
      const turn = yield* session.submit("wait")
      const queued = yield* session.submit("never answered")
      yield* Deferred.await(running)
      yield* session.end("prompt_input_exit")
      expect((yield* turn.result).result).toBe("Interrupted by the user.")
      expect((yield* queued.result)).toMatchObject({ isError: true, result: expect.stringContaining("ended") })
      expectValidHistory(yield* session.history)
      yield* session.end()
      expect(log).toEqual(["end prompt_input_exit"])
      expect((yield* Effect.flip(session.submit("more"))).message).toContain("ended")
    }).pipe(
      Effect.provide(
        sessionLayer({
          script: [ScriptTurn.blocks([toolUse("Wait", {}, "w1")]), textTurn("never")],
          tools: [
            Tool.fromEffect({ name: "Wait", description: "never ends", input: Schema.Struct({}), run: () => Effect.never })
          ],
          hooks: { sessionEnd: (input) => Effect.sync(() => void log.push(`end ${input.reason}`)) }
        })
      )
    )
  })

  it.effect("closing the session's scope stops the turn in flight and answers the prompts still queued", () => {
    const interrupted: Array<string> = []
    return Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.build(
        sessionLayer({
          script: [ScriptTurn.blocks([toolUse("Wait", {}, "w1")]), textTurn("never")],
          tools: [
            Tool.fromEffect({
              name: "Wait",
              description: "never ends",
              input: Schema.Struct({}),
              run: () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void interrupted.push("w1"))))
            })
          ]
        })
      ).pipe(Scope.provide(scope))
      const session = Context.get(context, Session.Session)
      const events = yield* session.subscribe
      const running = yield* Deferred.make<void>()
      yield* Effect.forkChild(
        Stream.runForEach(events, (event) => (event._tag === "ToolStarted" ? Deferred.succeed(running, undefined) : Effect.void))
      )
      const first = yield* session.submit("wait")
      const second = yield* session.submit("queued")
      yield* Deferred.await(running)
      yield* Scope.close(scope, Exit.void)
      expect(interrupted).toEqual(["w1"])
      expect(yield* first.result).toMatchObject({ isError: true, result: expect.stringContaining("not answered") })
      expect(yield* second.result).toMatchObject({ isError: true, result: expect.stringContaining("not answered") })
    })
  })

  it.effect("a prompt submitted after the session ended is refused; one queued behind end is not answered", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const last = yield* session.submit("last", { endsSession: true })
      expect((yield* last.result).result).toBe("bye")
      const refused = yield* Effect.flip(session.submit("more"))
      expect(refused.message).toContain("ended")
      expect((yield* session.status).ended).toBe(true)
    }).pipe(Effect.provide(sessionLayer({ script: [textTurn("bye")] })))
  )
})

// ---------------------------------------------------------------------------------------------------------------
// Over the whole session (SessionServices.layerSession): real processes, an MCP server in the process.

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)
const environment = (home: string) =>
  ConfigProvider.fromEnv({ env: { WEFT_HOME: home, ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_MODEL: "claude-test-model" } })

const wholeSession = (
  cwd: string,
  script: Script,
  options: Partial<SessionServices.Options> = {}
) =>
  SessionServices.layerSession(
    { cwd, version: "test", ...options, session: { systemPrompt: "You are a test.", ...options.session } },
    { apiClient: ScriptedModel.layer(script) }
  )

/** A tiny MCP server answering in the host process: one tool, `echo`. */
const hostServer = (calls: Array<unknown>) => (message: unknown) =>
  Effect.sync((): unknown => {
    if (typeof message !== "object" || message === null || !("method" in message)) return undefined
    const { method } = message
    const id = "id" in message ? message.id : undefined
    if (id === undefined) return undefined
    const params = "params" in message && typeof message.params === "object" && message.params !== null ? message.params : {}
    switch (method) {
      case "initialize":
        return {
          jsonrpc: "2.0",
          id,
          result: {
            protocolVersion: "protocolVersion" in params ? params.protocolVersion : "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "host", version: "1.0.0" }
          }
        }
      case "tools/list":
        return {
          jsonrpc: "2.0",
          id,
          result: {
            tools: [{ name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { text: { type: "string" } } } }]
          }
        }
      case "tools/call": {
        calls.push(params)
        const args = "arguments" in params && typeof params.arguments === "object" && params.arguments !== null ? params.arguments : {}
        const text = "text" in args ? String(args.text) : ""
        return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `host says ${text}` }] } }
      }
      default:
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${String(method)}` } }
    }
  })

describe("Session over the session's services", () => {
  it.live("interrupt during a running Bash call: no process left, every call answered, the next prompt works", () => {
    const home = tempDir()
    const cwd = tempDir()
    const pidFile = nodePath.join(cwd, "pid")
    return Effect.gen(function* () {
      const session = yield* Session.Session
      const events = yield* session.subscribe
      const started = yield* Deferred.make<void>()
      yield* Effect.forkChild(
        Stream.runForEach(events, (event) => (event._tag === "ToolStarted" ? Deferred.succeed(started, undefined) : Effect.void))
      )
      const turn = yield* session.submit("sleep")
      yield* Deferred.await(started)
      for (let attempt = 0; attempt < 1000 && !fs.existsSync(pidFile); attempt++) yield* sleepLive(10)
      const pid = Number(fs.readFileSync(pidFile, "utf8").trim())
      expect(isRunning(pid)).toBe(true)
      yield* session.interrupt
      expect(yield* turn.result).toMatchObject({ isError: true, result: "Interrupted by the user." })
      expect(isRunning(pid), `pid ${pid} still running`).toBe(false)
      const history = yield* session.history
      expectValidHistory(history)
      expect(toolResultsIn(history)).toEqual([expect.objectContaining({ tool_use_id: "b1", is_error: true })])
      const next = yield* session.submit("next")
      expect((yield* next.result).result).toBe("after")
    }).pipe(
      Effect.provide(
        wholeSession(cwd, [ScriptTurn.blocks([toolUse("Bash", { command: "echo $$ > pid; sleep 1000" }, "b1")]), textTurn("after")], {
          permissionMode: "bypassPermissions"
        })
      ),
      Effect.provide(platform),
      Effect.provideService(ConfigProvider.ConfigProvider, environment(home))
    )
  })

  it.live("a host MCP server that fails answers the call with an error; the session goes on", () => {
    const home = tempDir()
    const cwd = tempDir()
    const calls: Array<unknown> = []
    const working = hostServer(calls)
    return Effect.gen(function* () {
      const session = yield* Session.Session
      expect((yield* (yield* session.submit("call it")).result).result).toBe("done")
      const [result] = toolResultsIn(yield* session.history)
      expect(result).toMatchObject({ is_error: true, content: expect.stringContaining("the host is down") })
    }).pipe(
      Effect.provide(
        wholeSession(cwd, [ScriptTurn.blocks([toolUse("mcp__host__echo", { text: "hi" }, "m1")]), textTurn("done")], {
          mcpServers: [
            {
              name: "host",
              scope: "dynamic",
              origin: "sdk",
              config: {
                type: "sdk",
                send: (message) =>
                  typeof message === "object" && message !== null && "method" in message && message.method === "tools/call"
                    ? Effect.fail({ message: "the host is down" })
                    : working(message)
              }
            }
          ],
          permissionMode: "bypassPermissions"
        })
      ),
      Effect.provide(platform),
      Effect.provideService(ConfigProvider.ConfigProvider, environment(home))
    )
  })

  it.live("an MCP server living in the host process: its tool is mcp__host__echo, under the same rules", () => {
    const home = tempDir()
    const cwd = tempDir()
    const calls: Array<unknown> = []
    return Effect.gen(function* () {
      const session = yield* Session.Session
      expect((yield* session.status).servers).toEqual([{ name: "host", status: "connected" }])
      // Allowed by the --allowedTools rule.
      expect((yield* (yield* session.submit("call it")).result).result).toBe("one")
      // Denied by a rule added since: deny wins.
      yield* session.addRules(["mcp__host__echo"], "deny", "session")
      expect((yield* (yield* session.submit("again")).result).result).toBe("two")
      expect(toolResultsIn(yield* session.history).map((block) => block.content)).toEqual([
        [{ type: "text", text: "host says hi" }],
        expect.stringContaining("denied")
      ])
      expect(calls).toEqual([{ name: "echo", arguments: { text: "hi" } }])
    }).pipe(
      Effect.provide(
        wholeSession(
          cwd,
          [
            ScriptTurn.blocks([toolUse("mcp__host__echo", { text: "hi" }, "m1")]),
            textTurn("one"),
            ScriptTurn.blocks([toolUse("mcp__host__echo", { text: "again" }, "m2")]),
            textTurn("two")
          ],
          {
            mcpServers: [{ name: "host", scope: "dynamic", origin: "sdk", config: { type: "sdk", send: hostServer(calls) } }],
            allowedRules: ["mcp__host__echo"]
          }
        )
      ),
      Effect.provide(platform),
      Effect.provideService(ConfigProvider.ConfigProvider, environment(home))
    )
  })
})
