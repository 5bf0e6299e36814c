import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { Settings } from "../../src/context/Settings.js"
import { ChildEnvironment } from "../../src/platform/ChildEnvironment.js"
import * as HookEvent from "../../src/hooks/HookEvent.js"
import { type Handlers, Hooks, type Interface } from "../../src/hooks/Hooks.js"
import { isRunning } from "../../src/tools/shell/ProcessGroup.js"
import { tempDir, write } from "../support/TempFiles.js"

const context = (dir: string) => ({ sessionId: "s-1", cwd: dir, permissionMode: "default" })

/** A hook script in the project: `body` runs with the input JSON on stdin. */
const script = (dir: string, name: string, body: string) => {
  const file = path.join(dir, name)
  write(file, `#!/bin/sh\n${body}\n`)
  fs.chmodSync(file, 0o755)
  return file
}

const make = (dir: string, hooks: unknown, options: { readonly handlers?: Handlers; readonly env?: Record<string, string> } = {}) =>
  Hooks.makeWith({
    settings: { hooks },
    projectDir: dir,
    transcriptPath: (sessionId) => path.join(dir, `${sessionId}.jsonl`),
    ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    ...(options.env === undefined ? {} : { env: options.env })
  })

const on = (command: string, matcher?: string, timeout?: number) => [
  { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, ...(timeout === undefined ? {} : { timeout }) }] }
]

const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"))

describe("command hooks", () => {
  it.live("run every event with Claude Code's input on stdin", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const record = script(dir, "record.sh", 'cat > "$CLAUDE_PROJECT_DIR/in-$1.json"')
      const events = HookEvent.eventNames
      const hooks: Interface = yield* make(
        dir,
        Object.fromEntries(events.map((event) => [event, on(`${record} ${event}`)]))
      )
      const ctx = context(dir)
      const tool = { ...ctx, toolName: "Bash", toolUseId: "toolu_1", toolInput: { command: "ls" } }
      yield* hooks.sessionStart({ sessionId: "s-1", cwd: dir, source: "startup" })
      yield* hooks.userPromptSubmit({ ...ctx, prompt: "hello" })
      yield* hooks.preToolUse(tool)
      yield* hooks.permissionRequest(tool)
      yield* hooks.postToolUse({ ...tool, toolResponse: { stdout: "a\n", stderr: "" }, durationMs: 3 })
      yield* hooks.postToolUseFailure({ ...tool, error: "Exit code 1", isInterrupt: false })
      yield* hooks.notification({ ...ctx, message: "weft needs your permission to use Bash", notificationType: "permission_prompt" })
      yield* hooks.stop({ ...ctx, stopHookActive: false, lastAssistantMessage: "done" })
      yield* hooks.subagentStart({ ...ctx, agentId: "a1", agentType: "Explore" })
      yield* hooks.subagentStop({ ...ctx, stopHookActive: true, agentId: "a1", agentType: "Explore", agentTranscriptPath: "/t/agent-a1.jsonl" })
      yield* hooks.preCompact({ ...ctx, trigger: "manual", customInstructions: null })
      yield* hooks.sessionEnd({ sessionId: "s-1", cwd: dir, reason: "other" })
      for (const event of events) {
        const input = Schema.decodeUnknownSync(HookEvent.HookInput)(read(path.join(dir, `in-${event}.json`)))
        expect(input).toMatchObject({ hook_event_name: event, session_id: "s-1", cwd: dir, transcript_path: path.join(dir, "s-1.jsonl") })
      }
      expect(read(path.join(dir, "in-PreToolUse.json"))).toEqual({
        session_id: "s-1",
        transcript_path: path.join(dir, "s-1.jsonl"),
        cwd: dir,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_use_id: "toolu_1"
      })
      expect(read(path.join(dir, "in-SessionStart.json"))).not.toHaveProperty("permission_mode")
      expect(read(path.join(dir, "in-PostToolUse.json"))).toMatchObject({ tool_response: { stdout: "a\n" }, duration_ms: 3 })
      expect(read(path.join(dir, "in-PostToolUseFailure.json"))).toMatchObject({ error: "Exit code 1", is_interrupt: false })
      expect(read(path.join(dir, "in-Stop.json"))).toMatchObject({ stop_hook_active: false, last_assistant_message: "done" })
      expect(read(path.join(dir, "in-SubagentStart.json"))).toMatchObject({ agent_id: "a1", agent_type: "Explore", permission_mode: "default" })
      expect(read(path.join(dir, "in-SubagentStop.json"))).toMatchObject({
        agent_id: "a1",
        agent_type: "Explore",
        stop_hook_active: true,
        agent_transcript_path: "/t/agent-a1.jsonl"
      })
      expect(read(path.join(dir, "in-PreCompact.json"))).toMatchObject({ trigger: "manual", custom_instructions: null })
      expect(read(path.join(dir, "in-SessionEnd.json"))).toMatchObject({ reason: "other" })
    })
  )

  it.live("exit 2 blocks with stderr; JSON answers decide, rewrite and add context; other codes go on", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "echo 'no rm here' >&2; exit 2" }] },
          {
            matcher: "Write",
            hooks: [
              {
                type: "command",
                command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/tmp/x","content":"safe"},"additionalContext":"checked"}}'`
              }
            ]
          },
          { matcher: "Edit", hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"edits are frozen"}'` }] },
          { matcher: "Read", hooks: [{ type: "command", command: "echo oops >&2; exit 1" }] }
        ],
        UserPromptSubmit: on("echo 'Today is a holiday.'"),
        Stop: on(`echo '{"decision":"block","reason":"run the tests first"}'`)
      })
      const ctx = context(dir)
      const call = (toolName: string) => hooks.preToolUse({ ...ctx, toolName, toolUseId: "t", toolInput: {} })
      const bash = yield* call("Bash")
      expect(bash.blocked).toBe("[echo 'no rm here' >&2; exit 2]: no rm here")
      expect(bash.activity?.[0]).toMatchObject({ hookName: "PreToolUse:Bash", exitCode: 2, outcome: "blocked" })
      expect(yield* call("Write")).toMatchObject({
        permissionDecision: "allow",
        updatedInput: { file_path: "/tmp/x", content: "safe" },
        additionalContext: "checked"
      })
      expect(yield* call("Edit")).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "edits are frozen" })
      const read = yield* call("Read")
      expect(read.blocked).toBeUndefined()
      expect(read.permissionDecision).toBeUndefined()
      expect(read.activity?.[0]).toMatchObject({ outcome: "error", exitCode: 1, stderr: "oops\n" })
      expect((yield* hooks.userPromptSubmit({ ...ctx, prompt: "hi" })).additionalContext).toBe("Today is a holiday.")
      expect((yield* hooks.stop({ ...ctx, stopHookActive: false })).continueWith).toBe("run the tests first")
    })
  )

  it.live("a hook that times out is ended with its children and fails open", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      // The hook and its child both ignore TERM: only KILL ends them.
      const slow = script(dir, "slow.sh", `trap '' TERM\nsleep 300 &\necho $! > "${dir}/child.pid"\necho $$ > "${dir}/shell.pid"\nwait`)
      const hooks = yield* make(dir, { PreToolUse: on(slow, "Bash", 0.5) })
      const outcome = yield* hooks.preToolUse({ ...context(dir), toolName: "Bash", toolUseId: "t", toolInput: {} })
      expect(outcome.blocked).toBeUndefined()
      expect(outcome.permissionDecision).toBeUndefined()
      expect(outcome.activity?.[0]).toMatchObject({ outcome: "error" })
      expect(outcome.activity?.[0]?.note).toMatch(/did not answer within 0.5 s/)
      for (const name of ["child.pid", "shell.pid"]) {
        const pid = Number(fs.readFileSync(path.join(dir, name), "utf8"))
        expect(isRunning(pid)).toBe(false)
      }
    })
  )

  it.live("a background child holding stdout open does not stall the hook; a flood and garbage are survived", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        PostToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: `sleep 300 & echo '{"hookSpecificOutput":{"additionalContext":"fast"}}'` }] },
          { matcher: "Flood", hooks: [{ type: "command", command: "yes flood" }] },
          { matcher: "Garbage", hooks: [{ type: "command", command: "head -c 3000 /dev/urandom; printf '{not json'" }] }
        ]
      })
      const after = (toolName: string) =>
        hooks.postToolUse({ ...context(dir), toolName, toolUseId: "t", toolInput: {}, toolResponse: "ok" })
      expect((yield* after("Bash")).additionalContext).toBe("fast")
      const flood = yield* after("Flood")
      expect(flood.activity?.[0]?.note).toMatch(/printed more than/)
      expect(flood.additionalContext).toBeUndefined()
      const garbage = yield* after("Garbage")
      expect(garbage.blocked).toBeUndefined()
      expect(garbage.additionalContext).toBeUndefined()
      expect(garbage.activity?.[0]?.outcome).toBe("success")
    })
  )

  it.live("hooks get the environment without weft's credentials, and the project directory", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(
        dir,
        { UserPromptSubmit: on('echo "key=${ANTHROPIC_API_KEY:-none} dir=$CLAUDE_PROJECT_DIR weft=$WEFT_PROJECT_DIR pwd=$(pwd)"') },
        {}
      )
      const previous = process.env["ANTHROPIC_API_KEY"]
      process.env["ANTHROPIC_API_KEY"] = "sk-secret"
      const outcome = yield* Effect.ensuring(
        hooks.userPromptSubmit({ ...context(dir), prompt: "x" }),
        Effect.sync(() => {
          if (previous === undefined) delete process.env["ANTHROPIC_API_KEY"]
          else process.env["ANTHROPIC_API_KEY"] = previous
        })
      )
      expect(outcome.additionalContext).toBe(`key=none dir=${dir} weft=${dir} pwd=${dir}`)
    })
  )

  it.live("PreCompact: instructions for the summary from JSON or plain stdout, joined with an in-process handler's", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const json = script(dir, "json.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","customInstructions":"Keep the API names."}}'`)
      const plain = script(dir, "plain.sh", "echo 'Keep the failing test output.'")
      const hooks = yield* make(
        dir,
        { PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: json }, { type: "command", command: plain }] }] },
        { handlers: { preCompact: () => Effect.succeed({ customInstructions: "Keep the plan." }) } }
      )
      const outcome = yield* hooks.preCompact({ ...context(dir), trigger: "auto", customInstructions: null })
      expect(outcome.customInstructions?.split("\n").sort()).toEqual(["Keep the API names.", "Keep the failing test output.", "Keep the plan."])
      // A matcher on the trigger: "auto" hooks do not run for a manual compaction.
      const manual = yield* hooks.preCompact({ ...context(dir), trigger: "manual", customInstructions: null })
      expect(manual.customInstructions).toBe("Keep the plan.")
    })
  )

  it.live("in-process handlers run beside command hooks and their answers merge (deny beats allow)", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const seen: Array<string> = []
      const hooks = yield* make(
        dir,
        { PreToolUse: on(`echo '{"hookSpecificOutput":{"permissionDecision":"allow","additionalContext":"from the shell"}}'`) },
        {
          handlers: {
            preToolUse: (input) =>
              Effect.sync(() => {
                seen.push(input.toolName)
                return { permissionDecision: "deny" as const, permissionDecisionReason: "not on Fridays", additionalContext: "from a handler" }
              })
          }
        }
      )
      const outcome = yield* hooks.preToolUse({ ...context(dir), toolName: "Bash", toolUseId: "t", toolInput: {} })
      expect(seen).toEqual(["Bash"])
      expect(outcome).toMatchObject({
        permissionDecision: "deny",
        permissionDecisionReason: "not on Fridays",
        additionalContext: "from a handler\nfrom the shell"
      })
    })
  )

  it.live("from Settings: an untrusted project's hooks never run; the user's do; disableAllHooks stops all", () =>
    Effect.gen(function* () {
      const root = tempDir()
      const dir = path.join(root, "project")
      const home = path.join(root, "home")
      const marker = (name: string) => `touch ${JSON.stringify(path.join(root, name))}`
      write(path.join(dir, ".claude/settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: on(marker("project-ran")) } }))
      write(path.join(home, ".claude/settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: on(marker("user-ran")) } }))
      const prompt = (options: { readonly trustProject: boolean; readonly flagSettings?: string }) =>
        Effect.gen(function* () {
          const hooks = yield* Hooks.make()
          yield* hooks.userPromptSubmit({ ...context(dir), prompt: "x" })
        }).pipe(
          Effect.provideServiceEffect(
            Settings,
            Settings.make({ cwd: dir, home, weftHome: path.join(root, "weft-home"), managedPaths: [], ...options })
          ),
          Effect.provide(ChildEnvironment.layerNode)
        )
      yield* prompt({ trustProject: false })
      expect(fs.existsSync(path.join(root, "user-ran"))).toBe(true)
      expect(fs.existsSync(path.join(root, "project-ran"))).toBe(false)
      yield* prompt({ trustProject: true })
      expect(fs.existsSync(path.join(root, "project-ran"))).toBe(true)
      fs.rmSync(path.join(root, "user-ran"))
      fs.rmSync(path.join(root, "project-ran"))
      yield* prompt({ trustProject: true, flagSettings: JSON.stringify({ disableAllHooks: true }) })
      expect(fs.existsSync(path.join(root, "user-ran"))).toBe(false)
      expect(fs.existsSync(path.join(root, "project-ran"))).toBe(false)
    })
  )
})
