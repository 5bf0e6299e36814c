import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { DEFAULT_MAX_OUTPUT_TOKENS } from "../../src/mcp/McpResult.js"
import * as McpTools from "../../src/mcp/McpTools.js"

const withVariables = (variables: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(variables))

describe("McpTools.maxOutputTokens", () => {
  it.effect("is MAX_MCP_OUTPUT_TOKENS, read through Config", () =>
    Effect.gen(function* () {
      expect(yield* McpTools.maxOutputTokens.pipe(withVariables({ MAX_MCP_OUTPUT_TOKENS: "10" }))).toBe(10)
      expect(yield* McpTools.maxOutputTokens.pipe(withVariables({ MAX_MCP_OUTPUT_TOKENS: " 50000 " }))).toBe(50_000)
    })
  )

  it.effect.each([{}, { MAX_MCP_OUTPUT_TOKENS: "" }, { MAX_MCP_OUTPUT_TOKENS: "many" }, { MAX_MCP_OUTPUT_TOKENS: "0" }, { MAX_MCP_OUTPUT_TOKENS: "1.5" }])(
    "is the default, 25 000, when the variable is unset or no positive integer: %j",
    (variables) =>
      Effect.gen(function* () {
        expect(DEFAULT_MAX_OUTPUT_TOKENS).toBe(25_000)
        expect(yield* McpTools.maxOutputTokens.pipe(withVariables(variables))).toBe(DEFAULT_MAX_OUTPUT_TOKENS)
      })
  )
})
