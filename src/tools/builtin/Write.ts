/**
 * Write {file_path, content}: Claude Code's Write. A new file needs nothing; an existing one must have been Read
 * this session and be unchanged since (FileState), so the model never clobbers what it has not seen. Parent
 * directories are created. The write is atomic-ish: a temp file in the same directory, fsynced, then renamed over
 * the target, so a crash leaves either the old file or the new one, never half of one.
 *
 * An existing file keeps its encoding and byte-order mark (TextEncoding); a new one is UTF-8. Through a symbolic
 * link (even a dangling one) the file it names is written, and the link stays.
 *
 * Also exports the pieces Edit and NotebookEdit share: `writeFileAtomic`, `requireFreshRead`, `createFile`,
 * `readTextFile`, `recordWritten`.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as PlatformError from "effect/PlatformError"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { contentHash, type FileStamp, FileState, stampOf } from "../FileState.js"
import {
  decodeFile,
  describeEncoding,
  detectEncoding,
  encodeText,
  firstUnencodable,
  type TextEncoding,
  utf8
} from "../TextEncoding.js"
import { structuredPatch } from "../StructuredPatch.js"
import * as Tool from "../Tool.js"
import { fileCall, isNotFound, realPathOf, resolveFilePath, snippet, splitLines } from "./Read.js"

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
) =>
  Effect.flatMap(Effect.all([Clock.currentTimeMillis, Random.next]), ([now, draw]) => {
    const temp = NodePath.join(
      NodePath.dirname(target),
      `.${NodePath.basename(target)}.weft-${now.toString(36)}${draw.toString(36).slice(2, 8)}.tmp`
    )
    const write = Effect.scoped(
      Effect.gen(function* () {
        const file = yield* fs.open(temp, { flag: "wx", mode: mode ?? 0o666 })
        // An empty file is a file: writeAll of no bytes fails ("write returned 0 bytes written"), so skip it.
        if (data.length > 0) yield* file.writeAll(data)
        yield* file.sync
      })
    ).pipe(
      Effect.andThen(mode === undefined ? Effect.void : fs.chmod(temp, mode & 0o7777)),
      Effect.andThen(fs.rename(temp, target))
    )
    return write.pipe(Effect.onError(() => Effect.ignore(fs.remove(temp))))
  })

/** The file's info, or undefined when there is no such file (other errors pass through). */
export const statIfExists = (fs: FileSystem.FileSystem, path: string) =>
  fs.stat(path).pipe(
    Effect.catchIf(isNotFound, () => Effect.succeed(undefined))
  )

/** Bound on a chain of symbolic links followed by `writeTarget` (Linux's own bound). */
const maxSymlinkHops = 40

/**
 * The path a write to `path` lands on: `path` itself, or through a symbolic link (even a dangling one, which a
 * rename would replace) the file it names, so the link stays a link.
 */
export const writeTarget = (fs: FileSystem.FileSystem, path: string) =>
  Effect.gen(function* () {
    let current = path
    for (let hop = 0; hop < maxSymlinkHops; hop++) {
      const link = yield* fs.readLink(current).pipe(Effect.option)
      if (link._tag === "None") return current
      // A relative link is relative to the (real) directory holding it.
      const directory = yield* realPathOf(fs, NodePath.dirname(current))
      current = NodePath.resolve(directory, link.value)
    }
    return yield* Effect.fail(
      PlatformError.systemError({
        _tag: "BadResource",
        module: "FileSystem",
        method: "writeTarget",
        pathOrDescriptor: path,
        description: `more than ${maxSymlinkHops} symbolic links in a row (a loop?); give the real path`
      })
    )
  })

/** weft wrote `bytes` to `target`: record it under its real path, as if the model had read it whole. */
export const recordWritten = (fs: FileSystem.FileSystem, target: string, bytes: Uint8Array) =>
  Effect.gen(function* () {
    const fileState = yield* FileState
    const real = yield* realPathOf(fs, target)
    yield* fileState.recordWrite(real, stampOf(yield* fs.stat(real)), { hash: contentHash(bytes) })
  })

/**
 * Creates the file `absolute` names (through a dangling symbolic link, its target) with `text` as UTF-8, making
 * parent directories. Returns the path written.
 */
export const createFile = (fs: FileSystem.FileSystem, absolute: string, text: string) =>
  Effect.gen(function* () {
    const target = yield* writeTarget(fs, absolute)
    yield* fs.makeDirectory(NodePath.dirname(target), { recursive: true })
    const bytes = encodeText(text, utf8)
    yield* writeFileAtomic(fs, target, bytes)
    yield* recordWritten(fs, target, bytes)
    return target
  })

/** "File created successfully at: ...", naming the link's target when the write went through one. */
export const createdMessage = (absolute: string, target: string): string =>
  `File created successfully at: ${absolute}${target === absolute ? "" : ` (through the symbolic link, at ${target})`}`

/** Reads and decodes a whole file (see TextEncoding). */
export const readTextFile = (fs: FileSystem.FileSystem, path: string) => Effect.map(fs.readFile(path), decodeFile)

/**
 * The message for text that the file's encoding cannot hold (a Latin-1 file, as a file that is not valid UTF-8
 * is taken to be, so that its bytes survive the edit), or undefined when it can.
 */
export const unencodableMessage = (text: string, encoding: TextEncoding, what: string): string | undefined => {
  const character = firstUnencodable(text, encoding)
  if (character === undefined) return undefined
  const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`
  return `The file is not valid UTF-8, so it is treated as ${describeEncoding(encoding)} (one byte per character) to keep its bytes, and ${what} has a character Latin-1 cannot hold: "${character}" (${code}). Use only characters up to U+00FF (or an escape the file's language understands), or convert the file to UTF-8 first (e.g. with Bash: \`iconv -f latin1 -t utf-8\`).`
}

/** The encoding of an existing file from its first bytes, for a file too large to load whole. */
const encodingOfHead = (fs: FileSystem.FileSystem, path: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const file = yield* fs.open(path, { flag: "r" })
      const head = new Uint8Array(64 * 1024)
      const size = Number(yield* file.read(head))
      return detectEncoding(head.subarray(0, size), false)
    })
  )

/**
 * Fails unless the model has read the file this session and it has not changed since (messages as Claude
 * Code's). The file is known by its real path (`real`), so reading it through a symbolic link counts.
 */
export const requireFreshRead = (
  tool: string,
  file: { readonly absolute: string; readonly real: string },
  current: FileStamp
) =>
  Effect.gen(function* () {
    const fileState = yield* FileState
    const check = yield* fileState.check(file.real, current)
    switch (check._tag) {
      case "Ok":
        return
      case "Changed": {
        // Touched but not changed (same bytes as the model saw whole): still fresh; remember the new stamp.
        const seen = check.record.hash
        if (seen !== undefined && current.size === check.record.size) {
          const fs = yield* FileSystem.FileSystem
          const bytes = yield* fs.readFile(file.real).pipe(Effect.option)
          if (bytes._tag === "Some" && contentHash(bytes.value) === seen) {
            return yield* fileState.recordRead(file.real, current, { partial: check.record.partial, hash: seen })
          }
        }
        return yield* Tool.fail(
          tool,
          `File has been modified since read, either by the user or by a linter. Read it again before attempting to write it. (${file.absolute})`,
          "stale"
        )
      }
      case "NeverRead":
        return yield* Tool.fail(
          tool,
          `File has not been read yet. Read it first before writing to it. (Use the Read tool on ${file.absolute}, then retry.)`,
          "not_read_first"
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
  file_path: Schema.String.annotate({
    description: "The absolute path to the file to write (must be absolute, not relative)"
  }),
  content: Schema.String.annotate({ description: "The content to write to the file" })
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
    const { fs, absolute, note, mapError } = yield* fileCall(toolName, input.file_path, context.cwd)

    const existing = yield* statIfExists(fs, absolute).pipe(mapError)

    if (existing === undefined) {
      const target = yield* createFile(fs, absolute, input.content).pipe(mapError)
      const data = { type: "create", filePath: absolute, content: input.content }
      // Claude Code's Write result, for PostToolUse hooks: a new file has no patch and no original.
      return Tool.withResponse(Tool.result(`${createdMessage(absolute, target)}${note}`, data), {
        ...data,
        structuredPatch: [],
        originalFile: null
      })
    }

    if (existing.type === "Directory") {
      return yield* failed(`${absolute} is a directory; give the path of a file to write.`)
    }
    if (existing.type !== "File") {
      return yield* failed(`${absolute} is not a regular file (${existing.type}); Write only writes regular files.`)
    }
    // Through a symlink, replace the file it points to, not the link; the read is tracked by that path too.
    const target = yield* fs.realPath(absolute).pipe(mapError)
    yield* requireFreshRead(toolName, { absolute, real: target }, stampOf(existing))

    // The old text keeps the file's encoding and CRLF endings and shows what changed; a huge file is only
    // sniffed for its encoding.
    const old =
      Number(existing.size) <= maxEditableBytes
        ? yield* readTextFile(fs, target).pipe(mapError)
        : { text: undefined, encoding: yield* encodingOfHead(fs, target).pipe(mapError) }
    const before = old.text
    const content =
      before !== undefined && usesCrlf(before) && !input.content.includes("\r\n")
        ? input.content.replaceAll("\n", "\r\n")
        : input.content
    // Nothing of the old file is kept, so content a Latin-1 file cannot hold is written as UTF-8 instead.
    const fitsEncoding = firstUnencodable(content, old.encoding) === undefined
    const encoding = fitsEncoding ? old.encoding : utf8
    const bytes = encodeText(content, encoding)
    yield* writeFileAtomic(fs, target, bytes, existing.mode).pipe(mapError)
    yield* recordWritten(fs, target, bytes).pipe(mapError)
    const encodingNote = fitsEncoding
      ? ""
      : `\n\nThe file was not valid UTF-8 (treated as Latin-1) and the new content has characters Latin-1 cannot hold, so it was written as UTF-8.`

    const range = before === undefined ? { first: 1, last: 1 } : changedLineRange(before, content)
    const data = { type: "update", filePath: absolute, content: input.content }
    // Claude Code's Write result: the hunks from the old text to the new (CRLF read as LF); a file too big to read
    // whole has no original here, nor a patch.
    const asLf = (text: string) => text.replaceAll("\r\n", "\n")
    return Tool.withResponse(
      Tool.result(
        `The file ${absolute} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${boundedSnippet(content, range.first, range.last)}${encodingNote}${note}`,
        data
      ),
      {
        ...data,
        structuredPatch: before === undefined ? [] : structuredPatch(asLf(before), asLf(content)),
        originalFile: before ?? null
      }
    )
  })
})
