import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Exit from "effect/Exit"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { GlobTool } from "../../../src/tools/builtin/Glob.js"
import { ChildEnvironment } from "../../../src/platform/ChildEnvironment.js"
import { SearchFiles } from "../../../src/tools/search/SearchFiles.js"
import { ShellSession } from "../../../src/tools/ShellSession.js"
import { jsonSchemaOf } from "../../../src/tools/Tool.js"
import { makeTree, propertyNames, removeTree, runTool, textOf, searchLayer } from "./support.js"

let root = ""

beforeAll(() => {
  const files: Record<string, string> = {
    ".gitignore": "node_modules/\ndist\n*.gen.ts\n/root-only.ts\n",
    "src/a.ts": "",
    "src/b.tsx": "",
    "src/deep/c.ts": "",
    "src/deep/d.gen.ts": "",
    "src/keep/.gitignore": "!*.gen.ts\n",
    "src/keep/e.gen.ts": "",
    "src/nested/.gitignore": "private/\n",
    "src/nested/private/f.ts": "",
    "src/nested/private.ts": "",
    "src/root-only.ts": "",
    "root-only.ts": "",
    "node_modules/pkg/index.ts": "",
    "dist/out.ts": "",
    ".github/workflows/ci.yml": "",
    ".hidden/h.ts": "",
    "README.md": "",
    "docs/guide.md": ""
  }
  for (let i = 0; i < 120; i++) files[`many/file${String(i).padStart(3, "0")}.txt`] = ""
  root = makeTree(files)
  const stamp = (file: string, day: number) => {
    const time = new Date(Date.UTC(2024, 0, day))
    fs.utimesSync(nodePath.join(root, file), time, time)
  }
  stamp("src/a.ts", 1)
  stamp("src/deep/c.ts", 3)
  stamp("src/keep/e.gen.ts", 2)
  stamp("src/nested/private.ts", 4)
  stamp("src/root-only.ts", 5)
  for (let i = 0; i < 120; i++) stamp(`many/file${String(i).padStart(3, "0")}.txt`, 1 + i)
})

afterAll(() => removeTree(root))

const globText = (input: Record<string, unknown>) =>
  Effect.map(runTool(GlobTool, input, root), ({ result }) => textOf(result)).pipe(Effect.provide(SearchFiles.layer))
const p = (relative: string) => nodePath.join(root, relative)

describe("Glob", () => {
  it("has Claude Code's input fields", () => {
    const schema = jsonSchemaOf(GlobTool.input)
    expect(propertyNames(schema)).toEqual(["pattern", "path"])
    expect(schema["required"]).toEqual(["pattern"])
  })

  it.effect("**/*.ts: newest first, absolute, gitignore respected (root, nested, negation, dir-only, anchored)", () =>
    Effect.gen(function* () {
      expect(yield* globText({ pattern: "**/*.ts" })).toBe(
        [p("src/root-only.ts"), p("src/nested/private.ts"), p("src/deep/c.ts"), p("src/keep/e.gen.ts"), p("src/a.ts")].join("\n")
      )
    }).pipe(Effect.provide(searchLayer(root))))

  it.effect("braces, single-level *, paths, dot directories only when spelled", () =>
    Effect.gen(function* () {
      expect((yield* globText({ pattern: "src/**/*.{ts,tsx}" })).split("\n").sort()).toEqual(
        [p("src/a.ts"), p("src/b.tsx"), p("src/deep/c.ts"), p("src/keep/e.gen.ts"), p("src/nested/private.ts"), p("src/root-only.ts")].sort()
      )
      expect(yield* globText({ pattern: "*.md" })).toBe(p("README.md"))
      expect((yield* globText({ pattern: "**/*.md" })).split("\n").sort()).toEqual([p("README.md"), p("docs/guide.md")])
      expect(yield* globText({ pattern: "*.ts", path: "src/deep" })).toBe(p("src/deep/c.ts"))
      expect(yield* globText({ pattern: "**/*.yml" })).toBe("No files found")
      expect(yield* globText({ pattern: ".github/**/*.yml" })).toBe(p(".github/workflows/ci.yml"))
      expect(yield* globText({ pattern: `${root}/docs/*.md` })).toBe(p("docs/guide.md"))
      expect(yield* globText({ pattern: "nothing/**" })).toBe("No files found")
    }).pipe(Effect.provide(searchLayer(root))))

  it.effect("caps at 100 results, newest first, with Claude Code's note", () =>
    Effect.gen(function* () {
      const lines = (yield* globText({ pattern: "many/*.txt" })).split("\n")
      expect(lines).toHaveLength(101)
      expect(lines[0]).toBe(p("many/file119.txt"))
      expect(lines[99]).toBe(p("many/file020.txt"))
      expect(lines[100]).toBe("(Results are truncated. Consider using a more specific path or pattern.)")
    }).pipe(Effect.provide(searchLayer(root))))

  it.effect("errors name the problem: missing path, a file as path, a bad pattern", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.exit(runTool(GlobTool, { pattern: "*", path: "nope" }, root))
      expect(Exit.isFailure(missing) && JSON.stringify(missing)).toMatch(/Path does not exist/)
      const file = yield* Effect.exit(runTool(GlobTool, { pattern: "*", path: "README.md" }, root))
      expect(JSON.stringify(file)).toMatch(/Path is not a directory/)
      const bad = yield* Effect.exit(runTool(GlobTool, { pattern: "{a,b" }, root))
      expect(JSON.stringify(bad)).toMatch(/Invalid glob pattern: unclosed/)
    }).pipe(Effect.provide(searchLayer(root))))

  it.live("after a cd, searches the session directory its permission target names, and says where the shell is", () =>
    Effect.gen(function* () {
      const shell = yield* ShellSession
      yield* shell.setCwd(p("src/deep"))
      const text = yield* globText({ pattern: "*.md" })
      expect(text.split("\n")[0]).toBe(p("README.md"))
      expect(text).toContain(`not the shell's current directory ${p("src/deep")}: pass an absolute path`)
      expect(yield* globText({ pattern: "*.ts", path: p("src/deep") })).toBe(p("src/deep/c.ts"))
    }).pipe(Effect.provide(ShellSession.layer({ cwd: root }).pipe(Layer.provide(ChildEnvironment.layerNode)))))
})
