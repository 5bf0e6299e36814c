/**
 * Edit {file_path, old_string, new_string, replace_all?}: Claude Code's Edit. Exact string replacement in a file
 * the model has Read and that has not changed since; `old_string` must be unique unless `replace_all`. Line
 * endings are kept: in a CRLF file the edit is matched on LF-normalised text (what Read showed) and written back
 * with CRLF; in a mixed file a "\n" of `old_string` may match "\r\n" when nothing matches literally. The file's
 * encoding and byte-order mark are kept (TextEncoding). As in Claude Code, an empty `old_string` creates a file
 * that does not exist yet (or fills an empty one), deleting whole lines with an empty `new_string` takes their
 * line break too, and curly quotes in the file match straight quotes sent by the model.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { stampOf } from "../FileState.js"
import { structuredPatch } from "../StructuredPatch.js"
import { encodeText } from "../TextEncoding.js"
import * as Tool from "../Tool.js"
import { fileCall, fileNotFoundMessage, resolveFilePath } from "./Read.js"
import {
  boundedSnippet,
  createdMessage,
  createFile,
  maxEditableBytes,
  readTextFile,
  recordWritten,
  requireFreshRead,
  statIfExists,
  unencodableMessage,
  usesCrlf,
  writeFileAtomic
} from "./Write.js"

const EditInput = Schema.Struct({
  file_path: Schema.String.annotate({ description: "The absolute path to the file to modify" }),
  old_string: Schema.String.annotate({ description: "The text to replace" }),
  new_string: Schema.String.annotate({
    description: "The text to replace it with (must be different from old_string)"
  }),
  replace_all: Schema.optional(
    Schema.Boolean.annotate({ description: "Replace all occurences of old_string (default false)", default: false })
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

/** Curly quotes as straight ones; a one-for-one character map, so indices carry over between the two texts. */
const straightenQuotes = (text: string): string => text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"')

/** Where a match starts in the content and how long it is there. */
interface Match {
  readonly index: number
  readonly length: number
}

/** Non-overlapping occurrences of `needle` in `haystack`, left to right (as a replace would take them). */
const literalMatches = (haystack: string, needle: string): Array<Match> => {
  const matches: Array<Match> = []
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    matches.push({ index, length: needle.length })
  }
  return matches
}

/** As `literalMatches`, but each "\n" of `needle` may be "\r\n" in `haystack` (a file with mixed line endings). */
const flexibleNewlineMatches = (haystack: string, needle: string): Array<Match> => {
  const pattern = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("\n", "\\r?\\n")
  return Array.from(haystack.matchAll(new RegExp(pattern, "g")), (match) => ({ index: match.index, length: match[0].length }))
}

/**
 * The spans of `content` that `oldString` designates: its literal occurrences; failing those (Claude Code's
 * fallback) the spans that match once curly quotes are straightened; failing those, when the file has CRLF line
 * endings that Read did not show, the spans where each "\n" of `oldString` is "\n" or "\r\n".
 */
const findMatches = (content: string, oldString: string): Array<Match> => {
  if (oldString === "") return []
  const literal = literalMatches(content, oldString)
  if (literal.length > 0) return literal
  const straight = straightenQuotes(content)
  const straightOld = straightenQuotes(oldString)
  const quoted = literalMatches(straight, straightOld)
  if (quoted.length > 0 || !oldString.includes("\n") || !content.includes("\r\n")) return quoted
  const flexible = flexibleNewlineMatches(content, oldString)
  return flexible.length > 0 ? flexible : flexibleNewlineMatches(straight, straightOld)
}

/**
 * The length of the line break to delete along with a match that is being deleted: one only when the match
 * covers whole lines (starts a line, is followed by a line ending), so no blank line is left and no lines merge.
 */
const wholeLineBreak = (content: string, match: Match): number => {
  const end = match.index + match.length
  if (content[end - 1] === "\n") return 0
  if (match.index > 0 && content[match.index - 1] !== "\n") return 0
  if (content.startsWith("\r\n", end)) return 2
  return content[end] === "\n" ? 1 : 0
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
  const matches = findMatches(content, oldString)
  const first = matches[0]
  if (first === undefined) return { _tag: "NotFound" }
  if (matches.length > 1 && !replaceAll) return { _tag: "Ambiguous", occurrences: matches.length }
  let result = ""
  let cursor = 0
  let firstReplacement = newString
  for (const match of replaceAll ? matches : [first]) {
    const matched = content.slice(match.index, match.index + match.length)
    // A match that spans lines is written back with the line ending it had (CRLF in a mixed file).
    const lineEnding = /\r?\n/.exec(matched)?.[0]
    const replacement = lineEnding === undefined ? newString : newString.replace(/\r?\n/g, lineEnding)
    if (match === first) firstReplacement = replacement
    const end = match.index + match.length + (newString === "" ? wholeLineBreak(content, match) : 0)
    // Concatenation rather than String.replace: `$&` and friends in new_string must stay literal.
    result += content.slice(cursor, match.index) + replacement
    cursor = end
  }
  result += content.slice(cursor)
  const firstLine = countLines(content.slice(0, first.index))
  return { result, firstLine, lastLine: firstLine + countNewlines(firstReplacement), occurrences: matches.length }
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
    const { fs, absolute, note, mapError } = yield* fileCall(toolName, input.file_path, context.cwd)
    const replaceAll = input.replace_all ?? false

    if (input.old_string === input.new_string) {
      return yield* failed("No changes to make: old_string and new_string are exactly the same.")
    }

    const existing = yield* statIfExists(fs, absolute).pipe(mapError)

    if (existing === undefined) {
      if (input.old_string !== "") {
        const message = yield* fileNotFoundMessage(fs, absolute, context.cwd)
        return yield* Tool.fail(toolName, `${message}\nTo create a new file, use an empty old_string (or the Write tool).`, "not_found")
      }
      const target = yield* createFile(fs, absolute, input.new_string).pipe(mapError)
      return Tool.withResponse(Tool.result(`${createdMessage(absolute, target)}${note}`, { type: "create", filePath: absolute }), {
        filePath: absolute,
        oldString: input.old_string,
        newString: input.new_string,
        originalFile: "",
        structuredPatch: structuredPatch("", input.new_string),
        userModified: false,
        replaceAll
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
    const target = yield* fs.realPath(absolute).pipe(mapError)
    yield* requireFreshRead(toolName, { absolute, real: target }, stampOf(existing))

    const { text: raw, encoding } = yield* readTextFile(fs, target).pipe(mapError)

    if (input.old_string === "") {
      if (raw.trim() !== "") {
        return yield* failed(
          "Cannot create new file - file already exists. To change it, give the text to replace in old_string."
        )
      }
    }

    // A pure-CRLF file is edited as LF text (what Read showed) and written back with CRLF. Otherwise the file is
    // matched as it is (see `findMatches` for CRLF lines in a mixed file), and CRLF the model sent is taken as LF.
    const crlf = usesCrlf(raw)
    const content = crlf ? raw.replaceAll("\r\n", "\n") : raw
    const mixed = !crlf && raw.includes("\r\n")
    const normalise = (text: string) => (mixed ? text : text.replaceAll("\r\n", "\n"))
    const oldString = normalise(input.old_string)
    const newString = normalise(input.new_string)

    const unencodable = unencodableMessage(newString, encoding, "new_string")
    if (unencodable !== undefined) return yield* failed(unencodable)

    const replaced: Replacement | ReplaceError =
      oldString === ""
        ? { result: newString, firstLine: 1, lastLine: 1 + countNewlines(newString), occurrences: 1 }
        : replaceIn(content, oldString, newString, replaceAll)
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
    const bytes = encodeText(output, encoding)
    yield* writeFileAtomic(fs, target, bytes, existing.mode).pipe(mapError)
    yield* recordWritten(fs, target, bytes).pipe(mapError)

    const data = { filePath: absolute, oldString: input.old_string, newString: input.new_string, replaceAll }
    const shown = boundedSnippet(replaced.result, replaced.firstLine, replaced.lastLine)
    // Claude Code's Edit result, for PostToolUse hooks: the file as it was and the hunks that changed it.
    const response = {
      ...data,
      originalFile: raw,
      structuredPatch: structuredPatch(content, replaced.result),
      userModified: false
    }
    const message = replaceAll
      ? `The file ${absolute} has been updated. All occurrences of '${input.old_string}' were successfully replaced with '${input.new_string}'. Here's the result of running \`cat -n\` on a snippet of the edited file (around the first replacement):\n${shown}${note}`
      : `The file ${absolute} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${shown}${note}`
    return Tool.withResponse(Tool.result(message, { ...data, occurrences: replaced.occurrences }), response)
  })
})
