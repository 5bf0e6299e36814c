/**
 * The built-in tools' input JSON Schemas and invalid-input messages against the wire snapshots the end-to-end test
 * pins (test/e2e/__snapshots__/wire/): the same documents, checked here without the built binary.
 */
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import { all } from "../../src/tools/builtin/all.js"
import * as Tool from "../../src/tools/Tool.js"

const snapshots = NodePath.join(import.meta.dirname, "../e2e/__snapshots__/wire")
const readSnapshot = (name: string) => NodeFs.readFileSync(NodePath.join(snapshots, name), "utf8")

describe("the wire snapshots", () => {
  it("every built-in tool's name, description and input_schema, as tools.json has them (keys in order)", () => {
    const tools = all.map((tool) => ({ name: tool.name, description: tool.description, input_schema: Tool.jsonSchemaOf(tool.input) }))
    // The request marks its last tool for caching: that is the request's, not the tool's.
    // The Agent tool is the session's (Subagents), not a built-in: tools.json pins it after them.
    const pinned = (JSON.parse(readSnapshot("tools.json")) as ReadonlyArray<Record<string, unknown>>)
      .filter(({ name }) => name !== "Agent")
      .map(({ name, description, input_schema }) => ({ name, description, input_schema }))
    // Compared as text: the order of keys is part of what the model is shown.
    expect(JSON.stringify(tools, null, 2)).toBe(JSON.stringify(pinned, null, 2))
  })

  it("the invalid inputs of the tools session get the messages of tools-session.last-request.json", () => {
    const dir = "/project"
    const calls: ReadonlyArray<readonly [string, unknown]> = [
      ["Read", { file_path: 17 }],
      ["Edit", { file_path: NodePath.join(dir, "notes.txt"), new_string: "x" }],
      ["Write", { file_path: NodePath.join(dir, "x.txt") }],
      ["Bash", { command: ["ls"] }],
      ["Glob", {}],
      ["Grep", { pattern: "x", output_mode: "everything" }],
      ["NotebookEdit", { notebook_path: NodePath.join(dir, "a.ipynb"), new_source: "x", edit_mode: "move" }],
      ["WebFetch", { url: "not a url" }],
      ["TodoWrite", { todos: [{ content: "x", status: "later" }] }],
      ["Read", { file_path: NodePath.join(dir, "notes.txt"), offset: -1, extra: true }]
    ]
    const context = { toolUseId: "t", sessionId: "s", cwd: dir }
    const messages = calls.map(([name, input]) => {
      const tool = all.find((candidate) => candidate.name === name)
      if (tool === undefined) throw new Error(`no built-in tool ${name}`)
      const erased = Tool.erase(tool as Tool.Tool<unknown, never>, (stream) => stream)
      return Effect.runSync(Effect.flip(erased.prepare(input, context))).message
    })
    const snapshot = readSnapshot("tools-session.last-request.json")
    const pinned = [...snapshot.matchAll(/"content": "(Invalid input for [^"\\]*(?:\\.[^"\\]*)*)"/g)].map(
      (match) => JSON.parse(`"${match[1]}"`) as string
    )
    expect(messages).toEqual(pinned)
  })
})
