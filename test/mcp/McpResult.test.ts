import { describe, expect, it } from "vitest"
import { mapCallResult, toolName, truncate } from "../../src/mcp/McpResult.js"

describe("McpResult", () => {
  it("names tools mcp__server__tool, other characters as _, and drops names over 128 characters", () => {
    expect(toolName("my server", "do.it/now")).toBe("mcp__my_server__do_it_now")
    expect(toolName("s", "x".repeat(121))).toBeUndefined()
    expect(toolName("s", "x".repeat(120))).toHaveLength(128)
  })

  it("maps text, image, audio, resource and resource_link content; isError joins the texts", () => {
    const mapped = mapCallResult(
      {
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
          { type: "audio", data: "aGVsbG8=", mimeType: "audio/wav" },
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "body" } },
          { type: "resource_link", uri: "file:///b.txt", name: "b" }
        ]
      },
      25_000
    )
    expect(mapped.isError).toBe(false)
    expect(mapped.content).toEqual([
      { type: "text", text: "hi" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "aGVsbG8=" } },
      { type: "text", text: "[Audio content: audio/wav, 6 bytes]" },
      { type: "text", text: "[Resource file:///a.txt (text/plain)]\nbody" },
      { type: "text", text: "[Resource link: b file:///b.txt]" }
    ])
    const error = mapCallResult({ isError: true, content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }, 25_000)
    expect(error).toMatchObject({ isError: true, content: [{ type: "text", text: "a\nb" }] })
  })

  it("structuredContent is what the model gets, and is kept in the data", () => {
    const mapped = mapCallResult({ content: [{ type: "text", text: "{}" }], structuredContent: { t: 21 } }, 25_000)
    expect(mapped.content).toEqual([{ type: "text", text: '{"t":21}' }])
    expect(mapped.data.structuredContent).toEqual({ t: 21 })
  })

  it("output over the token bound (characters / 4) is cut, with a note naming MAX_MCP_OUTPUT_TOKENS", () => {
    const cut = truncate([{ type: "text", text: "x".repeat(1000) }], 100)
    expect(cut[0]).toEqual({ type: "text", text: "x".repeat(400) })
    expect(JSON.stringify(cut[1])).toMatch(/about 250 tokens.*limit of 100 \(MAX_MCP_OUTPUT_TOKENS\)/)
    expect(truncate([{ type: "text", text: "short" }], 100)).toEqual([{ type: "text", text: "short" }])
  })
})
