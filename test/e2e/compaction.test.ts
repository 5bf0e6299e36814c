/**
 * Compaction through the built binary against the mock Messages API: auto-compaction triggered by the usage the
 * mock reports, the summary request the mock recorded, the compact_boundary frame, the transcript's boundary, the
 * tools forgetting what was read; `prompt is too long` compacted and retried once; PreCompact hooks.
 */
import { chmodSync, readdirSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { errorBody, ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, resultFrame, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

/** What a mock request sent, as one string, and its messages. */
const bodyOf = (request: { readonly body: unknown }) => JSON.stringify(request.body)
const messagesOf = (request: { readonly body: unknown } | undefined): ReadonlyArray<{ role: string; content: unknown }> => {
  const body = request?.body
  return typeof body === "object" && body !== null && "messages" in body && Array.isArray(body.messages) ? body.messages : []
}

const messageRequests = <A extends { readonly path: string }>(requests: ReadonlyArray<A>) =>
  requests.filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))

/** The entries of the session's transcript file. */
const transcriptOf = (home: string): ReadonlyArray<Record<string, unknown>> => {
  const projects = join(home, "projects")
  const [folder] = readdirSync(projects)
  const [file] = readdirSync(join(projects, folder ?? ""))
  return readFileSync(join(projects, folder ?? "", file ?? ""), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line))
}

const summaryTurn = textTurn("<analysis>going over it</analysis>\n<summary>The user asked to fix a.txt; it was read.</summary>")
const tooLong = ScriptTurn.status(400, { body: errorBody(400, "prompt is too long: 214000 tokens > 200000 maximum") })

describe("weft -p: compaction", { timeout: 120_000 }, () => {
  it("compacts when the usage the API reports nears the window, then goes on from the summary to success", async () => {
    const { dir, env, home, server } = await setup({ "a.txt": "hello\n" }, (project) => ({
      script: [
        ScriptTurn.blocks([toolUse("Read", { file_path: join(project, "a.txt") }, "r1")], {
          usage: { input_tokens: 180_000, cache_read_input_tokens: 8_000 }
        }),
        summaryTurn,
        ScriptTurn.blocks([toolUse("Edit", { file_path: join(project, "a.txt"), old_string: "hello", new_string: "bye" }, "e1")]),
        textTurn("Done.")
      ],
      // One turn per request, in order (after the compaction the conversation starts again from one message).
      pick: (request) => request.index
    }))
    const out = await runWeft(["-p", "fix a.txt", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], {
      cwd: dir,
      env
    })
    expect(out.code).toBe(0)
    const all = frames(out.stdout)
    expect(all.map((frame) => `${frame["type"]}${frame["subtype"] ? `/${frame["subtype"]}` : ""}`)).toEqual([
      "system/init",
      "assistant",
      "user",
      "system/compact_boundary",
      "assistant",
      "user",
      "assistant",
      "result/success"
    ])
    const boundary = all[3] ?? {}
    expect(boundary).toMatchObject({ session_id: all[0]?.["session_id"], compact_metadata: { trigger: "auto" } })
    const metadata = boundary["compact_metadata"]
    const preTokens = typeof metadata === "object" && metadata !== null && "pre_tokens" in metadata ? metadata.pre_tokens : 0
    expect(preTokens).toBeGreaterThan(188_000)
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success", result: "Done." })

    // The mock recorded the summary request (the conversation, then the instruction) and a next request holding
    // only the summary.
    const requests = messageRequests(server.requests())
    expect(requests).toHaveLength(4)
    expect(messagesOf(requests[1])).toHaveLength(3)
    expect(bodyOf(requests[1] ?? { body: null })).toContain("<summary>")
    expect(bodyOf(requests[1] ?? { body: null })).toContain("hello")
    const after = messagesOf(requests[2])
    expect(after).toHaveLength(1)
    expect(JSON.stringify(after)).toContain("The user asked to fix a.txt; it was read.")
    expect(JSON.stringify(after)).not.toContain("going over it")

    // The model no longer holds the file: an Edit needs a fresh Read.
    const editResult = JSON.stringify(all[5])
    expect(editResult).toContain("is_error")
    expect(editResult).toMatch(/not been read|Read it first/)
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("hello\n")

    // The transcript: the boundary starts a fresh chain, the summary follows it.
    const entries = transcriptOf(home)
    const index = entries.findIndex((entry) => entry["subtype"] === "compact_boundary")
    expect(entries[index]).toMatchObject({
      type: "system",
      parentUuid: null,
      logicalParentUuid: entries[index - 1]?.["uuid"],
      content: "Conversation compacted",
      compactMetadata: { trigger: "auto", preTokens }
    })
    expect(entries[index + 1]).toMatchObject({ type: "user", isCompactSummary: true, parentUuid: entries[index]?.["uuid"] })
  })

  it("a request refused as too long is compacted and sent again once; a second refusal fails clearly", async () => {
    const retried = await setup({}, () => ({ script: [tooLong, summaryTurn, textTurn("Done.")], pick: (request) => request.index }))
    const ok = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd: retried.dir, env: retried.env })
    expect(ok.code).toBe(0)
    const boundary = frames(ok.stdout).find((frame) => frame["subtype"] === "compact_boundary")
    expect(boundary).toMatchObject({ compact_metadata: { trigger: "auto", pre_tokens: 214_000 } })
    expect(resultFrame(ok.stdout)).toMatchObject({ subtype: "success", result: "Done." })
    const requests = messageRequests(retried.server.requests())
    expect(requests).toHaveLength(3)
    // Nothing came before the prompt: the summary request is the prompt and the instruction; the retry, the summary.
    expect(JSON.stringify(messagesOf(requests[1]))).toContain("<summary>")
    expect(JSON.stringify(messagesOf(requests[2]))).toContain("The user asked to fix a.txt")

    // Text output: the answer alone on stdout; with --verbose, a line on stderr says the conversation was compacted.
    const text = await setup({}, () => ({ script: [tooLong, summaryTurn, textTurn("Done.")], pick: (request) => request.index }))
    const quiet = await runWeft(["-p", "go"], { cwd: text.dir, env: text.env })
    expect(quiet).toMatchObject({ code: 0, stdout: "Done.\n", stderr: "" })
    const told = await setup({}, () => ({ script: [tooLong, summaryTurn, textTurn("Done.")], pick: (request) => request.index }))
    const verbose = await runWeft(["-p", "go", "--verbose"], { cwd: told.dir, env: told.env })
    expect(verbose.stdout).toBe("Done.\n")
    expect(verbose.stderr).toContain("Conversation compacted (auto, 214000 tokens before)")

    const refused = await setup({}, () => ({ script: [tooLong, summaryTurn, tooLong], pick: (request) => request.index }))
    const failed = await runWeft(["-p", "go", "--output-format", "json"], { cwd: refused.dir, env: refused.env })
    expect(failed.code).toBe(1)
    const result = JSON.parse(failed.stdout)
    expect(result).toMatchObject({ is_error: true, subtype: "error_during_execution" })
    expect(result.result).toContain("prompt is too long")
    expect(result.result).toContain("still too long")
    expect(messageRequests(refused.server.requests())).toHaveLength(3)
  })

  it("runs PreCompact hooks first, with trigger auto; what they print guides the summary", async () => {
    const { root, dir, env, server } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "true" }, "b1")], { usage: { input_tokens: 190_000 } }),
        summaryTurn,
        textTurn("Done.")
      ],
      pick: (request) => request.index
    }))
    const hookScript = join(root, "precompact.sh")
    await writeFile(hookScript, `#!/bin/sh\ncat > "${root}/precompact-input.json"\necho "Keep the release codename HERON."\n`)
    chmodSync(hookScript, 0o755)
    const home = join(root, "home")
    await mkdir(join(home, ".claude"), { recursive: true })
    await writeFile(
      join(home, ".claude/settings.json"),
      JSON.stringify({ hooks: { PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: hookScript }] }] } })
    )
    const out = await runWeft(["-p", "go", "--output-format", "json", "--dangerously-skip-permissions"], {
      cwd: dir,
      env: { ...env, HOME: home }
    })
    expect(out.code).toBe(0)
    const input = JSON.parse(readFileSync(join(root, "precompact-input.json"), "utf8"))
    expect(input).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null })
    const requests = messageRequests(server.requests())
    expect(bodyOf(requests[1] ?? { body: null })).toContain("Keep the release codename HERON.")
  })

  it("DISABLE_AUTO_COMPACT=1 leaves a nearly full conversation as it is", async () => {
    const { dir, env, server } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "true" }, "b1")], { usage: { input_tokens: 190_000 } }), textTurn("Done.")]
    }))
    const out = await runWeft(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"], {
      cwd: dir,
      env: { ...env, DISABLE_AUTO_COMPACT: "1" }
    })
    expect(out.code).toBe(0)
    expect(frames(out.stdout).some((frame) => frame["subtype"] === "compact_boundary")).toBe(false)
    expect(messageRequests(server.requests())).toHaveLength(2)
  })
})
