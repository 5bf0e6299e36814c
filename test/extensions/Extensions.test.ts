import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { join } from "node:path"
import * as Extensions from "../../src/extensions/Extensions.js"
import { tempDir, write } from "../support/TempFiles.js"

const layout = () => {
  const cwd = tempDir()
  const home = tempDir()
  write(join(cwd, ".claude/commands/review.md"), "---\ndescription: Project review\nallowed-tools: Read, Bash(git diff:*)\nmodel: haiku\n---\nReview $ARGUMENTS")
  write(join(cwd, ".claude/commands/frontend/ui/lint.md"), "# Lint the UI\nRun the linter.")
  write(join(cwd, ".claude/commands/notes.txt"), "not a command")
  write(join(cwd, ".claude/commands/quiet.md"), "---\ndisable-model-invocation: true\nmodel: inherit\n---\nQuiet.")
  write(join(home, ".claude/commands/review.md"), "---\ndescription: User review\n---\nMine.")
  write(join(cwd, ".claude/skills/changelog/SKILL.md"), "---\nname: Changelog Writer\ndescription: Writes changelogs\nallowed-tools:\n  - Bash(git log:*)\n---\nWrite it.")
  write(join(cwd, ".claude/skills/empty-dir/README.md"), "no SKILL.md here")
  write(join(home, ".claude/skills/changelog/SKILL.md"), "---\ndescription: User changelog\n---\nUser's.")
  write(join(home, ".claude/skills/pdf/SKILL.md"), "---\ndescription: [unclosed\n---\nRead PDFs.")
  return { cwd, home }
}

describe("Extensions.load", () => {
  it.effect("reads commands (subfolders as namespaces) and skills of the project and the user; the user's win on a clash", () =>
    Effect.gen(function* () {
      const { cwd, home } = layout()
      const loaded = yield* Extensions.load({ cwd, home })
      expect(loaded.commands.map((command) => [command.name, command.scope])).toEqual([
        ["frontend:ui:lint", "project"],
        ["quiet", "project"],
        ["review", "user"]
      ])
      expect(loaded.skills.map((skill) => [skill.name, skill.scope])).toEqual([
        ["changelog", "user"],
        ["pdf", "user"]
      ])
      const changelog = loaded.skills[0]
      expect(changelog?.directory).toBe(join(home, ".claude/skills/changelog"))
      expect(changelog?.body).toBe("User's.")
      // A malformed header: the file loads, the problem is a warning naming it.
      expect(loaded.skills[1]?.body).toBe("Read PDFs.")
      expect(loaded.warnings.join("\n")).toContain(join(home, ".claude/skills/pdf/SKILL.md"))
      const quiet = loaded.commands[1]
      expect(quiet?.disableModelInvocation).toBe(true)
      expect(quiet?.model).toBeUndefined()
    }))

  it.effect("reads the header's fields", () =>
    Effect.gen(function* () {
      const { cwd } = layout()
      const loaded = yield* Extensions.load({ cwd, home: tempDir() })
      const review = Extensions.find(loaded, "review")
      expect(review).toMatchObject({ _tag: "Command", description: "Project review", allowedTools: ["Read", "Bash(git diff:*)"], model: "haiku", body: "Review $ARGUMENTS" })
      const skill = Extensions.find(loaded, "changelog")
      expect(skill).toMatchObject({ _tag: "Skill", description: "Writes changelogs", allowedTools: ["Bash(git log:*)"] })
    }))

  it.effect("finds nothing, without a warning, where there are no folders", () =>
    Effect.gen(function* () {
      expect(yield* Extensions.load({ cwd: tempDir(), home: tempDir() })).toEqual(Extensions.empty)
    }))
})

describe("Extensions.listing", () => {
  it.effect("lists what the model may run: commands then skills, a command without a description by its first line", () =>
    Effect.gen(function* () {
      const { cwd, home } = layout()
      const loaded = yield* Extensions.load({ cwd, home })
      expect(Extensions.listing(loaded)).toBe(
        [
          "The following skills are available for use with the Skill tool:",
          "",
          "- frontend:ui:lint: Lint the UI",
          "- review: User review",
          "- changelog: User changelog",
          "- pdf: Read PDFs."
        ].join("\n")
      )
      expect(Extensions.listing(Extensions.empty)).toBeUndefined()
    }))
})

describe("Extensions.load in an untrusted project", () => {
  it.effect("drops the project's allowed-tools with a warning; the user's stay", () =>
    Effect.gen(function* () {
      const { cwd, home } = layout()
      write(join(home, ".claude/commands/mine.md"), "---\nallowed-tools: Read\n---\nMine.")
      const loaded = yield* Extensions.load({ cwd, home, trusted: false })
      expect(Extensions.find(loaded, "mine")?.allowedTools).toEqual(["Read"])
      expect(loaded.commands.find((command) => command.name === "frontend:ui:lint")?.allowedTools).toEqual([])
      const project = yield* Extensions.load({ cwd, home: tempDir(), trusted: false })
      expect(Extensions.find(project, "review")?.allowedTools).toEqual([])
      expect(project.warnings.join("\n")).toContain(`${join(cwd, ".claude/commands/review.md")}: allowed-tools ignored: the project is not trusted`)
    }))
})
