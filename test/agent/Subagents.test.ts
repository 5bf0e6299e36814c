import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as Session from "../../src/agent/Session.js"
import * as Subagents from "../../src/agent/Subagents.js"
import type { AgentEvent } from "../../src/domain/AgentEvent.js"
import type { ContentBlock } from "../../src/domain/Content.js"
import type { MessageParam } from "../../src/domain/Message.js"
import type { MessagesRequest } from "../../src/domain/Request.js"
import * as AgentDefinitions from "../../src/extensions/AgentDefinitions.js"
import { Hooks } from "../../src/hooks/Hooks.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import type { Script } from "../../src/testing/Script.js"
import { ScriptedModel } from "../../src/testing/ScriptedModel.js"
import { tempDir } from "../support/TempFiles.js"
import { collectTurn, type Harness, realPermissions, sessionLayer as sessionLayerOf, toolResultsIn } from "./support.js"

const reviewer: AgentDefinitions.Definition = {
  name: "reviewer",
  description: "Reviews code",
  prompt: "You review code.",
  tools: ["Echo"],
  source: "project"
}

const planner: AgentDefinitions.Definition = {
  name: "planner",
  description: "Plans, reading only",
  prompt: "You plan.",
  planMode: true,
  source: "project"
}

const agents = [...AgentDefinitions.builtIn, reviewer, planner]

const sessionLayer = (harness: Harness) => sessionLayerOf(harness, { systemPrompt: "You are the parent.", agents })

/** Runs one prompt; answers its Result, the session's events and the requests the model received. */
const runPrompt = (harness: Harness, prompt = "go") =>
  Effect.gen(function* () {
    const session = yield* Session.Session
    const collecting = yield* collectTurn(session)
    const turn = yield* session.submit(prompt)
    const result = yield* turn.result
    const requests = yield* ScriptedModel.use((model) => model.requests)
    return { result, events: yield* Fiber.join(collecting), requests, history: yield* session.history }
  }).pipe(Effect.provide(sessionLayer(harness)))

const textOf = (content: MessageParam["content"]): string =>
  typeof content === "string"
    ? content
    : content.map((block: ContentBlock) => (block.type === "text" ? block.text : block.type === "tool_result" ? JSON.stringify(block.content) : "")).join("\n")

const toolNames = (request: MessagesRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name)

const call = (input: Record<string, unknown>, id = "toolu_agent") => toolUse("Agent", input, id)

/** Submits a prompt, interrupts the session once a subagent has started, and checks the turn ended interrupted. */
const interruptOnceAChildStarts = Effect.gen(function* () {
  const session = yield* Session.Session
  const events = yield* session.subscribe
  const started = yield* Effect.forkChild(Stream.runHead(events.pipe(Stream.filter((event: AgentEvent) => event._tag === "SubagentStarted"))))
  const turn = yield* session.submit("go")
  yield* Fiber.join(started)
  yield* session.interrupt
  const result = yield* turn.result
  expect(result.isError).toBe(true)
  expect(result.result).toContain("Interrupted")
})

describe("Subagents", () => {
  it.effect("a foreground call runs the child in its own scope and answers with its final text; its usage counts in the totals", () =>
    Effect.gen(function* () {
      const { result, events, requests, history } = yield* runPrompt({
        script: [
          ScriptTurn.blocks([call({ description: "look", prompt: "Find the answer", subagent_type: "reviewer", run_in_background: false })]),
          ScriptTurn.blocks([toolUse("Echo", { text: "hi" })]),
          textTurn("the answer is 42"),
          textTurn("done")
        ]
      })
      expect(result.isError).toBe(false)
      expect(result.result).toBe("done")
      // The parent's request offers the Agent tool after its own; its first message lists the agents.
      expect(toolNames(requests[0])).toEqual(["Echo", "Shout", "Agent"])
      expect(textOf(requests[0]!.messages[0]!.content)).toContain("- reviewer: Reviews code (Tools: Echo)")
      expect(textOf(requests[0]!.messages[0]!.content)).toContain("- Explore: ")
      // The child: its own system prompt, the call's prompt alone, exactly its tools.
      const child = requests[1]!
      expect(JSON.stringify(child.system)).toContain("You review code.")
      expect(JSON.stringify(child.system)).not.toContain("You are the parent.")
      expect(child.messages).toHaveLength(1)
      expect(textOf(child.messages[0]!.content)).toBe("Find the answer")
      expect(toolNames(child)).toEqual(["Echo"])
      expect(requests[2]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"])
      // The tool result holds the child's answer and its id.
      const answer = toolResultsIn(history).find((block) => block.tool_use_id === "toolu_agent")!
      expect(answer.is_error).toBeUndefined()
      expect(JSON.stringify(answer.content)).toContain("the answer is 42")
      expect(JSON.stringify(answer.content)).toMatch(/agentId: a[0-9a-f]{16}/)
      // Four responses in all: the child's two count in the session's totals.
      const parentOnly = requests.length
      expect(parentOnly).toBe(4)
      const modelUsage = Object.values(result.modelUsage)
      expect(modelUsage.reduce((sum, entry) => sum + entry.outputTokens, 0)).toBe(result.usage.output_tokens)
      const status = yield* Effect.succeed(result)
      expect(status.usage.input_tokens).toBeGreaterThan(0)
      // The child's events come wrapped, with the call's id.
      const wrapped = events.filter((event) => event._tag === "SubagentEvent")
      expect(wrapped.map((event) => event.event._tag)).toContain("AssistantTurn")
      expect(wrapped.every((event) => event.parentToolUseId === "toolu_agent" && event.agentType === "reviewer")).toBe(true)
      expect(events.some((event) => event._tag === "SubagentStarted")).toBe(true)
      const ended = events.find((event) => event._tag === "SubagentEnded")
      expect(ended?._tag === "SubagentEnded" && ended.status).toBe("completed")
    }))

  it.effect("the session's totals count the child's responses", () =>
    Effect.gen(function* () {
      const script: Script = [
        ScriptTurn.blocks([call({ description: "d", prompt: "p", run_in_background: false })]),
        textTurn("child", { usage: { input_tokens: 1000, output_tokens: 500 } }),
        textTurn("parent", { usage: { input_tokens: 10, output_tokens: 5 } })
      ]
      const { result } = yield* runPrompt({ script })
      expect(result.usage.output_tokens).toBeGreaterThanOrEqual(505)
      expect(result.usage.input_tokens).toBeGreaterThanOrEqual(1010)
    }))

  it.effect("the child's model: the call's, else the agent's, else the session's", () =>
    Effect.gen(function* () {
      const { requests } = yield* runPrompt({
        options: { model: "claude-parent-1", agents: [...agents, { ...reviewer, name: "fast", model: "haiku" }] },
        script: [
          ScriptTurn.blocks([
            call({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false }, "toolu_1"),
            call({ description: "d", prompt: "p", subagent_type: "fast", run_in_background: false }, "toolu_2"),
            call({ description: "d", prompt: "p", subagent_type: "fast", model: "opus", run_in_background: false }, "toolu_3")
          ]),
          textTurn("child"),
          textTurn("child"),
          textTurn("child"),
          textTurn("done")
        ]
      })
      expect(requests[0]!.model).toBe("claude-parent-1")
      // The three children run side by side: their requests, in any order.
      expect(requests.slice(1, 4).map((request) => request.model).sort()).toEqual(["claude-haiku-5-5", "claude-opus-5-5", "claude-parent-1"])
    }))

  it.effect("a tool outside the agent's list does not exist for the child", () =>
    Effect.gen(function* () {
      const { requests } = yield* runPrompt({
        script: [
          ScriptTurn.blocks([call({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false })]),
          ScriptTurn.blocks([toolUse("Shout", { text: "x" }, "toolu_shout")]),
          textTurn("could not"),
          textTurn("done")
        ]
      })
      const refused = toolResultsIn(requests[2]!.messages).find((block) => block.tool_use_id === "toolu_shout")!
      expect(refused.is_error).toBe(true)
      expect(JSON.stringify(refused.content)).toContain("No such tool")
    }))

  it.effect("an unknown agent type is an error naming the agents", () =>
    Effect.gen(function* () {
      const { history } = yield* runPrompt({
        script: [ScriptTurn.blocks([call({ description: "d", prompt: "p", subagent_type: "nope", run_in_background: false })]), textTurn("ok")]
      })
      const answer = toolResultsIn(history)[0]!
      expect(answer.is_error).toBe(true)
      expect(JSON.stringify(answer.content)).toContain("Agent type 'nope' not found. Available agents: general-purpose, Explore, Plan, reviewer")
    }))

  it.effect("an input outside the schema is refused; a Task call is the Agent tool's", () =>
    Effect.gen(function* () {
      const { history, requests } = yield* runPrompt({
        script: [
          ScriptTurn.blocks([
            toolUse("Agent", { description: "d", prompt: "p", extra: 1 }, "toolu_bad"),
            toolUse("Task", { description: "d", prompt: "p", run_in_background: false }, "toolu_task")
          ]),
          textTurn("child"),
          textTurn("ok")
        ]
      })
      const [bad, task] = toolResultsIn(history)
      expect(bad!.is_error).toBe(true)
      expect(JSON.stringify(bad!.content)).toContain("unknown field(s) extra")
      expect(JSON.stringify(task!.content)).toContain("child")
      expect(requests).toHaveLength(3)
      const schema = requests[0]!.tools!.find((tool) => tool.name === "Agent")!.input_schema
      expect(schema["additionalProperties"]).toBe(false)
      expect(schema["required"]).toEqual(["description", "prompt"])
    }))

  it.effect("hooks: SubagentStart and SubagentStop with the agent's id and type; tool hooks inside carry them", () => {
    const seen: Array<Record<string, unknown>> = []
    return Effect.gen(function* () {
      yield* runPrompt({
        hooks: {
          subagentStart: (input) => Effect.sync(() => void seen.push({ event: "start", ...input })).pipe(Effect.as({ additionalContext: "be brief" })),
          subagentStop: (input) => Effect.sync(() => void seen.push({ event: "stop", ...input })).pipe(Effect.as({})),
          stop: (input) => Effect.sync(() => void seen.push({ event: "mainStop", ...input })).pipe(Effect.as({})),
          preToolUse: (input) => Effect.sync(() => void seen.push({ event: "pre", ...input })).pipe(Effect.as({}))
        },
        script: [
          ScriptTurn.blocks([call({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false })]),
          ScriptTurn.blocks([toolUse("Echo", { text: "hi" })]),
          textTurn("child done"),
          textTurn("done")
        ]
      })
      const start = seen.find((entry) => entry["event"] === "start")!
      expect(start["agentType"]).toBe("reviewer")
      const agentId = start["agentId"]
      expect(agentId).toMatch(/^a[0-9a-f]{16}$/)
      const stop = seen.find((entry) => entry["event"] === "stop")!
      expect(stop).toMatchObject({ agentId, agentType: "reviewer", lastAssistantMessage: "child done", stopHookActive: false })
      const pres = seen.filter((entry) => entry["event"] === "pre")
      expect(pres.find((entry) => entry["toolName"] === "Agent")!["agentId"]).toBeUndefined()
      expect(pres.find((entry) => entry["toolName"] === "Echo")).toMatchObject({ agentId, agentType: "reviewer" })
      // Stop fires for the main conversation only.
      expect(seen.filter((entry) => entry["event"] === "mainStop")).toHaveLength(1)
    })
  })

  it.effect("a SubagentStop hook that blocks sends the child back to work with its feedback", () => {
    let stops = 0
    return Effect.gen(function* () {
      const { requests, history } = yield* runPrompt({
        hooks: {
          subagentStop: () => Effect.sync(() => ++stops).pipe(Effect.map((n) => (n === 1 ? { continueWith: "check the tests too" } : {})))
        },
        script: [
          ScriptTurn.blocks([call({ description: "d", prompt: "p", run_in_background: false })]),
          textTurn("first answer"),
          textTurn("second answer"),
          textTurn("done")
        ]
      })
      expect(stops).toBe(2)
      expect(textOf(requests[2]!.messages[2]!.content)).toContain("Stop hook feedback:\ncheck the tests too")
      expect(JSON.stringify(toolResultsIn(history)[0]!.content)).toContain("second answer")
    })
  })

  it.effect("SubagentStart's context reaches the child", () =>
    Effect.gen(function* () {
      const { requests } = yield* runPrompt({
        hooks: { subagentStart: () => Effect.succeed({ additionalContext: "be brief" }) },
        script: [ScriptTurn.blocks([call({ description: "d", prompt: "p", run_in_background: false })]), textTurn("c"), textTurn("done")]
      })
      expect(textOf(requests[1]!.messages[0]!.content)).toContain("be brief")
    }))

  it.effect("a background call returns at once; the turn waits for it and goes on with a task notification", () =>
    Effect.gen(function* () {
      const { history, result, requests } = yield* runPrompt({
        script: [
          ScriptTurn.blocks([call({ description: "bg work", prompt: "p" })]),
          // The parent's next request and the child's are concurrent: both answer with text.
          textTurn("same"),
          textTurn("same"),
          textTurn("final")
        ]
      })
      expect(JSON.stringify(toolResultsIn(history)[0]!.content)).toContain("Async agent launched successfully")
      const notice = history.find((message) => message.role === "user" && textOf(message.content).includes("<task-notification>"))
      expect(notice).toBeDefined()
      expect(textOf(notice!.content)).toContain("<status>completed</status>")
      expect(textOf(notice!.content)).toContain("<result>same</result>")
      expect(result.result).toBe("final")
      expect(requests).toHaveLength(4)
    }))

  it.effect("Agent(type) rules: a deny rule refuses that type, others run", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const { history } = yield* runPrompt({
        permissions: realPermissions(dir, { disallowedTools: ["Agent(reviewer)"] }),
        script: [
          ScriptTurn.blocks([
            call({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false }, "toolu_denied"),
            call({ description: "d", prompt: "p", subagent_type: "general-purpose", run_in_background: false }, "toolu_ok")
          ]),
          textTurn("child"),
          textTurn("done")
        ]
      })
      const [denied, ok] = toolResultsIn(history)
      expect(denied!.is_error).toBe(true)
      expect(JSON.stringify(denied!.content)).toContain("Agent(reviewer)")
      expect(ok!.is_error).toBeUndefined()
    }))

  it.effect("a read-only agent runs in plan mode: a write its rules allow is refused inside it", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const { requests } = yield* runPrompt({
        permissions: realPermissions(dir, { allowedTools: ["Shout"] }),
        script: [
          ScriptTurn.blocks([call({ description: "d", prompt: "p", subagent_type: "planner", run_in_background: false })]),
          ScriptTurn.blocks([toolUse("Shout", { text: "x" }, "toolu_shout"), toolUse("Echo", { text: "y" }, "toolu_echo")]),
          textTurn("plan"),
          ScriptTurn.blocks([toolUse("Shout", { text: "z" }, "toolu_parent_shout")]),
          textTurn("done")
        ]
      })
      const inside = toolResultsIn(requests[2]!.messages)
      expect(inside.find((block) => block.tool_use_id === "toolu_shout")!.is_error).toBe(true)
      expect(JSON.stringify(inside.find((block) => block.tool_use_id === "toolu_shout")!.content)).toContain("plan mode")
      expect(inside.find((block) => block.tool_use_id === "toolu_echo")!.is_error).toBeUndefined()
      // The parent, in default mode, still runs what its rules allow.
      const parent = toolResultsIn(requests[4]!.messages).find((block) => block.tool_use_id === "toolu_parent_shout")!
      expect(parent.is_error).toBeUndefined()
    }))

  it.effect("plan mode: the model is told, and a write is refused even when allowed", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const { requests } = yield* runPrompt({
        permissions: realPermissions(dir, { mode: "plan", allowedTools: ["Shout"] }),
        script: [ScriptTurn.blocks([toolUse("Shout", { text: "x" }, "toolu_shout")]), textTurn("done")]
      })
      expect(textOf(requests[0]!.messages[0]!.content)).toContain("Plan mode is active")
      expect(toolNames(requests[0])).not.toContain("ExitPlanMode")
      const refused = toolResultsIn(requests[1]!.messages)[0]!
      expect(refused.is_error).toBe(true)
    }))

  it.effect("ExitPlanMode, where offered, asks the host; an allow leaves plan mode", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const asked: Array<string> = []
      const { requests } = yield* runPrompt({
        permissions: realPermissions(dir, { mode: "plan" }),
        options: {
          exitPlanMode: true,
          prompter: {
            ask: (request) => Effect.sync(() => void asked.push(`${request.toolName}:${JSON.stringify(request.input)}`)).pipe(Effect.as({ _tag: "Allow" as const }))
          }
        },
        script: [
          ScriptTurn.blocks([toolUse("ExitPlanMode", { plan: "1. shout" }, "toolu_exit")]),
          ScriptTurn.blocks([toolUse("Shout", { text: "x" }, "toolu_shout")]),
          textTurn("done")
        ]
      })
      expect(toolNames(requests[0])).toContain("ExitPlanMode")
      expect(asked[0]).toBe('ExitPlanMode:{"plan":"1. shout"}')
      const results = toolResultsIn(requests[2]!.messages)
      expect(results.find((block) => block.tool_use_id === "toolu_shout")!.is_error).toBeUndefined()
    }))

  it.effect("a host answers a child's permission ask as any other", () =>
    Effect.gen(function* () {
      const session = yield* Session.Session
      const events = yield* session.subscribe
      yield* Effect.forkScoped(
        Stream.runForEach(events, (event) =>
          event._tag === "PermissionAsked" ? Effect.asVoid(session.answerPermission(event.toolUseId, { _tag: "Allow" })) : Effect.void
        )
      )
      const turn = yield* session.submit("go")
      const result = yield* turn.result
      expect(result.result).toBe("done")
      const requests = yield* ScriptedModel.use((model) => model.requests)
      const shouted = toolResultsIn(requests[2]!.messages).find((block) => block.tool_use_id === "toolu_shout")!
      expect(shouted.is_error).toBeUndefined()
      expect(JSON.stringify(shouted.content)).toContain("shout: X")
    }).pipe(
      Effect.provide(
        sessionLayer({
          permissions: realPermissions(tempDir()),
          options: { prompter: "host" },
          script: [
            ScriptTurn.blocks([call({ description: "d", prompt: "p", run_in_background: false })]),
            ScriptTurn.blocks([toolUse("Shout", { text: "x" }, "toolu_shout")]),
            textTurn("shouted"),
            textTurn("done")
          ]
        })
      )
    ))

  it.effect("the child's turns go to its own transcript file", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      yield* runPrompt({
        options: { subagentTranscriptDir: dir, redact: (text) => text.replaceAll("sk-secret", "[redacted]") },
        script: [
          ScriptTurn.blocks([call({ description: "d", prompt: "child prompt with sk-secret", run_in_background: false })]),
          textTurn("child answer"),
          textTurn("done")
        ]
      })
      const folder = nodePath.join(dir, "s-1", "subagents")
      const files = fs.readdirSync(folder)
      expect(files).toHaveLength(1)
      expect(files[0]).toMatch(/^agent-a[0-9a-f]{16}\.jsonl$/)
      const lines = fs.readFileSync(nodePath.join(folder, files[0]!), "utf8").trim().split("\n").map((line) => JSON.parse(line))
      expect(lines.map((line) => line.type)).toEqual(["user", "assistant"])
      expect(lines[1].parentUuid).toBe(lines[0].uuid)
      expect(lines[0].isSidechain).toBe(true)
      // weft's credentials are redacted from it, as from the session's own transcript.
      expect(JSON.stringify(lines)).not.toContain("sk-secret")
      expect(JSON.stringify(lines[0].message)).toContain("[redacted]")
    }))

  it.live("interrupting the parent ends a running child", () =>
    interruptOnceAChildStarts.pipe(
      Effect.provide(
        sessionLayer({
          script: [
            ScriptTurn.blocks([call({ description: "d", prompt: "p", run_in_background: false })]),
            ScriptTurn.blocks([{ type: "text", text: "never" }], { faults: [{ fault: { _tag: "NoResponse" }, times: 1 }] })
          ]
        })
      )
    ))

  it.live("interrupting the parent while it waits for a background agent stops both", () =>
    interruptOnceAChildStarts.pipe(
      Effect.provide(
        sessionLayer({
          script: [
            ScriptTurn.blocks([call({ description: "d", prompt: "p" })]),
            // The child's request and the parent's next one: whichever comes first never answers.
            ScriptTurn.blocks([{ type: "text", text: "never" }], { faults: [{ fault: { _tag: "NoResponse" }, times: 1 }] }),
            textTurn("waiting")
          ]
        })
      )
    ))

  it.effect("concurrent calls run side by side, bounded", () =>
    Effect.gen(function* () {
      const calls = Array.from({ length: 5 }, (_, i) => call({ description: "d", prompt: "p", run_in_background: false }, `toolu_${i}`))
      const { history } = yield* runPrompt({
        options: { maxConcurrentSubagents: 2 },
        script: [ScriptTurn.blocks(calls), ...calls.map(() => textTurn("child")), textTurn("done")]
      })
      const results = toolResultsIn(history)
      expect(results).toHaveLength(5)
      expect(results.every((block) => JSON.stringify(block.content).includes("child"))).toBe(true)
    }))
})

describe("Subagents.decodeInput", () => {
  it("takes Claude Code's fields and refuses others", () => {
    expect(Subagents.decodeInput({ description: "d", prompt: "p", run_in_background: false })).toEqual({
      description: "d",
      prompt: "p",
      run_in_background: false
    })
    expect(Subagents.decodeInput({ description: "d" })).toContain("prompt")
    expect(Subagents.decodeInput({ description: "d", prompt: "p", isolation: "worktree" })).toBe("isolation is not supported")
  })
})
