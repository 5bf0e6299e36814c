import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { EditTool, replaceIn } from "../../../src/tools/builtin/Edit.js"
import { ReadTool } from "../../../src/tools/builtin/Read.js"
import { WriteTool } from "../../../src/tools/builtin/Write.js"
import * as Tool from "../../../src/tools/Tool.js"
import { FileLayers, runTool, tempDir, textOf } from "./helpers.js"

const writeRaw = (path: string, data: string) => Effect.promise(() => NodeFs.writeFile(path, data))
const readRaw = (path: string) => Effect.promise(() => NodeFs.readFile(path, "utf8"))
const failureOf = <A, R>(effect: Effect.Effect<A, Tool.ToolError, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("ToolFailed")
    return error.message
  })
/** Moves a file's mtime, as an outside editor saving it would. */
const touch = (path: string, data: string) =>
  Effect.promise(async () => {
    await NodeFs.writeFile(path, data)
    const later = new Date(Date.now() + 5000)
    await NodeFs.utimes(path, later, later)
  })

describe("Write", () => {
  it("derives Claude Code's input schema", () => {
    const schema = Tool.jsonSchemaOf(WriteTool.input)
    expect(schema["required"]).toEqual(["file_path", "content"])
    expect(WriteTool.readOnly).toBe(false)
  })

  it.live("creates a new file and its parent directories without a read", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "a", "b", "new.txt")
      const result = yield* runTool(WriteTool, { file_path: path, content: "hi\n" }, dir)
      expect(textOf(result)).toBe(`File created successfully at: ${path}`)
      expect(yield* readRaw(path)).toBe("hi\n")
      // No temp file is left beside it.
      expect(yield* Effect.promise(() => NodeFs.readdir(NodePath.dirname(path)))).toEqual(["new.txt"])
      // A write counts as a read: a second write needs no Read.
      yield* runTool(WriteTool, { file_path: path, content: "again\n" }, dir)
      expect(yield* readRaw(path)).toBe("again\n")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("refuses an existing file that was not read, or changed since", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "old.txt")
      yield* writeRaw(path, "one\ntwo\n")
      expect(yield* failureOf(runTool(WriteTool, { file_path: path, content: "x" }, dir))).toContain(
        "File has not been read yet. Read it first"
      )
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* touch(path, "one\ntwo\nthree\n")
      expect(yield* failureOf(runTool(WriteTool, { file_path: path, content: "x" }, dir))).toContain(
        "modified since read"
      )
      expect(yield* readRaw(path)).toBe("one\ntwo\nthree\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      const result = yield* runTool(WriteTool, { file_path: path, content: "one\nTWO\nthree\n" }, dir)
      expect(textOf(result)).toBe(
        `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n     1\tone\n     2\tTWO\n     3\tthree`
      )
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("keeps an existing file's mode and CRLF endings", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "run.sh")
      yield* writeRaw(path, "#!/bin/sh\r\necho a\r\n")
      yield* Effect.promise(() => NodeFs.chmod(path, 0o755))
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* runTool(WriteTool, { file_path: path, content: "#!/bin/sh\necho b\n" }, dir)
      expect(yield* readRaw(path)).toBe("#!/bin/sh\r\necho b\r\n")
      const stat = yield* Effect.promise(() => NodeFs.stat(path))
      expect(stat.mode & 0o777).toBe(0o755)
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})

describe("Edit", () => {
  it("derives Claude Code's input schema", () => {
    const schema = Tool.jsonSchemaOf(EditTool.input)
    expect(schema["required"]).toEqual(["file_path", "old_string", "new_string"])
    expect(Object.keys(schema["properties"] as object)).toEqual(["file_path", "old_string", "new_string", "replace_all"])
  })

  it("replaces literally (no $ patterns) and counts matches", () => {
    expect(replaceIn("a b a", "a", "$&$&", false)).toEqual({ _tag: "Ambiguous", occurrences: 2 })
    expect(replaceIn("a b a", "a", "$&", true)).toMatchObject({ result: "$& b $&", occurrences: 2 })
    expect(replaceIn("x\ny\nz\n", "y", "", false)).toMatchObject({ result: "x\nz\n" })
    expect(replaceIn("say \u201Chi\u201D", 'say "hi"', "ok", false)).toMatchObject({ result: "ok" })
    expect(replaceIn("abc", "q", "r", false)).toEqual({ _tag: "NotFound" })
  })

  it.live("edits a read file and shows a numbered snippet around the change", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "code.ts")
      const lines = Array.from({ length: 20 }, (_, i) => `const v${i + 1} = ${i + 1}`)
      yield* writeRaw(path, lines.join("\n") + "\n")
      expect(
        yield* failureOf(runTool(EditTool, { file_path: path, old_string: "v10 = 10", new_string: "v10 = 100" }, dir))
      ).toContain("File has not been read yet")
      yield* runTool(ReadTool, { file_path: path }, dir)
      const result = yield* runTool(
        EditTool,
        { file_path: path, old_string: "const v10 = 10", new_string: "const v10 = 100\nconst extra = 0" },
        dir
      )
      expect(textOf(result)).toBe(
        [
          `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:`,
          "     6\tconst v6 = 6",
          "     7\tconst v7 = 7",
          "     8\tconst v8 = 8",
          "     9\tconst v9 = 9",
          "    10\tconst v10 = 100",
          "    11\tconst extra = 0",
          "    12\tconst v11 = 11",
          "    13\tconst v12 = 12",
          "    14\tconst v13 = 13",
          "    15\tconst v14 = 14"
        ].join("\n")
      )
      // Our own write counts as a read: a second edit goes through.
      yield* runTool(EditTool, { file_path: path, old_string: "const extra = 0\n", new_string: "" }, dir)
      expect((yield* readRaw(path)).split("\n")[10]).toBe("const v11 = 11")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("needs a unique match unless replace_all, and reports what is wrong", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "dup.txt")
      yield* writeRaw(path, "foo\nbar\nfoo\nfoo\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      const edit = (input: Record<string, unknown>) => runTool(EditTool, { file_path: path, ...input }, dir)
      expect(yield* failureOf(edit({ old_string: "foo", new_string: "baz" }))).toContain(
        "Found 3 matches of the string to replace, but replace_all is false"
      )
      expect(yield* failureOf(edit({ old_string: "nope", new_string: "baz" }))).toContain(
        "String to replace not found in file.\nString: nope"
      )
      expect(yield* failureOf(edit({ old_string: "foo", new_string: "foo" }))).toBe(
        "No changes to make: old_string and new_string are exactly the same."
      )
      expect(yield* failureOf(edit({ old_string: "", new_string: "x" }))).toContain("Cannot create new file")
      const result = yield* edit({ old_string: "foo", new_string: "baz", replace_all: true })
      expect(textOf(result)).toBe(
        `The file ${path} has been updated. All occurrences of 'foo' were successfully replaced with 'baz'. Here's the result of running \`cat -n\` on a snippet of the edited file (around the first replacement):\n     1\tbaz\n     2\tbar\n     3\tbaz\n     4\tbaz`
      )
      expect(yield* readRaw(path)).toBe("baz\nbar\nbaz\nbaz\n")
      yield* touch(path, "changed\n")
      expect(yield* failureOf(edit({ old_string: "changed", new_string: "x" }))).toContain("modified since read")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("treats a touched but unchanged file as fresh, and a same-size change as changed", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "t.txt")
      yield* writeRaw(path, "alpha\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* touch(path, "alpha\n")
      yield* runTool(EditTool, { file_path: path, old_string: "alpha", new_string: "gamma" }, dir)
      expect(yield* readRaw(path)).toBe("gamma\n")
      yield* touch(path, "delta\n")
      expect(
        yield* failureOf(runTool(EditTool, { file_path: path, old_string: "delta", new_string: "x" }, dir))
      ).toContain("modified since read")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("keeps CRLF line endings when the model sends LF", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "win.txt")
      yield* writeRaw(path, "first\r\nsecond\r\nthird\r\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* runTool(EditTool, { file_path: path, old_string: "first\nsecond", new_string: "one\ntwo\nthree-ish" }, dir)
      expect(yield* readRaw(path)).toBe("one\r\ntwo\r\nthree-ish\r\nthird\r\n")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("creates a missing file from an empty old_string, and explains a missing file otherwise", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "sub", "fresh.md")
      const missing = yield* failureOf(runTool(EditTool, { file_path: path, old_string: "a", new_string: "b" }, dir))
      expect(missing).toContain("File does not exist")
      const result = yield* runTool(EditTool, { file_path: path, old_string: "", new_string: "# Title\n" }, dir)
      expect(textOf(result)).toBe(`File created successfully at: ${path}`)
      expect(yield* readRaw(path)).toBe("# Title\n")
      const notebook = NodePath.join(dir, "n.ipynb")
      yield* writeRaw(notebook, "{}")
      yield* runTool(ReadTool, { file_path: notebook }, dir)
      expect(yield* failureOf(runTool(EditTool, { file_path: notebook, old_string: "{", new_string: "[" }, dir))).toContain(
        "Use the NotebookEdit tool"
      )
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})
