/** weft -p running the built-in tools in a project, through the built binary against the mock Messages API. */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, resultFrame, runWeft, toolResults, useSessions } from "./harness.js"

const { setup } = useSessions()

describe("weft -p: tools", () => {
  it("reads, greps, edits and runs a command in a project; stream-json shows every step", async () => {
    const files = {
      "src/greet.js": 'export const greet = (name) => "Helo, " + name\n',
      "test.js": 'import { greet } from "./src/greet.js"\nif (greet("x") !== "Hello, x") { console.error("FAIL"); process.exit(1) }\nconsole.log("PASS")\n'
    }
    const { dir, env, server } = await setup(files, (dir) => ({
      script: [
        ScriptTurn.blocks([text("Looking."), toolUse("Grep", { pattern: "Helo", output_mode: "files_with_matches" }, "grep1")]),
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "src/greet.js") }, "read1")]),
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(dir, "src/greet.js"), old_string: "Helo", new_string: "Hello" }, "edit1")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "node test.js" }, "bash1")]),
        textTurn("Fixed the typo; the test passes.")
      ]
    }))
    const out = await runWeft(["-p", "fix the greeting", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], { cwd: dir, env })
    expect(out.stderr).toBe("")
    expect(out.code).toBe(0)
    expect(await readFile(join(dir, "src/greet.js"), "utf8")).toBe('export const greet = (name) => "Hello, " + name\n')

    const all = frames(out.stdout)
    expect(all[0]).toMatchObject({ type: "system", subtype: "init", cwd: dir, permissionMode: "bypassPermissions", plugins: [] })
    expect(all[0]?.["tools"]).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]))
    const results = all
      .filter((frame) => frame["type"] === "user")
      .flatMap((frame) => {
        const message = frame["message"]
        return typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []
      })
    expect(results.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ["grep1", false],
      ["read1", false],
      ["edit1", false],
      ["bash1", false]
    ])
    expect(JSON.stringify(results[0].content)).toContain("greet.js")
    expect(JSON.stringify(results[1].content)).toContain("1\\texport const greet")
    expect(JSON.stringify(results[3].content)).toContain("PASS")
    expect(all.filter((frame) => frame["type"] === "assistant")).toHaveLength(5)
    expect(resultFrame(out.stdout)).toMatchObject({
      subtype: "success",
      is_error: false,
      result: "Fixed the typo; the test passes.",
      num_turns: 5,
      permission_denials: []
    })
    // The model saw every tool result: the last request carries the whole conversation.
    const requests = server.requests().filter((request) => request.path.startsWith("/v1/messages"))
    expect(requests).toHaveLength(5)
  })

  it("answers schema-violating tool input with an is_error result and the session goes on", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Read", { file_path: 17 }, "bad1")]), textTurn("Sorry, retrying is not needed.")]
    }))
    const out = await runWeft(["-p", "read something", "--output-format", "stream-json"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const toolResult = frames(out.stdout).find((frame) => frame["type"] === "user")
    expect(JSON.stringify(toolResult)).toMatch(/"is_error":true/)
    expect(JSON.stringify(toolResult)).toMatch(/Invalid input for Read: file_path/)
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success", num_turns: 2 })
  })

  it("--disallowedTools removes a tool from the model's view", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--disallowedTools", "Bash,WebFetch"], { cwd: dir, env })
    const init = frames(out.stdout)[0]
    expect(init?.["tools"]).not.toContain("Bash")
    expect(init?.["tools"]).not.toContain("WebFetch")
    expect(init?.["tools"]).toContain("Read")
  })
})

describe("weft -p: tool edge cases", () => {
  it("Write of empty content creates an empty file; an Edit that empties a file leaves it empty", async () => {
    const { dir, env } = await setup({ "full.txt": "only line" }, (dir) => ({
      script: [
        ScriptTurn.blocks([toolUse("Write", { file_path: join(dir, "empty.txt"), content: "" }, "write")]),
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "full.txt") }, "read")]),
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(dir, "full.txt"), old_string: "only line", new_string: "" }, "edit")]),
        textTurn("done")
      ]
    }))
    const out = await runWeft(["-p", "empty them", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    expect(results["write"]).not.toMatch(/bytes written|error/i)
    expect(results["edit"]).not.toMatch(/bytes written|error/i)
    expect(await readFile(join(dir, "empty.txt"), "utf8")).toBe("")
    expect(await readFile(join(dir, "full.txt"), "utf8")).toBe("")
  })

  it("no command text changes how the shell wrapper runs: a trailing backslash, an open quote, a heredoc, a comment", async () => {
    const commands: Record<string, string> = {
      backslash: "echo ok \\",
      quote: "echo 'unclosed",
      heredoc: "cat <<EOF\nhello from heredoc",
      comment: "echo before # a comment",
      cd: "mkdir -p sub && cd sub # a comment ending in \\",
      after: "pwd"
    }
    const { dir, env } = await setup({}, () => ({
      script: [...Object.entries(commands).map(([id, command]) => ScriptTurn.blocks([toolUse("Bash", { command }, id)])), textTurn("done")]
    }))
    const out = await runWeft(["-p", "shell", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    for (const text of Object.values(results)) expect(text).not.toContain("__weft")
    expect(results["backslash"]).toBe("ok \\")
    expect(results["quote"]).toMatch(/unexpected EOF[^\n]*\nExit code 2$/)
    expect(results["heredoc"]).toMatch(/^[^\n]*here-document[^\n]*\nhello from heredoc$/)
    expect(results["comment"]).toBe("before")
    // A comment ending in a backslash continues nothing: the cd still takes effect for the next command.
    expect(results["cd"]).toBe("(No output)")
    expect(results["after"]).toMatch(/\/sub$/)
  })
})
