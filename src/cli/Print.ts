/**
 * `weft -p`: runs one prompt and writes what the chosen output format asks for.
 * - text: the final answer on stdout (errors on stderr); with --verbose, each tool call and its outcome on stderr.
 * - json: one JSON object, the result frame (with --verbose: a JSON array of every frame).
 * - stream-json: one frame per line as it happens (Claude Code's shapes, see StreamJson).
 * The exit code is 0 when the result is a success, 1 otherwise.
 */
import * as Effect from "effect/Effect"
import type { AgentEvent, Result } from "../domain/AgentEvent.js"
import * as Content from "../domain/ContentGuards.js"
import * as Uuid from "../platform/Uuid.js"
import type { OutputFormat } from "./CliOptions.js"
import type { OutputClosed } from "./Output.js"
import { type Frame, type FrameOptions, toFrame } from "./StreamJson.js"

export type { OutputFormat } from "./CliOptions.js"

export interface PrintOptions extends FrameOptions {
  readonly outputFormat: OutputFormat
  readonly verbose: boolean
  /** Writes to stdout; fails when its reader has gone, which stops the run. */
  readonly write: (text: string) => Effect.Effect<void, OutputClosed>
  /** Writes to stderr, likewise. */
  readonly writeError: (text: string) => Effect.Effect<void, OutputClosed>
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const describeInput = (input: unknown): string => {
  if (typeof input !== "object" || input === null) return ""
  const record: Record<string, unknown> = { ...input }
  const main = record["file_path"] ?? record["command"] ?? record["pattern"] ?? record["url"] ?? record["notebook_path"]
  return typeof main === "string" ? oneLine(main, 80) : oneLine(JSON.stringify(input), 80)
}

/** The human rendering of `--verbose` text mode: what a user would watch scroll by. */
const renderVerbose = (event: AgentEvent): string | undefined => {
  switch (event._tag) {
    case "AssistantTurn": {
      const lines: Array<string> = []
      // A turn without tool calls is the answer, which text mode prints on stdout.
      if (!event.message.content.some(Content.isToolUse)) return undefined
      for (const block of event.message.content) {
        if (Content.isText(block) && block.text.trim() !== "") lines.push(`● ${block.text.trim()}`)
        if (Content.isToolUse(block)) lines.push(`● ${block.name}(${describeInput(block.input)})`)
      }
      return lines.length > 0 ? `${lines.join("\n")}\n` : undefined
    }
    case "ToolResults": {
      if (typeof event.message.content === "string") return undefined
      const lines: Array<string> = []
      for (const block of event.message.content) {
        if (!Content.isToolResult(block)) continue
        const text = Content.toolResultText(block.content).split("\n")
        const head = text.slice(0, 4).map((line) => cut(line.replace(/\t/g, "  ").trimEnd(), 100))
        const more = text.length > 4 ? [`… +${text.length - 4} lines`] : []
        const marker = block.is_error ? "  ⎿  Error: " : "  ⎿  "
        lines.push([...head, ...more].map((line, i) => (i === 0 ? marker : "     ") + line).join("\n"))
      }
      return lines.length > 0 ? `${lines.join("\n")}\n` : undefined
    }
    case "HookResponse": {
      const { activity } = event
      const head = `  ⎿  ${activity.hookName} hook [${activity.command}]`
      if (activity.outcome === "success") return `${head} ok\n`
      const detail = activity.note ?? (activity.stderr.trim() === "" ? `exit code ${activity.exitCode}` : activity.stderr.trim())
      return `${head} ${activity.outcome === "blocked" ? "blocked" : "error"}: ${cut(detail.replace(/\s+/g, " "), 300)}\n`
    }
    case "ApiRetry":
      return `⚠ API request failed (${oneLine(event.message, 200)}); retry ${event.attempt}/${event.maxRetries} in ${(event.retryDelayMs / 1000).toFixed(1)} s\n`
    case "Compacted":
      return `✻ Conversation compacted (${event.trigger}, ${event.preTokens} tokens before)\n`
    case "SubagentStarted":
      return `● ${event.agentType} agent: ${oneLine(event.description, 80)}${event.background ? " (background)" : ""}\n`
    case "SubagentEvent": {
      // The child's calls and results, indented under its agent.
      const inner = renderVerbose(event.event)
      return inner === undefined ? undefined : `${inner.trimEnd().split("\n").map((line) => `    ${line}`).join("\n")}\n`
    }
    case "SubagentEnded":
      return `  ⎿  ${event.agentType} agent ${event.status} (${event.toolUses} tool uses, ${event.totalTokens} tokens)\n`
    case "TodosUpdated":
      return `${event.todos.map((todo) => `  ${todo.status === "completed" ? "☒" : "☐"} ${todo.content}`).join("\n")}\n`
    default:
      return undefined
  }
}

/**
 * Consumes the agent's events, writes the output, and answers the Result (or undefined if none came). `each` runs
 * the handler it is given on every event, in order (`Stream.runForEach` over `Agent.run`).
 */
export const print = <E, R>(
  each: (onEvent: (event: AgentEvent) => Effect.Effect<void, OutputClosed>) => Effect.Effect<void, E | OutputClosed, R>,
  options: PrintOptions
) =>
  Effect.gen(function* () {
    let sessionId = ""
    let result: Result | undefined
    const frames: Array<Frame> = []
    const uuid = yield* Uuid.maker
    // The subagents that ran, for the result frame's `subagent_stats`.
    const subagents = { count: 0, total_tokens: 0, tool_uses: 0, duration_ms: 0, total_cost_usd: 0 }
    const framed = (event: AgentEvent) => {
      const frame = toFrame(event, sessionId, options, uuid)
      return frame !== undefined && frame["type"] === "result" && subagents.count > 0 ? { ...frame, subagent_stats: { ...subagents } } : frame
    }
    yield* each((event) => {
      if (event._tag === "SessionStarted") sessionId = event.sessionId
      if (event._tag === "Result") result = event
      if (event._tag === "SubagentEnded") {
        subagents.count++
        subagents.total_tokens += event.totalTokens
        subagents.tool_uses += event.toolUses
        subagents.duration_ms += event.durationMs
        subagents.total_cost_usd += event.costUsd
      }
      switch (options.outputFormat) {
        case "stream-json": {
          const frame = framed(event)
          return frame ? options.write(`${JSON.stringify(frame)}\n`) : Effect.void
        }
        case "json": {
          const frame = framed(event)
          if (frame && (options.verbose || frame["type"] === "result")) frames.push(frame)
          return Effect.void
        }
        case "text": {
          // What a hook tells the user is shown whatever the verbosity, on stderr (stdout is the answer).
          const notice = event._tag === "HookNotice" ? `${event.hookEvent} hook: ${event.text}\n` : ""
          const text = `${notice}${(options.verbose ? renderVerbose(event) : undefined) ?? ""}`
          return text !== "" ? options.writeError(text) : Effect.void
        }
      }
    })
    if (options.outputFormat === "json") {
      yield* options.write(`${JSON.stringify(options.verbose ? frames : (frames[0] ?? null))}\n`)
    }
    if (options.outputFormat === "text" && result) {
      if (result.isError) yield* options.writeError(`Error: ${result.result}\n`)
      else yield* options.write(result.result.endsWith("\n") ? result.result : `${result.result}\n`)
    }
    return result
  })
