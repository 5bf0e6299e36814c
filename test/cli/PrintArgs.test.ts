import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { cliWith } from "../../src/cli/Commands.js"
import { parsePrintArgs, printOptions, splitToolRules, unknownOption } from "../../src/cli/PrintArgs.js"
import type { PrintCommandOptions } from "../../src/cli/PrintCommand.js"
import { binary, requireBinary } from "../e2e/harness.js"

/** What @effect/cli (Commands.ts) hands the print command for `args`, or undefined when it does not run it. */
const viaCommandLine = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    let seen: PrintCommandOptions | undefined
    const cli = cliWith((options) => Effect.sync(() => void (seen = options)))
    yield* Effect.either(cli(["node", "weft", ...args]))
    return seen
  }).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer)), Effect.runPromise)

const plain: ReadonlyArray<ReadonlyArray<string>> = [
  ["-p", "hi"],
  ["--print", "hi"],
  ["hi", "-p"],
  ["-p"],
  ["--model", "claude-x", "-p", "hi"],
  ["-p", "hi", "--model", "claude-x", "--verbose"],
  ["-p", "--output-format", "json", "hi"],
  ["-p", "--output-format", "stream-json", "--include-partial-messages", "--verbose", "hi"],
  ["-p", "--max-turns", "3", "hi"],
  ["-p", "--max-turns", "05", "hi"],
  ["-p", "--allowedTools", "Read,Bash(git log)", "--allowed-tools", "Grep Glob", "--allowedTools", "Edit", "hi"],
  ["-p", "--disallowedTools", "Bash(rm -rf /)", "--disallowed-tools", "WebFetch", "hi"],
  ["-p", "--system-prompt", "be terse", "--append-system-prompt", "and kind", "hi"],
  ["-p", "--add-dir", "/tmp", "--add-dir", "../elsewhere", "hi"],
  ["-p", "a prompt with spaces, commas, and (parentheses)"]
]

const notPlain: ReadonlyArray<ReadonlyArray<string>> = [
  [],
  ["hi"], // no -p: the interactive mode's message
  ["--help"],
  ["-h"],
  ["demo"],
  ["-p", "demo"],
  ["-p", "one", "two"],
  ["-p", "--bogus", "hi"],
  ["-p", "--output-format", "xml", "hi"],
  ["-p", "--output-format=json", "hi"],
  ["-p", "--max-turns", "many", "hi"],
  ["-p", "--max-turns", "-1", "hi"],
  ["-p", "--model", "a", "--model", "b", "hi"],
  ["-p", "-p", "hi"],
  ["-p", "--", "-starts with a dash"],
  ["-p", "--model"],
  ["-pv", "hi"]
]

describe("PrintArgs.parsePrintArgs", () => {
  it.each(plain)("reads %j exactly as the full command line does", async (...args) => {
    const fast = parsePrintArgs(args)
    expect(fast).toBeDefined()
    expect(fast).toEqual(await viaCommandLine(args))
  })

  it.each(notPlain)("leaves %j to the full command line", (...args) => {
    expect(parsePrintArgs(args)).toBeUndefined()
  })

  it("the full command line reads the cases left to it as it always did", async () => {
    expect(await viaCommandLine(["-p", "--output-format=json", "hi"])).toMatchObject({ outputFormat: "json", prompt: "hi" })
    expect(await viaCommandLine(["-p", "--", "-starts with a dash"])).toMatchObject({ prompt: "-starts with a dash" })
    expect(await viaCommandLine(["-p", "--output-format", "xml", "hi"])).toBeUndefined()
  })

  it("splits tool rules on commas and spaces outside parentheses", () => {
    expect(splitToolRules(["Read,Bash(git log --oneline)", " Grep  Glob ", "Bash(a, b)"])).toEqual([
      "Read",
      "Bash(git log --oneline)",
      "Grep",
      "Glob",
      "Bash(a, b)"
    ])
  })
})

describe("PrintArgs.unknownOption", () => {
  it("names the first option weft does not have, and nothing for weft's own or @effect/cli's", () => {
    expect(unknownOption(["--bogus"])).toBe("--bogus")
    expect(unknownOption(["-p", "hi", "-x"])).toBe("-x")
    expect(unknownOption(["-p", "--system-prompt", "be terse", "--nope"])).toBe("--nope")
    expect(unknownOption(["--help"])).toBeUndefined()
    expect(unknownOption(["--completions", "bash"])).toBeUndefined()
    expect(unknownOption(["--log-level", "debug", "-p", "hi"])).toBeUndefined()
    expect(unknownOption(["-p", "--", "--not-an-option"])).toBeUndefined()
    expect(unknownOption(["demo"])).toBeUndefined()
  })

  it("the binary says which option it does not know, and exits 1", () => {
    requireBinary()
    const result = spawnSync(process.execPath, [binary, "-p", "--bogus", "hi"], { encoding: "utf8" })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("weft: unknown option '--bogus'")
    expect(result.stdout).toBe("")
  })
})

describe("PrintArgs options and the help", () => {
  it("name exactly the options the help lists (besides @effect/cli's own)", () => {
    requireBinary()
    const help = spawnSync(process.execPath, [binary, "--help"], { encoding: "utf8" }).stdout
    const builtIn = new Set(["--help", "--version", "--wizard", "--completions", "--log-level"])
    const listed = new Set([...help.matchAll(/--[A-Za-z][A-Za-z-]*/g)].map((match) => match[0]).filter((name) => !builtIn.has(name)))
    expect([...listed].sort()).toEqual(Object.keys(printOptions).map((name) => `--${name}`).sort())
    expect(help).toContain("(-p, --print)")
    expect(printOptions.print.short).toBe("p")
  })

  it("are plain text, without ANSI styles, when they go to a pipe", () => {
    requireBinary()
    const help = spawnSync(process.execPath, [binary, "--help"], { encoding: "utf8" })
    expect(help.stdout).toMatch(/^weft\n\nweft \d+\.\d+\.\d+\n\nUSAGE\n/)
    expect(help.stdout).not.toContain("\u001b")
    const invalid = spawnSync(process.execPath, [binary, "--output-format", "xml", "-p", "hi"], { encoding: "utf8" })
    expect(invalid.status).toBe(1)
    expect(invalid.stdout + invalid.stderr).toContain("Expected one of the following cases: text, json, stream-json")
    expect(invalid.stdout + invalid.stderr).not.toContain("\u001b")
  })
})
