/**
 * MCP prompts as slash commands, as Claude Code runs them: `/mcp__<server>__<prompt> args` as the prompt of `-p`
 * fetches that prompt from its server (server and prompt named as in tool names: every character outside
 * `[A-Za-z0-9_-]` as `_`) and its messages become the user turn. The words after the command fill the prompt's
 * arguments in order, the last argument taking the rest of the text; a required argument left without a value is
 * an error, as is a prompt no connected server offers.
 */
import type { GetPromptResult, PromptMessage } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import type { Interface as McpClient } from "./McpClient.js"
import { McpError } from "./McpClient.js"
import { contentBlock, normalize } from "./McpResult.js"

const command = /^\/mcp__([A-Za-z0-9_-]+?)__([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/

/** The server part, the prompt part and the argument text of a prompt command; undefined for any other prompt. */
export const parse = (prompt: string) => {
  const match = command.exec(prompt.trim())
  if (match === null) return undefined
  return { server: match[1] ?? "", prompt: match[2] ?? "", args: (match[3] ?? "").trim() }
}

/** The argument text over the prompt's arguments: a word each, the last taking the rest. */
export const bindArguments = (
  names: ReadonlyArray<string>,
  text: string
): Record<string, string> => {
  const out: Record<string, string> = {}
  let rest = text
  names.forEach((name, index) => {
    if (rest === "") return
    if (index === names.length - 1) {
      out[name] = rest
      rest = ""
      return
    }
    const match = /^(\S+)\s*([\s\S]*)$/.exec(rest)
    out[name] = match?.[1] ?? rest
    rest = match?.[2] ?? ""
  })
  return out
}

const messageText = (message: PromptMessage): string => {
  const block = contentBlock(message.content)
  return block.type === "text" ? block.text : `[${block.type}]`
}

/** A prompt's messages as the text of one user turn. */
export const asUserTurn = (result: GetPromptResult): string => result.messages.map(messageText).join("\n\n")

/**
 * The user turn for `prompt`: the MCP prompt it names, fetched, when it is a prompt command (`/mcp__server__name`);
 * undefined when it is not one.
 */
export const expand = (mcp: McpClient, prompt: string): Effect.Effect<string | undefined, McpError> =>
  Effect.gen(function* () {
    const parsed = parse(prompt)
    if (parsed === undefined) return undefined
    const commandName = `/mcp__${parsed.server}__${parsed.prompt}`
    const servers = (yield* mcp.servers).filter((status) => normalize(status.name) === parsed.server)
    const server = servers[0]
    if (server === undefined) {
      return yield* new McpError({ server: parsed.server, message: `${commandName}: no MCP server named ${parsed.server}` })
    }
    const offered = yield* mcp.listPrompts(server.name)
    const found = offered.find((entry) => normalize(entry.prompt.name) === parsed.prompt)?.prompt
    if (found === undefined) {
      const names = offered.map((entry) => `/mcp__${parsed.server}__${normalize(entry.prompt.name)}`)
      return yield* new McpError({
        server: server.name,
        message: `${commandName}: MCP server "${server.name}" has no such prompt${names.length === 0 ? "" : ` (its prompts: ${names.join(", ")})`}`
      })
    }
    const declared = found.arguments ?? []
    const args = bindArguments(
      declared.map((argument) => argument.name),
      parsed.args
    )
    const missing = declared.filter((argument) => argument.required === true && args[argument.name] === undefined)
    if (missing.length > 0) {
      return yield* new McpError({
        server: server.name,
        message: `${commandName} needs ${missing.map((argument) => argument.name).join(", ")} (usage: ${commandName} ${declared.map((argument) => `<${argument.name}>`).join(" ")})`
      })
    }
    return asUserTurn(yield* mcp.getPrompt(server.name, found.name, args))
  })
