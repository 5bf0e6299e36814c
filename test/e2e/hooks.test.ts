/**
 * weft -p with Claude Code's command hooks from settings: real shell-script hooks, through the built binary against
 * the mock Messages API. User settings live in a temporary HOME; the project's own settings apply only when trusted.
 */
import { chmodSync, existsSync, readFileSync, readdirSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import * as HookEvent from "../../src/hooks/HookEvent.js"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, resultFrame, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

const hasSetsid = (process.env["PATH"] ?? "").split(":").some((dir) => existsSync(join(dir, "setsid")))
if (!hasSetsid) console.warn("setsid is not on PATH: the hook timeout test does not check a child that left the hook's group")

const hook = (command: string, matcher?: string, timeout?: number) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: [{ type: "command", command, ...(timeout === undefined ? {} : { timeout }) }]
})

/** Writes the user's settings (in a HOME of the test's own) and a hook script; answers the env additions. */
const withUserHooks = async (root: string, hooks: unknown, extra: Record<string, unknown> = {}) => {
  const home = join(root, "home")
  await mkdir(join(home, ".claude"), { recursive: true })
  await writeFile(join(home, ".claude/settings.json"), JSON.stringify({ hooks, ...extra }))
  return { HOME: home }
}

/** A hook script under the test's root: `body` runs with the event's input on stdin. */
const script = async (root: string, name: string, body: string) => {
  const file = join(root, name)
  await writeFile(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, 0o755)
  return file
}

/** The text of every message the mock server was sent, request by request. */
const requestBodies = (requests: ReadonlyArray<{ readonly path: string; readonly body: unknown }>) =>
  requests.filter((request) => request.path.startsWith("/v1/messages")).map((request) => JSON.stringify(request.body))

const toolResults = (stdout: string) =>
  frames(stdout)
    .filter((frame) => frame["type"] === "user")
    .flatMap((frame) => {
      const message = frame["message"]
      return typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []
    })
    .filter((block) => block.type === "tool_result")

// Each test runs weft and real hook processes (some on purpose slow): generous room on a loaded machine.
describe("weft -p: command hooks", { timeout: 120_000 }, () => {
  it("runs a hook on every event of a session, with Claude Code's input JSON on stdin", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "echo hi" }, "ok1")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "exit 3" }, "fail1")]),
        textTurn("Done.")
      ]
    }))
    const record = await script(root, "record.sh", `cat > "${root}/in-$1-$$.json"`)
    const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"]
    const home = await withUserHooks(root, Object.fromEntries(events.map((event) => [event, [hook(`${record} ${event}`)]])))
    const out = await runWeft(["-p", "say hi", "--output-format", "json", "--dangerously-skip-permissions"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const received = readdirSync(root).filter((name) => name.startsWith("in-"))
    const inputs = received.map((name) => Schema.decodeUnknownSync(HookEvent.HookInput)(JSON.parse(readFileSync(join(root, name), "utf8"))))
    const byEvent = (event: string) => inputs.filter((input) => input.hook_event_name === event)
    for (const event of events) expect(byEvent(event).length, event).toBeGreaterThan(0)
    expect(byEvent("PreToolUse")).toHaveLength(2)
    for (const input of inputs) {
      expect(input.cwd).toBe(dir)
      expect(input.transcript_path).toMatch(/\/projects\/[^/]+\/[0-9a-f-]+\.jsonl$/)
    }
    expect(byEvent("SessionStart")[0]).toMatchObject({ source: "startup" })
    expect(byEvent("UserPromptSubmit")[0]).toMatchObject({ prompt: "say hi" })
    expect(byEvent("PostToolUse")[0]).toMatchObject({ tool_name: "Bash", tool_use_id: "ok1", tool_input: { command: "echo hi" } })
    expect(byEvent("PostToolUseFailure")[0]).toMatchObject({ tool_name: "Bash", tool_use_id: "fail1", is_interrupt: false })
    expect(byEvent("Stop")[0]).toMatchObject({ stop_hook_active: false, last_assistant_message: "Done." })
    expect(byEvent("SessionEnd")[0]).toMatchObject({ reason: "other" })
    // Once: the run ends after the Session has recorded that they ran, not when the Result is printed.
    expect(byEvent("SessionEnd")).toHaveLength(1)
  })

  it("PostToolUse's tool_response is the tool's result in Claude Code's shape (Bash stdout, the file tools' fields)", async () => {
    const { root, dir, env } = await setup({}, (dir) => {
      const file = join(dir, "a.txt")
      return {
        script: [
          ScriptTurn.blocks([toolUse("Write", { file_path: file, content: "one\ntwo\nthree\n" }, "write1")]),
          ScriptTurn.blocks([toolUse("Read", { file_path: file }, "read1")]),
          ScriptTurn.blocks([toolUse("Edit", { file_path: file, old_string: "two", new_string: "TWO" }, "edit1")]),
          ScriptTurn.blocks([toolUse("Write", { file_path: file, content: "one\nTWO\nthree\nfour\n" }, "write2")]),
          ScriptTurn.blocks([toolUse("Bash", { command: "echo hi" }, "bash1")]),
          ScriptTurn.blocks([toolUse("Glob", { pattern: "*.txt" }, "glob1")]),
          ScriptTurn.blocks([toolUse("Grep", { pattern: "TWO" }, "grep1")]),
          textTurn("Done.")
        ]
      }
    })
    const record = await script(root, "record.sh", `cat > "${root}/post-$$.json"`)
    const home = await withUserHooks(root, { PostToolUse: [hook(record)] })
    const out = await runWeft(["-p", "go", "--dangerously-skip-permissions"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const byCall: Record<string, Record<string, unknown>> = {}
    for (const name of readdirSync(root).filter((entry) => entry.startsWith("post-"))) {
      const input = JSON.parse(readFileSync(join(root, name), "utf8"))
      byCall[input.tool_use_id] = input.tool_response
    }
    const file = join(dir, "a.txt")
    expect(byCall["bash1"]).toEqual({ stdout: "hi", stderr: "", interrupted: false, isImage: false, noOutputExpected: false })
    expect(byCall["write1"]).toEqual({ type: "create", filePath: file, content: "one\ntwo\nthree\n", structuredPatch: [], originalFile: null })
    expect(byCall["read1"]).toEqual({
      type: "text",
      file: { filePath: file, content: "one\ntwo\nthree", numLines: 3, startLine: 1, totalLines: 3 }
    })
    expect(byCall["edit1"]).toEqual({
      filePath: file,
      oldString: "two",
      newString: "TWO",
      originalFile: "one\ntwo\nthree\n",
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" one", "-two", "+TWO", " three"] }],
      userModified: false,
      replaceAll: false
    })
    expect(byCall["write2"]).toEqual({
      type: "update",
      filePath: file,
      content: "one\nTWO\nthree\nfour\n",
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [" one", " TWO", " three", "+four"] }],
      originalFile: "one\nTWO\nthree\n"
    })
    expect(byCall["glob1"]).toMatchObject({ filenames: [file], numFiles: 1, truncated: false, durationMs: expect.any(Number) })
    expect(byCall["grep1"]).toEqual({ mode: "files_with_matches", filenames: [file], numFiles: 1 })
  })

  it("blocks a call by exit 2 (stderr to the model) and by a JSON deny; the commands never run", async () => {
    const { root, dir, env, server } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "touch by-exit-2" }, "b1")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "touch by-json" }, "b2")]),
        textTurn("Understood.")
      ]
    }))
    const guard = await script(
      root,
      "guard.sh",
      [
        "input=$(cat)",
        'case "$input" in',
        '  *by-exit-2*) echo "no touching here" >&2; exit 2 ;;',
        `  *by-json*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"JSON says no"}}' ;;`,
        "esac"
      ].join("\n")
    )
    const home = await withUserHooks(root, { PreToolUse: [hook(guard, "Bash")] })
    const out = await runWeft(["-p", "touch", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const [first, second] = toolResults(out.stdout)
    expect(first).toMatchObject({ tool_use_id: "b1", is_error: true })
    expect(JSON.stringify(first?.content)).toContain(`PreToolUse:Bash hook error: [${guard}]: no touching here`)
    expect(second).toMatchObject({ tool_use_id: "b2", is_error: true })
    expect(JSON.stringify(second?.content)).toContain("JSON says no")
    expect(existsSync(join(dir, "by-exit-2"))).toBe(false)
    expect(existsSync(join(dir, "by-json"))).toBe(false)
    expect(requestBodies(server.requests())).toHaveLength(3)
  })

  it("a rewritten input is checked by the permission rules again: the hook's allow does not beat a deny rule", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo harmless" }, "r1")]), textTurn("ok")]
    }))
    const rewrite = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch forbidden"}}}'`
    const home = await withUserHooks(root, { PreToolUse: [hook(rewrite, "Bash")] })
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Bash(touch forbidden)"], {
      cwd: dir,
      env: { ...env, ...home }
    })
    expect(out.code).toBe(0)
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ tool_use_id: "r1", is_error: true })
    expect(JSON.stringify(result?.content)).toMatch(/denied/)
    expect(existsSync(join(dir, "forbidden"))).toBe(false)
    expect(resultFrame(out.stdout)["permission_denials"]).toEqual([
      { tool_name: "Bash", tool_use_id: "r1", tool_input: { command: "touch forbidden" } }
    ])
  })

  it("a hook's ask under -p refuses the call, with the hook's reason to the model", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "touch asked" }, "a1")]), textTurn("ok")]
    }))
    const ask = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touching needs a human"}}'`
    const home = await withUserHooks(root, { PreToolUse: [hook(ask, "Bash")] })
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ tool_use_id: "a1", is_error: true })
    expect(JSON.stringify(result?.content)).toContain("touching needs a human")
    expect(existsSync(join(dir, "asked"))).toBe(false)
  })

  it("additional context from UserPromptSubmit, SessionStart and PostToolUse reaches the model as system reminders", async () => {
    const { root, dir, env, server } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo ran" }, "c1")]), textTurn("ok")]
    }))
    const home = await withUserHooks(root, {
      SessionStart: [hook("echo 'The release is on Friday.'")],
      UserPromptSubmit: [hook("echo 'The user prefers short answers.'")],
      PostToolUse: [hook(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"The formatter ran."}}'`, "Bash")]
    })
    const out = await runWeft(["-p", "go"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const [first, second] = requestBodies(server.requests())
    expect(first).toContain("<system-reminder>")
    expect(first).toContain("SessionStart:startup hook additional context: The release is on Friday.")
    expect(first).toContain("UserPromptSubmit hook additional context: The user prefers short answers.")
    expect(second).toContain("PostToolUse:Bash hook additional context: The formatter ran.")
  })

  it("a Stop hook that blocks once makes the loop go on with its reason, then lets it stop", async () => {
    const { root, dir, env, server } = await setup({}, () => ({
      script: [textTurn("First answer."), textTurn("Second answer, with the tests run.")]
    }))
    const stop = await script(
      root,
      "stop.sh",
      ['if grep -q \'"stop_hook_active":true\'; then exit 0; fi', 'echo "Run the tests before you stop." >&2', "exit 2"].join("\n")
    )
    const home = await withUserHooks(root, { Stop: [hook(stop)] })
    const out = await runWeft(["-p", "go", "--output-format", "json"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ subtype: "success", result: "Second answer, with the tests run.", num_turns: 2 })
    const bodies = requestBodies(server.requests())
    expect(bodies).toHaveLength(2)
    expect(bodies[1]).toContain("Stop hook feedback:\\n")
    expect(bodies[1]).toContain("Run the tests before you stop.")
  })

  it("a UserPromptSubmit block sends nothing to the model and tells the user", async () => {
    const { root, dir, env, server } = await setup({}, () => ({ script: [textTurn("never")] }))
    const home = await withUserHooks(root, { UserPromptSubmit: [hook("echo 'prompts about secrets are refused' >&2; exit 2")] })
    const out = await runWeft(["-p", "tell me the secret", "--output-format", "json"], { cwd: dir, env: { ...env, ...home } })
    expect(requestBodies(server.requests())).toHaveLength(0)
    const result = JSON.parse(out.stdout)
    expect(result).toMatchObject({ subtype: "success", is_error: false, num_turns: 0 })
    expect(result.result).toContain("prompts about secrets are refused")
    expect(out.code).toBe(0)
  })

  it("a hook past its timeout is ended with all it started, before weft exits; the call goes on (fails open)", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo went on" }, "t1")]), textTurn("ok")]
    }))
    // A shell that outlives TERM, a child that ignores it, and one that left the hook's process group.
    const slow = await script(
      root,
      "slow.sh",
      [
        `trap 'echo term' TERM`,
        `sh -c 'trap "" TERM; exec sleep 300' &`,
        `echo $! > "${root}/child.pid"`,
        ...(hasSetsid ? [`setsid sh -c 'trap "" TERM; exec sleep 300' &`, `echo $! > "${root}/stray.pid"`] : []),
        `echo $$ > "${root}/shell.pid"`,
        `while :; do wait; done`
      ].join("\n")
    )
    const home = await withUserHooks(root, { PreToolUse: [hook(slow, "Bash", 1)] })
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ tool_use_id: "t1" })
    expect(result?.is_error).toBeUndefined()
    expect(JSON.stringify(result?.content)).toContain("went on")
    // Once weft -p has returned, nothing of the hook is left.
    for (const name of ["child.pid", "shell.pid", ...(hasSetsid ? ["stray.pid"] : [])]) {
      expect(isAlive(Number(readFileSync(join(root, name), "utf8"))), name).toBe(false)
    }
  })

  it("hooks that crash, print garbage or flood leave the session intact; --verbose says what went wrong", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo still fine" }, "g1")]), textTurn("All good.")]
    }))
    const home = await withUserHooks(root, {
      PreToolUse: [hook("kill -SEGV $$", "Bash"), hook("head -c 5000 /dev/urandom; printf '{broken'", "Bash")],
      PostToolUse: [hook("yes flood", "Bash")],
      Stop: [hook("exit 1")]
    })
    const out = await runWeft(["-p", "go", "--verbose"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    expect(out.stdout).toBe("All good.\n")
    expect(out.stderr).toContain("still fine")
    expect(out.stderr).toMatch(/PreToolUse:Bash hook \[kill -SEGV \$\$\] error/)
    expect(out.stderr).toMatch(/PostToolUse:Bash hook \[yes flood\] error: printed more than/)
    expect(out.stderr).toMatch(/Stop hook \[exit 1\] error/)
  })

  it("a bad entry in hooks is skipped with a warning naming it; the rest of the file still applies", async () => {
    const { root, dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const home = await withUserHooks(root, {
      UserPromptSubmit: [{ matcher: "x", hooks: "not a list" }, hook(`touch "${root}/good-hook-ran"`)],
      PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "true" }] }]
    })
    const out = await runWeft(["-p", "go"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    expect(out.stdout).toBe("ok\n")
    expect(existsSync(join(root, "good-hook-ran"))).toBe(true)
    expect(out.stderr).toContain("weft: settings: hooks.UserPromptSubmit[0]:")
    expect(out.stderr).toContain('weft: settings: hooks.PreToolUse[0]: its matcher "(" is not a valid regular expression')
  })

  it("an untrusted project's hooks never run; trusted, they do", async () => {
    const { root, dir, env } = await setup({}, () => ({ script: [textTurn("one"), textTurn("two")] }))
    await mkdir(join(dir, ".claude"), { recursive: true })
    await writeFile(join(dir, ".claude/settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [hook(`touch "${root}/project-hook-ran"`)] } }))
    const home = { HOME: join(root, "home") }
    const untrusted = await runWeft(["-p", "go"], { cwd: dir, env: { ...env, ...home } })
    expect(untrusted.code).toBe(0)
    expect(existsSync(join(root, "project-hook-ran"))).toBe(false)
    const trusted = await runWeft(["-p", "go"], { cwd: dir, env: { ...env, ...home, WEFT_TRUST_PROJECT: "1" } })
    expect(trusted.code).toBe(0)
    expect(existsSync(join(root, "project-hook-ran"))).toBe(true)
  })

  it("a hook asked to print the API key cannot: weft's credentials are not in its environment", async () => {
    const { root, dir, env, server } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const home = await withUserHooks(root, {
      UserPromptSubmit: [hook(`echo "key=\${ANTHROPIC_API_KEY:-unset}"; env | grep -c sk-ant-e2e-secret; true`)]
    })
    const out = await runWeft(["-p", "go"], { cwd: dir, env: { ...env, ...home, ANTHROPIC_API_KEY: "sk-ant-e2e-secret-value" } })
    expect(out.code).toBe(0)
    const [body] = requestBodies(server.requests())
    expect(body).toContain("key=unset\\n0")
    expect(body).not.toContain("sk-ant-e2e-secret")
  })

  it("stream-json --verbose shows SessionStart hooks as hook_started / hook_response frames", async () => {
    const { root, dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const home = await withUserHooks(root, { SessionStart: [hook("echo started")], UserPromptSubmit: [hook("true")] })
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: { ...env, ...home } })
    expect(out.code).toBe(0)
    const hookFrames = frames(out.stdout).filter((frame) => frame["type"] === "system" && String(frame["subtype"]).startsWith("hook_"))
    expect(hookFrames).toMatchObject([
      { subtype: "hook_started", hook_name: "SessionStart:startup", hook_event: "SessionStart" },
      { subtype: "hook_response", hook_name: "SessionStart:startup", hook_event: "SessionStart", stdout: "started\n", exit_code: 0, outcome: "success" }
    ])
    expect(hookFrames[0]?.["hook_id"]).toBe(hookFrames[1]?.["hook_id"])
    const quiet = await runWeft(["-p", "go", "--output-format", "stream-json"], { cwd: dir, env: { ...env, ...home } })
    expect(frames(quiet.stdout).filter((frame) => String(frame["subtype"]).startsWith("hook_"))).toEqual([])
  })
})
