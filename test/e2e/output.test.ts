/** weft -p's output formats (text, json, stream-json) and what it reads as the prompt, through the built binary. */
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

describe("weft -p: output formats and input", () => {
  it("text and json output, the prompt on stdin, and --max-turns", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("Four.")] }))
    const text = await runWeft(["-p"], { cwd: dir, env, stdin: "what is 2+2?" })
    expect(text).toMatchObject({ code: 0, stdout: "Four.\n" })
    const firstRequest = server.requests()[0]?.body
    expect(JSON.stringify(firstRequest)).toContain("what is 2+2?")

    const json = await runWeft(["-p", "again", "--output-format", "json", "--model", "claude-sonnet-4-5"], { cwd: dir, env })
    expect(json.code).toBe(0)
    const success = JSON.parse(json.stdout)
    expect(success).toMatchObject({ type: "result", subtype: "success", result: "Four.", is_error: false })
    expect(success).not.toHaveProperty("errors")
    // modelUsage: the usage and cost of the one response, under the model it named.
    expect(Object.keys(success.modelUsage)).toEqual(["claude-sonnet-4-5"])
    expect(success.modelUsage["claude-sonnet-4-5"]).toEqual({
      inputTokens: success.usage.input_tokens,
      outputTokens: success.usage.output_tokens,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: success.total_cost_usd,
      contextWindow: 200_000
    })
    expect(success.total_cost_usd).toBeGreaterThan(0)

    const { dir: dir2, env: env2 } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Glob", { pattern: "*" }, "g1")]), textTurn("never")]
    }))
    const limited = await runWeft(["-p", "loop", "--max-turns", "1", "--output-format", "json"], { cwd: dir2, env: env2 })
    expect(limited.code).toBe(1)
    expect(JSON.parse(limited.stdout)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 1,
      errors: ["Reached the maximum number of turns (1)."]
    })
  })

  it("takes what is piped in along with a prompt given as an argument", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("The disk is full.")] }))
    const out = await runWeft(["-p", "explain this log"], { cwd: dir, env, stdin: "ERROR: disk full on /dev/sda1\n" })
    expect(out).toMatchObject({ code: 0, stdout: "The disk is full.\n" })
    const messages = (server.requests()[0]?.body as { messages: ReadonlyArray<unknown> }).messages
    expect(JSON.stringify(messages.at(-1))).toContain("explain this log\\n\\nERROR: disk full on /dev/sda1")
  })

  it("stream-json has stream_event frames with --include-partial-messages, and only then", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("Partial, then whole."), textTurn("Partial, then whole.")] }))
    const partial = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose", "--include-partial-messages"], {
      cwd: dir,
      env
    })
    expect(partial.code).toBe(0)
    const events = frames(partial.stdout).filter((frame) => frame["type"] === "stream_event")
    const eventTypes = events.map((frame) => (frame["event"] as { type: string }).type)
    expect(eventTypes[0]).toBe("message_start")
    expect(eventTypes).toContain("content_block_delta")
    expect(eventTypes[eventTypes.length - 1]).toBe("message_stop")
    const whole = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(whole.code).toBe(0)
    expect(frames(whole.stdout).map((frame) => frame["type"])).toEqual(["system", "assistant", "result"])
  })

  it("a long answer reaches stdout whole before weft exits", async () => {
    const answer = Array.from({ length: 40_000 }, (_, i) => `line ${i} of a long answer`).join("\n")
    const { dir, env } = await setup({}, () => ({ script: [textTurn(answer)] }))
    const out = await runWeft(["-p", "write a lot"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(out.stdout.length).toBe(answer.length + 1)
    expect(out.stdout).toBe(`${answer}\n`)
  })
})
