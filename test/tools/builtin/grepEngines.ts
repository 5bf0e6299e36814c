/**
 * Runs Grep with an engine forced, for the tests that hold the built-in engine to ripgrep's answers.
 *
 * The rg side runs `rg` live where it is on PATH, and otherwise replays ripgrep's answer recorded in
 * `recorded-rg/<test file>.json` (keyed by the test's name and the call's rank within it; paths under the test's
 * tree written as `<root>`), so the suite checks the built-in engine against ripgrep on a machine with Node alone.
 * `node scripts/record-rg.mjs` re-records them (needs rg); a missing recording fails with that hint.
 */
import { expect } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { GrepTool } from "../../../src/tools/builtin/Grep.js"
import { findRipgrep } from "../../../src/tools/search/Ripgrep.js"
import { type ToolError, ToolFailed, type ToolResult } from "../../../src/tools/Tool.js"
import { runTool, searchLayer, textOf } from "./support.js"

export type Engine = "builtin" | "rg"

/** Where rg runs live: on PATH (CI installs it) or while recording. */
export const rgLive = findRipgrep(process.env["PATH"]) !== undefined
const recording = process.env["WEFT_RECORD_RG"] === "1"

interface Recorded {
  readonly input: Record<string, unknown>
  readonly error?: string
  readonly text?: string
  readonly data?: unknown
}

const recordingsDir = nodePath.join(import.meta.dirname, "recorded-rg")
const recordingsFile = (testPath: string) => nodePath.join(recordingsDir, `${nodePath.basename(testPath).replace(/\.ts$/, "")}.json`)

const readRecordings = (file: string): Record<string, Recorded> => {
  if (!fs.existsSync(file)) return {}
  const parsed: Record<string, Recorded> = JSON.parse(fs.readFileSync(file, "utf8"))
  return parsed
}

/** The rank of each rg call within the running test. */
const ranks = new Map<string, number>()

const nextKey = (): { readonly file: string; readonly key: string } => {
  const state = expect.getState()
  const test = state.currentTestName ?? "?"
  const rank = (ranks.get(test) ?? 0) + 1
  ranks.set(test, rank)
  return { file: recordingsFile(state.testPath ?? "unknown"), key: `${test} #${rank}` }
}

const toRoot = (text: string, root: string) => text.split(root).join("<root>")
const fromRoot = (text: string, root: string) => text.split("<root>").join(root)
/** The input with paths under the tree written as `<root>`. */
const inputToRoot = (input: Record<string, unknown>, root: string): Record<string, unknown> => {
  const normalized: Record<string, unknown> = JSON.parse(toRoot(JSON.stringify(input), root))
  return normalized
}

type Outcome = Exit.Exit<{ readonly progress: ReadonlyArray<string>; readonly result: ToolResult }, ToolError>

const live = (engine: Engine, input: Record<string, unknown>, root: string): Effect.Effect<Outcome> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = process.env["WEFT_GREP_ENGINE"]
      process.env["WEFT_GREP_ENGINE"] = engine
      return previous
    }),
    () => Effect.exit(runTool(GrepTool, input, root).pipe(Effect.provide(searchLayer(root)))),
    (previous) =>
      Effect.sync(() => {
        if (previous === undefined) delete process.env["WEFT_GREP_ENGINE"]
        else process.env["WEFT_GREP_ENGINE"] = previous
      })
  )

const messageOf = (exit: Outcome): string =>
  Exit.isFailure(exit) ? Option.match(Cause.findErrorOption(exit.cause), { onNone: () => String(exit.cause), onSome: (error) => error.message }) : ""

/** Runs Grep in `root` with the engine forced (WEFT_GREP_ENGINE, restored afterwards); the call's Exit. */
export const runGrep = (engine: Engine, input: Record<string, unknown>, root: string): Effect.Effect<Outcome> => {
  if (engine === "builtin") return live(engine, input, root)
  return Effect.suspend(() => {
    const { file, key } = nextKey()
    if (recording) {
      return Effect.tap(live("rg", input, root), (exit) =>
        Effect.sync(() => {
          const recordings = readRecordings(file)
          recordings[key] = Exit.isSuccess(exit)
            ? { input: inputToRoot(input, root), text: toRoot(textOf(exit.value.result), root), data: exit.value.result.data }
            : { input: inputToRoot(input, root), error: toRoot(messageOf(exit), root) }
          fs.mkdirSync(recordingsDir, { recursive: true })
          fs.writeFileSync(file, JSON.stringify(recordings, null, 1) + "\n")
        })
      )
    }
    if (rgLive) return live("rg", input, root)
    const recorded = readRecordings(file)[key]
    if (recorded === undefined) {
      return Effect.die(new Error(`No recorded rg answer for "${key}" in ${file}: run node scripts/record-rg.mjs (needs rg).`))
    }
    expect(recorded.input, `the recorded call "${key}" is another call: re-record (node scripts/record-rg.mjs)`).toEqual(inputToRoot(input, root))
    if (recorded.error !== undefined) {
      return Effect.succeed(Exit.fail(new ToolFailed({ tool: "Grep", message: fromRoot(recorded.error, root) })))
    }
    const result: ToolResult = { _tag: "ToolResult", content: fromRoot(recorded.text ?? "", root), data: recorded.data }
    return Effect.succeed(Exit.succeed({ progress: [], result }))
  })
}

/** Runs Grep on both engines; checks they succeed with the same text, and returns it. */
export const bothEngines = (input: Record<string, unknown>, root: string) =>
  Effect.gen(function* () {
    const builtin = yield* runGrep("builtin", input, root)
    const rg = yield* runGrep("rg", input, root)
    if (Exit.isFailure(builtin) || Exit.isFailure(rg)) {
      return yield* Effect.die(new Error(`grep failed: builtin=${JSON.stringify(builtin)} rg=${JSON.stringify(rg)}`))
    }
    expect(textOf(builtin.value.result)).toBe(textOf(rg.value.result))
    expect(builtin.value.result.data).toEqual({ engine: "builtin" })
    expect(rg.value.result.data).toEqual({ engine: "rg" })
    return textOf(builtin.value.result)
  })
