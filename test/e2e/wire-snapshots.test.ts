/**
 * What the model and the user see, pinned as files under test/e2e/__snapshots__/wire/: the request bodies weft sends
 * (system prompt, every tool's name, description and input JSON Schema, the messages with tool results and the
 * messages of invalid-input errors), the stream-json and json output of scripted sessions, and every `--help`.
 * A change to any of them fails here until the snapshot is updated on purpose (`npx vitest run -u test/e2e/wire-snapshots.test.ts`)
 * and the change is named in the commit. Only what differs from run to run is replaced: the temporary directories,
 * ids, times and the machine's facts in the system prompt.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

/** `text` with what differs between runs replaced by placeholders. */
const normalizer = (dir: string, home: string) => (text: string): string =>
  text
    .split(dir)
    .join("<project>")
    .split(home)
    .join("<weft-home>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/"(duration_ms|duration_api_ms)":(\s*)\d+(\.\d+)?/g, '"$1":$20')
    .replace(/Today's date: [^\\\n]*/g, "Today's date: <date>")
    .replace(/(OS Version|Platform|Node\.js|Shell): [^\\\n]*/g, "$1: <machine>")

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** A fixed usage for every scripted turn: the mock's estimate depends on the length of the temporary paths. */
const usage = { usage: { input_tokens: 1000, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } }

/**
 * The Messages API requests the mock server received: the system prompt and the tools (the same in every request,
 * checked here) and the last request's other fields, which hold the whole conversation.
 */
const requestSnapshots = (server: { requests: () => ReadonlyArray<{ path: string; body: unknown }> }) => {
  const bodies = server
    .requests()
    .filter((request) => request.path.startsWith("/v1/messages"))
    .map((request) => request.body as Record<string, unknown>)
  const [first] = bodies
  const last = bodies[bodies.length - 1]
  if (first === undefined || last === undefined) throw new Error("no request reached the mock server")
  for (const body of bodies) {
    expect(body["system"]).toEqual(first["system"])
    expect(body["tools"]).toEqual(first["tools"])
  }
  const { system, tools, ...rest } = last
  return { system: pretty(system), tools: pretty(tools), last: pretty(rest) }
}

describe("what the model and the user see (snapshots)", () => {
  it("a session that calls every built-in tool, with valid and invalid input: requests and stream-json frames", async () => {
    const files = { "src/greet.js": 'export const greet = (name) => "Helo, " + name\n', "notes.txt": "one\ntwo\n" }
    const { dir, home, env, server } = await setup(files, (dir) => ({
      script: [
        ScriptTurn.blocks([
          text("Looking around."),
          toolUse("Glob", { pattern: "**/*.js" }, "glob1"),
          toolUse("Grep", { pattern: "Helo", output_mode: "content", "-n": true }, "grep1"),
          toolUse("Read", { file_path: join(dir, "src/greet.js") }, "read1")
        ], usage),
        ScriptTurn.blocks([
          toolUse("Edit", { file_path: join(dir, "src/greet.js"), old_string: "Helo", new_string: "Hello" }, "edit1"),
          toolUse("Write", { file_path: join(dir, "NEW.md"), content: "# New\n" }, "write1"),
          toolUse("Bash", { command: "wc -l notes.txt", description: "Count lines" }, "bash1"),
          toolUse("TodoWrite", { todos: [{ content: "Fix greeting", status: "completed", activeForm: "Fixing greeting" }] }, "todo1")
        ], usage),
        ScriptTurn.blocks([
          toolUse("Read", { file_path: 17 }, "bad-read"),
          toolUse("Edit", { file_path: join(dir, "notes.txt"), new_string: "x" }, "bad-edit"),
          toolUse("Write", { file_path: join(dir, "x.txt") }, "bad-write"),
          toolUse("Bash", { command: ["ls"] }, "bad-bash"),
          toolUse("Glob", {}, "bad-glob"),
          toolUse("Grep", { pattern: "x", output_mode: "everything" }, "bad-grep"),
          toolUse("NotebookEdit", { notebook_path: join(dir, "a.ipynb"), new_source: "x", edit_mode: "move" }, "bad-notebook"),
          toolUse("WebFetch", { url: "not a url" }, "bad-fetch"),
          toolUse("TodoWrite", { todos: [{ content: "x", status: "later" }] }, "bad-todo"),
          toolUse("Read", { file_path: join(dir, "notes.txt"), offset: -1, extra: true }, "bad-read-2"),
          toolUse("NoSuchTool", { a: 1 }, "bad-name")
        ], usage),
        textTurn("Fixed the typo.", usage)
      ]
    }))
    const out = await runWeft(["-p", "fix the greeting", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], {
      cwd: dir,
      env
    })
    expect(out.code).toBe(0)
    const normalize = normalizer(dir, home)
    const requests = requestSnapshots(server)
    await expect(normalize(requests.system)).toMatchFileSnapshot("__snapshots__/wire/system-prompt.json")
    await expect(normalize(requests.tools)).toMatchFileSnapshot("__snapshots__/wire/tools.json")
    await expect(normalize(requests.last)).toMatchFileSnapshot("__snapshots__/wire/tools-session.last-request.json")
    await expect(normalize(out.stdout)).toMatchFileSnapshot("__snapshots__/wire/tools-session.stream-json.jsonl")
    expect(out.stderr).toBe("")
  })

  it("a denied call under default mode and the json result", async () => {
    const { dir, home, env, server } = await setup({}, (dir) => ({
      script: [ScriptTurn.blocks([toolUse("Write", { file_path: join(dir, "a.txt"), content: "a" }, "write1")], usage), textTurn("Could not write.", usage)]
    }))
    const out = await runWeft(["-p", "write a", "--output-format", "json"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const normalize = normalizer(dir, home)
    await expect(normalize(requestSnapshots(server).last)).toMatchFileSnapshot("__snapshots__/wire/denied.last-request.json")
    await expect(normalize(out.stdout)).toMatchFileSnapshot("__snapshots__/wire/denied.json")
  })

  it.each([
    ["help", ["--help"]],
    ["mcp-help", ["mcp", "--help"]],
    ["sessions-help", ["sessions", "--help"]],
    ["trust-help", ["trust", "--help"]],
    ["demo-help", ["demo", "--help"]],
    ["unknown-option", ["-p", "hi", "--no-such-option"]],
    ["bad-output-format", ["-p", "hi", "--output-format", "yaml"]],
    ["no-prompt", []]
  ])("weft %s", async (name, args) => {
    const { dir, home, env } = await setup({}, () => ({ script: [] }))
    const out = await runWeft(args, { cwd: dir, env })
    const normalize = normalizer(dir, home)
    await expect(normalize(`exit ${out.code}\n--- stdout\n${out.stdout}--- stderr\n${out.stderr}`)).toMatchFileSnapshot(`__snapshots__/wire/${name}.txt`)
  })
})
