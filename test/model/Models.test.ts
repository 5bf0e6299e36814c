import { describe, expect, it } from "vitest"
import * as Models from "../../src/model/Models.js"
import * as ModelUsage from "../../src/model/ModelUsage.js"
import * as Pricing from "../../src/model/Pricing.js"

const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 }

describe("Models.resolve", () => {
  it("resolves the aliases to current ids, [1m] kept, and passes any other name as it is", () => {
    expect(["opus", "sonnet", "haiku", " Opus ", "sonnet[1m]", "opus[1M]"].map((name) => Models.resolve(name))).toEqual([
      "claude-opus-5-5",
      "claude-sonnet-5-5",
      "claude-haiku-5-5",
      "claude-opus-5-5",
      "claude-sonnet-5-5[1m]",
      "claude-opus-5-5[1m]"
    ])
    expect(Models.resolve("claude-sonnet-4-5")).toBe("claude-sonnet-4-5")
    expect(Models.resolve("qwen2.5-coder:7b")).toBe("qwen2.5-coder:7b")
  })
  it("takes what an alias means from ANTHROPIC_DEFAULT_*_MODEL where set", () => {
    const aliases = Models.aliasesFrom({ opus: "claude-opus-4-7", haiku: " " })
    expect(Models.resolve("opus", aliases)).toBe("claude-opus-4-7")
    expect(Models.resolve("opus[1m]", aliases)).toBe("claude-opus-4-7[1m]")
    expect(Models.resolve("haiku", aliases)).toBe("claude-haiku-5-5")
  })
  it("sends [1m] as the beta, not in the id", () => {
    expect(Models.wireModel("claude-sonnet-5-5[1m]")).toEqual({ id: "claude-sonnet-5-5", longContext: true })
    expect(Models.wireModel("claude-sonnet-5-5")).toEqual({ id: "claude-sonnet-5-5", longContext: false })
  })
})

describe("Pricing", () => {
  it("prices known models by id, whatever the date, [1m], Bedrock or Vertex spelling", () => {
    for (const id of ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5[1m]", "anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5@20250929"]) {
      expect(Pricing.costOf(id, usage)).toBe(18)
    }
    expect(Pricing.costOf("claude-opus-4-7", usage)).toBe(30)
    expect(Pricing.costOf("claude-opus-4-1-20250805", usage)).toBe(90)
    expect(Pricing.costOf("claude-haiku-4-5-20251001", usage)).toBe(6)
  })
  it("an unknown model costs nothing known: 0 and unpriced, never Sonnet's prices", () => {
    for (const id of ["qwen2.5-coder:7b", "gpt-oss-20b", "my-sonnet-finetune", "claude-opus-9-9"]) {
      expect(Pricing.isPriced(id)).toBe(false)
      expect(Pricing.costOf(id, usage)).toBe(0)
    }
    expect(ModelUsage.add(undefined, "qwen2.5-coder:7b", usage, 0)).toMatchObject({ costUSD: 0, unpriced: true })
    expect(ModelUsage.add(undefined, "claude-sonnet-4-5", usage, 18)).not.toHaveProperty("unpriced")
  })
})
