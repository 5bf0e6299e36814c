/**
 * Permissions through the built binary against the mock Messages API: a scripted model tries what it may not do;
 * stream-json shows the denial, and the filesystem proves nothing ran.
 */
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, resultFrame, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

/** The tool_result blocks of a stream-json run, in order. */
const toolResults = (stdout: string): ReadonlyArray<Record<string, unknown>> =>
  frames(stdout)
    .filter((frame) => frame["type"] === "user")
    .flatMap((frame) => {
      const message = frame["message"]
      return typeof message === "object" && message !== null && "content" in message && Array.isArray(message.content) ? message.content : []
    })

/** A session whose model calls one tool and then stops; HOME points into the temp dir (no user settings leak in). */
const oneCall = async (files: Readonly<Record<string, string>>, tool: string, input: (dir: string) => Record<string, unknown>) => {
  const session = await setup(files, (dir) => ({
    script: [ScriptTurn.blocks([toolUse(tool, input(dir), "call1")]), textTurn("done")]
  }))
  const home = join(session.root, "home")
  await mkdir(home, { recursive: true })
  return { ...session, home, env: { ...session.env, HOME: home } }
}

const run = (args: ReadonlyArray<string>, session: { readonly dir: string; readonly env: NodeJS.ProcessEnv }) =>
  runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", ...args], { cwd: session.dir, env: session.env })

describe("weft -p: permissions", () => {
  it("a command denied by --disallowedTools does not run, even in bypassPermissions; the denial is listed", async () => {
    const session = await oneCall({}, "Bash", () => ({ command: "touch ok && rm -rf victim && touch pwned" }))
    await mkdir(join(session.dir, "victim"))
    const out = await run(["--dangerously-skip-permissions", "--disallowedTools", "Bash(rm:*)"], session)
    expect(out.code).toBe(0)
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ tool_use_id: "call1", is_error: true })
    expect(String(result?.["content"])).toContain("Bash(rm:*)")
    expect(resultFrame(out.stdout)["permission_denials"]).toEqual([
      { tool_name: "Bash", tool_use_id: "call1", tool_input: { command: "touch ok && rm -rf victim && touch pwned" } }
    ])
    expect(frames(out.stdout)[0]).toMatchObject({ subtype: "init", permissionMode: "bypassPermissions" })
    expect(existsSync(join(session.dir, "victim"))).toBe(true)
    expect(existsSync(join(session.dir, "ok"))).toBe(false)
    expect(existsSync(join(session.dir, "pwned"))).toBe(false)
  })

  it("a bash -c string is denied while a deny rule for Bash is in force, in every mode", async () => {
    const session = await oneCall({}, "Bash", () => ({ command: "bash -c 'touch pwned'" }))
    const out = await run(["--permission-mode", "bypassPermissions", "--disallowedTools", "Bash(curl:*)"], session)
    expect(toolResults(out.stdout)[0]).toMatchObject({ is_error: true })
    expect(existsSync(join(session.dir, "pwned"))).toBe(false)
  })

  it.each([
    {
      name: "an allow rule for `git diff` does not let `git diff --output=` write a file (asked, so denied under -p)",
      files: { "a.txt": "a\n", "b.txt": "b\n" },
      command: "git diff --output=pwned --no-index a.txt b.txt",
      flags: ["--allowedTools", "Bash(git diff:*)"],
      named: "pwned",
      written: ["pwned"]
    },
    {
      name: "bypassPermissions: `cp x .git/hooks/pre-commit` is asked about (denied under -p) and the hook is never written",
      files: { "x.sh": "#!/bin/sh\ntouch pwned\n" },
      command: "mkdir -p .git/hooks && cp x.sh .git/hooks/pre-commit",
      flags: ["--permission-mode", "bypassPermissions"],
      named: ".git",
      written: [".git", "hooks", "pre-commit"]
    }
  ])("$name", async ({ files, command, flags, named, written }) => {
    const session = await oneCall(files, "Bash", () => ({ command }))
    const out = await run(flags, session)
    expect(out.code).toBe(0)
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ tool_use_id: "call1", is_error: true })
    expect(String(result?.["content"])).toContain(named)
    expect(resultFrame(out.stdout)["permission_denials"]).toHaveLength(1)
    expect(existsSync(join(session.dir, ...written))).toBe(false)
  })

  it("default mode under -p: a write is asked about, nobody answers, so it is denied for the model to read", async () => {
    const session = await oneCall({}, "Write", (dir) => ({ file_path: join(dir, "new.txt"), content: "x" }))
    const out = await run([], session)
    expect(frames(out.stdout)[0]).toMatchObject({ subtype: "init", permissionMode: "default" })
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ is_error: true })
    expect(String(result?.["content"])).toContain("not granted")
    expect(resultFrame(out.stdout)["permission_denials"]).toHaveLength(1)
    expect(existsSync(join(session.dir, "new.txt"))).toBe(false)
  })

  it("--permission-mode acceptEdits lets the write run; plan refuses it", async () => {
    const accept = await oneCall({}, "Write", (dir) => ({ file_path: join(dir, "new.txt"), content: "x" }))
    const accepted = await run(["--permission-mode", "acceptEdits"], accept)
    expect(frames(accepted.stdout)[0]).toMatchObject({ permissionMode: "acceptEdits" })
    expect(toolResults(accepted.stdout)[0]?.["is_error"]).toBeUndefined()
    expect(await readFile(join(accept.dir, "new.txt"), "utf8")).toBe("x")

    const plan = await oneCall({}, "Write", (dir) => ({ file_path: join(dir, "new.txt"), content: "x" }))
    const planned = await run(["--permission-mode", "plan"], plan)
    expect(frames(planned.stdout)[0]).toMatchObject({ permissionMode: "plan" })
    expect(String(toolResults(planned.stdout)[0]?.["content"])).toContain("plan mode")
    expect(existsSync(join(plan.dir, "new.txt"))).toBe(false)
  })

  it("a deny rule in the project's settings file applies (untrusted), and its allow rule does not", async () => {
    const settings = JSON.stringify({ permissions: { deny: ["Read(./secret.txt)"], allow: ["Write"], defaultMode: "bypassPermissions" } })
    const read = await oneCall({ ".claude/settings.json": settings, "secret.txt": "s3cret" }, "Read", (dir) => ({ file_path: join(dir, "secret.txt") }))
    const out = await run([], read)
    expect(frames(out.stdout)[0]).toMatchObject({ permissionMode: "default" })
    const [result] = toolResults(out.stdout)
    expect(result).toMatchObject({ is_error: true })
    expect(JSON.stringify(result)).not.toContain("s3cret")
    expect(out.stderr).toContain("not trusted")
    expect(out.stderr).toContain("permissions.allow")

    const write = await oneCall({ ".claude/settings.json": settings }, "Write", (dir) => ({ file_path: join(dir, "w.txt"), content: "x" }))
    const written = await run([], write)
    expect(toolResults(written.stdout)[0]).toMatchObject({ is_error: true })
    expect(existsSync(join(write.dir, "w.txt"))).toBe(false)

    // Trusted for this run: the project's allow rule and mode apply.
    const trusted = await oneCall({ ".claude/settings.json": settings }, "Write", (dir) => ({ file_path: join(dir, "w.txt"), content: "x" }))
    const ran = await run(["--trust-project"], trusted)
    expect(frames(ran.stdout)[0]).toMatchObject({ permissionMode: "bypassPermissions" })
    expect(await readFile(join(trusted.dir, "w.txt"), "utf8")).toBe("x")
  })

  it("`weft trust` records the trust that later runs use", async () => {
    const settings = JSON.stringify({ permissions: { allow: ["Write(./w.txt)"] } })
    const session = await oneCall({ ".claude/settings.json": settings }, "Write", (dir) => ({ file_path: join(dir, "w.txt"), content: "x" }))
    const trusted = await runWeft(["trust"], { cwd: session.dir, env: session.env })
    expect(trusted.code).toBe(0)
    expect(trusted.stdout).toContain("trusted")
    const out = await run([], session)
    expect(out.stderr).not.toContain("not trusted")
    expect(await readFile(join(session.dir, "w.txt"), "utf8")).toBe("x")
  })

  it("--settings and user settings files: a user deny beats a --settings allow", async () => {
    const session = await oneCall({}, "Bash", () => ({ command: "touch made" }))
    await mkdir(join(session.home, ".claude"), { recursive: true })
    await writeFile(join(session.home, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }))
    const out = await run(["--settings", JSON.stringify({ permissions: { allow: ["Bash(touch:*)"] } })], session)
    expect(toolResults(out.stdout)[0]).toMatchObject({ is_error: true })
    expect(existsSync(join(session.dir, "made"))).toBe(false)

    const sourced = await oneCall({}, "Bash", () => ({ command: "touch made" }))
    await mkdir(join(sourced.home, ".claude"), { recursive: true })
    await writeFile(join(sourced.home, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }))
    // Without the user scope, the deny is not loaded and the --settings allow lets the command run.
    const ran = await run(["--setting-sources", "project,local", "--settings", JSON.stringify({ permissions: { allow: ["Bash(touch:*)"] } })], sourced)
    expect(toolResults(ran.stdout)[0]?.["is_error"], JSON.stringify(toolResults(ran.stdout)[0]) + ran.stderr).toBeUndefined()
    expect(existsSync(join(sourced.dir, "made"))).toBe(true)
  })

  it("a settings file that is not JSON stops the run naming it (its deny rules are unknown); --setting-sources leaves it out", async () => {
    const session = await oneCall({ ".claude/settings.local.json": "{ nope" }, "Read", (dir) => ({ file_path: join(dir, "a.txt") }))
    await writeFile(join(session.dir, "a.txt"), "hello")
    const out = await run([], session)
    expect(out.code).toBe(1)
    expect(out.stderr).toContain("settings.local.json")
    expect(out.stderr).toContain("not valid JSON")
    const without = await run(["--setting-sources", "user,project"], session)
    expect(without.code).toBe(0)
    expect(JSON.stringify(toolResults(without.stdout)[0])).toContain("hello")
  })

  it("a bad --permission-mode or --setting-sources is an argument error", async () => {
    const session = await oneCall({}, "Read", () => ({ file_path: "/x" }))
    const mode = await run(["--permission-mode", "yolo"], session)
    expect(mode.code).toBe(1)
    const sources = await run(["--setting-sources", "user,everything"], session)
    expect(sources.code).toBe(1)
    expect(sources.stderr).toContain("everything")
  })
})
