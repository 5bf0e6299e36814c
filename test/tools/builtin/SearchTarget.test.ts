/**
 * Grep and Glob must search exactly the path their permission target names: after a Bash `cd ../outside`, a call
 * checked as the session directory must not read the shell's new directory.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { BashTool } from "../../../src/tools/builtin/Bash.js"
import { GlobTool } from "../../../src/tools/builtin/Glob.js"
import { GrepTool } from "../../../src/tools/builtin/Grep.js"
import { ChildEnvironment } from "../../../src/platform/ChildEnvironment.js"
import { ShellSession } from "../../../src/tools/ShellSession.js"
import { erase, type Tool, type ToolResult, type ToolTarget } from "../../../src/tools/Tool.js"
import { rgLive } from "./grepEngines.js"
import { context, makeTree, removeTree, runTool, textOf, searchLayer } from "./support.js"

const roots: Array<string> = []
afterEach(() => {
  for (const root of roots.splice(0)) removeTree(root)
})

/** A session directory `work` with a sibling `outside`, each holding one file with TOKEN. */
const tree = () => {
  const base = makeTree({ "work/inside.txt": "TOKEN inside\n", "outside/leak.txt": "TOKEN outside\n" })
  roots.push(base)
  return { work: nodePath.join(base, "work"), outside: nodePath.join(base, "outside") }
}

/** Prepares a call as the loop does (the target Permissions sees), then runs it. */
const call = <I, R>(tool: Tool<I, R>, input: Record<string, unknown>, cwd: string) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<R>()
    const prepared = yield* erase(tool, (stream) => Stream.provideContext(stream, services)).prepare(input, context(cwd))
    const outputs = yield* Stream.runCollect(prepared.run())
    const result = outputs.find((output): output is ToolResult => output._tag === "ToolResult")
    if (result === undefined) return yield* Effect.die(new Error("no result"))
    return { target: prepared.target, text: textOf(result) }
  })

const pathOf = (target: ToolTarget): string => (target._tag === "Path" ? target.path : `not a path: ${target._tag}`)

/** The absolute paths listed in an answer. */
const listed = (text: string): Array<string> => text.split("\n").filter((line) => line.startsWith("/"))

const withEngine = <A, E, R>(engine: "builtin" | "rg", effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = process.env["WEFT_GREP_ENGINE"]
      process.env["WEFT_GREP_ENGINE"] = engine
      return previous
    }),
    () => effect,
    (previous) =>
      Effect.sync(() => {
        if (previous === undefined) delete process.env["WEFT_GREP_ENGINE"]
        else process.env["WEFT_GREP_ENGINE"] = previous
      })
  )

describe("Grep and Glob permission targets", () => {
  it.live("after a Bash cd, Grep's target is the directory it searches (both engines)", () => {
    const { work } = tree()
    return Effect.gen(function* () {
      yield* runTool(BashTool, { command: "cd ../outside" }, work)
      expect(yield* Effect.flatMap(ShellSession, (shell) => shell.cwd)).toBe(nodePath.join(work, "../outside"))
      // rg where it is on PATH (CI installs it); the built-in engine everywhere.
      for (const engine of rgLive ? (["builtin", "rg"] as const) : (["builtin"] as const)) {
        for (const input of [{ pattern: "TOKEN" }, { pattern: "TOKEN", path: "." }, { pattern: "TOKEN", output_mode: "content" }]) {
          const { target, text } = yield* withEngine(engine, call(GrepTool, input, work))
          expect(pathOf(target)).toBe(work)
          const found = listed(text).map((line) => line.replace(/:\d+:.*$/, ""))
          expect(found).toEqual([nodePath.join(work, "inside.txt")])
          expect(text).toContain(`not the shell's current directory ${nodePath.join(work, "../outside")}`)
        }
      }
    }).pipe(Effect.provide(searchLayer(work)))
  })

  it.live("after a Bash cd, Glob's target is the directory it lists, including a pattern's leading directories", () => {
    const { work, outside } = tree()
    return Effect.gen(function* () {
      yield* runTool(BashTool, { command: "cd ../outside" }, work)
      const plain = yield* call(GlobTool, { pattern: "*.txt" }, work)
      expect(pathOf(plain.target)).toBe(work)
      expect(listed(plain.text)).toEqual([nodePath.join(work, "inside.txt")])
      // A pattern that climbs out is checked as the directory it walks.
      const climbing = yield* call(GlobTool, { pattern: "../outside/*.txt" }, work)
      expect(pathOf(climbing.target)).toBe(outside)
      expect(listed(climbing.text)).toEqual([nodePath.join(outside, "leak.txt")])
      const absolute = yield* call(GlobTool, { pattern: `${outside}/*.txt`, path: work }, work)
      expect(pathOf(absolute.target)).toBe(outside)
    }).pipe(Effect.provide(searchLayer(work)))
  })

  it.effect("with the shell where the session started, relative paths resolve against the context's directory, with no note", () => {
    const { work } = tree()
    return Effect.gen(function* () {
      const grep = yield* withEngine("builtin", call(GrepTool, { pattern: "TOKEN", path: "../outside" }, work))
      expect(pathOf(grep.target)).toBe(nodePath.join(work, "../outside"))
      expect(grep.text).toBe(`Found 1 file\n${nodePath.join(work, "../outside/leak.txt")}`)
    }).pipe(Effect.provide(searchLayer(work)))
  })
})
