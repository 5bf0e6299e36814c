/**
 * Ignore files as ripgrep reads them: `.ignore` and `.rgignore` in the directories above the search root count as
 * `.gitignore` does (and above the repository root, where `.gitignore` stops), and the kinds rank
 * .rgignore > .ignore > .gitignore whatever their depth. Checked against `rg` itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { GlobTool } from "../../../src/tools/builtin/Glob.js"
import { runGrep } from "./grepEngines.js"
import { makeTree, removeTree, runTool, textOf, searchLayer } from "./support.js"

let root = ""

beforeAll(() => {
  root = makeTree({
    ".ignore": "by-ignore.txt\n",
    ".rgignore": "by-rgignore.txt\n!rescued.txt\n",
    // A deeper .gitignore cannot bring back what an .ignore excludes; a deeper .ignore loses to a .rgignore.
    "pkg/.gitignore": "!by-ignore.txt\n",
    "pkg/.ignore": "rescued.txt\n",
    "pkg/plain.txt": "TOKEN\n",
    "pkg/by-ignore.txt": "TOKEN\n",
    "pkg/by-rgignore.txt": "TOKEN\n",
    "pkg/rescued.txt": "TOKEN\n",
    // Above a repository root, .ignore still counts and .gitignore does not.
    "outer/.ignore": "a.txt\n",
    "outer/.gitignore": "c.txt\n",
    "outer/repo/.git/HEAD": "ref: refs/heads/main\n",
    "outer/repo/src/a.txt": "TOKEN\n",
    "outer/repo/src/c.txt": "TOKEN\n",
    "outer/repo/src/d.txt": "TOKEN\n"
  })
})

afterAll(() => removeTree(root))

const p = (relative: string) => nodePath.join(root, relative)
const sorted = (text: string) => text.split("\n").filter((line) => line.startsWith("/")).sort()

const glob = (input: Record<string, unknown>) =>
  Effect.map(runTool(GlobTool, input, root), ({ result }) => sorted(textOf(result))).pipe(Effect.provide(searchLayer(root)))

const grep = (engine: "builtin" | "rg", input: Record<string, unknown>) =>
  Effect.flatMap(runGrep(engine, input, root), (exit) => Effect.map(exit, ({ result }) => sorted(textOf(result))))

// Functions: `root` is only known once the tree is made.
const PKG = () => [p("pkg/plain.txt"), p("pkg/rescued.txt")]
const REPO = () => [p("outer/repo/src/c.txt"), p("outer/repo/src/d.txt")]

describe("ignore files in parent directories and their precedence", () => {
  it.effect("Grep from a subdirectory honours the parents' .ignore and .rgignore, as rg does", () =>
    Effect.gen(function* () {
      for (const path of ["pkg", p("pkg"), "."]) {
        const rg = yield* grep("rg", { pattern: "TOKEN", path, glob: "pkg/*" })
        expect(yield* grep("builtin", { pattern: "TOKEN", path, glob: "pkg/*" })).toEqual(rg)
      }
      expect(yield* grep("rg", { pattern: "TOKEN", path: "pkg" })).toEqual(PKG())
      expect(yield* grep("builtin", { pattern: "TOKEN", path: "pkg" })).toEqual(PKG())
      expect(yield* grep("builtin", { pattern: "TOKEN", path: "pkg", output_mode: "content" })).toEqual(
        PKG().map((file) => `${file}:1:TOKEN`)
      )
    }))

  it.effect("Glob lists the same files whether it walks from the root or from pkg", () =>
    Effect.gen(function* () {
      expect(yield* glob({ pattern: "pkg/*.txt" })).toEqual(PKG())
      expect(yield* glob({ pattern: "*.txt", path: "pkg" })).toEqual(PKG())
      expect((yield* glob({ pattern: "**/*.txt" })).filter((file) => file.includes("/pkg/"))).toEqual(PKG())
    }))

  it.effect(".ignore above the repository root counts, .gitignore there does not (both engines, and Glob)", () =>
    Effect.gen(function* () {
      const path = "outer/repo/src"
      expect(yield* grep("rg", { pattern: "TOKEN", path })).toEqual(REPO())
      expect(yield* grep("builtin", { pattern: "TOKEN", path })).toEqual(REPO())
      expect(yield* glob({ pattern: "*.txt", path })).toEqual(REPO())
      expect(yield* glob({ pattern: "outer/repo/src/*.txt" })).toEqual(REPO())
    }))
})
