/**
 * The interactive terminal through the built binary, driven in tmux (`send-keys` / `capture-pane`) against the mock
 * Messages API: a window of 80 × 24, keys as a user types them, the screen read back. Polls the screen until what
 * is expected shows (no sleeps for timing). tmux is needed: CI installs it; elsewhere, without it, these skip loudly.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { binary, isAlive, repoRoot, requireBinary, useSessions, waitUntil } from "./harness.js"

const hasTmux = spawnSync("tmux", ["-V"]).status === 0
if (!hasTmux) {
  if (process.env["CI"] !== undefined && process.env["CI"] !== "") throw new Error("tmux is missing, and CI must have it (.ci/run installs it)")
  console.warn("SKIPPED: test/e2e/terminal.test.ts needs tmux (apt-get install tmux); the interactive terminal is not tested here.")
}

const { setup, defer } = useSessions()

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`

let sockets = 0

/** weft in a tmux window of `columns` × 24, in `dir` with `env`; the window stays after weft exits. */
const startTerminal = async (
  session: { readonly dir: string; readonly env: Readonly<Record<string, string>> },
  options: { readonly args?: ReadonlyArray<string>; readonly columns?: number; readonly env?: Readonly<Record<string, string>> } = {}
) => {
  requireBinary()
  const socket = `weft-test-${process.pid}-${sockets++}`
  const tmux = (...args: ReadonlyArray<string>) => {
    const run = spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
    if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`)
    return run.stdout
  }
  const env = { ...session.env, HOME: join(session.dir, "..", "home"), TERM: "xterm-256color", ...options.env }
  await mkdir(env.HOME, { recursive: true })
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)}`)
  const unset = options.env?.["NO_COLOR"] === undefined ? "-u NO_COLOR " : ""
  const command = `env ${unset}${assignments.join(" ")} ${shellQuote(process.execPath)} ${shellQuote(binary)} ${(options.args ?? []).map(shellQuote).join(" ")}; echo "[weft exited $?]"; sleep 600`
  tmux("new-session", "-d", "-s", "main", "-x", String(options.columns ?? 80), "-y", "24", "-c", session.dir, command)
  defer(async () => {
    spawnSync("tmux", ["-L", socket, "kill-server"])
  })
  const shellPid = Number(tmux("display-message", "-p", "-t", "main", "#{pane_pid}").trim())
  const children = (pid: number): ReadonlyArray<number> => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter((id) => id !== "").map(Number)
    } catch {
      return []
    }
  }
  const descendants = (pid: number): ReadonlyArray<number> => children(pid).flatMap((child) => [child, ...descendants(child)])
  const commandOf = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")
    } catch {
      return ""
    }
  }
  /** The screen, with `history` lines of scrollback above it; `escapes` keeps the SGR codes. */
  const capture = (options: { readonly escapes?: boolean } = {}) =>
    tmux("capture-pane", "-p", "-t", "main", "-S", "-400", ...(options.escapes ? ["-e"] : []))
  const waitFor = async (pattern: RegExp | string, limitMs = 20_000) => {
    try {
      await waitUntil(() => (typeof pattern === "string" ? capture().includes(pattern) : pattern.test(capture())), `${pattern}`, limitMs)
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the screen:\n${capture()}`)
    }
  }
  const keys = (...keys: ReadonlyArray<string>) => void tmux("send-keys", "-t", "main", ...keys)
  const type = (literal: string) => void tmux("send-keys", "-t", "main", "-l", literal)
  /** weft's process (the shell's child), while it runs. */
  const weftPid = () => children(shellPid).find((pid) => commandOf(pid).includes("weft.cjs"))
  /** Types a prompt and Enter; resolves once `answer` is on the screen and the next prompt is up. */
  const submit = async (prompt: string, answer: RegExp | string) => {
    type(prompt)
    keys("Enter")
    await waitFor(answer)
    await waitFor(/^> ?$/m)
  }
  await waitFor(/^> ?$/m)
  return { tmux, capture, waitFor, keys, type, submit, weftPid, descendants, commandOf }
}

describe.skipIf(!hasTmux)("weft in a terminal (tmux)", () => {
  it("reads, edits and runs commands, the questions answered each way; history and --continue in the next session", async () => {
    const session = await setup({ "a.txt": "hello world\n" }, (dir) => ({
      script: [
        ScriptTurn.blocks([text("Let me **read** it first."), toolUse("Read", { file_path: join(dir, "a.txt") }, "t1")]),
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "hello", new_string: "goodbye" }, "t2")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "touch made-by-bash" }, "t3")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "touch refused-file" }, "t4")]),
        textTurn("All done: the file says goodbye.")
      ]
    }))
    const term = await startTerminal(session)
    term.type("please change a.txt")
    term.keys("Enter")
    await term.waitFor("● Read(a.txt)")
    await term.waitFor("Allow Edit(a.txt)?")
    // Always: the rule is kept in the project's local settings.
    term.type("2")
    await term.waitFor("+ goodbye")
    await term.waitFor("Allow Bash(touch made-by-bash)?")
    const settings = JSON.parse(readFileSync(join(session.dir, ".claude/settings.local.json"), "utf8"))
    expect(settings.permissions.allow).toContain("Edit")
    // Once.
    term.keys("Enter")
    await term.waitFor("Allow Bash(touch refused-file)?")
    expect(existsSync(join(session.dir, "made-by-bash"))).toBe(true)
    // No, with a note for the model.
    term.type("3")
    await term.waitFor("Type what the model should do instead")
    await term.submit("use mkdir instead", "All done: the file says goodbye.")
    expect(readFileSync(join(session.dir, "a.txt"), "utf8")).toBe("goodbye world\n")
    expect(existsSync(join(session.dir, "refused-file"))).toBe(false)
    const last = JSON.stringify(session.server.requests().at(-1)?.body)
    expect(last).toContain("use mkdir instead")
    const screen = term.capture()
    expect(screen).toContain("> please change a.txt")
    expect(screen).toContain("Let me read it first.")
    // The diff from the Edit's structured patch, numbered.
    expect(screen).toContain("1 - hello world")
    expect(screen).toContain("1 + goodbye world")
    // Ctrl-D at the empty prompt leaves.
    term.keys("C-d")
    await term.waitFor("[weft exited 0]")

    // The next session: the rule kept in .claude/settings.local.json widens permissions, which only a trusted
    // project's files may do: weft asks (declined here); the prompt's history (↑); --continue shows the conversation.
    const next = await startTerminal(session, { args: ["--continue"] })
    await next.waitFor(/Trust .*\?/)
    next.type("2")
    await next.waitFor("Not trusted")
    await next.waitFor("All done: the file says goodbye.")
    await next.waitFor("> please change a.txt")
    next.keys("Up")
    await next.waitFor(/^> please change a\.txt\s*$/m)
  })

  it("Shift+Tab cycles the modes; in accept-edits an edit is not asked about", async () => {
    const session = await setup({ "a.txt": "one\n" }, (dir) => ({
      script: [
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "a.txt") }, "t0")]),
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "one", new_string: "two" }, "t1")]),
        textTurn("Edited.")
      ]
    }))
    const term = await startTerminal(session)
    await term.waitFor("default mode")
    term.keys("BTab")
    await term.waitFor("accept edits on")
    term.type("edit it")
    term.keys("Enter")
    await term.waitFor("Edited.")
    expect(term.capture()).not.toContain("Allow Edit")
    expect(readFileSync(join(session.dir, "a.txt"), "utf8")).toBe("two\n")
    term.keys("BTab")
    await term.waitFor("plan mode on")
    term.keys("BTab")
    await term.waitFor("default mode")
    // SIGTERM from outside: weft leaves as Ctrl-D does (the terminal restored, exit code 0).
    process.kill(term.weftPid() ?? 0, "SIGTERM")
    await term.waitFor("[weft exited 0]")
  })

  it("Esc interrupts a running command: its process is gone, the history stays valid, the next prompt is answered", async () => {
    const session = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "sleep 30" }, "t1")]), textTurn("Second answer.")]
    }))
    const term = await startTerminal(session, { args: ["--allowedTools", "Bash(sleep 30)"] })
    term.type("wait a while")
    term.keys("Enter")
    await term.waitFor("● Bash(sleep 30)")
    const weft = term.weftPid()
    expect(weft).toBeDefined()
    const sleeping = () => term.descendants(weft ?? 0).filter((pid) => term.commandOf(pid).startsWith("sleep"))
    await waitUntil(() => sleeping().length > 0, "sleep to start")
    const [sleep] = sleeping()
    term.keys("Escape")
    await term.waitFor("Interrupted")
    await waitUntil(() => !isAlive(sleep ?? 0), "sleep to be killed")
    await term.waitFor(/^> ?$/m)
    term.type("and now?")
    term.keys("Enter")
    await term.waitFor("Second answer.")
    // The interrupted call was answered in the history the model got next.
    const messages = JSON.stringify(session.server.requests().at(-1)?.body)
    expect(messages).toContain('"tool_use_id":"t1"')
  })

  it("/resume lists this project's sessions and opens one by number, its conversation shown and continued", async () => {
    const session = await setup({}, () => ({ script: [textTurn("First answer."), textTurn("Continued.")] }))
    const first = await startTerminal(session)
    await first.submit("the first topic", "First answer.")
    first.keys("C-d")
    await first.waitFor("[weft exited 0]")
    const second = await startTerminal(session)
    second.type("/resume")
    second.keys("Enter")
    await second.waitFor(/ 1\. \d{4}-\d\d-\d\d \d\d:\d\d {2}the first topic/)
    second.type("/resume 1")
    second.keys("Enter")
    await second.waitFor("── resumed ──")
    expect(second.capture()).toContain("First answer.")
    second.type("and more")
    second.keys("Enter")
    await second.waitFor("Continued.")
    expect(JSON.stringify(session.server.requests().at(-1)?.body)).toContain("the first topic")
  })

  it("an untrusted project whose settings ask for more is asked about once: yes records it as weft trust does, no leaves it out", async () => {
    const files = { ".claude/settings.json": JSON.stringify({ env: { FROM_PROJECT: "1" } }) }
    const declined = await setup(files, () => ({ script: [] }))
    const first = await startTerminal(declined)
    await first.waitFor(/Trust .*\?/)
    expect(first.capture()).toContain("env")
    first.type("2")
    await first.waitFor("Not trusted")
    expect(existsSync(join(declined.home, "trusted-projects.json"))).toBe(false)

    const accepted = await setup(files, () => ({ script: [] }))
    const second = await startTerminal(accepted)
    await second.waitFor(/Trust .*\?/)
    second.keys("Enter")
    await second.waitFor("Trusted ")
    const trusted = JSON.parse(readFileSync(join(accepted.home, "trusted-projects.json"), "utf8"))
    expect(trusted.projects).toEqual([realpathSync(accepted.dir)])
    await second.waitFor("default mode")
  })

  it("/compact summarises the conversation; /help lists the commands", async () => {
    const session = await setup({}, () => ({
      script: [textTurn("First answer."), textTurn("A summary of the conversation.")]
    }))
    const term = await startTerminal(session)
    await term.submit("hello", "First answer.")
    term.type("/compact keep it short")
    term.keys("Enter")
    await term.waitFor("Conversation compacted")
    expect(JSON.stringify(session.server.requests().at(-1)?.body)).toContain("keep it short")
    term.type("/help")
    term.keys("Enter")
    await term.waitFor("/resume [n]")    // #note goes into the project's CLAUDE.md; @ and Tab complete a path.
    term.type("#tests run with npm test")
    term.keys("Enter")
    await term.waitFor("Noted in")
    expect(readFileSync(join(session.dir, "CLAUDE.md"), "utf8")).toBe("- tests run with npm test\n")
    term.type("look at @CLA")
    term.keys("Tab")
    await term.waitFor(/^> look at @CLAUDE\.md\s*$/m)
  })

  it("a custom command with arguments is expanded as -p expands it; !cmd runs under the rules, its output sent with the next prompt", async () => {
    const session = await setup(
      {
        ".claude/commands/review.md": "---\ndescription: Review one file\nargument-hint: <file>\n---\nReview $0 carefully. All: $ARGUMENTS\n",
        ".claude/commands/stamp.md": "Stamp: !`touch stamped && echo stamped-ok`\n",
        "src/a.js": "let a = 1\n"
      },
      () => ({ script: [textTurn("Reviewed."), textTurn("Seen the output."), textTurn("Stamped.")] })
    )
    const term = await startTerminal(session)
    // /help lists the project's commands beside the built-in ones.
    term.type("/help")
    term.keys("Enter")
    await term.waitFor(/\/review <file> +Review one file/)
    term.type("/review src/a.js closely")
    term.keys("Enter")
    await term.waitFor("Reviewed.")
    const first = JSON.stringify(session.server.requests().at(-1)?.body)
    expect(first).toContain("<command-name>/review</command-name>")
    expect(first).toContain("Review src/a.js carefully. All: src/a.js closely")
    // A name that is neither built in nor the project's: said, nothing sent.
    term.type("/nosuch thing")
    term.keys("Enter")
    await term.waitFor("Unknown command /nosuch")
    // !cmd: Bash's rules apply (this one is asked about), no request is made, the output waits for the next prompt.
    term.type("!touch bang-file && echo from-the-shell")
    term.keys("Enter")
    await term.waitFor("Allow Bash(touch bang-file && echo from-the-shell)?")
    term.type("1")
    await term.waitFor("the output goes to the model with your next prompt")
    expect(existsSync(join(session.dir, "bang-file"))).toBe(true)
    expect(session.server.requests()).toHaveLength(1)
    term.type("what did it print?")
    term.keys("Enter")
    await term.waitFor("Seen the output.")
    const second = JSON.stringify(session.server.requests().at(-1)?.body)
    expect(second).toContain("<bash-input>touch bang-file && echo from-the-shell</bash-input>")
    expect(second).toMatch(/<bash-stdout>from-the-shell\s*<\/bash-stdout>/)
    expect(second).toContain("what did it print?")
    // A command's own !`cmd` is asked about at the prompt too, as the model's calls are.
    term.type("/stamp")
    term.keys("Enter")
    await term.waitFor("Allow Bash(touch stamped && echo stamped-ok)?")
    term.type("1")
    await term.waitFor("Stamped.")
    expect(existsSync(join(session.dir, "stamped"))).toBe(true)
    expect(JSON.stringify(session.server.requests().at(-1)?.body)).toMatch(/Stamp: stamped-ok/)
  })

  it("a skill as /name args and an MCP prompt as /mcp__server__prompt args; a refused expansion is said and nothing is sent", async () => {
    const session = await setup(
      { ".claude/skills/changelog/SKILL.md": "---\ndescription: Writes the changelog\n---\nWrite the changelog for $ARGUMENTS.\n" },
      () => ({ script: [textTurn("Changelog written."), textTurn("Sunny.")] })
    )
    const config = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"] } }
    })
    const term = await startTerminal(session, { args: ["--mcp-config", config] })
    term.type("/changelog v2.0")
    term.keys("Enter")
    await term.waitFor("Changelog written.")
    expect(JSON.stringify(session.server.requests().at(-1)?.body)).toContain("Write the changelog for v2.0.")
    // An MCP prompt missing a required argument: the reason, and no request.
    term.type("/mcp__everything__args-prompt")
    term.keys("Enter")
    await term.waitFor("/mcp__everything__args-prompt needs city")
    expect(session.server.requests()).toHaveLength(1)
    term.type("/mcp__everything__args-prompt Paris France")
    term.keys("Enter")
    await term.waitFor("Sunny.")
    expect(JSON.stringify(session.server.requests().at(-1)?.body)).toContain("What's weather in Paris, France?")
  })

  it("@path in a prompt attaches the file as a Read result before it, under Read's rules: a denied one is said and nothing is sent", async () => {
    const session = await setup({ "notes.txt": "the notes say 42\n", "secret.txt": "hunter2\n" }, () => ({ script: [textTurn("Read it.")] }))
    const settings = JSON.stringify({ permissions: { deny: ["Read(./secret.txt)"] } })
    const term = await startTerminal(session, { args: ["--settings", settings] })
    term.type("what is in @secret.txt")
    term.keys("Enter")
    await term.waitFor(/@secret\.txt was refused/)
    expect(session.server.requests()).toHaveLength(0)
    term.type("summarise @notes.txt please")
    term.keys("Enter")
    await term.waitFor("Read it.")
    const body = JSON.stringify(session.server.requests().at(-1)?.body)
    expect(body).toContain("Called the Read tool with the following input:")
    expect(body).toContain("the notes say 42")
    expect(body).toContain("summarise @notes.txt please")
    expect(body).not.toContain("hunter2")
  })

  it("in 80 columns a long answer wraps at words; NO_COLOR leaves colours out; the window may be resized", async () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ")
    const script = () => ({ script: [ScriptTurn.blocks([text(long), toolUse("Edit", { file_path: "/nonexistent/x", old_string: "a", new_string: "b" }, "t1")]), textTurn("Finished.")] })
    const colored = await setup({}, script)
    const term = await startTerminal(colored, { args: ["--permission-mode", "bypassPermissions"] })
    term.type("go")
    term.keys("Enter")
    await term.waitFor("Finished.")
    const lines = term.capture().split("\n")
    expect(lines.every((line) => line.length <= 80)).toBe(true)
    // Every word whole on its row.
    const answerRows = lines.filter((line) => line.startsWith("word"))
    expect(answerRows.length).toBeGreaterThan(1)
    expect(answerRows.join(" ").split(/\s+/).filter((word) => word !== "")).toEqual(long.split(" "))
    expect(term.capture({ escapes: true })).toMatch(/\x1b\[[0-9;]*3[1-6]m/)
    // A narrower window: the prompt and status are drawn again within it.
    term.tmux("resize-window", "-t", "main", "-x", "50")
    term.type("x")
    await term.waitFor(/^> x\s*$/m)
    expect(term.capture().split("\n").filter((line) => line.startsWith("> x")).length).toBe(1)

    const plain = await setup({}, script)
    const noColor = await startTerminal(plain, { args: ["--permission-mode", "bypassPermissions"], env: { NO_COLOR: "1" } })
    noColor.type("go")
    noColor.keys("Enter")
    await noColor.waitFor("Finished.")
    expect(noColor.capture({ escapes: true })).not.toMatch(/\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)[0-9;]*m/)
  })
})
