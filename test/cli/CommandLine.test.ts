import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import * as Result from "effect/Result"
import { choice, printOptions, splitToolRules } from "../../src/cli/CliOptions.js"
import { type Invocation, parse } from "../../src/cli/CommandLine.js"
import { cliWith } from "../../src/cli/Commands.js"
import { renderHelp } from "../../src/cli/Help.js"

/** What effect/cli's command (Commands.ts, generated from the same table) reads in `args`; undefined if it refuses them. */
const viaEffectCli = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    let seen: Invocation | undefined
    const cli = cliWith((invocation) => Effect.sync(() => void (seen = invocation)))
    yield* Effect.result(cli(["node", "weft", ...args]))
    return seen
  }).pipe(Effect.provide(NodeServices.layer), Effect.runPromise)

const valid: ReadonlyArray<ReadonlyArray<string>> = [
  ["-p", "hi"],
  ["--print", "hi"],
  ["hi", "-p"],
  ["-p"],
  ["--model", "claude-x", "-p", "hi"],
  ["-p", "hi", "--model", "claude-x", "--verbose"],
  ["-p", "--output-format", "json", "hi"],
  ["-p", "--output-format=json", "hi"],
  ["-p", "--model=claude-x", "--max-turns=2", "--allowedTools=Read,Grep", "hi"],
  ["-p", "--output-format", "stream-json", "--include-partial-messages", "--verbose", "hi"],
  ["-p", "--max-turns", "3", "hi"],
  ["-p", "--max-turns", "05", "hi"],
  ["-p", "hi", "--allowedTools", "Read,Bash(git log)", "--allowed-tools", "Grep Glob", "--allowedTools", "Edit"],
  ["-p", "--allowedTools", "Edit", "Bash(node:*)", "--disallowedTools", "WebFetch", "Bash(rm:*)", "--", "hi"],
  ["-p", "--add-dir", "/tmp", ".", "--model", "claude-x", "hi"],
  ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
  ["--output-format", "stream-json", "--input-format", "stream-json", "--setting-sources="],
  ["-p", "hi", "--setting-sources", "user,project"],
  ["--output-format=stream-json", "--verbose", "--input-format=stream-json", "--permission-prompt-tool=stdio", "--allowedTools=Read,Bash(node:*)", "--add-dir=/tmp", "--replay-user-messages", "--allow-dangerously-skip-permissions", "--fallback-model=claude-y"],
  ["-p", "--disallowedTools", "Bash(rm -rf /)", "--disallowed-tools", "WebFetch", "hi"],
  ["-p", "--system-prompt", "be terse", "--append-system-prompt", "and kind", "hi"],
  ["-p", "hi", "--add-dir", "/tmp", "--add-dir", "."],
  ["-p", "a prompt with spaces, commas, and (parentheses)"],
  ["-p", "--", "-starts with a dash"],
  ["-p", "-r", "3f9f74a6-6b7c-4a3e-9e1d-2f1f0a9b8c7d", "hi"],
  ["-p", "--resume=3f9f74a6-6b7c-4a3e-9e1d-2f1f0a9b8c7d", "--fork-session", "hi"],
  ["-p", "-c", "--session-id", "3f9f74a6-6b7c-4a3e-9e1d-2f1f0a9b8c7d", "--fork-session", "hi"],
  ["-p", "--continue", "--no-session-persistence", "hi"]
]

/** Refused by both, each for the reason given (the message names the option and what it accepts). */
const invalid: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
  [["-p", "one", "two"], /one prompt is expected, but "one" is followed by "two"\. Quote .*weft -p "one two"/],
  [["-p", "--output-format", "xml", "hi"], /--output-format must be one of text, json, stream-json, not "xml"/],
  [["-p", "--max-turns", "many", "hi"], /--max-turns must be a whole number, 1 or more, not "many"/],
  [["-p", "--max-turns", "0", "hi"], /--max-turns must be a whole number, 1 or more, not "0"/],
  [["-p", "--model", "a", "--model", "b", "hi"], /--model is given 2 times \("a", "b"\): give it once/],
  [["-p", "--add-dir", "/no/such/dir", "hi"], /--add-dir "\/no\/such\/dir" does not exist/],
  [["-p", "--add-dir", "package.json", "hi"], /--add-dir "package.json" is not a directory/],
  [["deploy"], /"deploy" is not a weft command \(the commands: demo, trust[^)]*\bmcp\b[^)]*\).*weft -p "deploy"/],
  [["-p", "--session-id", "my-session", "hi"], /--session-id must be a UUID \(e\.g\. [0-9a-f-]{36}\), not "my-session"/],
  [["-p", "--resume", "a", "-r", "b", "hi"], /--resume is given 2 times \("a", "b"\): give it once/],
  [["--input-format", "stream-json"], /--input-format stream-json needs --output-format stream-json/],
  [["--input-format", "stream-json", "--output-format", "stream-json", "hi"], /prompts come on stdin as user messages/],
  [["-p", "--permission-prompt-tool", "mcp__auth__ask", "hi"], /--permission-prompt-tool must be stdio/],
  [["-p", "--permission-prompt-tool", "stdio", "hi"], /--permission-prompt-tool stdio goes with --input-format stream-json/],
  [["-p", "--replay-user-messages", "hi"], /--replay-user-messages goes with --input-format stream-json/],
  [["-p", "--add-dir", "/tmp", "/no/such/dir", "hi"], /--add-dir "\/no\/such\/dir" does not exist/]
]

describe("CommandLine.parse and the @effect/cli command, both generated from CliOptions", () => {
  it.each(valid)("read %j alike", async (...args) => {
    const fast = parse(args)
    expect(fast._tag).toBe("Print")
    expect(await viaEffectCli(args)).toEqual(fast)
  })

  it.each([[[]], [["--continue"]], [["--model", "m", "--permission-mode", "plan"]]])("read %j as the interactive terminal, alike", async (args) => {
    const fast = parse(args)
    expect(fast._tag).toBe("Interactive")
    expect(await viaEffectCli(args)).toEqual(fast)
  })

  it.each(invalid)("refuse %j alike, naming what is wrong", async (args, message) => {
    const fast = parse(args)
    expect(fast).toMatchObject({ _tag: "Invalid", message: expect.stringMatching(message) })
    expect(await viaEffectCli(args)).toEqual(fast)
  })

  it("takes every argument after --allowedTools, --disallowedTools and --add-dir up to the next option, as Claude Code does", () => {
    expect(parse(["-p", "--allowedTools", "Edit", "Bash(node:*)", "--disallowedTools", "WebFetch", "Bash(rm:*)", "--model", "m", "hi"])).toMatchObject({
      _tag: "Print",
      options: { allowedTools: ["Edit", "Bash(node:*)"], disallowedTools: ["WebFetch", "Bash(rm:*)"], model: "m", prompt: "hi" }
    })
    expect(parse(["-p", "--add-dir", "/tmp", ".", "--verbose", "hi"])).toMatchObject({ options: { addDirs: ["/tmp", "."], prompt: "hi" } })
    expect(parse(["-p", "--allowed-tools", "Edit", "Read", "--", "Bash"])).toMatchObject({ options: { allowedTools: ["Edit", "Read"], prompt: "Bash" } })
    // The = form takes its one value, as the Agent SDK gives it.
    expect(parse(["-p", "--allowedTools=Edit", "hi"])).toMatchObject({ options: { allowedTools: ["Edit"], prompt: "hi" } })
    // A prompt right after such an option is one of its values, as in Claude Code: it goes before the option or after --.
    expect(parse(["-p", "--allowedTools", "Edit", "explain"])).toMatchObject({ options: { allowedTools: ["Edit", "explain"], prompt: undefined } })
  })

  it("--setting-sources given empty (the Agent SDK's settingSources: []) is no settings file, not the default", () => {
    expect(parse(["-p", "hi", "--setting-sources="])).toMatchObject({ options: { settingSources: [] } })
    expect(parse(["-p", "hi"])).toMatchObject({ options: { settingSources: undefined } })
    expect(parse(["-p", "hi", "--setting-sources", "user"])).toMatchObject({ options: { settingSources: ["user"] } })
  })

  it("the Agent SDK's invocation: stream-json in and out, no -p", () => {
    expect(parse(["--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--permission-prompt-tool=stdio"])).toMatchObject({
      _tag: "Print",
      options: { print: false, inputFormat: "stream-json", outputFormat: "stream-json", permissionPromptTool: "stdio", prompt: undefined }
    })
  })

  it("refuses, naming the option: an unknown one, a missing value, a value given to a flag", () => {
    expect(parse(["-p", "--bogus", "hi"])).toMatchObject({ message: expect.stringContaining("unknown option '--bogus'") })
    expect(parse(["-p", "-x"])).toMatchObject({ message: expect.stringContaining("unknown option '-x'") })
    expect(parse(["--input-format=stream-json", "--output-format=stream-json", "--effort=high"])).toMatchObject({
      message: expect.stringContaining("'--effort' is an option of Claude Code that weft does not have yet")
    })
    expect(parse(["--model"])).toMatchObject({ message: "--model needs a value: a model name, e.g. claude-sonnet-4-5." })
    expect(parse(["-p", "--output-format"])).toMatchObject({
      message: "--output-format needs a value: one of text, json, stream-json."
    })
    expect(parse(["-p", "--model", "--verbose", "hi"])).toMatchObject({ message: expect.stringMatching(/^--model needs a value/) })
    expect(parse(["-p", "--verbose=yes"])).toMatchObject({ message: '--verbose takes no value (given "yes").' })
    expect(parse(["-p", "--max-turns", "-1"])).toMatchObject({ message: expect.stringMatching(/not "-1"/) })
  })

  it("help, version, commands and @effect/cli's own options", () => {
    expect(parse(["--help"])).toEqual({ _tag: "Help" })
    expect(parse(["-p", "hi", "-h"])).toEqual({ _tag: "Help" })
    expect(parse(["--bogus", "--help"])).toEqual({ _tag: "Help" })
    expect(parse(["-v"])).toEqual({ _tag: "Version" })
    expect(parse(["demo", "--help"])).toMatchObject({ _tag: "Command", command: { name: "demo" }, args: ["--help"] })
    expect(parse(["-p", "demo"])).toMatchObject({ _tag: "Print", options: { prompt: "demo" } })
    expect(parse(["--completions", "bash"])).toEqual({ _tag: "EffectCli" })
    expect(parse(["--wizard"])).toEqual({ _tag: "EffectCli" })
  })

  it("a choice without a default is undefined when not given", () => {
    const mode = choice({ name: "mode", placeholder: "mode", choices: ["a", "b"], description: "A mode." })
    expect(mode.decode([])).toEqual(Result.succeed(undefined))
    expect(mode.decode(["b"])).toEqual(Result.succeed("b"))
    expect(mode.decode(["c"])).toEqual(Result.fail('must be one of a, b, not "c"'))
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

describe("Help", () => {
  it("lists every option of the table with its aliases, and nothing of @effect/cli's", () => {
    const help = renderHelp()
    const listed = new Set([...help.matchAll(/(?<=\s)--[A-Za-z][A-Za-z-]*/g)].map((match) => match[0]))
    const declared = Object.values(printOptions).flatMap((spec) => [spec.name, ...spec.aliases].filter((name) => name.length > 1))
    expect([...listed].sort()).toEqual([...declared.map((name) => `--${name}`), "--help", "--version"].sort())
    expect(help).toContain("-p, --print")
    expect(help).not.toMatch(/--wizard|--completions|--log-level/)
  })
})
