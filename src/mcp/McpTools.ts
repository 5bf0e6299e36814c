/**
 * The MCP servers' tools as registry tools: each server tool as `mcp__<server>__<tool>` with the server's input
 * JSON Schema as given, and while a connected server offers resources, ListMcpResourcesTool and
 * ReadMcpResourceTool. `current()` answers the same array until some server's list changes, so a registry built
 * with `ToolRegistry.withExtraTools` rebuilds only then.
 *
 * Annotations (`readOnlyHint`, `destructiveHint`) are the server's own claims: nothing here lets them allow a
 * call or mark it read-only. Permission rules (`mcp__server`, `mcp__server__tool`, `mcp__server__*`) apply by name.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Variables from "../platform/Variables.js"
import * as Tool from "../tools/Tool.js"
import type { McpError, Interface as McpClient } from "./McpClient.js"
import { DEFAULT_MAX_OUTPUT_TOKENS, mapCallResult, mapReadResult, toolName, truncate } from "./McpResult.js"

export interface Options {
  /** The most one call's result may give the model, in tokens: the session passes `maxOutputTokens` (the variable). */
  readonly maxOutputTokens: number
}

const toolFailed = (tool: string) => (error: McpError) => Tool.fail(tool, error.message)

/**
 * `MAX_MCP_OUTPUT_TOKENS` read through Config (a test provides its own ConfigProvider): a positive integer, else
 * Claude Code's default, 25 000.
 */
export const maxOutputTokens: Effect.Effect<number> = Effect.map(
  Variables.positiveInt("MAX_MCP_OUTPUT_TOKENS"),
  Option.getOrElse(() => DEFAULT_MAX_OUTPUT_TOKENS)
)

/** One server tool as a registry tool (undefined when its full name is over 128 characters). */
export const serverTool = (mcp: McpClient, server: string, tool: McpTool, maxTokens: number): Tool.AnyTool | undefined => {
  const name = toolName(server, tool.name)
  if (name === undefined) return undefined
  return Tool.fromJsonSchema({
    name,
    description: tool.description ?? "",
    inputJsonSchema: tool.inputSchema,
    result: (input) =>
      mcp.callTool(server, tool.name, input).pipe(
        Effect.mapBoth({
          onFailure: toolFailed(name),
          onSuccess: (result): Tool.ToolResult => {
            const mapped = mapCallResult(result, maxTokens)
            return { _tag: "ToolResult", content: mapped.content, data: mapped.data, ...(mapped.isError ? { isError: true } : {}) }
          }
        })
      )
  })
}

const resourceTools = (mcp: McpClient, maxTokens: number): ReadonlyArray<Tool.AnyTool> => {
  const list = Tool.fromEffect({
    name: "ListMcpResourcesTool",
    description:
      "Lists the resources MCP servers offer (each with the server it comes from). Give `server` to list one server's only.",
    input: Schema.Struct({
      server: Schema.optional(Schema.String.annotate({ description: "Only this server's resources" }))
    }),
    readOnly: true,
    run: (input) =>
      mcp.listResources(input.server).pipe(
        Effect.map((entries) =>
          Tool.result(
            truncate([{ type: "text", text: JSON.stringify(entries.map((entry) => ({ ...entry.resource, server: entry.server }))) }], maxTokens),
            entries
          )
        ),
        Effect.mapError(toolFailed("ListMcpResourcesTool"))
      )
  })
  const read = Tool.fromEffect({
    name: "ReadMcpResourceTool",
    description: "Reads one resource of an MCP server by its URI (ListMcpResourcesTool lists them).",
    input: Schema.Struct({
      server: Schema.String.annotate({ description: "The server that offers the resource" }),
      uri: Schema.String.annotate({ description: "The resource's URI" })
    }),
    readOnly: true,
    run: (input) =>
      mcp.readResource(input.server, input.uri).pipe(
        Effect.map((result) => Tool.result(mapReadResult(result, maxTokens), result)),
        Effect.mapError(toolFailed("ReadMcpResourceTool"))
      )
  })
  return [Tool.erase(list, (stream) => stream), Tool.erase(read, (stream) => stream)]
}

/** The current MCP tools, as one array that changes identity only when the servers' lists change. */
export const make = (mcp: McpClient, options: Options): (() => ReadonlyArray<Tool.AnyTool>) => {
  const maxTokens = options.maxOutputTokens
  const perList = new WeakMap<ReadonlyArray<McpTool>, ReadonlyArray<Tool.AnyTool>>()
  let resources: ReadonlyArray<Tool.AnyTool> | undefined
  let lastKey: ReadonlyArray<unknown> = []
  let current: ReadonlyArray<Tool.AnyTool> = []
  return () => {
    const lists = mcp.tools()
    const withResources = mcp.hasResources()
    const key = [withResources, ...lists.flatMap((entry) => [entry.server, entry.tools])]
    if (key.length === lastKey.length && key.every((item, index) => item === lastKey[index])) return current
    lastKey = key
    const tools: Array<Tool.AnyTool> = []
    for (const { server, tools: list } of lists) {
      let converted = perList.get(list)
      if (converted === undefined) {
        converted = list.flatMap((tool) => serverTool(mcp, server, tool, maxTokens) ?? [])
        perList.set(list, converted)
      }
      tools.push(...converted)
    }
    if (withResources) tools.push(...(resources ??= resourceTools(mcp, maxTokens)))
    current = tools
    return current
  }
}
