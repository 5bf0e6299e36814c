/**
 * Write {file_path, content}: Claude Code's Write. A new file needs nothing; an existing one must have been Read
 * this session and be unchanged since (FileState), so the model never clobbers what it has not seen. Parent
 * directories are created. The write is atomic-ish: a temp file in the same directory, fsynced, then renamed over
 * the target, so a crash leaves either the old file or the new one, never half of one.
 *
 * Also exports the pieces Edit and NotebookEdit share: `writeFileAtomic` and `requireFreshRead`.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { contentHash, type FileStamp, FileState, stampOf } from "../FileState.js"
import * as Tool from "../Tool.js"
import { fileCall, resolveFilePath, snippet, splitLines } from "./Read.js"

/** Largest existing file Write/Edit load to compare or edit (Edit works on the whole text in memory). */
export const maxEditableBytes = 32 * 1024 * 1024

/**
 * Writes `data` to `target` through a temp file in the same directory (same file system, so the rename is
 * atomic), keeping `mode` when given (an executable script stays executable). The temp file is removed if
 * anything fails.
 */
export const writeFileAtomic = (
  fs: FileSystem.FileSystem,
  target: string,
  data: Uint8Array,
  mode?: number
) => {
  const temp = NodePath.join(
    NodePath.dirname(target),
    `.${NodePath.basename(target)}.weft-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`
  )
  const write = Effect.scoped(
    Effect.gen(function* () {
      const file = yield* fs.open(temp, { flag: "wx", mode: mode ?? 0o666 })
      yield* file.writeAll(data)
      yield* file.sync
    })
  ).pipe(
    Effect.zipRight(mode === undefined ? Effect.void : fs.chmod(temp, mode & 0o7777)),
    Effect.zipRight(fs.rename(temp, target))
  )
  return write.pipe(Effect.onError(() => Effect.ignore(fs.remove(temp))))
}

/**
 * Fails unless the model has read `path` this session and it has not changed since (messages as Claude Code's).
 */
/** The file's info, or undefined when there is no such file (other errors pass through). */
export const statIfExists = (fs: FileSystem.FileSystem, path: string) =>
  fs.stat(path).pipe(
    Effect.catchIf(
      (error) => error._tag === "SystemError" && error.reason === "NotFound",
      () => Effect.succeed(undefined)
    )
  )

export const requireFreshRead = (tool: string, path: string, current: FileStamp) =>
  Effect.gen(function* () {
    const fileState = yield* FileState
    const check = yield* fileState.check(path, current)
    switch (check._tag) {
      case "Ok":
        return
      case "Changed": {
        // Touched but not changed (same bytes as the model saw whole): still fresh; remember the new stamp.
        const seen = check.record.hash
        if (seen !== undefined && current.size === check.record.size) {
          const fs = yield* FileSystem.FileSystem
          const bytes = yield* fs.readFile(path).pipe(Effect.option)
          if (bytes._tag === "Some" && contentHash(bytes.value) === seen) {
            return yield* fileState.recordRead(path, current, { partial: check.record.partial, hash: seen })
          }
        }
        return yield* Tool.fail(
          tool,
          `File has been modified since read, either by the user or by a linter. Read it again before attempting to write it. (${path})`
        )
      }
      case "NeverRead":
        return yield* Tool.fail(
          tool,
          `File has not been read yet. Read it first before writing to it. (Use the Read tool on ${path}, then retry.)`
        )
    }
  })

/** True when the text's line breaks are CRLF (and only CRLF), so edits should keep them so. */
export const usesCrlf = (text: string): boolean => text.includes("\r\n") && !/(^|[^\r])\n/.test(text)

/** The 1-based range of lines that differ between two texts (by common prefix and suffix). */
export const changedLineRange = (before: string, after: string): { readonly first: number; readonly last: number } => {
  const a = splitLines(before)
  const b = splitLines(after)
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) {
    suffix++
  }
  const first = prefix + 1
  return { first, last: Math.max(first, b.length - suffix) }
}

/** Most lines of a result snippet: enough to check an edit, not a second copy of a big file. */
export const maxSnippetLines = 80

/** `snippet` bounded to `maxSnippetLines` (with a note when cut). */
export const boundedSnippet = (text: string, first: number, last: number): string => {
  const cappedLast = Math.min(last, first + maxSnippetLines)
  const body = snippet(text, first, cappedLast)
  return cappedLast < last ? `${body}\n... (snippet cut; Read the file to see lines after ${cappedLast})` : body
}

const WriteInput = Schema.Struct({
  file_path: Schema.String.annotations({
    description: "The absolute path to the file to write (must be absolute, not relative)"
  }),
  content: Schema.String.annotations({ description: "The content to write to the file" })
})
export type WriteInput = typeof WriteInput.Type

const description = `Writes a file to the local filesystem.

Usage:
- This tool will overwrite the existing file if there is one at the provided path.
- If this is an existing file, you MUST use the Read tool first to read the file's contents. This tool will fail if you did not read the file first.
- ALWAYS prefer editing existing files in the codebase. NEVER write new files unless explicitly required.
- NEVER proactively create documentation files (*.md) or README files. Only create documentation files if explicitly requested by the User.
- Only use emojis if the user explicitly requests it. Avoid writing emojis to files unless asked.`

const toolName = "Write"
const failed = (message: string) => Tool.fail(toolName, message)

export const WriteTool = Tool.fromEffect({
  name: toolName,
  description,
  input: WriteInput,
  target: (input, context) => ({ _tag: "Path", path: resolveFilePath(input.file_path, context.cwd), access: "write" }),
  run: Effect.fn("Write.run")(function* (input: WriteInput, context: Tool.ToolContext) {
    const { fs, fileState, absolute, note, mapError } = yield* fileCall(toolName, input.file_path, context.cwd)

    const existing = yield* statIfExists(fs, absolute).pipe(mapError)

    if (existing === undefined) {
      yield* fs.makeDirectory(NodePath.dirname(absolute), { recursive: true }).pipe(mapError)
      const bytes = new TextEncoder().encode(input.content)
      yield* writeFileAtomic(fs, absolute, bytes).pipe(mapError)
      yield* fileState.recordWrite(absolute, stampOf(yield* fs.stat(absolute).pipe(mapError)), { hash: contentHash(bytes) })
      return Tool.result(`File created successfully at: ${absolute}${note}`, {
        type: "create",
        filePath: absolute,
        content: input.content
      })
    }

    if (existing.type === "Directory") {
      return yield* failed(`${absolute} is a directory; give the path of a file to write.`)
    }
    if (existing.type !== "File") {
      return yield* failed(`${absolute} is not a regular file (${existing.type}); Write only writes regular files.`)
    }
    yield* requireFreshRead(toolName, absolute, stampOf(existing))

    // Through a symlink, replace the file it points to, not the link.
    const target = yield* fs.realPath(absolute).pipe(mapError)
    // The old text is only needed to keep CRLF endings and to show what changed; a huge file skips both.
    const before =
      Number(existing.size) <= maxEditableBytes ? yield* fs.readFileString(target).pipe(mapError) : undefined
    const content =
      before !== undefined && usesCrlf(before) && !input.content.includes("\r\n")
        ? input.content.replaceAll("\n", "\r\n")
        : input.content
    const bytes = new TextEncoder().encode(content)
    yield* writeFileAtomic(fs, target, bytes, existing.mode).pipe(mapError)
    yield* fileState.recordWrite(absolute, stampOf(yield* fs.stat(absolute).pipe(mapError)), { hash: contentHash(bytes) })

    const range = before === undefined ? { first: 1, last: 1 } : changedLineRange(before, content)
    return Tool.result(
      `The file ${absolute} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${boundedSnippet(content, range.first, range.last)}${note}`,
      { type: "update", filePath: absolute, content: input.content }
    )
  })
})
