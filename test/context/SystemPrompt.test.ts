import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import type { Interface as EnvironmentValues } from "../../src/context/Environment.js"
import type { MemoryFile } from "../../src/context/Memory.js"
import { build } from "../../src/context/SystemPrompt.js"

const environment: EnvironmentValues = {
  cwd: "/home/dev/project",
  platform: "linux",
  osVersion: "Linux 6.8.0",
  today: "2025-03-04",
  isGitRepo: true,
  gitBranch: Option.some("main"),
  additionalDirectories: ["/home/dev/lib", "/srv/data"]
}

const memory: ReadonlyArray<MemoryFile> = [
  { path: "/home/dev/.claude/CLAUDE.md", scope: "user", content: "Always answer in English.\n" },
  { path: "/home/dev/project/CLAUDE.md", scope: "project", content: "Run `npm test` before finishing." },
  { path: "/home/dev/project/CLAUDE.local.md", scope: "local", content: "", skipped: "50000 characters, over the limit" }
]

const tools = ["Read", "Edit", "Write", "Bash", "Glob", "Grep", "TodoWrite"]

describe("SystemPrompt.build", () => {
  it("assembles instructions, then the env block, then the memory files", () => {
    const prompt = build({ environment, memory, toolNames: tools })
    expect(prompt).toContain("You are weft, an agent runtime")
    expect(prompt).toContain("Read a file before you Edit")
    expect(prompt).toContain("use Grep and Glob rather than `grep`, `find`")
    expect(prompt).toContain("Bash runs in a persistent shell")
    expect(prompt).toContain("Be concise")
    expect(prompt).toContain(
      [
        "<env>",
        "Working directory: /home/dev/project",
        "Is directory a git repo: Yes",
        "Current git branch: main",
        "Additional working directories: /home/dev/lib, /srv/data",
        "Platform: linux",
        "OS Version: Linux 6.8.0",
        "Today's date: 2025-03-04",
        "</env>"
      ].join("\n")
    )
    expect(prompt).toContain(
      "Contents of /home/dev/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nAlways answer in English."
    )
    expect(prompt).toContain(
      "Contents of /home/dev/project/CLAUDE.md (project instructions, checked into the codebase):\n\nRun `npm test` before finishing."
    )
    expect(prompt).toContain(
      "Note: /home/dev/project/CLAUDE.local.md (user's private project instructions, not checked in) was not loaded: 50000 characters, over the limit."
    )
    const order = ["You are weft", "# Using the tools", "<env>", "Contents of /home/dev/.claude", "Contents of /home/dev/project/CLAUDE.md"]
    const positions = order.map((marker) => prompt.indexOf(marker))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    // Pure: the same inputs give the same prompt.
    expect(build({ environment, memory, toolNames: tools })).toBe(prompt)
  })

  it("mentions only the tools offered, and no memory section without memory", () => {
    const prompt = build({
      environment: { ...environment, isGitRepo: false, gitBranch: Option.none(), additionalDirectories: [] },
      memory: [],
      toolNames: []
    })
    expect(prompt).not.toContain("# Using the tools")
    expect(prompt).not.toContain("Grep")
    expect(prompt).not.toContain("Codebase and user instructions")
    expect(prompt).toContain("Is directory a git repo: No")
    expect(prompt).not.toContain("Current git branch")
    expect(prompt).not.toContain("Additional working directories")
    const readOnly = build({ environment, memory: [], toolNames: ["Read", "Glob"] })
    expect(readOnly).toContain("use Glob rather than")
    expect(readOnly).not.toContain("before you Edit")
  })

  it("a custom system prompt replaces the whole default; the appended one goes at the end", () => {
    expect(build({ environment, memory, toolNames: tools, customSystemPrompt: "You are a pirate." })).toBe(
      "You are a pirate."
    )
    expect(
      build({
        environment,
        memory,
        toolNames: tools,
        customSystemPrompt: "You are a pirate.",
        appendSystemPrompt: "Say arr."
      })
    ).toBe("You are a pirate.\n\nSay arr.")
    const appended = build({ environment, memory, toolNames: tools, appendSystemPrompt: "Extra rule." })
    expect(appended.startsWith(build({ environment, memory, toolNames: tools }))).toBe(true)
    expect(appended.endsWith("\n\nExtra rule.")).toBe(true)
  })
})

describe("SystemPrompt: MCP servers' instructions", () => {
  it("each server's instructions under its name, in Claude Code's words, after the env block and before memory", () => {
    const prompt = build({
      environment,
      memory,
      toolNames: tools,
      mcpInstructions: [
        { server: "alpha", instructions: "use tool X first" },
        { server: "beta", instructions: "never call Y twice" }
      ]
    })
    const section =
      "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n" +
      "## alpha\nuse tool X first\n\n## beta\nnever call Y twice"
    expect(prompt).toContain(section)
    expect(prompt.indexOf("</env>")).toBeLessThan(prompt.indexOf(section))
    expect(prompt.indexOf(section)).toBeLessThan(prompt.indexOf("Contents of /home/dev/.claude/CLAUDE.md"))
    expect(build({ environment, memory, toolNames: tools, mcpInstructions: [] })).not.toContain("MCP Server Instructions")
  })
})
