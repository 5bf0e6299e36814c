import { describe, expect, it } from "vitest"
import * as McpPrompt from "../../src/mcp/McpPrompt.js"

describe("McpPrompt", () => {
  it("parses /mcp__server__prompt with its argument text; anything else is not a prompt command", () => {
    expect(McpPrompt.parse("/mcp__everything__args-prompt Paris  France ")).toEqual({ server: "everything", prompt: "args-prompt", args: "Paris  France" })
    expect(McpPrompt.parse("/mcp__my_server__a_b")).toEqual({ server: "my_server", prompt: "a_b", args: "" })
    expect(McpPrompt.parse("please run /mcp__a__b")).toBeUndefined()
    expect(McpPrompt.parse("/mcp__a")).toBeUndefined()
  })

  it("binds a word to each argument in order, the last taking the rest", () => {
    expect(McpPrompt.bindArguments(["city", "state"], "Paris Ile de France")).toEqual({ city: "Paris", state: "Ile de France" })
    expect(McpPrompt.bindArguments(["city", "state"], "Paris")).toEqual({ city: "Paris" })
    expect(McpPrompt.bindArguments([], "ignored")).toEqual({})
  })

  it("a prompt's messages become one user turn's text", () => {
    expect(
      McpPrompt.asUserTurn({
        messages: [
          { role: "user", content: { type: "text", text: "first" } },
          { role: "assistant", content: { type: "text", text: "second" } }
        ]
      })
    ).toBe("first\n\nsecond")
  })
})
