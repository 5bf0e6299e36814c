/**
 * A tool is a typed value: a name, a description for the model, an input Schema (the JSON Schema the model sees
 * is derived from it), whether it only reads, what it touches (for permissions), and `run`, a Stream of progress
 * ending in one result. Tools never apply permissions or hooks themselves: the loop does that around every call,
 * so a custom tool gets them for free.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { ToolResultContent } from "../domain/Content.js"

import type { AgentEvent } from "../domain/AgentEvent.js"
import type { Usage } from "../domain/Usage.js"
import type { ToolFailureKind } from "../domain/ToolFailure.js"
import type { ToolTarget } from "../domain/ToolTarget.js"
import { isRecord } from "../domain/Json.js"
import { decodeOptions, formatIssue, integerField, jsonSchemaOf } from "./InputSchema.js"

export type { ToolFailureKind, ToolTarget }
export { integerField, jsonSchemaOf }

/** Where and for whom a call runs; given by the loop. */
export interface ToolContext {
  readonly toolUseId: string
  readonly sessionId: string
  /** The session's working directory (the workspace root). */
  readonly cwd: string
}

/** A line of progress while a tool runs (Bash output, a fetch in flight). Renderers may show it; the model never sees it. */
export interface ToolProgress {
  readonly _tag: "ToolProgress"
  readonly text: string
}

/** The outcome of a call: what becomes the `tool_result` content, and optional structured data for renderers. */
export interface ToolResult {
  readonly _tag: "ToolResult"
  readonly content: string | ReadonlyArray<ToolResultContent>
  readonly isError?: boolean
  /** Structured output for renderers and SDK consumers (e.g. the todo list of TodoWrite). */
  readonly data?: unknown
  /**
   * What PostToolUse hooks get as `tool_response`: the built-in tools give Claude Code's shape for the same tool
   * (Bash `{stdout, stderr, interrupted, ...}`, Edit `{filePath, structuredPatch, ...}`), so that hook scripts
   * written for Claude Code read the fields they expect. Absent: `data`, else the content.
   */
  readonly toolResponse?: unknown
  /**
   * An event for renderers, emitted after the turn's ToolResults (TodoWrite's TodosUpdated): a tool says what it
   * changed in its own terms, and the loop passes it on without knowing the tool.
   */
  readonly event?: AgentEvent
  /**
   * Model responses the call paid for (a subagent's): counted in the session's totals and modelUsage as the loop's
   * own are.
   */
  readonly spent?: ReadonlyArray<SpentResponse>
}

/** One model response paid for inside a tool call: the model that answered, its usage and cost. */
export interface SpentResponse {
  readonly model: string
  readonly usage: Usage
  readonly costUSD: number
}

export type ToolOutput = ToolProgress | ToolResult

export const progress = (text: string): ToolProgress => ({ _tag: "ToolProgress", text })
export const result = (content: ToolResult["content"], data?: unknown, event?: AgentEvent): ToolResult => ({
  _tag: "ToolResult",
  content,
  ...(data === undefined ? {} : { data }),
  ...(event === undefined ? {} : { event })
})

/** `result` with what PostToolUse hooks get as `tool_response` (see `ToolResult.toolResponse`). */
export const withResponse = (result: ToolResult, toolResponse: unknown): ToolResult => ({ ...result, toolResponse })

/** The input did not match the tool's schema (or a constraint its Schema cannot say). Written for the model. */
export class InvalidToolInput extends Data.TaggedError("InvalidToolInput")<{ readonly tool: string; readonly message: string }> {}

/**
 * The call ran and failed in a way the model can act on (file not found, not read first, timed out, ...): the
 * message is for the model, the kind for programs (hooks, SDK hosts); no kind means "failed".
 */
export class ToolFailed extends Data.TaggedError("ToolFailed")<{
  readonly tool: string
  readonly message: string
  readonly kind?: ToolFailureKind
}> {}

/** No tool of that name is registered. */
export class UnknownTool extends Data.TaggedError("UnknownTool")<{ readonly tool: string; readonly message: string }> {}

export type ToolError = InvalidToolInput | ToolFailed | UnknownTool

export const fail = (tool: string, message: string, kind?: ToolFailureKind) =>
  new ToolFailed(kind === undefined ? { tool, message } : { tool, message, kind })

/** The kind of a tool error (see ToolFailureKind). */
export const failureKind = (error: ToolError): ToolFailureKind => {
  switch (error._tag) {
    case "UnknownTool":
      return "unknown_tool"
    case "InvalidToolInput":
      return "invalid_input"
    case "ToolFailed":
      return error.kind ?? "failed"
  }
}

export interface Tool<I = unknown, R = never> {
  readonly name: string
  readonly description: string
  /** Decodes the model's JSON input; its encoded side is what the model is shown as JSON Schema (see InputSchema). */
  readonly input: Schema.Decoder<I>
  /** True when a call never changes anything (such calls of one turn may run concurrently). */
  readonly readOnly: boolean
  /** What a call touches; the loop hands it to Permissions. */
  readonly target: (input: I, context: ToolContext) => ToolTarget
  readonly run: (input: I, context: ToolContext) => Stream.Stream<ToolOutput, ToolError, R>
}

/** A call whose input has been decoded: what it touches, and how to run it. */
export interface PreparedCall {
  /** The input as the model sent it (what hooks and renderers see). */
  readonly input: unknown
  readonly target: ToolTarget
  readonly run: () => Stream.Stream<ToolOutput, ToolError>
}

/**
 * Runs a prepared call to its outcome, as the loop does: each progress line to `onProgress`, the last result the
 * outcome (a stream that ends without one gives an error result naming the tool).
 */
export const outcome = (
  call: PreparedCall,
  toolName: string,
  onProgress: (text: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<ToolResult, ToolError> =>
  call.run().pipe(
    Stream.runFoldEffect(() => Option.none<ToolResult>(), (last, output) =>
      output._tag === "ToolProgress" ? Effect.as(onProgress(output.text), last) : Effect.succeed(Option.some(output))
    ),
    Effect.map(Option.getOrElse((): ToolResult => ({ _tag: "ToolResult", content: `${toolName} produced no result.`, isError: true })))
  )

/** A tool with its types erased, as the registry holds it. */
export interface AnyTool {
  readonly name: string
  readonly description: string
  readonly readOnly: boolean
  readonly inputJsonSchema: Record<string, unknown>
  /** Decodes raw input; a mismatch is an `InvalidToolInput` naming the problem, written for the model. */
  readonly prepare: (raw: unknown, context: ToolContext) => Effect.Effect<PreparedCall, InvalidToolInput>
}

export interface MakeOptions<I, R> {
  readonly name: string
  readonly description: string
  readonly input: Schema.Decoder<I>
  readonly readOnly?: boolean
  readonly target?: (input: I, context: ToolContext) => ToolTarget
  readonly run: (input: I, context: ToolContext) => Stream.Stream<ToolOutput, ToolError, R>
}

export const make = <I, R = never>(options: MakeOptions<I, R>): Tool<I, R> => ({
  name: options.name,
  description: options.description,
  input: options.input,
  readOnly: options.readOnly ?? false,
  target: options.target ?? (() => ({ _tag: "None" })),
  run: options.run
})

/** A tool whose run is one Effect producing its result (no progress). */
export const fromEffect = <I, R = never>(
  options: Omit<MakeOptions<I, R>, "run"> & {
    readonly run: (input: I, context: ToolContext) => Effect.Effect<ToolResult, ToolError, R>
  }
): Tool<I, R> => make({ ...options, run: (input, context) => Stream.fromEffect(options.run(input, context)) })

export type JsonSchemaToolOptions = {
  readonly name: string
  readonly description: string
  /** The input's JSON Schema, shown to the model as given (an MCP server's, say): never rewritten. */
  readonly inputJsonSchema: Record<string, unknown>
  readonly readOnly?: boolean
  readonly target?: (input: Readonly<Record<string, unknown>>, context: ToolContext) => ToolTarget
} & (
  | { readonly run: (input: Readonly<Record<string, unknown>>, context: ToolContext) => Stream.Stream<ToolOutput, ToolError> }
  /** A call that reports no progress: its result as one Effect (as `fromEffect` is to `make`). */
  | { readonly result: (input: Readonly<Record<string, unknown>>, context: ToolContext) => Effect.Effect<ToolResult, ToolError> }
)

/**
 * A tool described by a JSON Schema of its own rather than an Effect Schema: its input is passed on as the model
 * sent it, checked only to be a JSON object; the tool's owner (an MCP server) validates the rest.
 */
export const fromJsonSchema = (options: JsonSchemaToolOptions): AnyTool => ({
  name: options.name,
  description: options.description,
  readOnly: options.readOnly ?? false,
  inputJsonSchema: options.inputJsonSchema,
  prepare: (raw, context) =>
    isRecord(raw)
      ? Effect.succeed({
          input: raw,
          target: options.target ? options.target(raw, context) : { _tag: "None" },
          run: "result" in options ? () => Stream.fromEffect(options.result(raw, context)) : () => options.run(raw, context)
        })
      : Effect.fail(
          new InvalidToolInput({ tool: options.name, message: `Invalid input for ${options.name}: expected a JSON object` })
        )
})

/** Erases a tool's types, providing what its run needs through `provide`. */
export const erase = <I, R>(
  tool: Tool<I, R>,
  provide: <A, E>(stream: Stream.Stream<A, E, R>) => Stream.Stream<A, E>
): AnyTool => {
  // Compiled on the tool's first call: compiling every tool's decoder when the registry is built costs start-up.
  let decoder: ((raw: unknown) => Effect.Effect<I, Schema.SchemaError>) | undefined
  const decode = (raw: unknown) => (decoder ??= Schema.decodeUnknownEffect(tool.input, decodeOptions))(raw)
  return {
    name: tool.name,
    description: tool.description,
    readOnly: tool.readOnly,
    inputJsonSchema: jsonSchemaOf(tool.input),
    prepare: (raw, context) =>
      decode(raw).pipe(
        Effect.mapError(
          (error) => new InvalidToolInput({ tool: tool.name, message: `Invalid input for ${tool.name}: ${formatIssue(error.issue)}` })
        ),
        Effect.map((input) => ({
          input: raw,
          target: tool.target(input, context),
          run: () => provide(tool.run(input, context))
        }))
      )
  }
}
