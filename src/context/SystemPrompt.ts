/**
 * Assembles the system prompt: weft's base instructions, the `<env>` block, the MCP servers' instructions, then the
 * memory files. Pure: the facts come in as values (Environment, Memory, the servers' instructions), so the same
 * inputs always give the same prompt (and the prompt cache stays warm across turns).
 *
 * As in Claude Code, `--system-prompt` replaces the whole default prompt (instructions, env, MCP and memory);
 * `--append-system-prompt` is added at the end of whichever prompt is used.
 */
import * as Option from "effect/Option"
import type { Interface as EnvironmentValues } from "./Environment.js"
import type { MemoryFile, MemoryScope } from "./Memory.js"

export interface BuildOptions {
  readonly environment: EnvironmentValues
  readonly memory: ReadonlyArray<MemoryFile>
  /** The tools offered this session: the instructions only mention tools that exist. */
  readonly toolNames: ReadonlyArray<string>
  /** The `instructions` connected MCP servers gave, each under its server's name. */
  readonly mcpInstructions?: ReadonlyArray<{ readonly server: string; readonly instructions: string }>
  /** What the model should know about the command sandbox (Sandbox's `note`), if anything. */
  readonly sandboxNote?: string
  readonly customSystemPrompt?: string
  readonly appendSystemPrompt?: string
}

const scopeDescription: Record<MemoryScope, string> = {
  user: "user's private global instructions for all projects",
  project: "project instructions, checked into the codebase",
  local: "user's private project instructions, not checked in"
}

const identity = `You are weft, an agent runtime for software engineering work. You help the user with coding tasks in \
their project: reading and changing code, running commands, finding things, explaining and fixing. Use the \
instructions below and the tools available to you.`

const style = `# Tone and style
- Be concise and direct. Answer in a few lines unless the user asks for detail; no preamble, no summary of what \
you just did unless asked.
- Your output is shown in a terminal and rendered as GitHub-flavoured markdown.
- Refer to code as \`path/to/file.ts:42\` so the user can jump to it.
- Do what was asked, nothing more and nothing less. Prefer editing existing files to creating new ones; never \
create documentation files unless asked.
- Never guess at facts about the code: look them up with the tools.`

const doingTasks = `# Doing tasks
- Understand before changing: read the relevant code and follow the project's conventions, libraries and style.
- Make the smallest change that solves the problem, then check it (run the tests, the type checker or the \
linter the project uses, if you can find how).
- Never commit, push or make other changes outside the working tree unless the user asks.
- Never expose or log secrets and keys.`

/** Tool-specific guidance, each line only when its tools are offered. */
const toolNotes = (tools: ReadonlySet<string>): ReadonlyArray<string> => {
  const has = (name: string) => tools.has(name)
  const notes: Array<string> = []
  if (has("Read") && (has("Edit") || has("Write"))) {
    notes.push("- Read a file before you Edit or overwrite it; if it changed since you read it, read it again.")
  }
  if (has("Edit")) {
    notes.push("- Edit needs `old_string` to match exactly once (with its indentation); include more context or use `replace_all`.")
  }
  if (has("Grep") || has("Glob")) {
    const which = ["Grep", "Glob"].filter(has).join(" and ")
    notes.push(`- To search, use ${which} rather than \`grep\`, \`find\` or \`ls -R\` in Bash: they are faster and respect .gitignore.`)
  }
  if (has("Read")) notes.push("- Use Read to look at files, not `cat`, `head` or `tail` in Bash.")
  if (has("Bash")) {
    notes.push(
      "- Bash runs in a persistent shell: the working directory carries over between calls. Quote paths with spaces; chain dependent commands with `&&`; avoid interactive commands (they cannot be answered) and long-running ones without `run_in_background`."
    )
  }
  if (has("TodoWrite")) {
    notes.push("- For a task of several steps, keep a todo list with TodoWrite and mark items done as you go.")
  }
  if (tools.size > 0) {
    notes.push("- When several tool calls do not depend on each other, make them in the same response.")
  }
  return notes
}

const yesNo = (value: boolean) => (value ? "Yes" : "No")

export const environmentBlock = (env: EnvironmentValues): string => {
  const lines = [
    `Working directory: ${env.cwd}`,
    `Is directory a git repo: ${yesNo(env.isGitRepo)}`,
    ...Option.match(env.gitBranch, { onNone: () => [], onSome: (branch) => [`Current git branch: ${branch}`] }),
    ...(env.additionalDirectories.length > 0
      ? [`Additional working directories: ${env.additionalDirectories.join(", ")}`]
      : []),
    `Platform: ${env.platform}`,
    `OS Version: ${env.osVersion}`,
    `Today's date: ${env.today}`
  ]
  return `Here is useful information about the environment you are running in:\n<env>\n${lines.join("\n")}\n</env>`
}

export const memorySection = (memory: ReadonlyArray<MemoryFile>): string | undefined => {
  if (memory.length === 0) return undefined
  const parts = memory.map((file) =>
    file.skipped === undefined
      ? `Contents of ${file.path} (${scopeDescription[file.scope]}):\n\n${file.content.trimEnd()}`
      : `Note: ${file.path} (${scopeDescription[file.scope]}) was not loaded: ${file.skipped}.`
  )
  return [
    "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.",
    ...parts
  ].join("\n\n")
}

/** The MCP servers' own instructions, in Claude Code's words; undefined when no server gave any. */
export const mcpInstructionsSection = (
  servers: ReadonlyArray<{ readonly server: string; readonly instructions: string }>
): string | undefined => {
  if (servers.length === 0) return undefined
  const blocks = servers.map((entry) => `## ${entry.server}\n${entry.instructions}`).join("\n\n")
  return `# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n${blocks}`
}

/** The default prompt: instructions, tool notes, environment, the MCP servers' instructions, memory. */
export const defaultPrompt = (options: Omit<BuildOptions, "customSystemPrompt" | "appendSystemPrompt">): string => {
  const notes = toolNotes(new Set(options.toolNames))
  const sections = [
    identity,
    style,
    doingTasks,
    ...(notes.length > 0 ? [`# Using the tools\n${notes.join("\n")}`] : []),
    ...(options.sandboxNote === undefined ? [] : [`# Sandbox\n${options.sandboxNote}`]),
    environmentBlock(options.environment),
    ...Option.toArray(Option.fromNullishOr(mcpInstructionsSection(options.mcpInstructions ?? []))),
    ...Option.toArray(Option.fromNullishOr(memorySection(options.memory)))
  ]
  return sections.join("\n\n")
}

export const build = (options: BuildOptions): string => {
  const base = options.customSystemPrompt ?? defaultPrompt(options)
  const append = options.appendSystemPrompt
  return append === undefined || append === "" ? base : `${base}\n\n${append}`
}
