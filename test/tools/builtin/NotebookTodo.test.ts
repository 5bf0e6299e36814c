import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as NodeFs from "node:fs/promises"
import * as NodePath from "node:path"
import { NotebookEditTool } from "../../../src/tools/builtin/NotebookEdit.js"
import { ReadTool } from "../../../src/tools/builtin/Read.js"
import { TodoStore, TodoWriteTool } from "../../../src/tools/builtin/TodoWrite.js"
import * as Tool from "../../../src/tools/Tool.js"
import { FileLayers, runTool, tempDir, textOf } from "./helpers.js"

const notebook = {
  cells: [
    { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "text"] },
    {
      cell_type: "code",
      execution_count: 3,
      id: "calc",
      metadata: {},
      outputs: [{ name: "stdout", output_type: "stream", text: ["2\n"] }],
      source: ["print(1 + 1)"]
    }
  ],
  metadata: { kernelspec: { name: "python3" } },
  nbformat: 4,
  nbformat_minor: 5
}

type Cell = { cell_type: string; id?: string; source: Array<string>; outputs?: Array<unknown>; execution_count?: number | null }

const setup = Effect.gen(function* () {
  const dir = yield* tempDir
  const path = NodePath.join(dir, "nb.ipynb")
  yield* Effect.promise(() => NodeFs.writeFile(path, JSON.stringify(notebook, null, 1) + "\n"))
  return { dir, path }
})
const load = (path: string) =>
  Effect.promise(async () => {
    const text = await NodeFs.readFile(path, "utf8")
    const parsed: { cells: Array<Cell> } = JSON.parse(text)
    return { text, cells: parsed.cells }
  })
const failureOf = <A, R>(effect: Effect.Effect<A, Tool.ToolError, R>) =>
  Effect.map(Effect.flip(effect), (error) => error.message)

describe("NotebookEdit", () => {
  it("derives Claude Code's input schema", () => {
    const schema = Tool.jsonSchemaOf(NotebookEditTool.input)
    expect(schema["required"]).toEqual(["notebook_path", "new_source"])
    expect(Object.keys(schema["properties"] as object)).toEqual([
      "notebook_path",
      "cell_id",
      "new_source",
      "cell_type",
      "edit_mode"
    ])
  })

  it.live("needs a read first, then replaces a code cell and clears its outputs, keeping the format", () =>
    Effect.gen(function* () {
      const { dir, path } = yield* setup
      const edit = (input: Record<string, unknown>) => runTool(NotebookEditTool, { notebook_path: path, ...input }, dir)
      expect(yield* failureOf(edit({ cell_id: "calc", new_source: "x" }))).toContain("File has not been read yet")
      yield* runTool(ReadTool, { file_path: path }, dir)
      const result = yield* edit({ cell_id: "calc", new_source: "a = 1\nprint(a)" })
      expect(textOf(result)).toBe("Updated cell calc with a = 1\nprint(a)")
      // PostToolUse hooks get Claude Code's result.
      expect(result.toolResponse).toEqual({ new_source: "a = 1\nprint(a)", cell_id: "calc", cell_type: "code", language: "python", edit_mode: "replace" })
      const { text, cells } = yield* load(path)
      expect(cells[1]).toEqual({
        cell_type: "code",
        execution_count: null,
        id: "calc",
        metadata: {},
        outputs: [],
        source: ["a = 1\n", "print(a)"]
      })
      // Jupyter's layout: one-space indent, a final newline, untouched cells as they were.
      expect(text.startsWith('{\n "cells": [\n  {\n   "cell_type": "markdown",')).toBe(true)
      expect(text.endsWith("}\n")).toBe(true)
      expect(cells[0]).toEqual(notebook.cells[0])
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("inserts after a cell or at the start, deletes, and finds cells by index", () =>
    Effect.gen(function* () {
      const { dir, path } = yield* setup
      yield* runTool(ReadTool, { file_path: path }, dir)
      const edit = (input: Record<string, unknown>) => runTool(NotebookEditTool, { notebook_path: path, ...input }, dir)
      expect(yield* failureOf(edit({ cell_id: "intro", new_source: "x", edit_mode: "insert" }))).toBe(
        "Cell type is required when using edit_mode=insert."
      )
      yield* edit({ cell_id: "intro", new_source: "middle", cell_type: "markdown", edit_mode: "insert" })
      yield* edit({ new_source: "import os", cell_type: "code", edit_mode: "insert" })
      let cells = (yield* load(path)).cells
      expect(cells.map((cell) => cell.source.join(""))).toEqual(["import os", "# Title\ntext", "middle", "print(1 + 1)"])
      expect(cells[0]).toMatchObject({ cell_type: "code", outputs: [], execution_count: null })
      expect(typeof cells[0]?.id).toBe("string")
      yield* edit({ cell_id: "cell-2", new_source: "", edit_mode: "delete" })
      cells = (yield* load(path)).cells
      expect(cells.map((cell) => cell.source.join(""))).toEqual(["import os", "# Title\ntext", "print(1 + 1)"])
      expect(yield* failureOf(edit({ cell_id: "nope", new_source: "x" }))).toContain('Cell with ID "nope" not found')
      expect(yield* failureOf(edit({ new_source: "x" }))).toBe("Cell ID must be specified when not inserting a new cell.")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )

  it.live("refuses files that are not notebooks", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const message = yield* failureOf(
        runTool(NotebookEditTool, { notebook_path: NodePath.join(dir, "a.py"), new_source: "x", cell_id: "0" }, dir)
      )
      expect(message).toContain("File must be a Jupyter notebook")
    }).pipe(Effect.scoped, Effect.provide(FileLayers))
  )
})

describe("TodoWrite", () => {
  const todos = [
    { content: "Run tests", status: "in_progress", activeForm: "Running tests" },
    { content: "Fix bug", status: "pending", activeForm: "Fixing bug" }
  ] as const

  it("derives Claude Code's input schema", () => {
    const schema = Tool.jsonSchemaOf(TodoWriteTool.input)
    expect(schema["required"]).toEqual(["todos"])
    const items = (schema["properties"] as { todos: { items: { required: Array<string> } } }).todos.items
    expect(items.required).toEqual(["content", "status", "activeForm"])
  })

  it.effect("stores the list per session and returns old and new lists as data", () =>
    Effect.gen(function* () {
      const store = yield* TodoStore
      const first = yield* runTool(TodoWriteTool, { todos }, "/")
      expect(textOf(first)).toBe(
        "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"
      )
      expect(first.data).toEqual({ oldTodos: [], newTodos: todos })
      expect(yield* store.get).toEqual(todos)
      const done = todos.map((todo) => ({ ...todo, status: "completed" }))
      const second = yield* runTool(TodoWriteTool, { todos: done }, "/")
      expect(second.data).toEqual({ oldTodos: todos, newTodos: done })
      // All completed: the stored list is cleared, as in Claude Code.
      expect(yield* store.get).toEqual([])
    }).pipe(Effect.provide(TodoStore.layer))
  )

  it.effect("publishes changes to subscribers", () =>
    Effect.gen(function* () {
      const store = yield* TodoStore
      const subscribed = yield* Deferred.make<void>()
      const seen = yield* store.changes.pipe(
        Stream.tap(() => Deferred.succeed(subscribed, undefined)),
        Stream.take(2),
        Stream.runCollect,
        Effect.forkChild
      )
      yield* Deferred.await(subscribed)
      yield* store.set(todos)
      const lists = yield* Fiber.join(seen)
      expect(lists).toEqual([[], todos])
    }).pipe(Effect.provide(TodoStore.layer))
  )

  it.effect("rejects an empty content", () =>
    Effect.gen(function* () {
      const erased = Tool.erase(TodoWriteTool, (stream) => stream.pipe(Stream.provide(TodoStore.layer)))
      const error = yield* Effect.flip(
        erased.prepare({ todos: [{ content: "", status: "pending", activeForm: "x" }] }, { toolUseId: "t", sessionId: "s", cwd: "/" })
      )
      expect(error.message).toContain("todos.0.content")
    })
  )
})
