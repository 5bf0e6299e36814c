/**
 * Edit {file_path, old_string, new_string, replace_all?}: Claude Code's Edit. Exact string replacement in a file
 * the model has Read and that has not changed since; `old_string` must be unique unless `replace_all`. Line
 * endings are kept: in a CRLF file the edit is matched on LF-normalised text (what Read showed) and written back
 * with CRLF. As in Claude Code, an empty `old_string` creates a file that does not exist yet (or fills an empty
 * one), deleting a whole line with an empty `new_string` takes its newline too, and curly quotes in the file
 * match straight quotes sent by the model.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { contentHash, stampOf } from "../FileState.js"
import * as Tool from "../Tool.js"
import { fileCall, fileNotFoundMessage, resolveFilePath } from "./Read.js"
import { boundedSnippet, maxEditableBytes, requireFreshRead, usesCrlf, writeFileAtomic, statIfExists } from "./Write.js"

const EditInput = Schema.Struct({
  file_path: Schema.String.annotations({ description: "The absolute path to the file to modify" }),
  old_string: Schema.String.annotations({ description: "The text to replace" }),
  new_string: Schema.String.annotations({
    description: "The text to replace it with (must be different from old_string)"
  }),
  replace_all: Schema.optional(
    Schema.Boolean.annotations({ description: "Replace all occurences of old_string (default false)", default: false })
  )
})
export type EditInput = typeof EditInput.Type

const description = `Performs exact string replacements in files.

Usage:
- You must use your \`Read\` tool at least once in the conversation before editing. This tool will error if you attempt an edit without reading the file.
- When editing text from Read tool output, ensure you preserve the exact indentation (tabs/spaces) as it appears AFTER the line number prefix. The line number prefix format is: spaces + line number + tab. Everything after that tab is the actual file content to match. Never include any part of the line number prefix in the old_string or new_string.
- ALWAYS prefer editing existing files in the codebase. NEVER write new files unless explicitly required.
- Only use emojis if the user explicitly requests it. Avoid adding emojis to files unless asked.
- The edit will FAIL if \`old_string\` is not unique in the file. Either provide a larger string with more surrounding context to make it unique or use \`replace_all\` to change every instance of \`old_string\`.
- Use \`replace_all\` for replacing and renaming strings across the file. This parameter is useful if you want to rename a variable for instance.`

const toolName = "Edit"
const failed = (message: string) => Tool.fail(toolName, message)

/** Occurrences of `needle` in `haystack`, non-overlapping, left to right (as a replace would take them). */
export const countOccurrences = (haystack: string, needle: string): number => {
  if (needle === "") return 0
  let count = 0
  let from = 0
  for (;;) {
    const index = haystack.indexOf(needle, from)
    if (index === -1) return count
    count++
    from = index + needle.length
  }
}

/** Curly quotes as straight ones; a one-for-one character map, so indices carry over between the two texts. */
const straightenQuotes = (text: string): string => text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"')

/**
 * The text in `content` that `oldString` designates: itself when present, else (Claude Code's fallback) the span
 * that matches once curly quotes are straightened.
 */
const locate = (content: string, oldString: string): string | undefined => {
  if (content.includes(oldString)) return oldString
  const index = straightenQuotes(content).indexOf(straightenQuotes(oldString))
  return index === -1 ? undefined : content.slice(index, index + oldString.length)
}

export interface Replacement {
  readonly result: string
  /** 1-based lines of the result that hold the (first) replacement. */
  readonly firstLine: number
  readonly lastLine: number
  readonly occurrences: number
}

export type ReplaceError =
  | { readonly _tag: "Identical" }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Ambiguous"; readonly occurrences: number }

/** The pure core of Edit on LF-or-raw text (no file system). */
export const replaceIn = (
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean
): Replacement | ReplaceError => {
  if (oldString === newString) return { _tag: "Identical" }
  let actualOld = locate(content, oldString)
  if (actualOld === undefined) return { _tag: "NotFound" }
  // Deleting whole lines: take the line break too, so no blank line is left behind.
  if (newString === "" && !actualOld.endsWith("\n") && content.includes(actualOld + "\n")) actualOld = actualOld + "\n"
  const occurrences = countOccurrences(content, actualOld)
  if (occurrences > 1 && !replaceAll) return { _tag: "Ambiguous", occurrences }
  const index = content.indexOf(actualOld)
  // split/join rather than String.replace: `$&` and friends in new_string must stay literal.
  const result = replaceAll
    ? content.split(actualOld).join(newString)
    : content.slice(0, index) + newString + content.slice(index + actualOld.length)
  const firstLine = countLines(content.slice(0, index))
  return { result, firstLine, lastLine: firstLine + countNewlines(newString), occurrences }
}

const countNewlines = (text: string): number => {
  let count = 0
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++
  return count
}
/** The 1-based number of the line on which text following `prefix` starts. */
const countLines = (prefix: string): number => countNewlines(prefix) + 1

export const EditTool = Tool.fromEffect({
  name: toolName,
  description,
  input: EditInput,
  target: (input, context) => ({ _tag: "Path", path: resolveFilePath(input.file_path, context.cwd), access: "write" }),
  run: Effect.fn("Edit.run")(function* (input: EditInput, context: Tool.ToolContext) {
    const { fs, fileState, absolute, note, mapError } = yield* fileCall(toolName, input.file_path, context.cwd)
    const replaceAll = input.replace_all ?? false

    if (input.old_string === input.new_string) {
      return yield* failed("No changes to make: old_string and new_string are exactly the same.")
    }

    const existing = yield* statIfExists(fs, absolute).pipe(mapError)

    if (existing === undefined) {
      if (input.old_string !== "") {
        const message = yield* fileNotFoundMessage(fs, absolute, context.cwd)
        return yield* failed(`${message}\nTo create a new file, use an empty old_string (or the Write tool).`)
      }
      yield* fs.makeDirectory(NodePath.dirname(absolute), { recursive: true }).pipe(mapError)
      const bytes = new TextEncoder().encode(input.new_string)
      yield* writeFileAtomic(fs, absolute, bytes).pipe(mapError)
      yield* fileState.recordWrite(absolute, stampOf(yield* fs.stat(absolute).pipe(mapError)), { hash: contentHash(bytes) })
      return Tool.result(`File created successfully at: ${absolute}${note}`, {
        type: "create",
        filePath: absolute
      })
    }

    if (existing.type === "Directory") {
      return yield* failed(`${absolute} is a directory; give the path of a file to edit.`)
    }
    if (existing.type !== "File") {
      return yield* failed(`${absolute} is not a regular file (${existing.type}); Edit only edits regular files.`)
    }
    if (NodePath.extname(absolute).toLowerCase() === ".ipynb") {
      return yield* failed("File is a Jupyter Notebook. Use the NotebookEdit tool to edit this file.")
    }
    if (Number(existing.size) > maxEditableBytes) {
      return yield* failed(
        `${absolute} is larger than ${maxEditableBytes / (1024 * 1024)} MB, too large for Edit. Use Bash (e.g. sed) to change it.`
      )
    }
    yield* requireFreshRead(toolName, absolute, stampOf(existing))

    const target = yield* fs.realPath(absolute).pipe(mapError)
    const raw = yield* fs.readFileString(target).pipe(mapError)

    if (input.old_string === "") {
      if (raw.trim() !== "") {
        return yield* failed(
          "Cannot create new file - file already exists. To change it, give the text to replace in old_string."
        )
      }
    }

    // A pure-CRLF file is edited as LF text (what Read showed) and written back CRLF. Otherwise the file is
    // matched as it is, and CRLF the model may have sent is taken as LF.
    const crlf = usesCrlf(raw)
    const content = crlf ? raw.replaceAll("\r\n", "\n") : raw
    const mixed = !crlf && raw.includes("\r\n")
    const normalise = (text: string) => (mixed ? text : text.replaceAll("\r\n", "\n"))
    const oldString = normalise(input.old_string)
    const newString = normalise(input.new_string)

    const replaced: Replacement | ReplaceError =
      oldString === "" ? { result: newString, firstLine: 1, lastLine: 1 + countNewlines(newString), occurrences: 1 } : replaceIn(content, oldString, newString, replaceAll)
    if ("_tag" in replaced) {
      switch (replaced._tag) {
        case "Identical":
          return yield* failed("No changes to make: old_string and new_string are exactly the same.")
        case "NotFound":
          return yield* failed(
            `String to replace not found in file.\nString: ${input.old_string}\nCheck whitespace and indentation against the file (Read it again if it may have changed).`
          )
        case "Ambiguous":
          return yield* failed(
            `Found ${replaced.occurrences} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${input.old_string}`
          )
      }
    }

    const output = crlf ? replaced.result.replaceAll("\n", "\r\n") : replaced.result
    const bytes = new TextEncoder().encode(output)
    yield* writeFileAtomic(fs, target, bytes, existing.mode).pipe(mapError)
    yield* fileState.recordWrite(absolute, stampOf(yield* fs.stat(absolute).pipe(mapError)), { hash: contentHash(bytes) })

    const data = { filePath: absolute, oldString: input.old_string, newString: input.new_string, replaceAll }
    if (replaceAll) {
      return Tool.result(
        `The file ${absolute} has been updated. All occurrences of '${input.old_string}' were successfully replaced with '${input.new_string}'.${note}`,
        { ...data, occurrences: replaced.occurrences }
      )
    }
    return Tool.result(
      `The file ${absolute} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${boundedSnippet(replaced.result, replaced.firstLine, replaced.lastLine)}${note}`,
      { ...data, occurrences: replaced.occurrences }
    )
  })
})
