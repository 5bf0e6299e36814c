import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { FileState } from "../../../src/tools/FileState.js"
import { maxImageBytes, maxOutputChars, ReadTool } from "../../../src/tools/builtin/Read.js"
import * as Tool from "../../../src/tools/Tool.js"
import { BytesRead, countingFileSystem, FileLayers, runTool, tempDir, textOf } from "./helpers.js"

const write = (path: string, data: string | Uint8Array) => Effect.promise(() => NodeFs.writeFile(path, data))
const read = (file_path: string, cwd: string, extra: Record<string, unknown> = {}) =>
  runTool(ReadTool, { file_path, ...extra }, cwd)
const failureOf = <A, R>(effect: Effect.Effect<A, Tool.ToolError, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("ToolFailed")
    return error.message
  })

describe("Read", () => {
  it("derives Claude Code's input schema", () => {
    const schema = Tool.jsonSchemaOf(ReadTool.input)
    expect(schema["required"]).toEqual(["file_path"])
    expect(Object.keys(schema["properties"] as object)).toEqual(["file_path", "offset", "limit"])
    expect(JSON.stringify(schema)).not.toContain("$ref")
    expect(ReadTool.readOnly).toBe(true)
    expect(ReadTool.target({ file_path: "a.txt" }, { toolUseId: "t", sessionId: "s", cwd: "/w" })).toEqual({
      _tag: "Path",
      path: "/w/a.txt",
      access: "read"
    })
  })

  it.live("numbers lines as cat -n does and records the read", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "a.txt")
      yield* write(path, "alpha\n\tbeta\r\ngamma")
      const result = yield* read(path, dir)
      expect(textOf(result)).toBe("     1\talpha\n     2\t\tbeta\n     3\tgamma")
      const record = yield* Effect.flatMap(FileState, (state) => state.get(path))
      expect(Option.map(record, (r) => [r.partial, r.size])).toEqual(Option.some([false, 18]))
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("honours offset and limit and says where to go on", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "ten.txt")
      yield* write(path, Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n")
      const text = textOf(yield* read(path, dir, { offset: 3, limit: 2 }))
      expect(text.split("\n").slice(0, 2)).toEqual(["     3\tline 3", "     4\tline 4"])
      expect(text).toContain("offset=5")
      const record = yield* Effect.flatMap(FileState, (state) => state.get(path))
      expect(Option.map(record, (r) => r.partial)).toEqual(Option.some(true))
      // The last lines exactly: no "more lines" note.
      const tail = textOf(yield* read(path, dir, { offset: 9 }))
      expect(tail).toBe("     9\tline 9\n    10\tline 10")
      const past = textOf(yield* read(path, dir, { offset: 50 }))
      expect(past).toContain("shorter than the provided offset (50). The file has 10 lines.")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("cuts long lines and says so", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "long.txt")
      yield* write(path, `short\n${"x".repeat(3_000_000)}\nend\n`)
      const text = textOf(yield* read(path, dir))
      const lines = text.split("\n")
      expect(lines[1]).toBe(`     2\t${"x".repeat(2000)}`)
      expect(lines[2]).toBe("     3\tend")
      expect(text).toContain("Line 2 was longer than 2000 characters")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("stops at the output bound on a whole line", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "wide.txt")
      yield* write(path, Array.from({ length: 400 }, () => "y".repeat(1500)).join("\n"))
      const text = textOf(yield* read(path, dir))
      expect(text.length).toBeLessThan(maxOutputChars + 500)
      const shown = text.split("\n").filter((line) => line.endsWith("y")).length
      expect(shown).toBeGreaterThan(100)
      expect(shown).toBeLessThan(400)
      expect(text).toContain(`offset=${shown + 1}`)
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("streams: a 1 GB file costs only the chunks up to the last returned line", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "huge.log")
      // 3000 text lines, then a sparse hole up to 1 GiB: reading it whole would take seconds and a GB.
      const handle = yield* Effect.promise(() => NodeFs.open(path, "w"))
      yield* Effect.promise(() =>
        handle.write(Array.from({ length: 3000 }, (_, i) => `entry ${i + 1}`).join("\n") + "\n")
      )
      yield* Effect.promise(() => handle.truncate(1024 * 1024 * 1024))
      yield* Effect.promise(() => handle.close())

      const { ref } = yield* BytesRead
      const text = textOf(yield* read(path, dir))
      const lines = text.split("\n")
      expect(lines[0]).toBe("     1\tentry 1")
      expect(lines[1999]).toBe("  2000\tentry 2000")
      expect(text).toContain("offset=2001")
      expect(yield* Ref.get(ref)).toBeLessThan(256 * 1024)

      yield* Ref.set(ref, 0)
      const middle = textOf(yield* read(path, dir, { offset: 2990, limit: 3 }))
      expect(middle.split("\n").slice(0, 3)).toEqual(["  2990\tentry 2990", "  2991\tentry 2991", "  2992\tentry 2992"])
      expect(yield* Ref.get(ref)).toBeLessThan(256 * 1024)
    }).pipe(Effect.scoped, Effect.provide(Layer.merge(countingFileSystem, FileState.layer)))
  )

  it.live("says when a file is empty", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = NodePath.join(dir, "empty.txt")
      yield* write(path, "")
      expect(textOf(yield* read(path, dir))).toBe(
        "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"
      )
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("returns images as image blocks, sniffing the real type, and refuses oversized ones", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
      const path = NodePath.join(dir, "pic.jpg")
      yield* write(path, png)
      const result = yield* read(path, dir)
      expect(result.content).toEqual([
        { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from(png).toString("base64") } }
      ])
      const big = NodePath.join(dir, "big.png")
      yield* write(big, png)
      yield* Effect.promise(() => NodeFs.truncate(big, maxImageBytes + 1))
      expect(yield* failureOf(read(big, dir))).toContain("the limit is 3.8 MB")
      const fake = NodePath.join(dir, "fake.gif")
      yield* write(fake, "not an image")
      expect(yield* failureOf(read(fake, dir))).toContain("not a PNG, JPEG, GIF or WebP")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("refuses binary files, directories and missing files with clear messages", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const blob = NodePath.join(dir, "data.txt")
      yield* write(blob, new Uint8Array([104, 105, 0, 1, 2]))
      expect(yield* failureOf(read(blob, dir))).toContain("appears to be a binary file")
      const zip = NodePath.join(dir, "a.zip")
      yield* write(zip, "PK")
      expect(yield* failureOf(read(zip, dir))).toContain("is a binary file (.zip)")
      expect(yield* failureOf(read(dir, dir))).toContain("is a directory")
      yield* write(NodePath.join(dir, "config.json"), "{}")
      const missing = yield* failureOf(read(NodePath.join(dir, "config.jsn"), dir))
      expect(missing).toContain("File does not exist")
      expect(missing).toContain(`Did you mean ${NodePath.join(dir, "config.json")}`)
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("resolves a relative path against the working directory and names the absolute one", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      yield* write(NodePath.join(dir, "rel.txt"), "hello\n")
      const text = textOf(yield* read("rel.txt", dir))
      expect(text).toContain("     1\thello")
      expect(text).toContain(`resolved to ${NodePath.join(dir, "rel.txt")}`)
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})
