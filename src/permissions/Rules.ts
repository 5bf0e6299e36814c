/**
 * Permission rules as Claude Code writes them: `Tool` or `Tool(specifier)`, in `permissions.allow` / `ask` / `deny`
 * of every settings scope and in `--allowedTools` / `--disallowedTools`.
 *
 * Which calls a rule's tool name covers:
 *   - the tool of that name;
 *   - `Edit` also Write, NotebookEdit and MultiEdit (every file edit), `Read` also Glob and Grep (every file read);
 *   - `mcp__server`, `mcp__server__*`: every tool of that MCP server; `mcp__server__tool`: that tool.
 * What the specifier means depends on the tool (Bash: command patterns; file tools: path patterns; WebFetch:
 * `domain:host`); PermissionRules.ts compiles them. A rule that does not parse is a warning naming it, never an allow.
 */
import type { Scope } from "../context/Settings.js"

export type Behavior = "allow" | "ask" | "deny"

export interface RuleSource {
  /** The settings scope, or `cli` for `--allowedTools` / `--disallowedTools`. */
  readonly scope: Scope | "cli"
  /** The file (or flag) the rule came from, to name it in messages. */
  readonly origin: string
  /** The directory `/path` and `./path` specifiers are relative to. */
  readonly root: string
}

export interface Rule {
  /** As written. */
  readonly text: string
  readonly tool: string
  /** Inside the parentheses; undefined for a bare tool name (`Tool` and `Tool(*)` alike). */
  readonly specifier: string | undefined
  readonly behavior: Behavior
  readonly source: RuleSource
}

export type RuleParse =
  | { readonly _tag: "Rule"; readonly tool: string; readonly specifier: string | undefined }
  | { readonly _tag: "Invalid"; readonly message: string }

const toolNameRe = /^[A-Za-z_][A-Za-z0-9_-]*(?:\*)?$/

/** Parses `Tool` / `Tool(specifier)`; `\(` and `\)` inside a specifier are parentheses. */
export const parseRuleText = (text: string): RuleParse => {
  const trimmed = text.trim()
  if (trimmed === "") return { _tag: "Invalid", message: "an empty rule" }
  const open = trimmed.indexOf("(")
  if (open === -1) {
    if (trimmed.includes(")")) return { _tag: "Invalid", message: `"${trimmed}" has a ")" without "("` }
    return toolNameRe.test(trimmed) ? { _tag: "Rule", tool: trimmed, specifier: undefined } : { _tag: "Invalid", message: `"${trimmed}" is not a tool name` }
  }
  const tool = trimmed.slice(0, open).trim()
  if (!trimmed.endsWith(")")) return { _tag: "Invalid", message: `"${trimmed}" does not end with ")"` }
  if (!toolNameRe.test(tool) || tool.endsWith("*")) return { _tag: "Invalid", message: `"${tool}" is not a tool name` }
  const inner = trimmed.slice(open + 1, -1).replace(/\\([()])/g, "$1")
  const specifier = inner.trim()
  // `Tool()` and `Tool(*)` are the whole tool, as in Claude Code.
  return { _tag: "Rule", tool, specifier: specifier === "" || specifier === "*" ? undefined : specifier }
}

export const fileEditTools: ReadonlySet<string> = new Set(["Edit", "Write", "NotebookEdit", "MultiEdit"])
export const fileReadTools: ReadonlySet<string> = new Set(["Read", "Glob", "Grep"])

/** Whether a rule naming `ruleTool` covers calls of `toolName`. */
export const ruleCoversTool = (ruleTool: string, toolName: string): boolean => {
  if (ruleTool === toolName) return true
  // Claude Code's former name of the subagent tool: `Task(x)` rules and `Task` calls are the Agent tool's.
  if ((ruleTool === "Agent" || ruleTool === "Task") && (toolName === "Agent" || toolName === "Task")) return true
  if (ruleTool === "Edit") return fileEditTools.has(toolName)
  if (ruleTool === "Read") return fileReadTools.has(toolName)
  if (ruleTool.startsWith("mcp__")) {
    const server = ruleTool.endsWith("__*") ? ruleTool.slice(0, -3) : ruleTool
    // `mcp__server` (no tool part) or `mcp__server__*`: every tool of the server, by whole name parts.
    if (ruleTool.endsWith("__*") || server.indexOf("__", 5) === -1) return toolName.startsWith(`${server}__`)
  }
  return false
}

/**
 * The MCP tools that deny rules take out of the model's view (`mcp__server`, `mcp__server__*`, `mcp__server__tool`;
 * an MCP rule with a specifier holds for its whole tool), as Claude Code does: a tool that can only be refused is
 * not offered. Rules that do not parse name no tool and take nothing away.
 */
export const mcpToolsDeniedBy = (denyRules: ReadonlyArray<string>): ((toolName: string) => boolean) => {
  const tools = denyRules.flatMap((text) => {
    const parsed = parseRuleText(text)
    return parsed._tag === "Rule" && parsed.tool.startsWith("mcp__") ? [parsed.tool] : []
  })
  if (tools.length === 0) return () => false
  return (toolName) => toolName.startsWith("mcp__") && tools.some((tool) => ruleCoversTool(tool, toolName))
}

export interface Collected {
  readonly rules: ReadonlyArray<Rule>
  readonly warnings: ReadonlyArray<string>
}

/** Parses each of `texts` as a rule of `behavior` from `source`; the ones that do not parse become warnings. */
export const collect = (texts: ReadonlyArray<string>, behavior: Behavior, source: RuleSource): Collected => {
  const rules: Array<Rule> = []
  const warnings: Array<string> = []
  for (const text of texts) {
    const parsed = parseRuleText(text)
    if (parsed._tag === "Invalid") warnings.push(`weft: ignoring the ${behavior} rule "${text}" in ${source.origin}: ${parsed.message}`)
    else rules.push({ text, tool: parsed.tool, specifier: parsed.specifier, behavior, source })
  }
  return { rules, warnings }
}
