import { describe, expect, it } from "vitest"
import * as HookConfig from "../../src/hooks/HookConfig.js"

const command = (text: string, timeout?: number) => ({ type: "command", command: text, ...(timeout === undefined ? {} : { timeout }) })

describe("HookConfig", () => {
  it("matches a plain name exactly and case-sensitively, A|B either name, regex characters as an unanchored regex", () => {
    const config = HookConfig.decode({
      PreToolUse: [
        { matcher: "Bash", hooks: [command("plain")] },
        { matcher: "Edit|Write", hooks: [command("either")] },
        { matcher: "mcp__github__.*", hooks: [command("mcp")] },
        { matcher: "Note", hooks: [command("exact-note")] },
        { matcher: "Note.*", hooks: [command("regex-note")] },
        { matcher: "*", hooks: [command("star")] },
        { hooks: [command("none")] },
        { matcher: "", hooks: [command("empty")] }
      ]
    })
    expect(config.warnings).toEqual([])
    const run = (tool: string) => HookConfig.matching(config, "PreToolUse", tool).map((hook) => hook.command)
    const everything = ["star", "none", "empty"]
    expect(run("Bash")).toEqual(["plain", ...everything])
    expect(run("bash")).toEqual(everything)
    expect(run("BashOutput")).toEqual(everything)
    expect(run("Write")).toEqual(["either", ...everything])
    expect(run("mcp__github__get_issue")).toEqual(["mcp", ...everything])
    expect(run("mcp__gitlab__get_issue")).toEqual(everything)
    expect(run("NotebookEdit")).toEqual(["regex-note", ...everything])
  })

  it("runs identical commands once, with the longest timeout given; the default timeout is 60 s", () => {
    const config = HookConfig.decode({
      PostToolUse: [
        { matcher: "Bash", hooks: [command("fmt", 5), command("lint")] },
        { matcher: "*", hooks: [command("fmt", 30)] }
      ]
    })
    expect(HookConfig.matching(config, "PostToolUse", "Bash")).toEqual([
      { command: "fmt", timeoutSeconds: 30 },
      { command: "lint", timeoutSeconds: 60 }
    ])
  })

  it("leaves out bad entries with a warning naming each, and keeps the rest", () => {
    const config = HookConfig.decode({
      PreToolUse: [
        { matcher: "(", hooks: [command("bad-regex")] },
        { matcher: "Bash", hooks: [command("good"), { type: "prompt", prompt: "judge" }, { type: "command" }, command("   "), command("t", -1)] },
        "not an entry"
      ],
      OnLunch: [{ hooks: [command("x")] }],
      Stop: { hooks: [] }
    })
    expect(HookConfig.matching(config, "PreToolUse", "Bash")).toEqual([{ command: "good", timeoutSeconds: 60 }])
    const warnings = config.warnings.join("\n")
    expect(warnings).toContain("hooks.PreToolUse[0]: its matcher \"(\" is not a valid regular expression")
    expect(warnings).toContain('hooks.PreToolUse[1].hooks[1]: hooks of type "prompt" are not supported')
    expect(warnings).toContain("hooks.PreToolUse[1].hooks[2]:")
    expect(warnings).toContain("hooks.PreToolUse[1].hooks[3]:")
    expect(warnings).toContain("hooks.PreToolUse[1].hooks[4]:")
    expect(warnings).toContain("hooks.PreToolUse[2]:")
    expect(warnings).toContain("hooks.OnLunch: not a hook event")
    expect(warnings).toContain("hooks.Stop: expected a list")
    expect(config.warnings).toHaveLength(8)
    expect(HookConfig.decode("nonsense").warnings).toHaveLength(1)
  })

  it("honours disableAllHooks, and ignores a matcher on events that take none", () => {
    expect(HookConfig.decode({ Stop: [{ hooks: [command("x")] }] }, { disableAllHooks: true })).toEqual(HookConfig.empty)
    const config = HookConfig.decode({ Stop: [{ matcher: "Bash", hooks: [command("x")] }] })
    expect(HookConfig.matching(config, "Stop", undefined)).toEqual([{ command: "x", timeoutSeconds: 60 }])
  })

  it("compares SessionStart's matcher with its source", () => {
    const config = HookConfig.decode({ SessionStart: [{ matcher: "startup", hooks: [command("x")] }] })
    expect(HookConfig.matching(config, "SessionStart", "startup")).toHaveLength(1)
    expect(HookConfig.matching(config, "SessionStart", "resume")).toHaveLength(0)
  })
})

describe("HookConfig: the subagent tool", () => {
  it("a Task matcher matches Agent calls and an Agent matcher Task calls; SubagentStop matches the agent type", () => {
    const config = HookConfig.decode({
      PreToolUse: [{ matcher: "Task", hooks: [command("task")] }, { matcher: "Agent", hooks: [command("agent")] }],
      SubagentStop: [{ matcher: "Explore", hooks: [command("explore")] }]
    })
    const run = (tool: string) => HookConfig.matching(config, "PreToolUse", tool).map((hook) => hook.command)
    expect(run("Agent")).toEqual(["task", "agent"])
    expect(run("Task")).toEqual(["task", "agent"])
    expect(run("Bash")).toEqual([])
    expect(HookConfig.matching(config, "SubagentStop", "Explore").map((hook) => hook.command)).toEqual(["explore"])
    expect(HookConfig.matching(config, "SubagentStop", "Plan")).toEqual([])
  })
})
