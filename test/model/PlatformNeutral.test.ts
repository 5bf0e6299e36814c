import { describe, expect, it } from "@effect/vitest"
import { build } from "esbuild"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "../..")

/** Every module a file loads (its whole import graph, as esbuild resolves it), and the Node built-ins among them. */
const moduleGraph = async (entry: string) => {
  const result = await build({
    entryPoints: [Path.join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    logLevel: "silent"
  })
  const inputs = Object.keys(result.metafile.inputs)
  const builtins = new Set<string>()
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external) builtins.add(imported.path.replace(/^node:/, ""))
    }
  }
  return { inputs, builtins }
}

describe("the library core is platform-neutral", () => {
  it("loading ApiClient loads neither node:http/https nor @effect/platform-node", async () => {
    const { inputs, builtins } = await moduleGraph("src/model/ApiClient.ts")
    expect(inputs.some((input) => input.includes("src/model/ApiClient.ts"))).toBe(true)
    expect(inputs.filter((input) => input.includes("@effect/platform-node"))).toEqual([])
    expect([...builtins].filter((name) => /^(http|https|http2|net|tls)$/.test(name))).toEqual([])
  })

  it("NodeApiClient is where the Node transport lives", async () => {
    const { inputs, builtins } = await moduleGraph("src/model/NodeApiClient.ts")
    expect(inputs.some((input) => input.includes("@effect/platform-node"))).toBe(true)
    expect(builtins.has("http")).toBe(true)
  })
})
