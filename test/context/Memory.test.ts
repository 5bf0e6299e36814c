import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { findImports, Memory, type MemoryFile, type Options } from "../../src/context/Memory.js"
import { tempDir as makeTempDir, write } from "../support/TempFiles.js"

const tempDir = () => makeTempDir("weft-memory-")

/** Loads memory, keeping only files under `root` (a CLAUDE.md above the temp dir must not disturb the test). */
const loadUnder = (root: string, options: Options) =>
  Effect.map(Effect.provide(Memory, Memory.layerNode(options)), (memory) =>
    memory.files.filter((file) => file.path.startsWith(root + path.sep))
  )

const summary = (root: string, files: ReadonlyArray<MemoryFile>) =>
  files.map((file) => [path.relative(root, file.path), file.scope, file.content.trim()])

describe("Memory.load", () => {
  it.effect("finds user, project and local files from the root down to the cwd, nearest last", () => {
    const root = tempDir()
    const home = path.join(root, "home")
    const cwd = path.join(root, "repo", "pkg", "app")
    write(path.join(home, ".claude", "CLAUDE.md"), "user rules")
    write(path.join(root, "repo", "CLAUDE.md"), "repo rules")
    write(path.join(root, "repo", "AGENTS.md"), "ignored: this directory has a CLAUDE.md")
    write(path.join(root, "repo", "CLAUDE.local.md"), "my repo notes")
    write(path.join(root, "repo", "pkg", ".claude", "CLAUDE.md"), "pkg rules")
    write(path.join(root, "repo", "pkg", "app", "AGENTS.md"), "app agents")
    write(path.join(root, "repo", "pkg", "app", "sub", "CLAUDE.md"), "below the cwd: not loaded")
    fs.mkdirSync(path.join(cwd, "sub"), { recursive: true })
    return Effect.gen(function* () {
      const files = yield* loadUnder(root, { cwd, home })
      expect(summary(root, files)).toEqual([
        ["home/.claude/CLAUDE.md", "user", "user rules"],
        ["repo/CLAUDE.md", "project", "repo rules"],
        ["repo/CLAUDE.local.md", "local", "my repo notes"],
        ["repo/pkg/.claude/CLAUDE.md", "project", "pkg rules"],
        ["repo/pkg/app/AGENTS.md", "project", "app agents"]
      ])
    })
  })

  it.effect("follows @imports relative to the file, ~/ and absolute, not in code, once each, 5 deep", () => {
    const root = tempDir()
    const home = path.join(root, "home")
    const repo = path.join(root, "repo")
    write(
      path.join(repo, "CLAUDE.md"),
      [
        "See @docs/style.md for style and @~/personal.md.",
        `Also @${path.join(root, "abs.md")} and mail me@example.com, @missing.md is fine.`,
        "Inline `@docs/code-span.md` is code.",
        "```",
        "@docs/fenced.md",
        "```",
        "And @docs/chain1.md"
      ].join("\n")
    )
    write(path.join(repo, "docs", "style.md"), "style; back to @../CLAUDE.md (a cycle)")
    write(path.join(home, "personal.md"), "personal")
    write(path.join(root, "abs.md"), "absolute, and again @docs/style.md")
    write(path.join(repo, "docs", "code-span.md"), "never")
    write(path.join(repo, "docs", "fenced.md"), "never")
    for (let i = 1; i <= 7; i++) write(path.join(repo, "docs", `chain${i}.md`), `chain ${i} @chain${i + 1}.md`)
    return Effect.gen(function* () {
      const files = yield* loadUnder(root, { cwd: repo, home })
      expect(summary(root, files).map(([file]) => file)).toEqual([
        "repo/CLAUDE.md",
        "repo/docs/style.md",
        "home/personal.md",
        "abs.md",
        "repo/docs/chain1.md",
        "repo/docs/chain2.md",
        "repo/docs/chain3.md",
        "repo/docs/chain4.md",
        "repo/docs/chain5.md"
      ])
      expect(files.every((file) => file.scope === "project")).toBe(true)
      expect(files[1]?.importedFrom).toBe(path.join(repo, "CLAUDE.md"))
      expect(files[0]?.importedFrom).toBeUndefined()
      expect(files[5]?.importedFrom).toBe(path.join(repo, "docs", "chain1.md"))
    })
  })

  it.effect("skips files over the size limit with a note, and never reads a huge one", () => {
    const root = tempDir()
    const repo = path.join(root, "repo")
    write(path.join(repo, "CLAUDE.md"), "x".repeat(150))
    write(path.join(repo, "CLAUDE.local.md"), "y".repeat(5_000))
    write(path.join(repo, ".claude", "CLAUDE.md"), "fits")
    return Effect.gen(function* () {
      const files = yield* loadUnder(root, { cwd: repo, home: path.join(root, "home"), maxChars: 100 })
      expect(files.map((file) => [path.relative(root, file.path), file.content, file.skipped])).toEqual([
        ["repo/CLAUDE.md", "", "150 characters, over the 100-character limit for a memory file"],
        ["repo/.claude/CLAUDE.md", "fits", undefined],
        ["repo/CLAUDE.local.md", "", "5000 bytes, over the 100-character limit for a memory file"]
      ])
    })
  })

  it.effect("the default limit is 40,000 characters", () => {
    const root = tempDir()
    write(path.join(root, "CLAUDE.md"), "z".repeat(40_001))
    return Effect.gen(function* () {
      const [file] = yield* loadUnder(root, { cwd: root, home: path.join(root, "home") })
      expect(file?.content).toBe("")
      expect(file?.skipped).toContain("40001 characters")
    })
  })

  it.effect("layerStatic serves the given files", () =>
    Effect.gen(function* () {
      const memory = yield* Memory
      expect(memory.files).toEqual([{ path: "/p/CLAUDE.md", scope: "project", content: "hi" }])
    }).pipe(Effect.provide(Memory.layerStatic([{ path: "/p/CLAUDE.md", scope: "project", content: "hi" }])))
  )
})

describe("findImports", () => {
  it("finds @paths at line starts and after whitespace, with escaped spaces", () => {
    expect(findImports("@a.md\ntext @b/c.md, x@y.com @my\\ file.md")).toEqual(["a.md", "b/c.md,", "my file.md"])
  })

  it("ignores code spans and fenced blocks, closed or not", () => {
    const text = ["`@span.md` @real.md", "~~~md", "@in-tilde.md", "~~~", "```", "@unclosed.md"].join("\n")
    expect(findImports(text)).toEqual(["real.md"])
  })
})
