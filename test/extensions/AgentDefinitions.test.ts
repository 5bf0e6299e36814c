import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import * as AgentDefinitions from "../../src/extensions/AgentDefinitions.js"
import { tempDir, write } from "../support/TempFiles.js"

const agentFile = (name: string, description: string, body: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`

describe("AgentDefinitions", () => {
  it.effect("built-ins, then the user's, the project's and --agents, each winning on a clash of names", () =>
    Effect.gen(function* () {
      const root = tempDir()
      const home = nodePath.join(root, "home")
      const project = nodePath.join(root, "project")
      write(nodePath.join(home, ".claude/agents/shared.md"), agentFile("shared", "the user's", "USER"))
      write(nodePath.join(home, ".claude/agents/mine.md"), agentFile("mine", "only mine", "MINE"))
      // The file name is not the agent's name.
      write(nodePath.join(project, ".claude/agents/whatever.md"), agentFile("shared", "the project's", "PROJECT", "tools: Read, Grep\nmodel: haiku\n"))
      write(nodePath.join(project, ".claude/agents/Explore.md"), agentFile("Explore", "the project's explorer", "MY EXPLORE"))
      write(nodePath.join(project, ".claude/agents/broken.md"), "---\nname: broken\n---\nno description\n")
      write(nodePath.join(project, ".claude/agents/notes.txt"), "not an agent")
      const flag = AgentDefinitions.parseFlag(JSON.stringify({ mine: { description: "the flag's", prompt: "FLAG", tools: "Bash, Read" } }))
      expect(flag.error).toBeUndefined()
      const loaded = yield* AgentDefinitions.load({ cwd: project, home, flag: flag.definitions })
      const byName = new Map(loaded.definitions.map((definition) => [definition.name, definition]))
      expect([...byName.keys()]).toEqual(["general-purpose", "Explore", "Plan", "mine", "shared"])
      expect(byName.get("shared")).toMatchObject({ description: "the project's", prompt: "PROJECT", tools: ["Read", "Grep"], model: "haiku", source: "project" })
      expect(byName.get("mine")).toMatchObject({ prompt: "FLAG", tools: ["Bash", "Read"], source: "flag" })
      expect(byName.get("Explore")).toMatchObject({ prompt: "MY EXPLORE", source: "project" })
      expect(loaded.warnings.join("\n")).toContain("broken.md: an agent file needs a name and a description")
    }))

  it("model inherit is the session's; --agents must be an object of described prompts", () => {
    const warnings: Array<string> = []
    expect(AgentDefinitions.fromMarkdown(agentFile("a", "d", "B", "model: inherit\n"), "a.md", "user", warnings)).not.toHaveProperty("model")
    expect(AgentDefinitions.parseFlag("{").error).toContain("not valid JSON")
    expect(AgentDefinitions.parseFlag("[]").error).toContain("JSON object")
    expect(AgentDefinitions.parseFlag('{"x": {"prompt": "p"}}').error).toContain('"x" needs a "description" and a "prompt"')
  })

  it("lists one line per agent with its tools, as Claude Code does", () => {
    const listing = AgentDefinitions.listing([
      ...AgentDefinitions.builtIn,
      { name: "r", description: "Reviews", prompt: "p", tools: ["Read", "Bash(git diff:*)"], source: "project" }
    ])
    expect(listing).toContain("- general-purpose: General-purpose agent")
    expect(listing).toContain("(Tools: *)")
    expect(listing).toContain("- r: Reviews (Tools: Read, Bash(git diff:*))")
    expect(listing).toMatch(/- Explore: .*\(Tools: Bash, Glob, Grep, Read, /)
  })
})
