/** weft's arguments, help and argument errors, through the built binary. */
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { environment } from "../../src/cli/CliOptions.js"
import { textTurn } from "../../src/testing/Script.js"
import { binary, requireBinary, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

/** Runs the binary with `args` and no stdin. */
const weft = (args: ReadonlyArray<string>, cwd?: string) => {
  requireBinary()
  return spawnSync(process.execPath, [binary, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...(cwd ? { cwd } : {}) })
}

/** The run failed before doing anything, with exactly this one line on stderr. */
const refused = (args: ReadonlyArray<string>, message: string | RegExp) => {
  const result = weft(args)
  expect(result.status).toBe(1)
  expect(result.stdout).toBe("")
  expect(result.stderr.split("\n").filter((line) => line !== "")).toHaveLength(1)
  if (typeof message === "string") expect(result.stderr).toBe(`weft: ${message}\n`)
  else expect(result.stderr).toMatch(message)
}

describe("weft's arguments (the built binary)", () => {
  it("an unquoted prompt of several words is explained", () => {
    refused(["-p", "fix", "the", "bug"], 'one prompt is expected, but "fix" is followed by "the". Quote a prompt of several words: weft -p "fix the bug"')
    refused(["-p", "fix the bug", "now"], /Quote a prompt of several words: weft -p "fix the bug now"/)
  })

  it("an option without its value names the option and what it accepts", () => {
    refused(["-p", "hi", "--model"], "--model needs a value: a model name, e.g. claude-sonnet-4-5.")
    refused(["-p", "hi", "--output-format"], "--output-format needs a value: one of text, json, stream-json.")
    refused(["-p", "--model", "--verbose", "hi"], /^weft: --model needs a value/)
  })

  it("a value it does not accept names the option and the accepted values", () => {
    refused(["-p", "hi", "--output-format", "xml"], '--output-format must be one of text, json, stream-json, not "xml".')
    refused(["-p", "hi", "--max-turns", "abc"], '--max-turns must be a whole number, 1 or more, not "abc".')
    refused(["-p", "hi", "--max-turns", "0"], '--max-turns must be a whole number, 1 or more, not "0".')
    refused(["-p", "hi", "--max-turns", "-1"], '--max-turns must be a whole number, 1 or more, not "-1".')
    refused(["-p", "hi", "--model", "a", "--model", "b"], '--model is given 2 times ("a", "b"): give it once.')
    refused(["-p", "hi", "--verbose=yes"], '--verbose takes no value (given "yes").')
    refused(["-p", "--bogus", "hi"], /^weft: unknown option '--bogus'\. Run weft --help/)
  })

  it("--add-dir of a missing directory or of a file is an error naming it", () => {
    refused(["-p", "hi", "--add-dir", "/no/such/directory"], '--add-dir "/no/such/directory" does not exist.')
    refused(["-p", "hi", "--add-dir", binary], `--add-dir ${JSON.stringify(binary)} is not a directory.`)
  })

  it("a word that is not a command says what exists, and how to run it as a prompt", () => {
    refused(["deploy"], /"deploy" is not a weft command \(the commands: demo, trust[^)]*\bmcp\b[^)]*\).*To run it as a prompt: weft -p "deploy"/)
    refused(["config", "list"], /"config" is not a weft command.*weft -p "config list"/)
    // Without a terminal (stdin and stdout are pipes here) the interactive mode says to use -p.
    refused([], /the interactive mode needs a terminal \(stdin and stdout\)\. Run a prompt with -p/)
  })

  it("reads --name=value forms (as the Agent SDK passes options) and runs", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Done.")] }))
    const out = await runWeft(["-p", "--output-format=json", "--max-turns=2", "--model=claude-x", "--add-dir=.", "hi"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ type: "result", result: "Done." })
    expect(server.requests()[0]?.body).toMatchObject({ model: "claude-x" })
  })

  it("a refused --max-turns sends nothing to the model", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("never")] }))
    const out = await runWeft(["-p", "hi", "--max-turns", "0"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/--max-turns must be a whole number, 1 or more/)
    expect(server.requests()).toEqual([])
  })
})

describe("weft --help (the built binary)", () => {
  it("lists the options without boilerplate or @effect/cli's, the commands and the environment", () => {
    const help = weft(["--help"])
    expect(help.status).toBe(0)
    expect(help.stderr).toBe("")
    const text = help.stdout
    expect(text).toMatch(/^weft \d+\.\d+\.\d+: /)
    expect(text).not.toContain("A user-defined piece of text")
    expect(text).not.toContain("This setting is optional")
    expect(text).not.toMatch(/--wizard|--completions|--log-level/)
    expect(text).not.toContain("\u001b")
    // Repeatable options are shown as optional.
    expect(text).toMatch(/--add-dir <directory\.\.\.>\s+Additional directories the tools may work in[^]*?Optional, repeatable\./)
    for (const [name] of environment) expect(text).toContain(name)
    for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "WEFT_HOME", "API_TIMEOUT_MS", "HTTPS_PROXY", "NO_PROXY"]) {
      expect(text).toContain(name)
    }
    expect(text).toMatch(/Commands:\n {2}demo /)
    expect(weft(["-p", "hi", "-h"]).stdout).toBe(text)
  })

  it("weft demo --help is titled weft demo", () => {
    const help = weft(["demo", "--help"])
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/^weft demo \(weft \d+\.\d+\.\d+\)\n/)
    expect(help.stdout).toContain("Usage: weft demo")
  })

  it("weft demo runs the session it describes: the edit is made and the test run passes, nothing is denied", () => {
    const demo = weft(["demo"])
    expect(demo.status).toBe(0)
    expect(demo.stdout).toContain("--permission-mode acceptEdits --allowedTools 'Bash(node test.js)'")
    // --verbose's tool lines are on stderr.
    expect(demo.stderr).not.toContain("not granted")
    expect(demo.stderr).toMatch(/● Bash\(ls\)\n {2}⎿ {2}math\.js\n/)
    expect(demo.stderr).toMatch(/● Bash\(node test\.js\)\n {2}⎿ {2}all tests passed/)
  })

  it("a closed pipe after the help is no error", () => {
    const result = spawnSync("sh", ["-c", `"${process.execPath}" "${binary}" --help | head -c 1 >/dev/null`], { encoding: "utf8" })
    expect(result.status).toBe(0)
    expect(result.stderr).toBe("")
  })

  it("@effect/cli's completions still come from the same options", () => {
    const completions = weft(["--completions", "bash"])
    expect(completions.status).toBe(0)
    expect(completions.stdout).toContain("--output-format")
    expect(completions.stdout).toContain("--add-dir")
  })
})
