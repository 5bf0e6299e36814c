/**
 * `weft demo`: weft working end to end with nothing set up. It copies a small sample project (a failing test)
 * into a temporary directory, starts weft's mock of the Messages API on 127.0.0.1 with a scripted session (read
 * the code, fix it, run the test, answer), runs the real `weft -p` binary against it, and removes everything
 * afterwards.
 */
import { spawn } from "node:child_process"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { commands } from "./CliOptions.js"
import { renderCommandHelp } from "./Help.js"
import { type CliError, Outcome, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import { startMockAnthropicServer } from "../testing/MockAnthropicServer.js"
import { text, textTurn, toolUse, ScriptTurn } from "../testing/Script.js"

export const sampleProject: Readonly<Record<string, string>> = {
  "package.json": `${JSON.stringify({ name: "sample-math", type: "module", scripts: { test: "node test.js" } }, null, 2)}\n`,
  "math.js": [
    "// Small arithmetic helpers.",
    "export function add(a, b) {",
    "  return a - b",
    "}",
    "",
    "export function multiply(a, b) {",
    "  return a * b",
    "}",
    ""
  ].join("\n"),
  "test.js": [
    'import assert from "node:assert/strict"',
    'import { add, multiply } from "./math.js"',
    "",
    "assert.equal(add(2, 3), 5)",
    "assert.equal(multiply(4, 5), 20)",
    'console.log("all tests passed")',
    ""
  ].join("\n")
}

export const demoPrompt = "The tests of this project fail. Find the bug, fix it, and check that the tests pass."

/** The scripted model's side of the demo session, for a project copied to `dir`. */
export const demoScript = (dir: string) => [
  ScriptTurn.blocks([text("Let me see what the project holds."), toolUse("Bash", { command: "ls", description: "List the project's files" }, "toolu_demo_ls")]),
  ScriptTurn.blocks([
    text("I'll look at the implementation first."),
    toolUse("Read", { file_path: join(dir, "math.js") }, "toolu_demo_read")
  ]),
  ScriptTurn.blocks([
    text("`add` subtracts instead of adding. Fixing it."),
    toolUse("Edit", { file_path: join(dir, "math.js"), old_string: "return a - b", new_string: "return a + b" }, "toolu_demo_edit")
  ]),
  ScriptTurn.blocks([
    text("Now the tests."),
    toolUse("Bash", { command: "node test.js", description: "Run the tests" }, "toolu_demo_test")
  ]),
  textTurn("Fixed: `add` in math.js returned `a - b`; it now returns `a + b`, and `node test.js` reports all tests passed.")
]

/**
 * The permissions the session runs with, as a user would give them: under `-p` nobody can answer an ask, so without
 * them the edit and the test run would be denials (and the scripted answer would claim a fix that never happened).
 * The first `ls` needs no rule: a read-only command inside the project. (The demo also trains the binary's code
 * cache, scripts/build-bin.mjs: one Bash call through the read-only check, one through a rule, an edit, a read.)
 */
export const demoFlags: ReadonlyArray<string> = ["--permission-mode", "acceptEdits", "--allowedTools", "Bash(node test.js)", "--verbose"]

const quoted = (word: string) => (/^[\w./=-]+$/.test(word) ? word : `'${word}'`)

const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "inherit", "inherit"] })
    child.on("error", reject)
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })

export const runDemo = Effect.promise(async () => {
  const root = await mkdtemp(join(tmpdir(), "weft-demo-"))
  const project = join(root, "sample-math")
  const server = await startMockAnthropicServer({ script: demoScript(project) })
  try {
    await mkdir(project, { recursive: true })
    for (const [name, content] of Object.entries(sampleProject)) await writeFile(join(project, name), content)
    const out = process.stdout
    out.write(`weft demo: a scripted session against weft's mock Messages API (${server.url}).\n`)
    out.write(`Project: ${project}\n\n$ weft -p ${JSON.stringify(demoPrompt)} ${demoFlags.map(quoted).join(" ")}\n\n`)
    const binary = process.argv[1] ?? ""
    const code = await run(process.execPath, [binary, "-p", demoPrompt, ...demoFlags], project, {
      ...process.env,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "demo-key-not-a-real-key",
      WEFT_HOME: join(root, "weft-home")
    })
    out.write(
      `\n(${server.requests().length} requests to the mock server; exit code ${code}.)\n` +
        "To use a real model: export ANTHROPIC_API_KEY=... (or ANTHROPIC_BASE_URL for any Anthropic-compatible\n" +
        'server) and run weft -p "..." in your project.\n'
    )
    return code
  } finally {
    await server.close()
    await rm(root, { recursive: true, force: true })
  }
})

/** `weft demo [--help]`. */
export const main = (args: ReadonlyArray<string>): Effect.Effect<Outcome, CliError> => {
  if (args.includes("--help") || args.includes("-h")) {
    const summary = commands.find((command) => command.name === "demo")?.summary ?? ""
    return Output.stdout(renderCommandHelp({ title: "weft demo", summary, usage: ["weft demo"] })).pipe(
      Effect.as(Outcome.Succeeded()),
      Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed()))
    )
  }
  if (args.length > 0) {
    return Effect.fail(
      new UsageError({ message: `weft demo takes no arguments (given ${JSON.stringify(args[0])}). See weft demo --help.` })
    )
  }
  return Effect.map(runDemo, (code) => (code === 0 ? Outcome.Succeeded() : Outcome.Failed()))
}
