/**
 * In-process hooks: typed Effect handlers on the agent's events, composed through the same Hooks layer that runs
 * Claude Code's command hooks from settings. This one
 *   - vetoes Bash commands that delete (PreToolUse, `blocked`: the model gets the reason as an error result),
 *   - rewrites the input of the others (PreToolUse, `updatedInput`: the new input is decoded and checked again),
 *   - adds context to the prompt (UserPromptSubmit, `additionalContext`),
 *   - observes every result (PostToolUse),
 *   - asks the model to go on once before it stops (Stop, `continueWith`).
 * With no ANTHROPIC_API_KEY set the model is scripted, so it runs anywhere:
 *
 *   npx esbuild scratchpad/examples/in-process-hooks.ts --bundle --platform=node --format=esm \
 *     --outfile=scratchpad/examples/out/in-process-hooks.mjs && node scratchpad/examples/out/in-process-hooks.mjs
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, Builtin, Hooks, NodeApiClient, Permissions, ToolRegistry, Transcript } from "weft"
import { Script, ScriptedModel, ScriptTurn } from "weft/testing"

const { text, textTurn, toolUse } = Script

const commandOf = (input: unknown): string =>
  typeof input === "object" && input !== null && "command" in input && typeof input.command === "string" ? input.command : ""

/** What the example's hooks saw, in order. */
export const observed: Array<string> = []

export const handlers: Hooks.Handlers = {
  userPromptSubmit: () => Effect.succeed({ additionalContext: "House rule: never delete files." }),
  preToolUse: (input) =>
    Effect.sync(() => {
      if (input.toolName !== "Bash") return {}
      const command = commandOf(input.toolInput)
      if (/\brm\b/.test(command)) return { blocked: `deleting is not allowed here (${command})` }
      return { updatedInput: { command: `${command} && echo "(checked by a hook)"` } }
    }),
  postToolUse: (input) =>
    Effect.sync(() => {
      observed.push(`${input.toolName}: ${commandOf(input.toolInput)}`)
      return {}
    }),
  stop: (input) => Effect.succeed(input.stopHookActive ? {} : { continueWith: "Before you stop: say what you did not do." })
}

const script = [
  ScriptTurn.blocks([text("Cleaning up."), toolUse("Bash", { command: "rm -rf build" }, "rm")]),
  ScriptTurn.blocks([toolUse("Bash", { command: "echo listing" }, "ls")]),
  textTurn("Listed the files."),
  textTurn("I did not delete the build folder: a hook forbade it.")
]

const hasRealModel = Boolean(process.env["ANTHROPIC_API_KEY"] || process.env["ANTHROPIC_BASE_URL"])

export const agentLayer = (cwd: string, useRealModel: boolean) =>
  Layer.mergeAll(
    useRealModel ? NodeApiClient.layer.pipe(Layer.orDie) : ScriptedModel.layer(script),
    Builtin.layerNode({ cwd }),
    Permissions.layerPermissive(),
    Hooks.layerWith({ handlers }),
    Transcript.layerNone
  )

/** Runs the agent in a temporary directory; answers the tool results and the final text. */
export const main = (useRealModel = hasRealModel) =>
  Effect.gen(function* () {
    const dir = mkdtempSync(join(tmpdir(), "weft-hooks-example-"))
    const results: Array<string> = []
    const answer = yield* Agent.run({
      prompt: "Clean up the build folder, then list the files.",
      cwd: dir,
      systemPrompt: "You are a careful assistant."
    }).pipe(
      Stream.tap((event) =>
        Effect.sync(() => {
          if (event._tag !== "ToolResults" || typeof event.message.content === "string") return
          for (const block of event.message.content) {
            if (block.type === "tool_result") results.push(`${block.is_error ? "error" : "ok"}: ${JSON.stringify(block.content)}`)
          }
        })
      ),
      Stream.runFold(() => "", (last, event) => (event._tag === "Result" ? event.result : last)),
      Effect.provide(agentLayer(dir, useRealModel)),
      Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    )
    return { results, answer }
  })

if (process.argv[1]?.endsWith("in-process-hooks.mjs")) {
  Effect.runPromise(main()).then(({ results, answer }) => {
    for (const line of results) console.log(line)
    console.log(`observed: ${observed.join("; ")}`)
    console.log(`answer: ${answer}`)
  })
}
