/** Helpers for the shell and search tool tests: temp trees and running a tool the way the registry does. */
import * as Layer from "effect/Layer"
import { SearchFiles } from "../../../src/tools/search/SearchFiles.js"
import { suiteShell } from "../../sandbox/support.js"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { erase, type Tool, type ToolContext, type ToolError, type ToolOutput, type ToolResult } from "../../../src/tools/Tool.js"

/** Creates a temp dir with the given files (path -> content) and returns its real path. */
export const makeTree = (files: Record<string, string | Buffer>): string => {
  const root = fs.realpathSync(fs.mkdtempSync(nodePath.join(os.tmpdir(), "weft-search-")))
  for (const [path, content] of Object.entries(files)) {
    const full = nodePath.join(root, path)
    fs.mkdirSync(nodePath.dirname(full), { recursive: true })
    fs.writeFileSync(full, content)
  }
  return root
}

export const removeTree = (root: string): void => fs.rmSync(root, { recursive: true, force: true })

export const context = (cwd: string): ToolContext => ({ toolUseId: "toolu_test", sessionId: "session_test", cwd })

/** Runs a tool from raw JSON input (decoded as the registry does), collecting progress and the result. */
export const runTool = <I, R>(
  tool: Tool<I, R>,
  raw: unknown,
  cwd: string
): Effect.Effect<{ readonly progress: ReadonlyArray<string>; readonly result: ToolResult }, ToolError, R> =>
  Effect.gen(function* () {
    const services = yield* Effect.context<R>()
    const erased = erase(tool, (stream) => Stream.provideContext(stream, services))
    const call = yield* erased.prepare(raw, context(cwd))
    const outputs: ReadonlyArray<ToolOutput> = yield* Stream.runCollect(call.run())
    const progress: Array<string> = []
    let result: ToolResult | undefined
    for (const output of outputs) {
      if (output._tag === "ToolProgress") progress.push(output.text)
      else result = output
    }
    if (result === undefined) return yield* Effect.die(new Error(`${tool.name} produced no result`))
    return { progress, result }
  })

/** The text of a result (tests only produce string content). */
export const textOf = (result: ToolResult): string =>
  typeof result.content === "string" ? result.content : JSON.stringify(result.content)


/** The property names of a tool's input JSON Schema, in order. */
export const propertyNames = (schema: Record<string, unknown>): Array<string> => {
  const properties = schema["properties"]
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : []
}

/** What Glob and Grep need besides their input: the disk (SearchFiles) and a session shell in `cwd` (sandboxed with WEFT_TEST_SANDBOX=1). */
export const searchLayer = (cwd: string) =>
  Layer.mergeAll(SearchFiles.layer, suiteShell(cwd, 300))
