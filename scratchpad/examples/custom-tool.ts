/**
 * A custom agent composed from weft's Layers: the built-in Read tool plus a typed custom tool (WordCount), the
 * agent loop, and — with no ANTHROPIC_API_KEY set — a scripted model, so it runs anywhere:
 *
 *   npm run example            (bundles this file with esbuild and runs it)
 *
 * With ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) set, the same agent talks to a real model instead.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { writeFileSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, Builtin, Content, Hooks, NodeApiClient, Permissions, Tool, ToolRegistry, Transcript } from "weft"
import { Script, ScriptedModel, ScriptTurn } from "weft/testing"

/** A custom tool: its input Schema is all the model needs (the JSON Schema is derived from it). */
export const WordCount = Tool.fromEffect({
  name: "WordCount",
  description: "Counts the words of a text.",
  input: Schema.Struct({ text: Schema.String.annotate({ description: "The text to count" }) }),
  readOnly: true,
  run: ({ text }) => Effect.succeed(Tool.result(String(text.split(/\s+/).filter((word) => word !== "").length)))
})

/** What the scripted model does when there is no real one: read the file, count its words, answer. */
const script = (file: string) => [
  ScriptTurn.blocks([Script.text("Reading the file."), Script.toolUse("Read", { file_path: file }, "read")]),
  ScriptTurn.blocks([Script.toolUse("WordCount", { text: "the quick brown fox jumps over the lazy dog" }, "count")]),
  Script.textTurn("The file has 9 words.")
]

const hasRealModel = Boolean(process.env["ANTHROPIC_API_KEY"] || process.env["ANTHROPIC_BASE_URL"])

export const agentLayer = (cwd: string, file: string, useRealModel: boolean) =>
  Layer.mergeAll(
    useRealModel ? NodeApiClient.layer.pipe(Layer.orDie) : ScriptedModel.layer(script(file)),
    ToolRegistry.layer(Builtin.ReadTool, WordCount).pipe(Layer.provide(Builtin.services({ cwd }))),
    Permissions.layerPermissive(),
    Hooks.layerNone,
    Transcript.layerNone
  )

/** The text of each tool result of a run, by tool_use_id: what the tools really answered. */
export const toolAnswers: Record<string, string> = {}

/** Runs the agent on a temporary file; answers the final text (the tools' answers are in `toolAnswers`). */
export const main = (useRealModel = hasRealModel) => Effect.gen(function* () {
  const dir = mkdtempSync(join(tmpdir(), "weft-example-"))
  const file = join(dir, "fox.txt")
  writeFileSync(file, "the quick brown fox jumps over the lazy dog\n")
  const answer = yield* Agent.run({
    prompt: `How many words are in ${file}? Use the WordCount tool.`,
    cwd: dir,
    systemPrompt: "You are a concise assistant."
  }).pipe(
    Stream.tap((event) =>
      Effect.sync(() => {
        if (event._tag !== "ToolResults" || typeof event.message.content === "string") return
        for (const block of event.message.content.filter(Content.isToolResult)) {
          toolAnswers[block.tool_use_id] = typeof block.content === "string" ? block.content : JSON.stringify(block.content)
        }
        console.log("tool results:", JSON.stringify(event.message.content))
      })
    ),
    Stream.runFold(() => "", (last, event) => (event._tag === "Result" ? event.result : last)),
    Effect.provide(agentLayer(dir, file, useRealModel)),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  )
  return answer
})

if (process.argv[1]?.endsWith("custom-tool.mjs")) {
  Effect.runPromise(main()).then((answer) => console.log(`answer: ${answer}`))
}
