import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { GrepTool, selectEngine, splitGlobs } from "../../../src/tools/builtin/Grep.js"
import { findRipgrep } from "../../../src/tools/search/Ripgrep.js"
import { SearchFiles } from "../../../src/tools/search/SearchFiles.js"
import { jsonSchemaOf } from "../../../src/tools/Tool.js"
import { bothEngines, type Engine, runGrep } from "./grepEngines.js"
import { makeTree, propertyNames, removeTree, runTool, textOf, searchLayer } from "./support.js"

const APP = `import { x } from "./util"
// TODO fix this
const answer = 42
function hello() {
  return "hello"
}
// todo lower case
const other = answer + 1
`

let root = ""

beforeAll(() => {
  root = makeTree({
    ".gitignore": "node_modules/\n*.log\nbuild/\n!build/keep.txt\n",
    "src/app.ts": APP,
    "src/util.ts": "export const x = 1\n// TODO util\n",
    "src/view.tsx": "export const View = () => null // TODO view\n",
    "src/nested/.gitignore": "secret.ts\n",
    "src/nested/secret.ts": "// TODO secret\n",
    "src/nested/open.ts": "// TODO open\n",
    "src/min.js": `var a="${"x".repeat(700)}TODO";\n`,
    "lib/main.py": "def hello():\n    # TODO python\n    return 1\n",
    "docs/README.md": "# Docs\nTODO docs\n",
    "node_modules/pkg/index.js": "// TODO in node_modules\n",
    "build/keep.txt": "TODO build\n",
    "debug.log": "TODO log\n",
    ".hidden/file.ts": "// TODO hidden\n",
    "bin/blob.bin": Buffer.concat([Buffer.from("TODO binary\n"), Buffer.from([0, 1, 2]), Buffer.from("TODO\n")]),
    "crlf.txt": "TODO crlf\r\nsecond line\r\n",
    "a-b/x.txt": "TODO dash dir\n",
    "a/x.txt": "TODO slash dir\n"
  })
  // Distinct modification times make "newest first" deterministic.
  const order = [
    "src/app.ts", "src/util.ts", "src/view.tsx", "src/nested/open.ts", "src/min.js", "lib/main.py",
    "docs/README.md", "crlf.txt", "a-b/x.txt", "a/x.txt", "bin/blob.bin"
  ]
  order.forEach((file, index) => {
    const time = new Date(Date.UTC(2024, 0, 1 + index))
    fs.utimesSync(nodePath.join(root, file), time, time)
  })
})

afterAll(() => removeTree(root))

const run = (engine: Engine, input: Record<string, unknown>) => runGrep(engine, input, root)

const both = (input: Record<string, unknown>) => bothEngines(input, root)

const p = (relative: string) => nodePath.join(root, relative)

describe("Grep", () => {
  it("has Claude Code's input fields", () => {
    const schema = jsonSchemaOf(GrepTool.input)
    expect(propertyNames(schema)).toEqual([
      "pattern", "path", "glob", "output_mode", "-B", "-A", "-C", "-n", "-i", "type", "head_limit", "multiline"
    ])
    expect(schema["required"]).toEqual(["pattern"])
    const properties = schema["properties"] as Record<string, Record<string, unknown>>
    expect(properties["-A"]).toMatchObject({ type: "integer", minimum: 0 })
    expect(properties["head_limit"]).toMatchObject({ type: "integer", minimum: 0 })
  })

  it.effect("a negative count is refused with a message that says what is wanted", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(runTool(GrepTool, { pattern: "x", "-A": -1 }, "/").pipe(Effect.provide(searchLayer("/"))))
      expect(error.message).toBe("Invalid input for Grep: -A: expected an integer >= 0, got -1")
    })
  )

  it.effect("files_with_matches: newest first, gitignore (root, nested, dir-only), hidden and binary skipped", () =>
    Effect.gen(function* () {
      const text = yield* both({ pattern: "TODO" })
      expect(text).toBe(
        [
          "Found 10 files",
          p("a/x.txt"),
          p("a-b/x.txt"),
          p("crlf.txt"),
          p("docs/README.md"),
          p("lib/main.py"),
          p("src/min.js"),
          p("src/nested/open.ts"),
          p("src/view.tsx"),
          p("src/util.ts"),
          p("src/app.ts")
        ].join("\n")
      )
    }))

  it.effect("content: path:line:text in path order (ripgrep's component order), long lines cut, CR dropped", () =>
    Effect.gen(function* () {
      const text = yield* both({ pattern: "TODO", output_mode: "content" })
      const lines = text.split("\n")
      expect(lines[0]).toBe(`${p("a/x.txt")}:1:TODO slash dir`)
      expect(lines[1]).toBe(`${p("a-b/x.txt")}:1:TODO dash dir`)
      expect(lines).toContain(`${p("crlf.txt")}:1:TODO crlf`)
      expect(lines).toContain(`${p("src/app.ts")}:2:// TODO fix this`)
      expect(lines.find((line) => line.startsWith(p("src/min.js")))).toMatch(/:1:var a="x+ \[\.\.\. 213 characters cut\]$/)
      expect(lines).toHaveLength(10)
    }))

  it.effect("content with context: '-' for context lines, '--' between groups and files", () =>
    Effect.gen(function* () {
      const text = yield* both({ pattern: "TODO|todo", output_mode: "content", "-C": 1, path: "src/app.ts" })
      expect(text).toBe(["1-import { x } from \"./util\"", "2:// TODO fix this", "3-const answer = 42", "--", "6-}", "7:// todo lower case", "8-const other = answer + 1"].join("\n"))
      const multi = yield* both({ pattern: "TODO", output_mode: "content", "-A": 1, glob: "*.py", "-n": false })
      expect(multi).toBe([`${p("lib/main.py")}:    # TODO python`, `${p("lib/main.py")}-    return 1`].join("\n"))
      const acrossFiles = yield* both({ pattern: "TODO", output_mode: "content", "-B": 1, path: "src", type: "ts" })
      expect(acrossFiles.split("\n")).toContain("--")
    }))

  it.effect("count mode, case-insensitive search, head_limit", () =>
    Effect.gen(function* () {
      const count = yield* both({ pattern: "todo", "-i": true, output_mode: "count", path: "src" })
      expect(count).toBe(
        [
          `${p("src/app.ts")}:2`,
          `${p("src/min.js")}:1`,
          `${p("src/nested/open.ts")}:1`,
          `${p("src/util.ts")}:1`,
          `${p("src/view.tsx")}:1`,
          "",
          "Found 6 total occurrences across 5 files."
        ].join("\n")
      )
      const limited = yield* both({ pattern: "TODO", head_limit: 2 })
      expect(limited).toBe(["Found 2 files", p("a/x.txt"), p("a-b/x.txt")].join("\n"))
      const contentLimited = yield* both({ pattern: "TODO", output_mode: "content", head_limit: 3 })
      expect(contentLimited.split("\n")).toHaveLength(3)
    }))

  it.effect("type and glob filters (basename globs, anchored globs, braces, negation, several globs)", () =>
    Effect.gen(function* () {
      expect(yield* both({ pattern: "TODO", type: "py" })).toBe(`Found 1 file\n${p("lib/main.py")}`)
      expect(yield* both({ pattern: "TODO", type: "ts" })).toBe(
        ["Found 4 files", p("src/nested/open.ts"), p("src/view.tsx"), p("src/util.ts"), p("src/app.ts")].join("\n")
      )
      expect(yield* both({ pattern: "TODO", glob: "*.{py,md}" })).toBe(
        ["Found 2 files", p("docs/README.md"), p("lib/main.py")].join("\n")
      )
      // As in ripgrep, a matching --glob beats the ignore files: src/nested/secret.ts is gitignored but named.
      expect(yield* both({ pattern: "TODO", glob: "src/**/*.ts" })).toBe(
        ["Found 4 files", p("src/nested/secret.ts"), p("src/nested/open.ts"), p("src/util.ts"), p("src/app.ts")].join("\n")
      )
      expect(yield* both({ pattern: "TODO", glob: "!src", output_mode: "count" })).not.toContain("/src/")
      expect(yield* both({ pattern: "TODO", glob: "*.py *.md" })).toBe(
        ["Found 2 files", p("docs/README.md"), p("lib/main.py")].join("\n")
      )
    }))

  it.effect("regex syntax: classes, word boundaries, anchors, inline flags; no match answers", () =>
    Effect.gen(function* () {
      expect(yield* both({ pattern: "^const\\s+\\w+\\s*=\\s*\\d+$", output_mode: "content" })).toBe(
        `${p("src/app.ts")}:3:const answer = 42`
      )
      expect(yield* both({ pattern: "(?i)todo LOWER", output_mode: "content", "-n": false })).toBe(
        `${p("src/app.ts")}:// todo lower case`
      )
      expect(yield* both({ pattern: "[[:digit:]]{2}", type: "ts" })).toBe(`Found 1 file\n${p("src/app.ts")}`)
      expect(yield* both({ pattern: "no such text anywhere" })).toBe("No files found")
      expect(yield* both({ pattern: "no such text anywhere", output_mode: "content" })).toBe("No matches found")
      expect(yield* both({ pattern: "no such text anywhere", output_mode: "count" })).toBe("No matches found")
    }))

  it.effect("multiline: patterns span lines, every spanned line is a match line", () =>
    Effect.gen(function* () {
      const text = yield* both({ pattern: "hello\\(\\) \\{.*return", multiline: true, output_mode: "content" })
      expect(text).toBe([`${p("src/app.ts")}:4:function hello() {`, `${p("src/app.ts")}:5:  return "hello"`].join("\n"))
      expect(yield* both({ pattern: "hello\\(\\) \\{.*return" })).toBe("No files found")
    }))

  it.effect("a single file path: searched even when ignored; no path prefix in content", () =>
    Effect.gen(function* () {
      expect(yield* both({ pattern: "TODO", path: "debug.log", output_mode: "content" })).toBe("1:TODO log")
      expect(yield* both({ pattern: "TODO", path: p("debug.log") })).toBe(`Found 1 file\n${p("debug.log")}`)
    }))

  it.effect("errors are written for the model: bad regex, unknown type, missing path", () =>
    Effect.gen(function* () {
      for (const engine of ["builtin", "rg"] as const) {
        const badRegex = yield* run(engine, { pattern: "foo(" })
        expect(Exit.isFailure(badRegex)).toBe(true)
        expect(JSON.stringify(badRegex)).toMatch(/regex parse error|unclosed|Unterminated/i)
        const badType = yield* run(engine, { pattern: "x", type: "nosuchtype" })
        expect(JSON.stringify(badType)).toMatch(/unrecognized file type: nosuchtype/)
        const missing = yield* run(engine, { pattern: "x", path: "does/not/exist" })
        expect(JSON.stringify(missing)).toMatch(/Path does not exist/)
      }
    }))

  it("splits the glob input at whitespace outside braces", () => {
    expect(splitGlobs("*.ts *.{js, jsx}")).toEqual(["*.ts", "*.{js, jsx}"])
  })
})

describe("Grep engine selection", () => {
  const select = (env: Record<string, string>) =>
    selectEngine.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })), Effect.provide(SearchFiles.layer))
  // The suite runs where rg is not installed: only the cases that need a real rg wait for one.
  const rgPath = findRipgrep(process.env["PATH"])

  it.effect("without rg on PATH: the built-in engine, and WEFT_GREP_ENGINE=rg is an error saying why", () =>
    Effect.gen(function* () {
      expect(yield* select({ PATH: "/nonexistent" })).toEqual({ _tag: "Builtin" })
      const forced = yield* Effect.exit(select({ PATH: "/nonexistent", WEFT_GREP_ENGINE: "rg" }))
      expect(JSON.stringify(forced)).toContain("WEFT_GREP_ENGINE=rg is set but rg is not on PATH")
    }))

  it.effect.skipIf(rgPath === undefined)("with rg on PATH: rg, unless WEFT_GREP_ENGINE=builtin", () =>
    Effect.gen(function* () {
      const rgDir = nodePath.dirname(rgPath ?? "")
      expect(yield* select({ PATH: rgDir })).toMatchObject({ _tag: "Ripgrep" })
      expect(yield* select({ PATH: rgDir, WEFT_GREP_ENGINE: "builtin" })).toEqual({ _tag: "Builtin" })
    }))
})

describe("Grep bounds and ignore files", () => {
  it.effect("content output is capped at 30000 characters with a note, identically on both engines", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `match line ${i} ${"y".repeat(40)}`).join("\n")
    const big = makeTree({ "a.txt": lines, "b.txt": lines, ".ignore": "skipped.txt\n", "skipped.txt": "match line\n", ".bashrc": "match line\n" })
    const grepIn = (engine: Engine, input: Record<string, unknown>) =>
      Effect.flatMap(runGrep(engine, input, big), (exit) => Effect.map(exit, ({ result }) => textOf(result)))
    return Effect.gen(function* () {
      const builtin = yield* grepIn("builtin", { pattern: "match line", output_mode: "content" })
      expect(builtin).toBe(yield* grepIn("rg", { pattern: "match line", output_mode: "content" }))
      expect(builtin.length).toBeLessThan(30_300)
      expect(builtin).toMatch(/\n\n\[Output truncated at 30000 characters\. .*head_limit\.\]$/)
      expect(builtin.startsWith(`${big}/a.txt:1:match line 0 `)).toBe(true)
      // .ignore files count; a hidden file is searched when a type names it (ripgrep's whitelist precedence).
      const files = yield* grepIn("builtin", { pattern: "match line" })
      expect(files).not.toContain("skipped.txt")
      expect(files).not.toContain(".bashrc")
      expect(files.split("\n")[0]).toBe("Found 2 files")
      const typed = yield* grepIn("builtin", { pattern: "match line", type: "sh" })
      expect(typed).toBe(yield* grepIn("rg", { pattern: "match line", type: "sh" }))
      expect(typed).toBe(`Found 1 file\n${big}/.bashrc`)
    }).pipe(Effect.ensuring(Effect.sync(() => removeTree(big))))
  })
})
