/**
 * Prompt caching through the built binary: the breakpoints each request carries, the cached prefix unchanged from
 * turn to turn (on the request bodies the mock recorded), the cache usage the mock's prompt cache reports priced in
 * the result, DISABLE_PROMPT_CACHING, and a transcript without the markers.
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { RecordedRequest } from "../../src/testing/MockAnthropicServer.js"
import { ScriptTurn, text, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, resultFrame, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const bodyOf = (request: RecordedRequest | undefined): Json => {
  if (!isRecord(request?.body)) throw new Error("a request without a JSON body")
  return request.body
}

const arrayOf = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** Every block of a request in the order the cache reads them (tools, system, messages), as JSON text. */
const blocksOf = (body: Json): ReadonlyArray<{ readonly json: string; readonly marked: boolean }> => {
  const out: Array<{ json: string; marked: boolean }> = []
  const add = (place: string, value: unknown) => {
    const { cache_control: marker, ...rest } = isRecord(value) ? value : { value }
    out.push({ json: JSON.stringify([place, rest]), marked: marker !== undefined })
  }
  for (const tool of arrayOf(body["tools"])) add("tool", tool)
  const system = body["system"]
  if (typeof system === "string") add("system", { type: "text", text: system })
  else for (const part of arrayOf(system)) add("system", part)
  arrayOf(body["messages"]).forEach((message, index) => {
    if (!isRecord(message)) return
    const content = message["content"]
    const place = `${index}:${String(message["role"])}`
    if (typeof content === "string") add(place, { type: "text", text: content })
    else for (const part of arrayOf(content)) add(place, part)
  })
  return out
}

const messageRequests = (requests: ReadonlyArray<RecordedRequest>) =>
  requests.filter((request) => request.path.startsWith("/v1/messages"))

const turns = 6
const script = (dir: string) => ({
  promptCache: true,
  script: [
    ...Array.from({ length: turns - 1 }, (_, index) =>
      index % 2 === 0
        ? ScriptTurn.blocks([text(`Looking ${index}.`), toolUse("Glob", { pattern: "*.txt" }, `g${index}`)])
        : ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "a.txt") }, `r${index}`)])
    ),
    textTurn("Done.")
  ]
})

describe("prompt caching", () => {
  it("places at most 4 breakpoints, keeps the cached prefix byte for byte from turn to turn, and prices the cache", async () => {
    const { dir, env, server, home } = await setup({ "a.txt": "alpha\n", "b.txt": "beta\n" }, script)
    const out = await runWeft(["-p", "look around", "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5"], {
      cwd: dir,
      env
    })
    expect(out.code).toBe(0)
    const requests = messageRequests(server.requests()).map(bodyOf)
    expect(requests).toHaveLength(turns)

    for (const body of requests) {
      const blocks = blocksOf(body)
      const marked = blocks.flatMap((block, index) => (block.marked ? [index] : []))
      expect(marked.length).toBeLessThanOrEqual(4)
      // The last tool, the system prompt and the newest message's last block are breakpoints.
      const tools = arrayOf(body["tools"])
      expect(isRecord(tools.at(-1)) && tools.at(-1)).toHaveProperty("cache_control", { type: "ephemeral" })
      expect(arrayOf(body["system"])).toEqual([expect.objectContaining({ type: "text", cache_control: { type: "ephemeral" } })])
      expect(marked.at(-1)).toBe(blocks.length - 1)
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(marked.length)
    }

    // What precedes the conversation is the same bytes, markers included, in every request.
    const head = (body: Json) => JSON.stringify([body["model"], body["tools"], body["system"]])
    for (const body of requests) expect(head(body)).toBe(head(requests[0] ?? {}))
    // Each request's prefix, up to its last breakpoint, opens every later request unchanged.
    for (let turn = 0; turn < requests.length; turn++) {
      const prefix = blocksOf(requests[turn] ?? {}).map((block) => block.json)
      for (const later of requests.slice(turn + 1)) {
        expect(blocksOf(later).slice(0, prefix.length).map((block) => block.json)).toEqual(prefix)
      }
    }

    // The mock's prompt cache: from turn 2 on, each request reads all that the one before it read and wrote.
    const usages = frames(out.stdout)
      .filter((frame) => frame["type"] === "assistant")
      .map((frame) => (frame["message"] as { usage: Record<string, number> }).usage)
    expect(usages).toHaveLength(turns)
    expect(usages[0]?.["cache_read_input_tokens"]).toBe(0)
    for (let turn = 1; turn < turns; turn++) {
      const before = usages[turn - 1] ?? {}
      expect(usages[turn]?.["cache_read_input_tokens"]).toBe(
        (before["cache_read_input_tokens"] ?? 0) + (before["cache_creation_input_tokens"] ?? 0)
      )
      expect(usages[turn]?.["cache_creation_input_tokens"]).toBeGreaterThan(0)
    }

    // Priced: sonnet 4.5 is $3 / $15 per million, 5-minute writes 1.25x input, reads 0.1x.
    const sum = (field: string) => usages.reduce((total, usage) => total + (usage[field] ?? 0), 0)
    const result = resultFrame(out.stdout)
    const expected = (sum("input_tokens") * 3 + sum("output_tokens") * 15 + sum("cache_creation_input_tokens") * 3.75 + sum("cache_read_input_tokens") * 0.3) / 1e6
    expect(result["total_cost_usd"]).toBeCloseTo(expected, 12)
    expect(result["usage"]).toMatchObject({
      input_tokens: sum("input_tokens"),
      cache_read_input_tokens: sum("cache_read_input_tokens"),
      cache_creation_input_tokens: sum("cache_creation_input_tokens"),
      cache_creation: { ephemeral_5m_input_tokens: sum("cache_creation_input_tokens"), ephemeral_1h_input_tokens: 0 }
    })
    expect(result["modelUsage"]).toEqual({
      "claude-sonnet-4-5": expect.objectContaining({
        cacheReadInputTokens: sum("cache_read_input_tokens"),
        cacheCreationInputTokens: sum("cache_creation_input_tokens"),
        costUSD: result["total_cost_usd"]
      })
    })

    // The transcript holds the conversation without the markers.
    const projects = join(home, "projects")
    const [folder] = await readdir(projects)
    const [file] = await readdir(join(projects, folder ?? ""))
    const transcript = await readFile(join(projects, folder ?? "", file ?? ""), "utf8")
    expect(transcript).toContain(`"tool_use_id":"g0"`)
    expect(transcript).not.toContain("cache_control")
  })

  it("DISABLE_PROMPT_CACHING=1 sends no breakpoint, and the json result has no cache usage", async () => {
    const { dir, env, server } = await setup({ "a.txt": "alpha\n" }, script)
    const out = await runWeft(["-p", "look around", "--output-format", "json"], {
      cwd: dir,
      env: { ...env, DISABLE_PROMPT_CACHING: "1" }
    })
    expect(out.code).toBe(0)
    const requests = messageRequests(server.requests())
    expect(requests).toHaveLength(turns)
    for (const request of requests) {
      expect(JSON.stringify(request.body)).not.toContain("cache_control")
      expect(typeof bodyOf(request)["system"]).toBe("string")
    }
    expect(JSON.parse(out.stdout)["usage"]).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })
  })
})
