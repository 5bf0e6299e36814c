/**
 * weft -p with subagents and plan mode, through the built binary against the mock Messages API. The mock answers a
 * child's requests from their own script (told by the agent's system prompt), apart from the parent's.
 */
import { chmodSync, existsSync, readFileSync, readdirSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { isRecord } from "../../src/domain/Json.js"
import { systemContains } from "../../src/testing/MockAnthropicServer.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { readFile } from "node:fs/promises"
import { frames, isAlive, resultFrame, runWeft, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

const reviewerFile = [
  "---",
  "name: reviewer",
  "description: Reviews a file for bugs",
  "tools: Read, Grep",
  "---",
  "You are the reviewer. Read what you are asked about and report bugs."
].join("\n")

const agentCall = (input: Record<string, unknown>, id = "toolu_agent") => toolUse("Agent", input, id)

type Request = { readonly path: string; readonly body: unknown }
const messageRequests = (requests: () => ReadonlyArray<Request>): ReadonlyArray<Readonly<Record<string, unknown>>> =>
  requests().flatMap((request) =>
    request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens") && isRecord(request.body) ? [request.body] : []
  )
const systemOf = (body: Readonly<Record<string, unknown>>) => JSON.stringify(body["system"] ?? "")
const toolNamesOf = (body: Readonly<Record<string, unknown>>) => {
  const tools = body["tools"]
  return Array.isArray(tools) ? tools.flatMap((tool: unknown) => (isRecord(tool) && typeof tool["name"] === "string" ? [tool["name"]] : [])) : []
}
/** The content blocks of a user or assistant frame. */
const blocksOf = (frame: Readonly<Record<string, unknown>>): ReadonlyArray<Readonly<Record<string, unknown>>> => {
  const message = frame["message"]
  const content = isRecord(message) ? message["content"] : undefined
  return Array.isArray(content) ? content.filter(isRecord) : []
}
const numberOf = (value: unknown, key: string) => (isRecord(value) && typeof value[key] === "number" ? value[key] : Number.NaN)

describe("weft -p: subagents", { timeout: 120_000 }, () => {
  it("a project agent runs as a child: own prompt and tools, frames tagged with the call, its own transcript, usage counted", async () => {
    const { dir, env, server, home } = await setup({ ".claude/agents/reviewer.md": reviewerFile, "a.js": "let x = 1\n" }, () => ({
      script: [
        ScriptTurn.blocks([agentCall({ description: "review a.js", prompt: "Review a.js", subagent_type: "reviewer", run_in_background: false })]),
        textTurn("The reviewer found nothing.")
      ],
      conversations: [
        {
          when: systemContains("You are the reviewer."),
          script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.js" }, "toolu_read")]), textTurn("a.js looks fine")]
        }
      ]
    }))
    const out = await runWeft(["-p", "review please", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const all = frames(out.stdout)
    const init = all[0]!
    expect(init["agents"]).toEqual(["general-purpose", "Explore", "Plan", "reviewer"])
    expect(init["tools"]).toContain("Task")
    expect(init["tools"]).not.toContain("Agent")

    const bodies = messageRequests(server.requests)
    const parentFirst = bodies[0]!
    expect(toolNamesOf(parentFirst)).toContain("Agent")
    expect(JSON.stringify(parentFirst["messages"])).toContain("- reviewer: Reviews a file for bugs (Tools: Read, Grep)")
    const child = bodies.find((body) => systemOf(body).includes("You are the reviewer."))!
    expect([...toolNamesOf(child)].sort()).toEqual(["Grep", "Read"])
    expect(JSON.stringify(child["messages"])).not.toContain("review please")

    // The child's frames carry the Agent call's id; task frames bracket it.
    const childFrames = all.filter((frame) => frame["parent_tool_use_id"] === "toolu_agent")
    expect(childFrames.map((frame) => frame["type"])).toEqual(["assistant", "user", "assistant"])
    expect(childFrames[0]).toMatchObject({ subagent_type: "reviewer" })
    const started = all.find((frame) => frame["subtype"] === "task_started")
    expect(started).toMatchObject({ tool_use_id: "toolu_agent", description: "review a.js", subagent_type: "reviewer" })
    const progress = all.find((frame) => frame["subtype"] === "task_progress")
    expect(progress).toMatchObject({ tool_use_id: "toolu_agent", last_tool_name: "Read", usage: { tool_uses: 1 } })
    const notified = all.find((frame) => frame["subtype"] === "task_notification")
    expect(notified).toMatchObject({ tool_use_id: "toolu_agent", status: "completed" })
    // The parent frames stay unparented.
    expect(all.filter((frame) => frame["type"] === "assistant" && frame["parent_tool_use_id"] === null)).toHaveLength(2)
    const agentResult = JSON.stringify(all.find((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === null))
    expect(agentResult).toContain("a.js looks fine")

    const result = resultFrame(out.stdout)
    // Four responses: two each; the child's count in the totals.
    const modelUsage = Object.values(isRecord(result["modelUsage"]) ? result["modelUsage"] : {})
    expect(modelUsage.reduce((sum: number, entry) => sum + numberOf(entry, "outputTokens"), 0)).toBe(numberOf(result["usage"], "output_tokens"))
    expect(result["subagent_stats"]).toMatchObject({ count: 1 })

    // The child's transcript is its own file beside the session's.
    const sessionId = String(result["session_id"])
    const slugDir = join(home, "projects", resolve(dir).replace(/[^a-zA-Z0-9]/g, "-"))
    const subagentsDir = join(slugDir, sessionId, "subagents")
    const files = readdirSync(subagentsDir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^agent-a[0-9a-f]{16}\.jsonl$/)
    const childEntries = readFileSync(join(subagentsDir, files[0]!), "utf8").trim().split("\n")
    expect(childEntries).toHaveLength(4)
    // ... and not spliced into the parent's.
    expect(readFileSync(join(slugDir, `${sessionId}.jsonl`), "utf8")).not.toContain("a.js looks fine\"}],\"model")
  })

  it("--agents wins over the project's file of the same name; a bad --agents is refused", async () => {
    const { dir, env, server } = await setup({ ".claude/agents/reviewer.md": reviewerFile }, () => ({
      script: [
        ScriptTurn.blocks([agentCall({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false })]),
        textTurn("done")
      ],
      conversations: [{ when: systemContains("FLAG REVIEWER"), script: [textTurn("flag reviewer here")] }]
    }))
    const agents = JSON.stringify({ reviewer: { description: "The flag's reviewer", prompt: "FLAG REVIEWER", tools: ["Read"] } })
    const out = await runWeft(["-p", "go", "--output-format", "json", "--agents", agents], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const bodies = messageRequests(server.requests)
    expect(bodies.some((body) => systemOf(body).includes("FLAG REVIEWER"))).toBe(true)
    expect(bodies.some((body) => systemOf(body).includes("You are the reviewer."))).toBe(false)

    const bad = await runWeft(["-p", "go", "--agents", "[1]"], { cwd: dir, env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain("--agents")
    const incomplete = await runWeft(["-p", "go", "--agents", '{"x": {"description": "d"}}'], { cwd: dir, env })
    expect(incomplete.code).not.toBe(0)
    expect(incomplete.stderr).toContain('"x" needs a "description" and a "prompt"')
  })

  it("--disallowedTools Agent removes the tool; Agent(name) denies one type", async () => {
    const { dir, env, server } = await setup({ ".claude/agents/reviewer.md": reviewerFile }, () => ({
      script: [
        ScriptTurn.blocks([
          agentCall({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false }, "toolu_denied"),
          agentCall({ description: "d", prompt: "p", subagent_type: "general-purpose", run_in_background: false }, "toolu_ok")
        ]),
        textTurn("done")
      ],
      conversations: [{ when: systemContains("You are an agent for a coding agent"), script: [textTurn("general answer")] }]
    }))
    const removed = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Agent"], { cwd: dir, env })
    expect(frames(removed.stdout)[0]!["tools"]).not.toContain("Task")
    expect(toolNamesOf(messageRequests(server.requests)[0]!)).not.toContain("Agent")

    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Agent(reviewer)"], { cwd: dir, env })
    const results = frames(out.stdout)
      .filter((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === null)
      .flatMap(blocksOf)
    const denied = results.find((block) => block["tool_use_id"] === "toolu_denied")!
    expect(denied["is_error"]).toBe(true)
    expect(JSON.stringify(denied["content"])).toContain("Agent(reviewer)")
    expect(JSON.stringify(results.find((block) => block["tool_use_id"] === "toolu_ok")!["content"])).toContain("general answer")
  })

  it("a background agent: the call returns at once, -p waits and goes on with a task notification", async () => {
    const { dir, env, server } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([agentCall({ description: "count files", prompt: "Count the files" })]),
        textTurn("Started it."),
        textTurn("It found 3 files.")
      ],
      conversations: [{ when: systemContains("You are an agent for a coding agent"), script: [textTurn("3 files")] }]
    }))
    const out = await runWeft(["-p", "go", "--output-format", "json"], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout)["result"]).toBe("It found 3 files.")
    const parentBodies = messageRequests(server.requests).filter((body) => !systemOf(body).includes("You are an agent for a coding agent"))
    expect(JSON.stringify(parentBodies[1]!["messages"])).toContain("Async agent launched successfully")
    const last = JSON.stringify(parentBodies[2]!["messages"])
    expect(last).toContain("<task-notification>")
    expect(last).toContain("<result>3 files</result>")
  })

  it("text --verbose shows the child's calls under its agent", async () => {
    const { dir, env } = await setup({ ".claude/agents/reviewer.md": reviewerFile, "a.js": "x\n" }, () => ({
      script: [
        ScriptTurn.blocks([agentCall({ description: "review a.js", prompt: "p", subagent_type: "reviewer", run_in_background: false })]),
        textTurn("done")
      ],
      conversations: [
        { when: systemContains("You are the reviewer."), script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.js" })]), textTurn("reviewed")] }
      ]
    }))
    const out = await runWeft(["-p", "go", "--verbose"], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout.trim()).toBe("done")
    expect(out.stderr).toContain("● reviewer agent: review a.js")
    expect(out.stderr).toContain("    ● Read(a.js)")
    expect(out.stderr).toMatch(/ {2}⎿ {2}reviewer agent completed \(1 tool uses, \d+ tokens\)/)
  })

  it("SubagentStart and SubagentStop hooks get Claude Code's input; tool hooks inside carry agent_id and agent_type", async () => {
    const { root, dir, env } = await setup({ ".claude/agents/reviewer.md": reviewerFile, "a.js": "x\n" }, () => ({
      script: [
        ScriptTurn.blocks([agentCall({ description: "d", prompt: "p", subagent_type: "reviewer", run_in_background: false })]),
        textTurn("done")
      ],
      conversations: [
        {
          when: systemContains("You are the reviewer."),
          script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.js" })]), textTurn("reviewed")]
        }
      ]
    }))
    const recorder = join(root, "record.sh")
    await writeFile(recorder, `#!/bin/sh\ncat > "${root}/in-$1-$$.json"\n`)
    chmodSync(recorder, 0o755)
    const userHome = join(root, "home")
    await mkdir(join(userHome, ".claude"), { recursive: true })
    const hook = (event: string, matcher?: string) => [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command: `${recorder} ${event}` }] }]
    await writeFile(
      join(userHome, ".claude/settings.json"),
      JSON.stringify({
        hooks: {
          SubagentStart: hook("SubagentStart", "reviewer"),
          SubagentStop: hook("SubagentStop", "reviewer"),
          PreToolUse: hook("PreToolUse", "Read"),
          Stop: hook("Stop")
        }
      })
    )
    const out = await runWeft(["-p", "go", "--output-format", "json"], { cwd: dir, env: { ...env, HOME: userHome } })
    expect(out.code, out.stderr).toBe(0)
    const inputs = readdirSync(root)
      .filter((name) => name.startsWith("in-"))
      .map((name): unknown => JSON.parse(readFileSync(join(root, name), "utf8")))
      .filter(isRecord)
    const of = (event: string) => inputs.filter((input) => input["hook_event_name"] === event)
    const start = of("SubagentStart")[0]!
    expect(start["agent_type"]).toBe("reviewer")
    expect(start["agent_id"]).toMatch(/^a[0-9a-f]{16}$/)
    const stop = of("SubagentStop")[0]!
    expect(stop).toMatchObject({ agent_id: start["agent_id"], agent_type: "reviewer", stop_hook_active: false, last_assistant_message: "reviewed" })
    expect(existsSync(String(stop["agent_transcript_path"]))).toBe(true)
    expect(String(stop["agent_transcript_path"])).toMatch(/\/subagents\/agent-a[0-9a-f]{16}\.jsonl$/)
    expect(of("PreToolUse")[0]).toMatchObject({ tool_name: "Read", agent_id: start["agent_id"], agent_type: "reviewer" })
    // Stop is the main conversation's alone.
    expect(of("Stop")).toHaveLength(1)
    expect(of("Stop")[0]!["agent_id"]).toBeUndefined()
  })
})

describe("weft -p: interrupting a subagent", { timeout: 120_000 }, () => {
  it("SIGINT while a child's command runs ends the child and its processes; the run ends with a result", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([agentCall({ description: "d", prompt: "p", run_in_background: false })]), textTurn("never")],
      conversations: [
        {
          when: systemContains("You are an agent for a coding agent"),
          script: [ScriptTurn.blocks([toolUse("Bash", { command: "sleep 300 & echo $! >> pids; echo $$ >> pids; wait" }, "toolu_sleep")]), textTurn("never")]
        }
      ]
    }))
    const run = startWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
    const readPids = async () =>
      (await readFile(join(dir, "pids"), "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map(Number)
    let pids: ReadonlyArray<number> = []
    await waitUntil(async () => (pids = await readPids()).length >= 2, "the child's command to start")
    run.child.kill("SIGINT")
    const out = await run.done
    expect(out.code).toBe(1)
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "error_during_execution", is_error: true })
    // The Agent call is answered (the history stays valid).
    expect(JSON.stringify(frames(out.stdout).filter((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === null))).toContain(
      "toolu_agent"
    )
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), "the child's processes to end", 10_000)
    expect(pids.filter(isAlive)).toEqual([])
  })
})

describe("weft -p: plan mode", { timeout: 120_000 }, () => {
  it("the model is told; a write is refused even when allowed; ExitPlanMode is not offered; Explore and Plan still read", async () => {
    const { dir, env, server } = await setup({ "a.txt": "hello\n" }, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Write", { file_path: "b.txt", content: "x" }, "toolu_write")]),
        ScriptTurn.blocks([agentCall({ description: "look", prompt: "Read a.txt", subagent_type: "Explore", run_in_background: false })]),
        ScriptTurn.blocks([agentCall({ description: "plan", prompt: "Plan from a.txt", subagent_type: "Plan", run_in_background: false }, "toolu_plan")]),
        textTurn("Here is the plan.")
      ],
      conversations: [
        {
          when: systemContains("file search specialist"),
          script: [ScriptTurn.blocks([toolUse("Read", { file_path: "a.txt" }, "toolu_read")]), textTurn("a.txt says hello")]
        },
        {
          when: systemContains("software architect planning a change"),
          script: [ScriptTurn.blocks([toolUse("Bash", { command: "cat a.txt" }, "toolu_cat")]), textTurn("1. Keep hello")]
        }
      ]
    }))
    const out = await runWeft(["-p", "plan it", "--output-format", "stream-json", "--verbose", "--permission-mode", "plan", "--allowedTools", "Write"], {
      cwd: dir,
      env
    })
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "b.txt"))).toBe(false)
    const bodies = messageRequests(server.requests)
    expect(JSON.stringify(bodies[0]!["messages"])).toContain("Plan mode is active")
    expect(toolNamesOf(bodies[0]!)).not.toContain("ExitPlanMode")
    const all = frames(out.stdout)
    const write = all
      .filter((frame) => frame["type"] === "user")
      .flatMap(blocksOf)
      .find((block) => block["tool_use_id"] === "toolu_write")!
    expect(write["is_error"]).toBe(true)
    expect(JSON.stringify(write["content"])).toContain("plan mode")
    // The read-only agent is not refused in plan mode, and its read ran.
    const childRead = all
      .filter((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === "toolu_agent")
      .flatMap(blocksOf)[0]!
    expect(childRead["is_error"]).toBeUndefined()
    expect(JSON.stringify(childRead["content"])).toContain("hello")
    // Plan too: its read-only command ran, and its answer is the parent's.
    const planCat = all
      .filter((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === "toolu_plan")
      .flatMap(blocksOf)[0]!
    expect(planCat["is_error"]).toBeUndefined()
    expect(JSON.stringify(planCat["content"])).toContain("hello")
    const planResult = all
      .filter((frame) => frame["type"] === "user" && frame["parent_tool_use_id"] === null)
      .flatMap(blocksOf)
      .find((block) => block["tool_use_id"] === "toolu_plan")!
    expect(JSON.stringify(planResult["content"])).toContain("1. Keep hello")
  })
})
