import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as CommandExpansion from "../../src/extensions/CommandExpansion.js"
import type { Command, Loaded } from "../../src/extensions/Extensions.js"
import * as Extensions from "../../src/extensions/Extensions.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import * as Tool from "../../src/tools/Tool.js"
import { fromAnyTools } from "../../src/tools/ToolRegistry.js"

const command = (name: string, body: string, extra: Partial<Command> = {}): Command => ({
  _tag: "Command",
  name,
  body,
  allowedTools: [],
  disableModelInvocation: false,
  path: `/p/.claude/commands/${name}.md`,
  scope: "project",
  ...extra
})

/** A Bash that answers `out:<command>`, failing for commands that start with `fail`; records what it ran. */
const fakeBash = (ran: Array<string>) =>
  Tool.fromJsonSchema({
    name: "Bash",
    description: "",
    inputJsonSchema: { type: "object" },
    target: (input) => ({ _tag: "Command", command: String(input["command"]) }),
    result: (input) =>
      Effect.sync(() => {
        const commandText = String(input["command"])
        ran.push(commandText)
        return commandText.startsWith("fail")
          ? { _tag: "ToolResult" as const, content: "boom\nExit code 1", isError: true }
          : Tool.result(`out:${commandText}`)
      })
  })

const services = (ran: Array<string>, permissions = Permissions.permissive(), granted: Array<string> = []) => ({
  registry: fromAnyTools([fakeBash(ran)]),
  permissions,
  grant: (rules: ReadonlyArray<string>) => Effect.sync(() => void granted.push(...rules)),
  home: "/home/u",
  cwd: "/p",
  sessionId: "s"
})

const loaded = (...commands: ReadonlyArray<Command>): Loaded => ({ ...Extensions.empty, commands })

describe("CommandExpansion.parseCommand", () => {
  it("reads /name and the arguments as typed; a path or a bare slash is not a command", () => {
    expect(CommandExpansion.parseCommand("/review a.js  'b c'")).toEqual({ name: "review", args: "a.js  'b c'" })
    expect(CommandExpansion.parseCommand("  /frontend:lint")).toEqual({ name: "frontend:lint", args: "" })
    expect(CommandExpansion.parseCommand("/usr/bin/env")).toBeUndefined()
    expect(CommandExpansion.parseCommand("/ nothing")).toBeUndefined()
    expect(CommandExpansion.parseCommand("review")).toBeUndefined()
  })
})

describe("CommandExpansion.expandWith", () => {
  it.effect("grants the command's rules before running its !`cmd`s in order, and inlines their output", () =>
    Effect.gen(function* () {
      const ran: Array<string> = []
      const granted: Array<string> = []
      const expanded = yield* CommandExpansion.expandWith(
        "/st x",
        loaded(command("st", "A: !`echo $0` B: !`echo two`", { allowedTools: ["Bash(echo:*)"], model: "haiku" })),
        services(ran, Permissions.permissive(), granted)
      )
      expect(granted).toEqual(["Bash(echo:*)"])
      expect(ran).toEqual(["echo x", "echo two"])
      expect(expanded.content.map((block) => (block.type === "text" ? block.text : ""))).toEqual([
        "<command-message>st</command-message>\n<command-name>/st</command-name>\n<command-args>x</command-args>",
        "A: out:echo x B: out:echo two"
      ])
      expect(expanded.model).toBe("haiku")
      expect(expanded.allowedTools).toEqual(["Bash(echo:*)"])
    }))

  it.effect("a failing !`cmd` fails the expansion, and the commands after it do not run", () =>
    Effect.gen(function* () {
      const ran: Array<string> = []
      const error = yield* Effect.flip(CommandExpansion.expandWith("/f", loaded(command("f", "!`fail now` !`echo after`")), services(ran)))
      expect(error._tag).toBe("CommandRefused")
      expect(error.message).toContain("fail now")
      expect(error.message).toContain("boom")
      expect(ran).toEqual(["fail now"])
    }))

  it.effect("a !`cmd` the permissions refuse is not run", () =>
    Effect.gen(function* () {
      const ran: Array<string> = []
      const refusing = Permissions.permissive({ deniedRules: ["Bash(rm -rf x)"] })
      const error = yield* Effect.flip(CommandExpansion.expandWith("/f", loaded(command("f", "!`rm -rf x`")), services(ran, refusing)))
      expect(error.message).toMatch(/rm -rf x.*refused/)
      expect(ran).toEqual([])
    }))

  it.effect("an @name that is no file is left as written (an e-mail, a handle), with nothing attached", () =>
    Effect.gen(function* () {
      const expanded = yield* CommandExpansion.expandWith("/ping", loaded(command("ping", "Tell @nobody-here and me@example.com")), services([]))
      expect(expanded.content).toHaveLength(2)
      expect(expanded.content[1]).toEqual({ type: "text", text: "Tell @nobody-here and me@example.com" })
    }))

  it.effect("an unknown command is sent as typed with a note; a prompt that is no command comes back as it is", () =>
    Effect.gen(function* () {
      const unknown = yield* CommandExpansion.expandWith("/nope a", loaded(command("yes", "Y")), services([]))
      expect(unknown.content).toEqual([{ type: "text", text: "/nope a" }])
      expect(unknown.reminders[0]).toContain("/yes")
      const plain = yield* CommandExpansion.expandWith("hello", loaded(command("yes", "Y")), services([]))
      expect(plain).toEqual({ content: [{ type: "text", text: "hello" }], allowedTools: [], reminders: [] })
    }))
})
