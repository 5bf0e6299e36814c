/**
 * weft -p "/name args": custom slash commands from `.claude/commands` (project) and `~/.claude/commands` (user),
 * through the built binary against the mock Messages API. The user's commands live in a temporary HOME.
 */
import { existsSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, messageRequests, resultFrame, runWeft, type SentRequest, toolResults, useSessions, userTexts, withHome } from "./harness.js"

const { setup } = useSessions()

/** The text blocks of the first user message of the first request. */
const firstUserTexts = (requests: ReadonlyArray<SentRequest>): ReadonlyArray<string> => userTexts(requests[0]?.messages[0]?.content)

const streamJson = ["--output-format", "stream-json", "--verbose"]

describe("weft -p: custom slash commands", { timeout: 60_000 }, () => {
  it("expands a project command: the command block then the body, $ARGUMENTS raw and $0.. counted from 0", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/review.md": "---\ndescription: Review files\nargument-hint: <file> <focus>\n---\nReview $0 for $1; also $ARGUMENTS[1]. Missing: [$5]. All: $ARGUMENTS\n" },
      () => ({ script: [textTurn("Reviewed.")] })
    )
    const out = await runWeft(["-p", "/review src/a.js 'error handling'", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const texts = firstUserTexts(messageRequests(server.requests()))
    expect(texts[0]).toBe(
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.js 'error handling'</command-args>"
    )
    expect(texts[1]).toBe("Review src/a.js for error handling; also error handling. Missing: []. All: src/a.js 'error handling'\n")
    expect(resultFrame(out.stdout)["result"]).toBe("Reviewed.")
  })

  it("appends ARGUMENTS: when the body has no placeholder", async () => {
    const { dir, env, server } = await setup({ ".claude/commands/fix.md": "Fix the bug." }, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "/fix issue 12", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(firstUserTexts(messageRequests(server.requests()))[1]).toBe("Fix the bug.\n\nARGUMENTS: issue 12")
  })

  it("namespaces subfolders as /dir:name, and the user's command wins over the project's of the same name", async () => {
    const { root, dir, env, server } = await setup(
      {
        ".claude/commands/frontend/lint.md": "Lint the frontend.",
        ".claude/commands/deploy.md": "Project deploy."
      },
      () => ({ script: [textTurn("one"), textTurn("two")], pick: (request) => (JSON.stringify(request.body).includes("frontend:lint") ? 0 : 1) })
    )
    const home = await withHome(root, { ".claude/commands/deploy.md": "User deploy." })
    const lint = await runWeft(["-p", "/frontend:lint", ...streamJson], { cwd: dir, env: { ...env, ...home } })
    expect(lint.code, lint.stderr).toBe(0)
    expect(firstUserTexts(messageRequests(server.requests()))).toContain("Lint the frontend.")
    const deploy = await runWeft(["-p", "/deploy", ...streamJson], { cwd: dir, env: { ...env, ...home } })
    expect(deploy.code, deploy.stderr).toBe(0)
    const second = messageRequests(server.requests())[1]
    expect(second === undefined ? [] : firstUserTexts([second])).toContain("User deploy.")
    // The init frame lists them.
    const init = frames(deploy.stdout).find((frame) => frame["subtype"] === "init")
    expect(init?.["slash_commands"]).toEqual(expect.arrayContaining(["deploy", "frontend:lint"]))
  })

  it("applies the command's model to every request of the run (the mock sees it)", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/quick.md": "---\nmodel: claude-haiku-4-5\n---\nList the files.", "a.txt": "x" },
      () => ({ script: [ScriptTurn.blocks([toolUse("Glob", { pattern: "*.txt" }, "g1")]), textTurn("a.txt")] })
    )
    const out = await runWeft(["-p", "/quick", "--model", "claude-sonnet-4-5", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const requests = messageRequests(server.requests())
    expect(requests).toHaveLength(2)
    for (const request of requests) expect(request.model).toBe("claude-haiku-4-5")
  })

  it("grants allowed-tools for the run: a Bash call they cover runs under -p, one they do not is refused", async () => {
    const { dir, env } = await setup(
      { ".claude/commands/stamp.md": "---\nallowed-tools: Bash(touch granted.txt), Read\n---\nStamp it." },
      () => ({
        script: [
          ScriptTurn.blocks([toolUse("Bash", { command: "touch granted.txt" }, "b1"), toolUse("Bash", { command: "touch other.txt" }, "b2")]),
          textTurn("Stamped.")
        ]
      })
    )
    const out = await runWeft(["-p", "/stamp", "--trust-project", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "granted.txt"))).toBe(true)
    expect(existsSync(join(dir, "other.txt"))).toBe(false)
    expect(toolResults(out.stdout)["b2"]).toMatch(/approval|permission|denied/i)
  })

  it("beyond Claude Code: an untrusted project's command grants nothing (its !`cmd` is not allowed by its own file)", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/status.md": "---\nallowed-tools: Bash(touch:*)\n---\nStamp: !`touch pwned.txt`" },
      () => ({ script: [textTurn("should not be asked")] })
    )
    const out = await runWeft(["-p", "/status", ...streamJson], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/status\.md: allowed-tools ignored: the project is not trusted/)
    expect(existsSync(join(dir, "pwned.txt"))).toBe(false)
    expect(messageRequests(server.requests())).toHaveLength(0)
  })

  it("a user's command grants its allowed-tools in an untrusted project", async () => {
    const { root, dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const home = await withHome(root, { ".claude/commands/stamp.md": "---\nallowed-tools: Bash(touch:*)\n---\nDone: !`touch stamped.txt`" })
    const out = await runWeft(["-p", "/stamp", ...streamJson], { cwd: dir, env: { ...env, ...home } })
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "stamped.txt"))).toBe(true)
  })

  it("without the command, the same Bash call is refused (the grant is what allows it)", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "touch granted.txt" }, "b1")]), textTurn("No.")]
    }))
    const out = await runWeft(["-p", "stamp it", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(existsSync(join(dir, "granted.txt"))).toBe(false)
    // Refused by the permission check (not skipped for another reason).
    expect(resultFrame(out.stdout)["permission_denials"]).toMatchObject([{ tool_name: "Bash", tool_use_id: "b1" }])
  })

  it("runs !`cmd` first under the Bash rules (allowed here by the command's allowed-tools) and inlines its output", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/status.md": "---\nallowed-tools: Bash(echo:*)\n---\nThe status is: !`echo all-green`\nGo on." },
      () => ({ script: [textTurn("ok")] })
    )
    const out = await runWeft(["-p", "/status", "--trust-project", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const body = firstUserTexts(messageRequests(server.requests()))[1] ?? ""
    expect(body).toContain("The status is: all-green")
    expect(body).not.toContain("!`")
  })

  it("beyond Claude Code: a refused !`cmd` ends the run as an error (is_error, exit 1, reason on stderr) with no request", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/leak.md": "Here: !`touch pwned.txt`" },
      () => ({ script: [textTurn("should not be asked")] })
    )
    const out = await runWeft(["-p", "/leak", ...streamJson], { cwd: dir, env })
    expect(out.code).toBe(1)
    const result = resultFrame(out.stdout)
    expect(result["is_error"]).toBe(true)
    expect(String(result["result"])).toContain("touch pwned.txt")
    expect(out.stderr).toContain("touch pwned.txt")
    expect(existsSync(join(dir, "pwned.txt"))).toBe(false)
    expect(messageRequests(server.requests())).toHaveLength(0)
  })

  it("beyond Claude Code: a failing !`cmd` ends the run as an error too (text output: the reason on stderr)", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/broken.md": "---\nallowed-tools: Bash(ls:*)\n---\nFiles: !`ls no-such-dir`" },
      () => ({ script: [textTurn("should not be asked")] })
    )
    const out = await runWeft(["-p", "/broken"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/ls no-such-dir.*failed/)
    expect(messageRequests(server.requests())).toHaveLength(0)
  })

  it("attaches an @path file of the workspace as a Read result before the prompt", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/explain.md": "Explain @notes.md please.", "notes.md": "The secret sauce is ketchup.\n" },
      () => ({ script: [textTurn("ok")] })
    )
    const out = await runWeft(["-p", "/explain", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const texts = firstUserTexts(messageRequests(server.requests()))
    expect(texts[0]).toContain("Called the Read tool with the following input")
    expect(texts[0]).toContain("The secret sauce is ketchup.")
    expect(texts[1]).toContain("<command-name>/explain</command-name>")
  })

  it("beyond Claude Code: an @path outside the workspace goes through the Read check, refused under -p", async () => {
    const { root, dir, env, server } = await setup({}, () => ({ script: [textTurn("should not be asked")] }))
    await writeFile(join(root, "secret.txt"), "TOP SECRET KEY")
    await mkdir(join(dir, ".claude/commands"), { recursive: true })
    await writeFile(join(dir, ".claude/commands/steal.md"), `Summarize @${join(root, "secret.txt")}`)
    const out = await runWeft(["-p", "/steal", ...streamJson], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(resultFrame(out.stdout)["is_error"]).toBe(true)
    expect(out.stderr).toContain("secret.txt")
    expect(messageRequests(server.requests())).toHaveLength(0)
  })

  it("sends an unknown /name as typed, with a note listing the commands there are", async () => {
    const { dir, env, server } = await setup({ ".claude/commands/known.md": "Known." }, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "/nosuch thing", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const texts = firstUserTexts(messageRequests(server.requests()))
    expect(texts[0]).toBe("/nosuch thing")
    expect(texts.join("\n")).toMatch(/\/nosuch is not a custom command[\s\S]*\/known/)
  })

  it("leaves a prompt that is a path alone (no note)", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "/usr/bin/env is odd", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(firstUserTexts(messageRequests(server.requests()))).toEqual(["/usr/bin/env is odd"])
  })

  it("loads a command with a malformed header with a warning, and still runs", async () => {
    const { dir, env, server } = await setup(
      { ".claude/commands/odd.md": "---\ndescription: fine\nthis line is not yaml\nmeta: {a: 1}\n---\nOdd body $ARGUMENTS" },
      () => ({ script: [textTurn("ok")] })
    )
    const out = await runWeft(["-p", "/odd x", ...streamJson], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    expect(out.stderr).toContain("odd.md")
    expect(firstUserTexts(messageRequests(server.requests()))[1]).toBe("Odd body x")
  })
})
