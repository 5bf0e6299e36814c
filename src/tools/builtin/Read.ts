/**
 * Read {file_path, offset?, limit?}: Claude Code's Read. Text comes back numbered as `cat -n` prints it (the line
 * number right-aligned in 6 columns, a tab, the line); images and PDFs come back as content blocks. The file is
 * streamed: only the bytes up to the last returned line are read, and at most `maxLineLength` characters of any
 * line are ever held, so a 1 GB file (or a 1 GB single line) costs a few chunks of memory. The encoding (UTF-8,
 * UTF-16LE, Latin-1; see TextEncoding) is detected from the first chunk. Reads are tracked by real path.
 *
 * Also home to the small helpers Write, Edit and NotebookEdit share (path resolution, numbering, error text).
 */
import * as FileSystem from "effect/FileSystem"
import type { PlatformError } from "effect/PlatformError"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import type { DocumentBlock, ImageBlock } from "../../domain/Content.js"
import { contentHash, FileState, makeContentHasher, stampOf } from "../FileState.js"
import { detectEncoding, makeDecoder, utf8 } from "../TextEncoding.js"
import * as Tool from "../Tool.js"

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers (Write, Edit, NotebookEdit)

/**
 * The absolute path for a `file_path` as the model sent it. Claude Code asks for absolute paths; a relative one
 * is resolved against the session's working directory (and the tools tell the model which path they used), `~`
 * against the home directory.
 */
export const resolveFilePath = (filePath: string, cwd: string): string => {
  const trimmed = filePath.trim()
  if (trimmed === "~") return NodeOs.homedir()
  if (trimmed.startsWith("~/")) return NodePath.join(NodeOs.homedir(), trimmed.slice(2))
  return NodePath.resolve(cwd, trimmed)
}

export const isAbsoluteInput = (filePath: string): boolean => {
  const trimmed = filePath.trim()
  return NodePath.isAbsolute(trimmed) || trimmed === "~" || trimmed.startsWith("~/")
}

/** A note for the model when it sent a relative path, so it learns the absolute one. */
export const relativePathNote = (filePath: string, absolute: string): string =>
  isAbsoluteInput(filePath)
    ? ""
    : `\n\n<system-reminder>file_path should be an absolute path; "${filePath}" was resolved to ${absolute}.</system-reminder>`

/** Longest line shown; the rest of a longer line is cut (and the output says so). */
export const maxLineLength = 2000

/** One numbered line as `cat -n` prints it: the number right-aligned in 6 columns, a tab, the text. */
export const numberLine = (lineNumber: number, text: string): string => `${String(lineNumber).padStart(6)}\t${text}`

/** Numbered lines starting at `firstLineNumber`, long lines cut at `maxLineLength`. */
export const numberLines = (lines: ReadonlyArray<string>, firstLineNumber: number): string =>
  lines.map((line, index) => numberLine(firstLineNumber + index, line.slice(0, maxLineLength))).join("\n")

/** Splits text into lines as the Read tool shows them (`\n` or `\r\n`; a final newline ends the last line). */
export const splitLines = (text: string): Array<string> => {
  const lines = text.split(/\r?\n/)
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop()
  return lines
}

/** Lines of context shown before and after a change in Write/Edit results. */
export const snippetContext = 4

/**
 * The `cat -n` snippet of `text` covering lines `firstChanged`..`lastChanged` (1-based) with `snippetContext`
 * lines either side: what Claude Code shows after an edit.
 */
export const snippet = (text: string, firstChanged: number, lastChanged: number): string => {
  const lines = splitLines(text)
  const start = Math.max(1, firstChanged - snippetContext)
  const end = Math.min(lines.length, Math.max(lastChanged, firstChanged) + snippetContext)
  return numberLines(lines.slice(start - 1, end), start)
}

/**
 * The real path of `path` (symbolic links resolved), which FileState tracks files by, so a file read through a
 * link and edited by its real path (or the other way round) is one file. `path` itself when it cannot be resolved.
 */
export const realPathOf = (fs: FileSystem.FileSystem, path: string) =>
  fs.realPath(path).pipe(Effect.orElseSucceed(() => path))

/** True when the failure is "no such file or directory". */
export const isNotFound = (error: PlatformError): boolean => error.reason._tag === "NotFound"

/** A model-facing message for a file-system failure on `path`. */
export const describePlatformError = (error: PlatformError, path: string): string => {
  const reason = error.reason
  switch (reason._tag) {
    case "NotFound":
      return `File does not exist: ${path}`
    case "PermissionDenied":
      return `Permission denied: ${path}. weft cannot access this file; ask the user to change its permissions if it is needed.`
    case "BadResource":
      return `Cannot access ${path}: ${reason.description ?? "not a regular file"}`
    case "AlreadyExists":
      return `${path} already exists.`
    case "BadArgument":
      return `Cannot access ${path}: ${reason.message}`
    default:
      return `Cannot access ${path}: ${reason.description ?? reason.message}`
  }
}

/** A platform error as a ToolFailed naming `path`, of kind not_found when there is no such file. */
export const platformFailure = (tool: string, error: PlatformError, path: string): Tool.ToolFailed =>
  Tool.fail(tool, describePlatformError(error, path), isNotFound(error) ? "not_found" : undefined)

/**
 * What every file tool starts with: the services, the absolute path (and a note for the model when it gave a
 * relative one), and a mapping of platform errors to a ToolFailed naming that path.
 */
export const fileCall = (tool: string, filePath: string, cwd: string) =>
  Effect.gen(function* () {
    const absolute = resolveFilePath(filePath, cwd)
    return {
      fs: yield* FileSystem.FileSystem,
      fileState: yield* FileState,
      absolute,
      note: relativePathNote(filePath, absolute),
      mapError: Effect.mapError((error: PlatformError) => platformFailure(tool, error, absolute))
    }
  })

// ---------------------------------------------------------------------------------------------------------------
// Read

export const defaultLineLimit = 2000
/** Bound on the text one Read returns (~64k tokens); past it the output stops at a whole line and says how to go on. */
export const maxOutputChars = 256_000
/**
 * Bound on an image's raw size: the API refuses base64 images over 5 MB, and base64 grows data by 4/3. (Claude
 * Code resizes larger images; weft has no image codec, so it asks the model to make a smaller copy.)
 */
export const maxImageBytes = 3_932_160
/** Bound on a PDF's raw size (the API caps a whole request at 32 MB, after base64). */
export const maxPdfBytes = 10 * 1024 * 1024
/** Bytes read per step while streaming a text file. */
const chunkBytes = 64 * 1024
/** A NUL byte in this many leading bytes marks a file as binary. */
const binarySniffBytes = 8192

const imageMediaTypes: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp"
}

/** Extensions refused outright: their bytes mean nothing to the model as text. */
const binaryExtensions = new Set(
  (
    ".zip .tar .gz .tgz .bz2 .xz .zst .7z .rar .jar .war .ear .exe .dll .so .dylib .bin .o .a .lib .obj .class " +
    ".pyc .pyo .wasm .node .mp3 .mp4 .m4a .m4v .mov .avi .mkv .wav .flac .ogg .oga .webm .aac .wma .wmv .flv " +
    ".ico .bmp .tif .tiff .psd .heic .avif .ttf .otf .woff .woff2 .eot .doc .docx .xls .xlsx .ppt .pptx .odt " +
    ".ods .odp .sqlite .sqlite3 .db .iso .dmg .pkg .deb .rpm .msi .apk .ipa .parquet .avro .orc .pkl .pickle " +
    ".npy .npz .pt .pth .onnx .h5 .hdf5 .safetensors .ckpt .tflite .mo .swf .fla .blend .fbx .3ds .lockb"
  ).split(" ")
)

/** The real media type of image bytes, from their magic numbers (an extension can lie). */
const sniffImage = (bytes: Uint8Array): string | undefined => {
  const at = (index: number) => bytes[index] ?? -1
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return "image/png"
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg"
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return "image/gif"
  if (at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46) {
    if (at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50) return "image/webp"
  }
  return undefined
}

const formatSize = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`

/**
 * Accumulates the lines `first`..`last` (1-based) of text fed in decoded pieces. Lines before `first` are only
 * counted; of a kept line at most `maxLineLength` characters are held, so memory stays bounded whatever the file.
 */
class LineWindow {
  /** Number of the line currently being read. */
  lineNumber = 1
  readonly lines: Array<string> = []
  readonly cutLines: Array<number> = []
  outputChars = 0
  /** Set when the window is full (or the output bound was reached): nothing more is needed. */
  done = false
  outputCapped = false
  /** Set when text remained after the window filled, i.e. the file has more lines than returned. */
  moreAfter = false
  private current = ""
  private currentLength = 0
  private endsWithCarriageReturn = false
  private sawCharacterInLine = false

  constructor(
    readonly first: number,
    readonly last: number
  ) {}

  private get keeping(): boolean {
    return this.lineNumber >= this.first && this.lineNumber <= this.last
  }

  push(text: string): void {
    let position = 0
    while (position < text.length) {
      if (this.done) {
        this.moreAfter = true
        return
      }
      const newline = text.indexOf("\n", position)
      const end = newline === -1 ? text.length : newline
      if (end > position) {
        this.sawCharacterInLine = true
        if (this.keeping) {
          if (this.current.length <= maxLineLength) {
            this.current += text.slice(position, Math.min(end, position + maxLineLength + 1 - this.current.length))
          }
          this.currentLength += end - position
          this.endsWithCarriageReturn = text.charCodeAt(end - 1) === 13
        }
      }
      if (newline === -1) return
      this.finishLine()
      position = newline + 1
    }
  }

  /** End of file: a last line without a final newline still counts. */
  end(): void {
    if (!this.done && this.sawCharacterInLine) this.finishLine()
  }

  /** Lines seen so far (at end of file: the file's line count). */
  get linesSeen(): number {
    return this.lineNumber - 1
  }

  private finishLine(): void {
    if (this.keeping) {
      const visibleLength = this.currentLength - (this.endsWithCarriageReturn ? 1 : 0)
      let text = this.current
      if (visibleLength > maxLineLength) {
        text = text.slice(0, maxLineLength)
        this.cutLines.push(this.lineNumber)
      } else if (this.endsWithCarriageReturn) {
        text = text.slice(0, -1)
      }
      const rendered = numberLine(this.lineNumber, text)
      if (this.lines.length > 0 && this.outputChars + rendered.length + 1 > maxOutputChars) {
        this.done = true
        this.outputCapped = true
        this.moreAfter = true
        return
      }
      this.lines.push(text)
      this.outputChars += rendered.length + 1
      if (this.lineNumber >= this.last) this.done = true
    }
    this.lineNumber += 1
    this.current = ""
    this.currentLength = 0
    this.endsWithCarriageReturn = false
    this.sawCharacterInLine = false
  }
}

const ReadInput = Schema.Struct({
  file_path: Schema.String.annotate({ description: "The absolute path to the file to read" }),
  offset: Schema.optional(
    Tool.integerField("The line number to start reading from. Only provide if the file is too large to read at once", 0)
  ),
  limit: Schema.optional(
    Tool.integerField("The number of lines to read. Only provide if the file is too large to read at once.", 1)
  )
})
export type ReadInput = typeof ReadInput.Type

const description = `Reads a file from the local filesystem. You can access any file directly by using this tool.
Assume this tool is able to read all files on the machine. If the User provides a path to a file assume that path is valid. It is okay to read a file that does not exist; an error will be returned.

Usage:
- The file_path parameter must be an absolute path, not a relative path
- By default, it reads up to ${defaultLineLimit} lines starting from the beginning of the file
- You can optionally specify a line offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters
- Any lines longer than ${maxLineLength} characters will be truncated
- Results are returned using cat -n format, with line numbers starting at 1
- This tool allows you to read images (eg PNG, JPG, GIF, WebP). When reading an image file the contents are presented visually, as you are a multimodal LLM.
- This tool can read PDF files (.pdf). PDFs are processed page by page, extracting both text and visual content for analysis.
- This tool can only read files, not directories. To read a directory, use an ls command via the Bash tool.
- You have the capability to call multiple tools in a single response. It is always better to speculatively read multiple files as a batch that are potentially useful.
- If you read a file that exists but has empty contents you will receive a system reminder warning in place of file contents.`

const toolName = "Read"
const failed = (message: string) => Tool.fail(toolName, message)

/** Names in `directory` that look like `missing` (same stem, or a near miss): a cheap "did you mean". */
const similarNames = (fs: FileSystem.FileSystem, absolute: string) =>
  Effect.gen(function* () {
    const directory = NodePath.dirname(absolute)
    const wanted = NodePath.basename(absolute).toLowerCase()
    const wantedStem = stem(wanted)
    const entries = yield* fs.readDirectory(directory)
    // Bounded: a huge directory is not worth scanning for a hint.
    const candidates = entries.slice(0, 2000).filter((entry) => {
      const name = entry.toLowerCase()
      return name !== wanted && (stem(name) === wantedStem || editDistanceAtMost(name, wanted, 2))
    })
    return candidates.slice(0, 3).map((entry) => NodePath.join(directory, entry))
  }).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))

const stem = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot > 0 ? name.slice(0, dot) : name
}

const editDistanceAtMost = (a: string, b: string, bound: number): boolean => {
  if (Math.abs(a.length - b.length) > bound) return false
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      row.push(value)
      best = Math.min(best, value)
    }
    if (best > bound) return false
    previous = row
  }
  return (previous[b.length] ?? bound + 1) <= bound
}

/** The model-facing "file does not exist" message, with near-miss names when there are any. */
export const fileNotFoundMessage = (fs: FileSystem.FileSystem, absolute: string, cwd: string) =>
  Effect.map(similarNames(fs, absolute), (similar) => {
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(" or ")}?` : ""
    return `File does not exist: ${absolute}.${hint} Current working directory: ${cwd}`
  })

const readText = (
  fs: FileSystem.FileSystem,
  absolute: string,
  extension: string,
  fileSize: number,
  first: number,
  last: number
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const file = yield* fs.open(absolute, { flag: "r" })
      // Replaced once the first chunk shows the encoding.
      let decoder = makeDecoder(utf8)
      const window = new LineWindow(first, last)
      // Hashed as read; the hash is only kept when every byte was read (see below).
      const hasher = makeContentHasher()
      const buffer = new Uint8Array(chunkBytes)
      let firstChunk = true
      while (!window.done) {
        const size = Number(yield* file.read(buffer))
        if (size === 0) break
        const bytes = buffer.subarray(0, size)
        hasher.update(bytes)
        if (firstChunk) {
          firstChunk = false
          // The encoding is judged from the first chunk (as Claude Code does), so a huge file is never held whole.
          const encoding = detectEncoding(bytes, size >= fileSize)
          decoder = makeDecoder(encoding)
          // UTF-16 text is full of NUL bytes; its byte-order mark says it is text.
          if (encoding.charset !== "utf16le" && bytes.subarray(0, binarySniffBytes).includes(0)) {
            return yield* failed(
              `${absolute} appears to be a binary file${extension ? ` (${extension})` : ""}; Read only shows text, images and PDFs. Use Bash (e.g. \`file\`, \`xxd | head\`) to inspect it.`
            )
          }
        }
        window.push(decoder.decode(bytes))
      }
      if (!window.done) {
        window.push(decoder.end())
        window.end()
      } else if (!window.moreAfter) {
        // The window filled exactly at a chunk boundary: peek one byte to learn whether more lines follow.
        const peek = new Uint8Array(1)
        window.moreAfter = Number(yield* file.read(peek)) > 0
      }
      return { window, hash: window.moreAfter ? undefined : hasher.digest() }
    })
  )

const readBinaryBlock = (fs: FileSystem.FileSystem, absolute: string) =>
  fs.readFile(absolute).pipe(Effect.mapError((error) => platformFailure(toolName, error, absolute)))

interface TextData {
  readonly type: "text"
  readonly filePath: string
  readonly numLines: number
  readonly startLine: number
  readonly totalLines: number | undefined
}

/**
 * A text result, with Claude Code's `tool_response` for it: `{type: "text", file: {filePath, content, numLines,
 * startLine, totalLines}}`, `content` the lines shown without their numbers (`totalLines` is left out when the read
 * stopped before the end, where weft has not counted them).
 */
const textResult = (text: string, data: TextData, content: string): Tool.ToolResult => {
  const { filePath, numLines, startLine, totalLines } = data
  return Tool.withResponse(Tool.result(text, data), {
    type: "text",
    file: { filePath, content, numLines, startLine, ...(totalLines === undefined ? {} : { totalLines }) }
  })
}

export const ReadTool = Tool.fromEffect({
  name: toolName,
  description,
  input: ReadInput,
  readOnly: true,
  target: (input, context) => ({ _tag: "Path", path: resolveFilePath(input.file_path, context.cwd), access: "read" }),
  run: Effect.fn("Read.run")(function* (input: ReadInput, context: Tool.ToolContext) {
    const fs = yield* FileSystem.FileSystem
    const fileState = yield* FileState
    const absolute = resolveFilePath(input.file_path, context.cwd)
    const note = relativePathNote(input.file_path, absolute)
    const info = yield* fs.stat(absolute).pipe(
      Effect.catch((error) =>
        isNotFound(error)
          ? Effect.flatMap(fileNotFoundMessage(fs, absolute, context.cwd), (message) =>
              Effect.fail(Tool.fail(toolName, message, "not_found"))
            )
          : Effect.fail(platformFailure(toolName, error, absolute))
      )
    )
    if (info.type === "Directory") {
      return yield* failed(`${absolute} is a directory, not a file. Use Bash \`ls\` or the Glob tool to list its contents.`)
    }
    if (info.type !== "File") {
      return yield* failed(`${absolute} is not a regular file (${info.type}); Read only reads regular files.`)
    }
    const stamp = stampOf(info)
    const size = stamp.size
    const real = yield* realPathOf(fs, absolute)
    const extension = NodePath.extname(absolute).toLowerCase()

    if (extension in imageMediaTypes) {
      if (size > maxImageBytes) {
        return yield* failed(
          `Image ${absolute} is ${formatSize(size)}; the limit is ${formatSize(maxImageBytes)}. Make a smaller copy (e.g. with Bash: \`convert in.png -resize 50% /tmp/small.png\` or \`sips -Z 1600\`) and Read that.`
        )
      }
      const bytes = yield* readBinaryBlock(fs, absolute)
      const mediaType = sniffImage(bytes)
      if (mediaType === undefined) {
        return yield* failed(`${absolute} has an image extension but is not a PNG, JPEG, GIF or WebP image.`)
      }
      yield* fileState.recordRead(real, stamp, { hash: contentHash(bytes) })
      const base64 = Buffer.from(bytes).toString("base64")
      const block: ImageBlock = { type: "image", source: { type: "base64", media_type: mediaType, data: base64 } }
      return Tool.withResponse(Tool.result([block], { type: "image", filePath: absolute, mediaType, size }), {
        type: "image",
        file: { base64, type: mediaType, originalSize: size }
      })
    }

    if (extension === ".pdf") {
      if (size > maxPdfBytes) {
        return yield* failed(
          `PDF ${absolute} is ${formatSize(size)}; the limit is ${formatSize(maxPdfBytes)}. Extract the pages you need (e.g. with Bash: \`pdftotext\` or \`qpdf --pages\`) and Read the result.`
        )
      }
      const bytes = yield* readBinaryBlock(fs, absolute)
      yield* fileState.recordRead(real, stamp, { hash: contentHash(bytes) })
      const base64 = Buffer.from(bytes).toString("base64")
      const block: DocumentBlock = { type: "document", source: { type: "base64", media_type: "application/pdf", data: base64 } }
      return Tool.withResponse(Tool.result([block], { type: "pdf", filePath: absolute, size }), {
        type: "pdf",
        file: { filePath: absolute, base64, originalSize: size }
      })
    }

    if (binaryExtensions.has(extension)) {
      return yield* failed(
        `${absolute} is a binary file (${extension}); Read only shows text, images and PDFs. Use Bash to inspect it (e.g. \`file\`, \`unzip -l\`, \`tar tf\`).`
      )
    }

    if (size === 0) {
      yield* fileState.recordRead(real, stamp, { hash: contentHash(new Uint8Array(0)) })
      return textResult(
        `<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>${note}`,
        { type: "text", filePath: absolute, numLines: 0, startLine: 1, totalLines: 0 },
        ""
      )
    }

    // offset is the 1-based line to start at (0, as some models send, means the start).
    const first = Math.max(1, input.offset ?? 1)
    const limit = input.limit ?? defaultLineLimit
    const last = first + limit - 1
    const { window, hash } = yield* readText(fs, absolute, extension, size, first, last).pipe(
      Effect.catchTag("PlatformError", (error) => Effect.fail(failed(describePlatformError(error, absolute))))
    )

    if (window.lines.length === 0) {
      // Past the end: the whole file was scanned, so its line count is known.
      yield* fileState.recordRead(real, stamp, hash === undefined ? { partial: true } : { partial: true, hash })
      return textResult(
        `<system-reminder>Warning: the file exists but is shorter than the provided offset (${first}). The file has ${window.linesSeen} lines.</system-reminder>${note}`,
        { type: "text", filePath: absolute, numLines: 0, startLine: first, totalLines: window.linesSeen },
        ""
      )
    }

    const partial = first > 1 || window.moreAfter || window.cutLines.length > 0
    yield* fileState.recordRead(real, stamp, hash === undefined ? { partial } : { partial, hash })
    const lastShown = first + window.lines.length - 1
    const notes: Array<string> = []
    if (window.cutLines.length > 0) {
      const shown = window.cutLines.slice(0, 10).join(", ")
      const more = window.cutLines.length > 10 ? ` and ${window.cutLines.length - 10} more` : ""
      notes.push(
        `Line${window.cutLines.length > 1 ? "s" : ""} ${shown}${more} ${window.cutLines.length > 1 ? "were" : "was"} longer than ${maxLineLength} characters and ${window.cutLines.length > 1 ? "were" : "was"} cut; use Bash (e.g. \`cut -c\` or \`fold\`) to see the rest.`
      )
    }
    if (window.outputCapped) {
      notes.push(
        `Output stopped at line ${lastShown} to stay under ${maxOutputChars} characters. Call Read with offset=${lastShown + 1} (and a smaller limit) to continue.`
      )
    } else if (window.moreAfter) {
      notes.push(`The file has more lines after line ${lastShown}. Call Read with offset=${lastShown + 1} to continue.`)
    }
    const body = numberLines(window.lines, first)
    const reminder = notes.length > 0 ? `\n\n<system-reminder>${notes.join(" ")}</system-reminder>` : ""
    return textResult(
      `${body}${reminder}${note}`,
      {
        type: "text",
        filePath: absolute,
        numLines: window.lines.length,
        startLine: first,
        totalLines: window.moreAfter ? undefined : window.linesSeen
      },
      window.lines.join("\n")
    )
  })
})
