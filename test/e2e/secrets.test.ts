/**
 * weft's credentials stay with weft: the commands the model runs do not inherit them, and they do not reach the
 * transcript whatever a tool prints.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { startMockAnthropicServer } from "../../src/testing/MockAnthropicServer.js"
import { errorBody, ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { makeProject, runWeft, toolResults } from "./harness.js"

const KEY = "sk-ant-e2e-secret-0123456789abcdef"
const TOKEN = "e2e-bearer-token-fedcba9876543210"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const setup = async (files: Readonly<Record<string, string>>, script: Parameters<typeof startMockAnthropicServer>[0]) => {
  const project = await makeProject(files)
  cleanups.push(project.cleanup)
  const server = await startMockAnthropicServer(script)
  cleanups.push(server.close)
  const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY, ANTHROPIC_AUTH_TOKEN: TOKEN, WEFT_HOME: project.home }
  return { ...project, server, env }
}

describe("weft's credentials and the commands the model runs", () => {
  it("Bash, what it starts and a background shell see neither the key nor the token", async () => {
    const probe = 'echo "key=${#ANTHROPIC_API_KEY} token=${#ANTHROPIC_AUTH_TOKEN}"; env | grep -c "^ANTHROPIC_API_KEY=\\|^ANTHROPIC_AUTH_TOKEN="'
    const { dir, env } = await setup({}, {
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: probe }, "fg")]),
        ScriptTurn.blocks([toolUse("Bash", { command: `bash -c '${probe.replace(/'/g, "")}'` }, "nested")]),
        ScriptTurn.blocks([toolUse("Bash", { command: `(${probe}) > bg.txt; mv bg.txt bg.done`, run_in_background: true }, "bg")]),
        ScriptTurn.blocks([toolUse("Bash", { command: "while [ ! -e bg.done ]; do sleep 0.02; done; cat bg.done" }, "wait")]),
        textTurn("done")
      ]
    })
    const out = await runWeft(["-p", "print the key", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    expect(results["fg"]).toBe("key=0 token=0\n0\nExit code 1")
    expect(results["nested"]).toBe("key=0 token=0\n0\nExit code 1")
    expect(results["wait"]).toBe("key=0 token=0\n0")
  })
})

/** Every file under `dir`, recursively. */
const filesUnder = async (dir: string): Promise<Array<string>> => {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

describe("shellEnvironmentPolicy", () => {
  it("leaves out the variables it excludes, keeps the others and sets its own", async () => {
    const { root, dir, env } = await setup({}, {
      script: [
        ScriptTurn.blocks([
          toolUse("Bash", { command: 'echo "gh=${GITHUB_TOKEN:-absent} aws=${AWS_SECRET:-absent} kept=${PROJECT_VAR:-absent} set=$FIXED"' }, "probe")
        ]),
        textTurn("done")
      ]
    })
    // User settings (a project's own policy applies only once the project is trusted).
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(
      join(root, ".claude/settings.json"),
      JSON.stringify({ shellEnvironmentPolicy: { exclude: ["*TOKEN*", "*SECRET*"], set: { FIXED: "fixed" } } })
    )
    const out = await runWeft(["-p", "env", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], {
      cwd: dir,
      env: { ...env, HOME: root, GITHUB_TOKEN: "gh-value", AWS_SECRET: "aws-value", PROJECT_VAR: "kept-value" }
    })
    expect(out.code).toBe(0)
    expect(toolResults(out.stdout)["probe"]).toBe("gh=absent aws=absent kept=kept-value set=fixed")
  })

  it("an invalid policy stops the run, naming the key", async () => {
    const { root, dir, env } = await setup({}, { script: [textTurn("never")] })
    await mkdir(join(root, ".claude"), { recursive: true })
    await writeFile(join(root, ".claude/settings.json"), JSON.stringify({ shellEnvironmentPolicy: { inherit: "some" } }))
    const out = await runWeft(["-p", "env"], { cwd: dir, env: { ...env, HOME: root } })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain("shellEnvironmentPolicy")
  })
})

describe("redaction of weft's credentials", () => {
  it("the model's requests, the transcript, stdout and --verbose hold no credential a tool printed from another source", async () => {
    const { dir, env, home, server } = await setup({ "notes.txt": `key: ${KEY}\ntoken: ${TOKEN}\n` }, {
      script: [
        // weft's own environment, read by a command from /proc ($PPID: the wrapper shell evals in weft's child).
        ScriptTurn.blocks([toolUse("Bash", { command: "cat notes.txt; tr '\\0' '\\n' < /proc/$PPID/environ | grep '^ANTHROPIC_'" }, "cat")]),
        ScriptTurn.blocks([toolUse("Read", { file_path: "notes.txt" }, "read")]),
        textTurn(`The key is ${KEY}.`)
      ]
    })
    for (const format of ["stream-json", "text"]) {
      // Unasked: the /proc path is built from a variable, which default mode would (rightly) refuse to run.
      const out = await runWeft(["-p", "show the notes", "--output-format", format, "--verbose", "--dangerously-skip-permissions"], { cwd: dir, env })
      expect(out.code).toBe(0)
      for (const text of [out.stdout, out.stderr]) {
        expect(text).not.toContain(KEY)
        expect(text).not.toContain(TOKEN)
      }
      expect(out.stdout).toContain("[REDACTED]")
    }
    const sent = server.requests().map((request) => JSON.stringify(request.body))
    expect(sent.length).toBe(6)
    for (const body of sent) {
      expect(body).not.toContain(KEY)
      expect(body).not.toContain(TOKEN)
    }
    expect(sent[1]).toContain("ANTHROPIC_API_KEY=[REDACTED]")
    const transcripts = (await filesUnder(home)).filter((file) => file.endsWith(".jsonl"))
    expect(transcripts.length).toBe(2)
    for (const file of transcripts) {
      const text = await readFile(file, "utf8")
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(TOKEN)
      expect(text).toContain("key: [REDACTED]")
    }
  })

  it("an API error that echoes the key is redacted", async () => {
    const { dir, env } = await setup({}, {
      script: [ScriptTurn.status(401, { body: errorBody(401, `invalid x-api-key: ${KEY}`, "authentication_error") })]
    })
    for (const format of ["text", "json"]) {
      const out = await runWeft(["-p", "hi", "--output-format", format], { cwd: dir, env })
      expect(out.code).toBe(1)
      expect(out.stdout + out.stderr).toContain("invalid x-api-key: [REDACTED]")
      expect(out.stdout + out.stderr).not.toContain(KEY)
    }
  })
})
