/**
 * Subagent definitions, found where Claude Code finds them: the built-in `general-purpose`, `Explore` and `Plan`,
 * `~/.claude/agents/*.md` (user), `.claude/agents/*.md` (project) and `--agents '<json>'` (or the SDK's
 * `initialize`). On a clash of names `--agents` wins over the project, which wins over the user, which wins over
 * the built-ins. A file's header gives `name` (the file name is not used), `description`, `tools` and
 * `disallowedTools` (comma lists), `model` (`inherit` or none: the session's); its body is the agent's system prompt.
 *
 * Agents are prompts with a tool list, not code: a project's load whether or not it is trusted (their tools run
 * under the session's permission rules). A file that cannot be read or lacks a name or a description is skipped
 * with a warning, never a failure.
 */
import * as Effect from "effect/Effect"
import { homedir } from "node:os"
import { join } from "node:path"
import { isRecord } from "../domain/Json.js"
import { listNames, probe, readSmallText } from "../platform/FileProbe.js"
import * as Frontmatter from "./Frontmatter.js"

export type Source = "built-in" | "user" | "project" | "flag" | "sdk"

export interface Definition {
  /** The `subagent_type` that names it. */
  readonly name: string
  /** When to use it, for the model. */
  readonly description: string
  /** Its system prompt. */
  readonly prompt: string
  /** The tools it has; undefined: every tool of the session but the Agent tool. */
  readonly tools?: ReadonlyArray<string>
  /** Tools taken out of its set. */
  readonly disallowedTools?: ReadonlyArray<string>
  /** Its model; undefined (or `inherit`): the session's. */
  readonly model?: string
  /** It runs in plan mode: only reads and read-only commands (Explore, Plan). */
  readonly planMode?: boolean
  readonly source: Source
}

export interface Loaded {
  readonly definitions: ReadonlyArray<Definition>
  /** Files or entries skipped, for stderr. */
  readonly warnings: ReadonlyArray<string>
}

/** The tools a read-only agent may have (the session's that exist are kept). */
const readOnlyTools = ["Bash", "Glob", "Grep", "Read", "WebFetch", "WebSearch", "BashOutput", "TodoWrite"]
const readOnlyRemoved = ["Agent", "ExitPlanMode", "Edit", "Write", "NotebookEdit"]

const readOnlyPrompt = (role: string) =>
  `You are ${role} for a coding agent. You only read: you search and read files and run read-only commands; you never ` +
  `create, modify or delete anything (the session refuses it). Report what you found clearly and concisely, naming the ` +
  `files (absolute paths) and lines that matter; your final message is all the caller sees.`

export const builtIn: ReadonlyArray<Definition> = [
  {
    name: "general-purpose",
    description:
      "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. " +
      "When you are searching for a keyword or file and are not confident that you will find the right match in the " +
      "first few tries use this agent to perform the search for you.",
    prompt:
      "You are an agent for a coding agent. Given the user's message, use the tools available to complete the task. " +
      "Do what has been asked; nothing more, nothing less. When you complete the task, respond with a concise report " +
      "of what was done and any key findings: your final message is all the caller sees. Use absolute file paths.",
    source: "built-in"
  },
  {
    name: "Explore",
    description:
      "Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns (eg. " +
      '"src/components/**/*.tsx"), search code for keywords (eg. "API endpoints"), or answer questions about the ' +
      'codebase (eg. "how do API endpoints work?"). When calling this agent, specify the desired thoroughness level: ' +
      '"quick", "medium", or "very thorough".',
    prompt: readOnlyPrompt("a file search specialist"),
    tools: readOnlyTools,
    disallowedTools: readOnlyRemoved,
    planMode: true,
    source: "built-in"
  },
  {
    name: "Plan",
    description:
      "Software architect agent for designing implementation plans. Use this when you need to plan the implementation " +
      "strategy for a task. Returns step-by-step plans, identifies critical files, and considers architectural trade-offs.",
    prompt:
      readOnlyPrompt("a software architect planning a change") +
      " End with a step-by-step implementation plan and the files it touches.",
    tools: readOnlyTools,
    disallowedTools: readOnlyRemoved,
    planMode: true,
    source: "built-in"
  }
]

/** A comma list (`Read, Grep, Bash(git log:*)`) or a YAML list, as rules are written. */
const listOf = (attributes: ReadonlyMap<string, Frontmatter.Value>, key: string): ReadonlyArray<string> | undefined =>
  attributes.has(key) ? Frontmatter.rulesOf(attributes, key) : undefined

const modelOf = (model: string | undefined) => (model === undefined || model === "inherit" || model === "" ? {} : { model })

/** One agent file; undefined (with a warning) when it names no agent. */
export const fromMarkdown = (text: string, path: string, source: Source, warnings: Array<string>): Definition | undefined => {
  const parsed = Frontmatter.parse(text)
  for (const warning of parsed.warnings) warnings.push(`${path}: ${warning}`)
  const name = Frontmatter.stringOf(parsed.attributes, "name")
  const description = Frontmatter.stringOf(parsed.attributes, "description")
  if (name === undefined || description === undefined) {
    warnings.push(`${path}: an agent file needs a name and a description in its header; skipped`)
    return undefined
  }
  const tools = listOf(parsed.attributes, "tools")
  const disallowedTools = listOf(parsed.attributes, "disallowedTools")
  return {
    name,
    description,
    prompt: parsed.body.trim(),
    ...(tools === undefined ? {} : { tools }),
    ...(disallowedTools === undefined ? {} : { disallowedTools }),
    ...modelOf(Frontmatter.stringOf(parsed.attributes, "model")),
    source
  }
}

const stringList = (value: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : typeof value === "string" ? value.split(/\s*,\s*/).filter((item) => item !== "") : undefined

/**
 * `--agents '{"name": {"description", "prompt", "tools"?, "disallowedTools"?, "model"?}}'` (the SDK's `agents`):
 * the definitions, or an error message for the user.
 */
export const fromJson = (value: unknown, source: Source = "flag"): { readonly definitions: ReadonlyArray<Definition>; readonly error?: string } => {
  if (!isRecord(value)) return { definitions: [], error: "--agents must be a JSON object of agents by name" }
  const definitions: Array<Definition> = []
  for (const [name, entry] of Object.entries(value)) {
    if (!isRecord(entry) || typeof entry["description"] !== "string" || typeof entry["prompt"] !== "string") {
      return { definitions: [], error: `--agents: the agent "${name}" needs a "description" and a "prompt" (strings)` }
    }
    const tools = stringList(entry["tools"])
    const disallowedTools = stringList(entry["disallowedTools"])
    definitions.push({
      name,
      description: entry["description"],
      prompt: entry["prompt"],
      ...(tools === undefined ? {} : { tools }),
      ...(disallowedTools === undefined ? {} : { disallowedTools }),
      ...modelOf(typeof entry["model"] === "string" ? entry["model"] : undefined),
      source
    })
  }
  return { definitions }
}

/** Parses the `--agents` flag's text. */
export const parseFlag = (text: string): { readonly definitions: ReadonlyArray<Definition>; readonly error?: string } => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { definitions: [], error: `--agents is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  return fromJson(value)
}

/** Bound on the agent files read per folder. */
const maxFiles = 200

const loadFolder = (root: string, source: Source, warnings: Array<string>) =>
  Effect.gen(function* () {
    if ((yield* probe(root)) !== "Directory") return []
    const names = [...(yield* listNames(root).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])))].sort()
    const found: Array<Definition> = []
    for (const name of names.filter((entry) => entry.endsWith(".md") && !entry.startsWith(".")).slice(0, maxFiles)) {
      const path = join(root, name)
      if ((yield* probe(path)) !== "File") continue
      const read = yield* readSmallText(path)
      if ("error" in read) {
        warnings.push(`${path}: could not be read (${read.error.message}); skipped`)
        continue
      }
      const definition = fromMarkdown(read.text, path, source, warnings)
      if (definition !== undefined) found.push(definition)
    }
    return found
  })

/** Later lists win on a clash of names; the order of first appearance is kept. */
export const merge = (...lists: ReadonlyArray<ReadonlyArray<Definition>>): ReadonlyArray<Definition> => {
  const byName = new Map<string, Definition>()
  for (const list of lists) for (const definition of list) byName.set(definition.name, definition)
  return [...byName.values()]
}

export interface Options {
  readonly cwd: string
  readonly home?: string
  /** `--agents` (or the SDK's), which win over every file. */
  readonly flag?: ReadonlyArray<Definition>
}

/** The built-ins, the user's, the project's, then `flag`'s, each winning over the ones before. */
export const load = (options: Options): Effect.Effect<Loaded> =>
  Effect.gen(function* () {
    const home = options.home ?? homedir()
    const warnings: Array<string> = []
    const user = yield* loadFolder(join(home, ".claude", "agents"), "user", warnings)
    // The project may be the home directory itself: its folder is then the user's, read once.
    const project = options.cwd === home ? [] : yield* loadFolder(join(options.cwd, ".claude", "agents"), "project", warnings)
    return { definitions: merge(builtIn, user, project, options.flag ?? []), warnings }
  })

/** How a definition's tools read in the listing: `*`, `All tools except ...`, or the list. */
export const toolsLabel = (definition: Definition): string => {
  if (definition.tools === undefined || definition.tools.includes("*")) {
    const removed = definition.disallowedTools ?? []
    return removed.length === 0 ? "*" : `All tools except ${removed.join(", ")}`
  }
  const removed = new Set(definition.disallowedTools ?? [])
  return definition.tools.filter((tool) => !removed.has(tool)).join(", ")
}

/** The listing the model reads (one line per agent), as Claude Code words it. */
export const listing = (definitions: ReadonlyArray<Definition>): string =>
  [
    "Available agent types for the Agent tool (subagent_type):",
    ...definitions.map((definition) => `- ${definition.name}: ${definition.description} (Tools: ${toolsLabel(definition)})`)
  ].join("\n")
