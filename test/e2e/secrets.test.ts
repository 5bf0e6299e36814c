/**
 * weft's credentials stay with weft: the commands the model runs do not inherit them, and they do not reach the
 * transcript whatever a tool prints.
 */
import { afterEach, describe, expect, it } from "vitest"
import { startMockAnthropicServer } from "../../src/testing/MockAnthropicServer.js"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, makeProject, runWeft } from "./harness.js"

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

/** The text of every tool result the model was sent, by tool_use id. */
const toolResults = (stdout: string): Record<string, string> => {
  const results: Record<string, string> = {}
  for (const frame of frames(stdout)) {
    if (frame["type"] !== "user") continue
    const message = frame["message"]
    const content = typeof message === "object" && message !== null && "content" in message ? message.content : []
    if (!Array.isArray(content)) continue
    for (const block of content) {
      if (block?.type !== "tool_result") continue
      const text = typeof block.content === "string" ? block.content : block.content.map((part: { text?: string }) => part.text ?? "").join("")
      results[block.tool_use_id] = text
    }
  }
  return results
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
    const out = await runWeft(["-p", "print the key", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const results = toolResults(out.stdout)
    expect(results["fg"]).toBe("key=0 token=0\n0\nExit code 1")
    expect(results["nested"]).toBe("key=0 token=0\n0\nExit code 1")
    expect(results["wait"]).toBe("key=0 token=0\n0")
  })
})
