/**
 * NotebookEdit {notebook_path, cell_id?, new_source, cell_type?, edit_mode?}: Claude Code's notebook editor.
 * A cell is named by its `id` or, for notebooks without ids, as `cell-N` (0-based, as Read shows them). Insert
 * puts the new cell after the named cell, or first when none is named. An edited code cell loses its outputs and
 * execution count (they described the old source). The file keeps its JSON indentation (Jupyter writes 1 space)
 * and its final newline; cells weft creates or edits get their keys sorted, as Jupyter writes them. The notebook
 * must have been Read first and be unchanged since, as for Edit. The file's encoding and byte-order mark are kept
 * (TextEncoding).
 */
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import * as NodePath from "node:path"
import { stampOf } from "../FileState.js"
import { encodeText } from "../TextEncoding.js"
import * as Tool from "../Tool.js"
import { describePlatformError, fileCall, fileNotFoundMessage, isNotFound, resolveFilePath } from "./Read.js"
import {
  maxEditableBytes,
  readTextFile,
  recordWritten,
  requireFreshRead,
  unencodableMessage,
  writeFileAtomic
} from "./Write.js"

const NotebookEditInput = Schema.Struct({
  notebook_path: Schema.String.annotate({
    description: "The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"
  }),
  cell_id: Schema.optional(
    Schema.String.annotate({
      description:
        "The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified."
    })
  ),
  new_source: Schema.String.annotate({ description: "The new source for the cell" }),
  cell_type: Schema.optional(
    Schema.Literals(["code", "markdown"]).annotate({
      description:
        "The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required."
    })
  ),
  edit_mode: Schema.optional(
    Schema.Literals(["replace", "insert", "delete"]).annotate({
      description: "The type of edit to make (replace, insert, delete). Defaults to replace."
    })
  )
})
export type NotebookEditInput = typeof NotebookEditInput.Type

const description = `Completely replaces the contents of a specific cell in a Jupyter notebook (.ipynb file) with new source. Jupyter notebooks are interactive documents that combine code, text, and visualizations, commonly used for data analysis and scientific computing. The notebook_path parameter must be an absolute path, not a relative path. The cell_id is used to find the cell to edit (cells without an id can be named cell-N, counting from 0). Use edit_mode=insert to add a new cell after the cell with that ID (or at the beginning when no cell_id is given). Use edit_mode=delete to delete the cell with that ID.`

const toolName = "NotebookEdit"
const failed = (message: string) => Tool.fail(toolName, message)

type Json = Record<string, unknown>
const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Source as Jupyter stores it: a list of lines, each but the last ending in "\n". */
export const sourceLines = (source: string): Array<string> => (source === "" ? [] : source.split(/(?<=\n)/))

/** An object with its keys sorted, as Jupyter's writer emits them. */
const sortedKeys = (value: Json): Json => {
  const out: Json = {}
  for (const key of Object.keys(value).sort()) out[key] = value[key]
  return out
}

/** The indentation of a notebook's JSON (Jupyter writes 1 space); 1 when it cannot be seen. */
const detectIndent = (text: string): number | string => {
  const match = /^[{[]\r?\n([ \t]+)/.exec(text)
  const indent = match?.[1]
  if (indent === undefined) return 1
  return indent.startsWith("\t") ? "\t" : indent.length
}

/** Notebooks of nbformat 4.5 and later give every cell an id. */
const wantsCellIds = (notebook: Json): boolean => {
  const major = typeof notebook["nbformat"] === "number" ? notebook["nbformat"] : 4
  const minor = typeof notebook["nbformat_minor"] === "number" ? notebook["nbformat_minor"] : 0
  return major > 4 || (major === 4 && minor >= 5)
}

/** A new cell's id: eight base-36 characters of a draw from `Random` (a test's seeded Random makes it reproducible). */
const newCellId = Effect.map(Random.next, (draw) => draw.toString(36).slice(2, 10).padEnd(8, "0"))

const makeCell = (cellType: "code" | "markdown", source: string, id: string | undefined): Json => {
  const cell: Json = { cell_type: cellType, metadata: {}, source: sourceLines(source) }
  if (id !== undefined) cell["id"] = id
  if (cellType === "code") {
    cell["execution_count"] = null
    cell["outputs"] = []
  }
  return sortedKeys(cell)
}

/** Where `cellId` points: a cell's `id`, or `cell-N` / `N` as a 0-based index. */
const findCell = (cells: ReadonlyArray<unknown>, cellId: string): number | undefined => {
  const byId = cells.findIndex((cell) => isRecord(cell) && cell["id"] === cellId)
  if (byId !== -1) return byId
  const match = /^(?:cell-)?(\d+)$/.exec(cellId.trim())
  if (match?.[1] === undefined) return undefined
  return Number(match[1])
}

const describeCell = (cell: unknown, index: number): string =>
  isRecord(cell) && typeof cell["id"] === "string" ? cell["id"] : `cell-${index}`

export const NotebookEditTool = Tool.fromEffect({
  name: toolName,
  description,
  input: NotebookEditInput,
  target: (input, context) => ({
    _tag: "Path",
    path: resolveFilePath(input.notebook_path, context.cwd),
    access: "write"
  }),
  run: Effect.fn("NotebookEdit.run")(function* (input: NotebookEditInput, context: Tool.ToolContext) {
    const { fs, absolute, note, mapError } = yield* fileCall(toolName, input.notebook_path, context.cwd)
    const editMode = input.edit_mode ?? "replace"

    if (NodePath.extname(absolute).toLowerCase() !== ".ipynb") {
      return yield* failed("File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.")
    }
    const info = yield* fs.stat(absolute).pipe(
      Effect.catch((error) =>
        isNotFound(error)
          ? Effect.flatMap(fileNotFoundMessage(fs, absolute, context.cwd), (message) =>
              Effect.fail(Tool.fail(toolName, message, "not_found"))
            )
          : Effect.fail(failed(describePlatformError(error, absolute)))
      )
    )
    if (info.type !== "File") return yield* failed(`${absolute} is not a regular file.`)
    if (Number(info.size) > maxEditableBytes) {
      return yield* failed(`${absolute} is larger than ${maxEditableBytes / (1024 * 1024)} MB, too large for NotebookEdit.`)
    }
    const target = yield* fs.realPath(absolute).pipe(mapError)
    yield* requireFreshRead(toolName, { absolute, real: target }, stampOf(info))

    const { text, encoding } = yield* readTextFile(fs, target).pipe(mapError)
    const parsed = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) =>
        failed(`Notebook is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it with Edit or Write first.`)
    })
    const cellsValue = isRecord(parsed) ? parsed["cells"] : undefined
    if (!isRecord(parsed) || !Array.isArray(cellsValue)) {
      return yield* failed(`${absolute} is not a Jupyter notebook: it has no "cells" list.`)
    }
    const notebook: Json = parsed
    const cells: Array<unknown> = [...cellsValue]

    let index: number | undefined
    if (input.cell_id !== undefined && input.cell_id !== "") {
      index = findCell(cells, input.cell_id)
      const valid = index !== undefined && (index < cells.length || (editMode === "replace" && index === cells.length))
      if (!valid) {
        return yield* failed(
          `Cell with ID "${input.cell_id}" not found in notebook. It has ${cells.length} cells: ${cells.map(describeCell).slice(0, 50).join(", ")}.`
        )
      }
    } else if (editMode !== "insert") {
      return yield* failed("Cell ID must be specified when not inserting a new cell.")
    }

    let mode = editMode
    // Replacing the cell just past the end is how a model appends: do it as an insert (Claude Code does too).
    if (mode === "replace" && index === cells.length) mode = "insert"

    let message: string
    let cellId: string
    switch (mode) {
      case "insert": {
        if (input.cell_type === undefined) {
          return yield* failed("Cell type is required when using edit_mode=insert.")
        }
        const at = index === undefined ? 0 : editMode === "insert" ? index + 1 : index
        const id = wantsCellIds(notebook) ? yield* newCellId : undefined
        cells.splice(at, 0, makeCell(input.cell_type, input.new_source, id))
        cellId = id ?? `cell-${at}`
        message = `Inserted cell ${cellId} with ${input.new_source}`
        break
      }
      case "delete": {
        const at = index ?? 0
        cellId = describeCell(cells[at], at)
        cells.splice(at, 1)
        message = `Deleted cell ${cellId}`
        break
      }
      case "replace": {
        const at = index ?? 0
        const old = cells[at]
        if (!isRecord(old)) return yield* failed(`Cell ${input.cell_id ?? at} is malformed (not a JSON object).`)
        const cellType = input.cell_type ?? (old["cell_type"] === "markdown" ? "markdown" : old["cell_type"] === "code" ? "code" : undefined)
        const cell: Json = { ...old, source: sourceLines(input.new_source) }
        if (cellType !== undefined) cell["cell_type"] = cellType
        if (cellType === "code") {
          // Outputs and the count belonged to the old source.
          cell["execution_count"] = null
          cell["outputs"] = []
        } else if (cellType === "markdown") {
          delete cell["execution_count"]
          delete cell["outputs"]
        }
        cells[at] = sortedKeys(cell)
        cellId = describeCell(old, at)
        message = `Updated cell ${cellId} with ${input.new_source}`
        break
      }
    }

    notebook["cells"] = cells
    const trailingNewline = text.endsWith("\n") ? "\n" : ""
    const output = JSON.stringify(notebook, null, detectIndent(text)) + trailingNewline
    const unencodable = unencodableMessage(output, encoding, "the notebook after this edit")
    if (unencodable !== undefined) return yield* failed(unencodable)
    const bytes = encodeText(output, encoding)
    yield* writeFileAtomic(fs, target, bytes, info.mode).pipe(mapError)
    yield* recordWritten(fs, target, bytes).pipe(mapError)
    const data = { notebookPath: absolute, cellId, editMode: mode, cellType: input.cell_type, newSource: input.new_source }
    // Claude Code's NotebookEdit result, for PostToolUse hooks (snake_case, as it sends it).
    const metadata = notebook["metadata"]
    const languageInfo = typeof metadata === "object" && metadata !== null && "language_info" in metadata ? metadata["language_info"] : undefined
    const language =
      typeof languageInfo === "object" && languageInfo !== null && "name" in languageInfo && typeof languageInfo["name"] === "string"
        ? languageInfo["name"]
        : "python"
    return Tool.withResponse(Tool.result(`${message}${note}`, data), {
      new_source: input.new_source,
      cell_id: cellId,
      cell_type: input.cell_type ?? "code",
      language,
      edit_mode: mode
    })
  })
})
