/** Shared test helpers for the file tools: run a tool on raw input, temp dirs, a byte-counting FileSystem. */
import * as FileSystem from "effect/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as NodeFs from "node:fs/promises"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { FileState } from "../../../src/tools/FileState.js"
import * as Tool from "../../../src/tools/Tool.js"

/** Decodes `raw` with the tool's schema (as the registry does) and runs it to its result. */
export const runTool = <I, R>(tool: Tool.Tool<I, R>, raw: unknown, cwd: string) =>
  Effect.gen(function* () {
    const input = yield* Schema.decodeUnknownEffect(tool.input)(raw).pipe(Effect.orDie)
    const outputs = yield* Stream.runCollect(tool.run(input, { toolUseId: "toolu_test", sessionId: "s", cwd }))
    const last = outputs.at(-1)
    if (last === undefined || last._tag !== "ToolResult") return yield* Effect.die("no ToolResult")
    return last
  })

/** The text of a result whose content is a string. */
export const textOf = (result: Tool.ToolResult): string => {
  if (typeof result.content !== "string") throw new Error("expected text content")
  return result.content
}

/** A fresh temp directory, removed when the scope closes. */
export const tempDir = Effect.acquireRelease(
  Effect.promise(() => NodeFs.mkdtemp(NodePath.join(NodeOs.tmpdir(), "weft-tools-"))),
  (dir) => Effect.promise(() => NodeFs.rm(dir, { recursive: true, force: true }))
)

export const FileLayers = Layer.mergeAll(NodeFileSystem.layer, FileState.layer)

/** Counts bytes returned by reads through opened files (and whole-file reads), to prove a tool reads little. */
export class BytesRead extends Context.Service<BytesRead, { readonly ref: Ref.Ref<number> }>()("test/BytesRead") {
  static layer = Layer.effect(BytesRead, Effect.map(Ref.make(0), (ref) => ({ ref })))
}

export const countingFileSystem = Layer.effect(
  FileSystem.FileSystem,
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const { ref } = yield* BytesRead
    const count = (n: number) => Ref.update(ref, (total) => total + n)
    return FileSystem.make({
      ...fs,
      readFile: (path) => Effect.tap(fs.readFile(path), (bytes) => count(bytes.length)),
      open: (path, options) =>
        Effect.map(fs.open(path, options), (file) => ({
          [FileSystem.FileTypeId]: file[FileSystem.FileTypeId],
          get stat() {
            return file.stat
          },
          seek: file.seek,
          get sync() {
            return file.sync
          },
          read: (buffer: Uint8Array, readOptions?: FileSystem.File.ReadOptions) =>
            Effect.tap(file.read(buffer, readOptions), (size) => count(Number(size))),
          readAlloc: (size: number, readOptions?: FileSystem.File.ReadOptions) =>
            Effect.tap(file.readAlloc(size, readOptions), (bytes) => count(bytes._tag === "Some" ? bytes.value.length : 0)),
          truncate: file.truncate,
          write: file.write,
          writeAll: file.writeAll
        }))
    })
  })
).pipe(Layer.provideMerge(BytesRead.layer), Layer.provide(NodeFileSystem.layer))
