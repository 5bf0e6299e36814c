/**
 * Skills (`.claude/skills/<dir>/SKILL.md`, `~/.claude/skills/`) through the built binary against the mock Messages
 * API: listed to the model and in the init frame, loaded through the Skill tool, expanded by `-p "/skill args"`.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, messageRequests, resultFrame, runWeft, type SentRequest, toolResultContent, useSessions, userTexts, withHome } from "./harness.js"

const { setup } = useSessions()

const isErrorResult = (stdout: string, id: string): boolean =>
  frames(stdout).some((frame) => {
    const message = frame["message"]
    const content = typeof message === "object" && message !== null && "content" in message ? message.content : []
    return Array.isArray(content) && content.some((block) => block?.type === "tool_result" && block.tool_use_id === id && block.is_error === true)
  })

const streamJson = ["--output-format", "stream-json", "--verbose"]

const changelog = "---\nname: changelog\ndescription: Writes the changelog from git history\n---\nWrite the changelog for $ARGUMENTS using scripts/collect.sh.\n"

// HOME is an empty folder beside the project (a project that is HOME itself is the user's own).
describe("weft -p: skills", { timeout: 60_000 }, () => {
  it("lists skills (and model-invocable commands) to the model in a reminder after the prompt, and in the init frame", async () => {
    const { root, dir, env, server } = await setup(
      {
        ".claude/skills/changelog/SKILL.md": changelog,
        ".claude/commands/review.md": "---\ndescription: Review the diff\n---\nReview.",
        ".claude/commands/secret.md": "---\ndescription: Not for the model\ndisable-model-invocation: true\n---\nSecret."
      },
      () => ({ script: [textTurn("ok")] })
    )
    const home = await withHome(root, { ".claude/skills/pdf/SKILL.md": "---\ndescription: Reads PDFs\n---\nUse pdftotext." })
    const out = await runWeft(["-p", "hello", ...streamJson], { cwd: dir, env: { ...env, ...home } })
    expect(out.code, out.stderr).toBe(0)
    const request = messageRequests(server.requests())[0]
    expect(request?.tools?.map((tool) => tool.name)).toContain("Skill")
    const texts = userTexts(request?.messages[0]?.content)
    expect(texts[0]).toBe("hello")
    const listing = texts.find((text) => text.includes("Skill tool")) ?? ""
    expect(listing).toMatch(/^<system-reminder>\n/)
    expect(listing).toContain("- changelog: Writes the changelog from git history")
    expect(listing).toContain("- pdf: Reads PDFs")
    expect(listing).toContain("- review: Review the diff")
    expect(listing).not.toContain("secret")
    // Not in the system prompt nor in the tool's description.
    const body = server.requests().find((sent) => sent.path.startsWith("/v1/messages"))?.body
    const system = typeof body === "object" && body !== null && "system" in body ? JSON.stringify(body.system) : ""
    expect(system).not.toContain("changelog")
    expect(JSON.stringify(request?.tools)).not.toContain("changelog")
    const init = frames(out.stdout).find((frame) => frame["subtype"] === "init")
    expect(init?.["skills"]).toEqual(["changelog", "pdf"])
    expect(init?.["slash_commands"]).toEqual(expect.arrayContaining(["review", "secret", "changelog", "pdf"]))
    expect(init?.["tools"]).toContain("Skill")
  })

  it("offers no Skill tool and no listing when there is nothing to list", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "hello", ...streamJson], { cwd: dir, env: { ...env, HOME: join(dir, "..", "home") } })
    expect(out.code, out.stderr).toBe(0)
    const request = messageRequests(server.requests())[0]
    expect(request?.tools?.map((tool) => tool.name)).not.toContain("Skill")
    expect(userTexts(request?.messages[0]?.content)).toEqual(["hello"])
  })

  it("the Skill tool loads a skill: 'Launching skill', then its base directory and its body with the arguments", async () => {
    const { dir, env } = await setup({ ".claude/skills/changelog/SKILL.md": changelog }, () => ({
      script: [ScriptTurn.blocks([toolUse("Skill", { skill: "changelog", args: "v1.2" }, "s1")]), textTurn("Done.")]
    }))
    const out = await runWeft(["-p", "write the changelog", ...streamJson], { cwd: dir, env: { ...env, HOME: join(dir, "..", "home") } })
    expect(out.code, out.stderr).toBe(0)
    const blocks = toolResultContent(out.stdout, "s1")
    expect(blocks[0]?.text).toBe("Launching skill: changelog")
    expect(blocks[1]?.text).toBe(
      `Base directory for this skill: ${join(dir, ".claude/skills/changelog")}\n\nWrite the changelog for v1.2 using scripts/collect.sh.\n`
    )
  })

  it("runs a command through the Skill tool (commands are skills too); an unknown skill is an error naming those there are", async () => {
    const { dir, env } = await setup({ ".claude/commands/review.md": "Review $0 carefully." }, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Skill", { skill: "review", args: "a.js" }, "s1"), toolUse("Skill", { skill: "nope" }, "s2")]),
        textTurn("Done.")
      ]
    }))
    const out = await runWeft(["-p", "review", ...streamJson], { cwd: dir, env: { ...env, HOME: join(dir, "..", "home") } })
    expect(out.code, out.stderr).toBe(0)
    expect(toolResultContent(out.stdout, "s1").map((block) => block.text)).toEqual(["Launching skill: review", "Review a.js carefully."])
    expect(isErrorResult(out.stdout, "s2")).toBe(true)
    expect(toolResultContent(out.stdout, "s2")[0]?.text).toMatch(/Unknown skill: nope.*review/)
  })

  it("a skill with allowed-tools needs a Skill(name) allow rule under -p; once loaded its tools are granted", async () => {
    const skill = "---\ndescription: Stamps\nallowed-tools: Bash(touch stamped.txt)\n---\nStamp the tree."
    const script = () => ({
      script: [
        ScriptTurn.blocks([toolUse("Skill", { skill: "stamp" }, "s1")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "touch stamped.txt" }, "b1")]),
        textTurn("Done.")
      ]
    })
    // Without the rule: the Skill call is refused, and so is the Bash call it would have granted.
    const refused = await setup({ ".claude/skills/stamp/SKILL.md": skill }, script)
    const denied = await runWeft(["-p", "stamp", "--trust-project", ...streamJson], { cwd: refused.dir, env: { ...refused.env, HOME: join(refused.dir, "..", "home") } })
    expect(denied.code, denied.stderr).toBe(0)
    expect(isErrorResult(denied.stdout, "s1")).toBe(true)
    expect(existsSync(join(refused.dir, "stamped.txt"))).toBe(false)
    // With it: loaded, and the Bash call runs.
    const allowed = await setup({ ".claude/skills/stamp/SKILL.md": skill }, script)
    const ran = await runWeft(["-p", "stamp", "--trust-project", "--allowedTools", "Skill(stamp)", ...streamJson], {
      cwd: allowed.dir,
      env: { ...allowed.env, HOME: join(allowed.dir, "..", "home") }
    })
    expect(ran.code, ran.stderr).toBe(0)
    expect(isErrorResult(ran.stdout, "s1")).toBe(false)
    expect(existsSync(join(allowed.dir, "stamped.txt"))).toBe(true)
  })

  it("the Skill tool runs the skill's !`cmd` under the Bash rules and inlines its output; a refused one makes the call an error", async () => {
    const { dir, env } = await setup(
      {
        ".claude/skills/status/SKILL.md": "---\ndescription: Reports the status\n---\nThe status is: !`echo all-green`\nGo on.",
        ".claude/skills/leak/SKILL.md": "---\ndescription: Leaks\n---\nHere: !`touch pwned.txt`"
      },
      () => ({
        script: [ScriptTurn.blocks([toolUse("Skill", { skill: "status" }, "s1"), toolUse("Skill", { skill: "leak" }, "s2")]), textTurn("ok")]
      })
    )
    const out = await runWeft(["-p", "status", "--allowedTools", "Bash(echo:*)", ...streamJson], {
      cwd: dir,
      env: { ...env, HOME: join(dir, "..", "home") }
    })
    expect(out.code, out.stderr).toBe(0)
    expect(isErrorResult(out.stdout, "s1")).toBe(false)
    expect(toolResultContent(out.stdout, "s1")[1]?.text).toBe(`Base directory for this skill: ${join(dir, ".claude/skills/status")}\n\nThe status is: all-green\nGo on.`)
    expect(isErrorResult(out.stdout, "s2")).toBe(true)
    expect(JSON.stringify(toolResultContent(out.stdout, "s2"))).toContain("the skill leak: !`touch pwned.txt` was refused")
    expect(existsSync(join(dir, "pwned.txt"))).toBe(false)
  })

  it('-p "/skill args" expands a skill: its base directory and body with the arguments', async () => {
    const { dir, env, server } = await setup({ ".claude/skills/changelog/SKILL.md": changelog }, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "/changelog v2.0", ...streamJson], { cwd: dir, env: { ...env, HOME: join(dir, "..", "home") } })
    expect(out.code, out.stderr).toBe(0)
    const texts = userTexts(messageRequests(server.requests())[0]?.messages[0]?.content)
    expect(texts[0]).toContain("<command-name>/changelog</command-name>")
    expect(texts[1]).toBe(
      `Base directory for this skill: ${join(dir, ".claude/skills/changelog")}\n\nWrite the changelog for v2.0 using scripts/collect.sh.\n`
    )
    expect(resultFrame(out.stdout)["is_error"]).toBe(false)
  })

  it("the user's skill wins over the project's of the same name", async () => {
    const { root, dir, env } = await setup(
      { ".claude/skills/fmt/SKILL.md": "---\ndescription: project\n---\nProject formatting." },
      () => ({ script: [ScriptTurn.blocks([toolUse("Skill", { skill: "fmt" }, "s1")]), textTurn("ok")] })
    )
    const home = await withHome(root, { ".claude/skills/fmt/SKILL.md": "---\ndescription: user\n---\nUser formatting." })
    const out = await runWeft(["-p", "format", ...streamJson], { cwd: dir, env: { ...env, ...home } })
    expect(out.code, out.stderr).toBe(0)
    expect(toolResultContent(out.stdout, "s1")[1]?.text).toBe(`Base directory for this skill: ${join(home.HOME, ".claude/skills/fmt")}\n\nUser formatting.`)
  })

  it("--disallowedTools Skill removes the tool and the listing", async () => {
    const { dir, env, server } = await setup({ ".claude/skills/changelog/SKILL.md": changelog }, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "hello", "--disallowedTools", "Skill", ...streamJson], { cwd: dir, env: { ...env, HOME: join(dir, "..", "home") } })
    expect(out.code, out.stderr).toBe(0)
    const request = messageRequests(server.requests())[0]
    expect(request?.tools?.map((tool) => tool.name)).not.toContain("Skill")
    expect(userTexts(request?.messages[0]?.content)).toEqual(["hello"])
  })

  it("the SDK protocol (stream-json in): the init frame lists them, and the first prompt carries the listing", async () => {
    const { dir, env, server } = await setup(
      { ".claude/skills/changelog/SKILL.md": changelog, ".claude/commands/review.md": "Review." },
      () => ({ script: [textTurn("one"), textTurn("two")] })
    )
    const user = (text: string) => `${JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" })}\n`
    const out = await runWeft([...streamJson, "--input-format", "stream-json"], {
      cwd: dir,
      env: { ...env, HOME: join(dir, "..", "home") },
      stdin: user("first") + user("second")
    })
    expect(out.code, out.stderr).toBe(0)
    const init = frames(out.stdout).find((frame) => frame["subtype"] === "init")
    expect(init?.["skills"]).toEqual(["changelog"])
    expect(init?.["slash_commands"]).toEqual(expect.arrayContaining(["changelog", "review"]))
    const requests = messageRequests(server.requests())
    const listed = (request: SentRequest | undefined) =>
      (request?.messages ?? []).flatMap((message) => userTexts(message.content)).filter((text) => text.includes("available for use with the Skill tool"))
    expect(listed(requests[0])).toHaveLength(1)
    // Once: the second request holds the first message (with it) and the second (without).
    expect(listed(requests[1])).toHaveLength(1)
  })
})
