/** Edit/Write/NotebookEdit/Read: deletions, mixed line endings, encodings, symlinks, replace_all snippets. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { EditTool, replaceIn } from "../../../src/tools/builtin/Edit.js"
import { NotebookEditTool } from "../../../src/tools/builtin/NotebookEdit.js"
import { ReadTool } from "../../../src/tools/builtin/Read.js"
import { WriteTool } from "../../../src/tools/builtin/Write.js"
import { FileState } from "../../../src/tools/FileState.js"
import * as Tool from "../../../src/tools/Tool.js"
import { BytesRead, countingFileSystem, FileLayers, runTool, tempDir, textOf } from "./helpers.js"

const writeRaw = (path: string, data: string | Uint8Array) => Effect.promise(() => NodeFs.writeFile(path, data))
const readBytes = (path: string) => Effect.promise(() => NodeFs.readFile(path))
const failureOf = <A, R>(effect: Effect.Effect<A, Tool.ToolError, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("ToolFailed")
    return error.message
  })
const latin1 = (text: string) => Buffer.from(text, "latin1")
const utf16WithBom = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])
const utf8WithBom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")])

describe("Edit deletions", () => {
  it("takes the line break only when whole lines are deleted, and merges no lines", () => {
    expect(replaceIn("const x = foo\nconst y = 2\n", " = foo", "", false)).toMatchObject({
      result: "const x\nconst y = 2\n"
    })
    expect(replaceIn("a = foo\nb = foo\nc\n", " = foo", "", true)).toMatchObject({ result: "a\nb\nc\n", occurrences: 2 })
    expect(replaceIn("x\ny\nz\n", "y", "", false)).toMatchObject({ result: "x\nz\n" })
    expect(replaceIn("foo\nbar\nfoo\n", "foo", "", true)).toMatchObject({ result: "bar\n" })
    expect(replaceIn("keep\r\ndrop\r\nkeep too\n", "drop", "", false)).toMatchObject({ result: "keep\r\nkeep too\n" })
    // A match that does not start a line leaves the line break alone.
    expect(replaceIn("ab\nc\n", "b", "", false)).toMatchObject({ result: "a\nc\n" })
  })

  it("counts the matches of old_string itself", () => {
    expect(replaceIn("foo\nbarfoo baz\n", "foo", "", false)).toEqual({ _tag: "Ambiguous", occurrences: 2 })
  })

  it.live("deletes a whole line of a CRLF file without leaving a blank line", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "win.txt")
      yield* writeRaw(path, "first\r\nsecond\r\nthird\r\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* runTool(EditTool, { file_path: path, old_string: "second", new_string: "" }, dir)
      expect((yield* readBytes(path)).toString("utf8")).toBe("first\r\nthird\r\n")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})

describe("Edit on mixed line endings", () => {
  it("lets each \\n of old_string match \\r\\n, keeping the line ending found", () => {
    expect(replaceIn("alpha\r\nbeta\r\ngamma\n", "alpha\nbeta", "one\ntwo\nthree", false)).toMatchObject({
      result: "one\r\ntwo\r\nthree\r\ngamma\n",
      firstLine: 1,
      lastLine: 3
    })
    expect(replaceIn("a\r\nb\r\nc\na\r\nb\n", "a\nb", "x\ny", false)).toEqual({ _tag: "Ambiguous", occurrences: 2 })
    expect(replaceIn("a\r\nb\r\nc\na\r\nb\n", "a\nb", "x\ny", true)).toMatchObject({
      result: "x\r\ny\r\nc\nx\r\ny\n",
      occurrences: 2
    })
  })

  it.live("edits across lines as Read showed them", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "mixed.txt")
      yield* writeRaw(path, "alpha\r\nbeta\r\ngamma\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* runTool(EditTool, { file_path: path, old_string: "alpha\nbeta", new_string: "one\ntwo" }, dir)
      expect((yield* readBytes(path)).toString("utf8")).toBe("one\r\ntwo\r\ngamma\n")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})

describe("Edit with replace_all", () => {
  it.live("shows a snippet around the first replacement", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "r.txt")
      const lines = Array.from({ length: 12 }, (_, i) => (i === 7 || i === 10 ? `foo ${i + 1}` : `line ${i + 1}`))
      yield* writeRaw(path, lines.join("\n") + "\n")
      yield* runTool(ReadTool, { file_path: path }, dir)
      const result = yield* runTool(EditTool, { file_path: path, old_string: "foo", new_string: "bar", replace_all: true }, dir)
      expect(textOf(result)).toBe(
        [
          `The file ${path} has been updated. All occurrences of 'foo' were successfully replaced with 'bar'. Here's the result of running \`cat -n\` on a snippet of the edited file (around the first replacement):`,
          "     4\tline 4",
          "     5\tline 5",
          "     6\tline 6",
          "     7\tline 7",
          "     8\tbar 8",
          "     9\tline 9",
          "    10\tline 10",
          "    11\tbar 11",
          "    12\tline 12"
        ].join("\n")
      )
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})

describe("Text encodings", () => {
  it.live("Edit keeps a Latin-1 file's bytes, and refuses characters Latin-1 cannot hold", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "latin.txt")
      yield* writeRaw(path, latin1("caf\u00e9 = 1\nx = 2\n"))
      expect(textOf(yield* runTool(ReadTool, { file_path: path }, dir))).toBe("     1\tcaf\u00e9 = 1\n     2\tx = 2")
      yield* runTool(EditTool, { file_path: path, old_string: "x = 2", new_string: "x = 3" }, dir)
      expect(yield* readBytes(path)).toEqual(latin1("caf\u00e9 = 1\nx = 3\n"))
      yield* runTool(EditTool, { file_path: path, old_string: "caf\u00e9 = 1", new_string: "na\u00efve = 1" }, dir)
      expect(yield* readBytes(path)).toEqual(latin1("na\u00efve = 1\nx = 3\n"))
      const refused = yield* failureOf(
        runTool(EditTool, { file_path: path, old_string: "x = 3", new_string: "x \u2192 3" }, dir)
      )
      expect(refused).toContain("Latin-1")
      expect(refused).toContain("\u2192")
      expect(yield* readBytes(path)).toEqual(latin1("na\u00efve = 1\nx = 3\n"))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("Edit and Write keep a UTF-8 byte-order mark", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "bom.txt")
      yield* writeRaw(path, utf8WithBom("hello\nworld\n"))
      expect(textOf(yield* runTool(ReadTool, { file_path: path }, dir))).toBe("     1\thello\n     2\tworld")
      yield* runTool(EditTool, { file_path: path, old_string: "hello", new_string: "hi" }, dir)
      expect(yield* readBytes(path)).toEqual(utf8WithBom("hi\nworld\n"))
      yield* runTool(WriteTool, { file_path: path, content: "new\n" }, dir)
      expect(yield* readBytes(path)).toEqual(utf8WithBom("new\n"))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("Read, Edit and Write handle UTF-16LE with its byte-order mark", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "wide.txt")
      yield* writeRaw(path, utf16WithBom("h\u00e9llo\r\nw\u00f6rld\r\n"))
      expect(textOf(yield* runTool(ReadTool, { file_path: path }, dir))).toBe("     1\th\u00e9llo\n     2\tw\u00f6rld")
      yield* runTool(EditTool, { file_path: path, old_string: "w\u00f6rld", new_string: "\u4e16\u754c" }, dir)
      expect(yield* readBytes(path)).toEqual(utf16WithBom("h\u00e9llo\r\n\u4e16\u754c\r\n"))
      yield* runTool(WriteTool, { file_path: path, content: "one\ntwo\n" }, dir)
      expect(yield* readBytes(path)).toEqual(utf16WithBom("one\r\ntwo\r\n"))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("Write keeps an existing Latin-1 file's encoding; a new file is UTF-8 without a BOM", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "old.txt")
      yield* writeRaw(path, latin1("\u00e9t\u00e9\n"))
      yield* runTool(ReadTool, { file_path: path }, dir)
      yield* runTool(WriteTool, { file_path: path, content: "hiver \u00e9t\u00e9\n" }, dir)
      expect(yield* readBytes(path)).toEqual(latin1("hiver \u00e9t\u00e9\n"))
      // Content Latin-1 cannot hold replaces the whole file, so it is written as UTF-8 (and the model is told).
      const result = yield* runTool(WriteTool, { file_path: path, content: "\u00e9t\u00e9 \u2192 hiver\n" }, dir)
      expect(textOf(result)).toContain("so it was written as UTF-8")
      expect(yield* readBytes(path)).toEqual(Buffer.from("\u00e9t\u00e9 \u2192 hiver\n", "utf8"))
      const fresh = NodePath.join(dir, "new.txt")
      yield* runTool(WriteTool, { file_path: fresh, content: "\u00e9t\u00e9\n" }, dir)
      expect(yield* readBytes(fresh)).toEqual(Buffer.from("\u00e9t\u00e9\n", "utf8"))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("NotebookEdit keeps a notebook's encoding and byte-order mark", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const notebook = (source: string) =>
        JSON.stringify(
          {
            cells: [
              { cell_type: "markdown", id: "intro", metadata: {}, source: ["caf\u00e9"] },
              { cell_type: "markdown", id: "body", metadata: {}, source: [source] }
            ],
            metadata: {},
            nbformat: 4,
            nbformat_minor: 5
          },
          null,
          1
        ) + "\n"
      const latinPath = NodePath.join(dir, "latin.ipynb")
      yield* writeRaw(latinPath, latin1(notebook("old")))
      yield* runTool(ReadTool, { file_path: latinPath }, dir)
      yield* runTool(NotebookEditTool, { notebook_path: latinPath, cell_id: "body", new_source: "new" }, dir)
      expect(yield* readBytes(latinPath)).toEqual(latin1(notebook("new")))
      const bomPath = NodePath.join(dir, "bom.ipynb")
      yield* writeRaw(bomPath, utf8WithBom(notebook("old")))
      yield* runTool(ReadTool, { file_path: bomPath }, dir)
      yield* runTool(NotebookEditTool, { notebook_path: bomPath, cell_id: "body", new_source: "new" }, dir)
      expect(yield* readBytes(bomPath)).toEqual(utf8WithBom(notebook("new")))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("Read detects a Latin-1 file from its first chunk and still streams", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "huge-latin.log")
      const handle = yield* Effect.promise(() => NodeFs.open(path, "w"))
      yield* Effect.promise(() => handle.write(latin1(Array.from({ length: 3000 }, (_, i) => `caf\u00e9 ${i + 1}`).join("\n") + "\n")))
      yield* Effect.promise(() => handle.truncate(1024 * 1024 * 1024))
      yield* Effect.promise(() => handle.close())
      const { ref } = yield* BytesRead
      const text = textOf(yield* runTool(ReadTool, { file_path: path, limit: 2 }, dir))
      expect(text.split("\n").slice(0, 2)).toEqual(["     1\tcaf\u00e9 1", "     2\tcaf\u00e9 2"])
      expect(yield* Ref.get(ref)).toBeLessThan(256 * 1024)
    }).pipe(Effect.scoped, Effect.provide(Layer.merge(countingFileSystem, FileState.layer)))
  )
})

describe("Symlinks", () => {
  it.live("a file read through a symlink can be edited by its real path, and the other way round", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const real = NodePath.join(dir, "real.txt")
      const link = NodePath.join(dir, "link.txt")
      yield* writeRaw(real, "one\n")
      yield* Effect.promise(() => NodeFs.symlink("real.txt", link))
      yield* runTool(ReadTool, { file_path: link }, dir)
      yield* runTool(EditTool, { file_path: real, old_string: "one", new_string: "two" }, dir)
      expect((yield* readBytes(real)).toString("utf8")).toBe("two\n")

      const other = NodePath.join(dir, "other.txt")
      const otherLink = NodePath.join(dir, "other-link.txt")
      yield* writeRaw(other, "a\n")
      yield* Effect.promise(() => NodeFs.symlink(other, otherLink))
      yield* runTool(ReadTool, { file_path: other }, dir)
      yield* runTool(WriteTool, { file_path: otherLink, content: "b\n" }, dir)
      expect((yield* readBytes(other)).toString("utf8")).toBe("b\n")
      expect((yield* Effect.promise(() => NodeFs.lstat(otherLink))).isSymbolicLink()).toBe(true)
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("Write through a dangling symlink creates its target (and the target's directories)", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const link = NodePath.join(dir, "link.txt")
      const target = NodePath.join(dir, "sub", "deeper", "target.txt")
      yield* Effect.promise(() => NodeFs.symlink(NodePath.join("sub", "deeper", "target.txt"), link))
      const result = yield* runTool(WriteTool, { file_path: link, content: "made\n" }, dir)
      expect(textOf(result)).toContain(`File created successfully at: ${link}`)
      expect((yield* Effect.promise(() => NodeFs.lstat(link))).isSymbolicLink()).toBe(true)
      expect((yield* readBytes(target)).toString("utf8")).toBe("made\n")
      // The write counts as a read of the file, whichever path names it.
      yield* runTool(EditTool, { file_path: target, old_string: "made", new_string: "edited" }, dir)
      expect((yield* readBytes(link)).toString("utf8")).toBe("edited\n")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})
