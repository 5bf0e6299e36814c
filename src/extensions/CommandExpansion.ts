/**
 * A prompt that starts with `/name args`, expanded as Claude Code expands a custom command (or a skill: commands
 * and skills share their names):
 *   1. the command's `allowed-tools` are granted for the run (session allow rules: Grants.ts), and its `model` is
 *      the run's;
 *   2. its body gets the arguments (Arguments.ts);
 *   3. each `@path` in it that names a file is read through the Read tool and the Read permission check, and
 *      attached as a Read result before the prompt;
 *   4. each `` !`cmd` `` in it runs, through the session's Bash tool and the Bash permission rules as a call of the
 *      model would (the grants included), and its output replaces it;
 *   5. the user message is a block `<command-message>…</command-message>\n<command-name>/…</command-name>\n
 *      <command-args>…</command-args>`, then the expanded body.
 * Beyond Claude Code: a `` !`cmd` `` that is refused or fails, and an `@path` whose reading is refused (a file
 * outside the workspace: asked about, so refused under `-p`), end the run as an error naming why, before any
 * request (Claude Code attaches such a file unchecked, and reports a failed command as a success).
 *
 * An unknown `/name` is sent as typed, with a note listing the commands there are. What is not a command (no
 * leading `/`, or `/usr/bin/...`) is left alone.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { homedir } from "node:os"
import { isAbsolute, resolve } from "node:path"
import type { Result } from "../domain/AgentEvent.js"
import type { ContentBlock, TextBlock } from "../domain/Content.js"
import * as SessionState from "../session/SessionState.js"
import { Settings } from "../context/Settings.js"
import { type CheckRequest, Permissions } from "../permissions/Permissions.js"
import { probe } from "../platform/FileProbe.js"
import * as Uuid from "../platform/Uuid.js"
import * as Tool from "../tools/Tool.js"
import { ToolRegistry } from "../tools/ToolRegistry.js"
import * as Arguments from "./Arguments.js"
import { bodyOf, type Extension, Extensions, find, type Loaded, listing, skillToolName } from "./Extensions.js"
import * as Grants from "./Grants.js"

/** A prompt expanded: what the user message holds, the rules granted, the model for the run. */
export interface Expanded {
  readonly content: ReadonlyArray<ContentBlock>
  /** The rules granted for the run (already in force: session allow rules). */
  readonly allowedTools: ReadonlyArray<string>
  /** The command's model, for every request of the run. */
  readonly model?: string
  /** The command or skill run, when the prompt named one. */
  readonly extension?: Extension
  /** Texts for the model after the prompt, as system reminders (an unknown command's note, the skills listing). */
  readonly reminders: ReadonlyArray<string>
}

/** A `` !`cmd` `` or an `@path` of the command was refused or failed: the run ends as an error with this message. */
export class CommandRefused extends Data.TaggedError("CommandRefused")<{ readonly message: string }> {}

/** `/name` and the rest (the arguments, as typed), when `prompt` is a command's form. */
export const parseCommand = (prompt: string): { readonly name: string; readonly args: string } | undefined => {
  const match = /^\/([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?:[ \t\n]+([\s\S]*))?$/.exec(prompt.trimStart())
  if (match === null) return undefined
  return { name: match[1] ?? "", args: (match[2] ?? "").trim() }
}

/** `` !`cmd` `` in a body (not inside a longer backtick run). */
const bashPattern = /(?<![\w`])!`([^`\n]+)`/g
/** `@path` at the start of a line or after whitespace; trailing punctuation is not part of the path. */
const filePattern = /(^|\s)@((?:[^\s`"'<>]|\\ )+)/g

const commandBlock = (extension: Extension, args: string): TextBlock => ({
  type: "text",
  text: `<command-message>${extension.name}</command-message>\n<command-name>/${extension.name}</command-name>\n<command-args>${args}</command-args>`
})

const textOf = (content: Tool.ToolResult["content"]): string =>
  typeof content === "string" ? content : content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n")

/** What the services give expansion: the session's tools, run under its permissions (and their grants). */
export interface Services {
  readonly registry: ToolRegistry["Service"]
  readonly permissions: Permissions["Service"]
  /** Grants rules for the rest of the session (default: session allow rules on `permissions`). */
  readonly grant?: (rules: ReadonlyArray<string>, what: string) => Effect.Effect<void>
  readonly home: string
  readonly cwd: string
  readonly sessionId: string
}

/** One tool call made on the user's behalf, under the session's permissions (an ask goes to its Prompter). */
const runTool = (services: Services, toolName: string, input: Readonly<Record<string, unknown>>, what: string) =>
  Effect.gen(function* () {
    const tool = yield* services.registry.get(toolName).pipe(
      Effect.mapError(() => new CommandRefused({ message: `${what}: the ${toolName} tool is not available in this session.` }))
    )
    const context: Tool.ToolContext = { toolUseId: `command_${yield* Uuid.v4}`, sessionId: services.sessionId, cwd: services.cwd }
    const prepared = yield* tool.prepare(input, context).pipe(Effect.mapError((error) => new CommandRefused({ message: `${what}: ${error.message}` })))
    const request: CheckRequest = {
      toolName,
      toolUseId: context.toolUseId,
      input: prepared.input,
      target: prepared.target,
      readOnly: tool.readOnly
    }
    const checked = yield* services.permissions.check(request)
    const decision = checked._tag === "Ask" ? yield* services.permissions.prompt(request, checked.reason) : checked
    if (decision._tag !== "Allow") return yield* new CommandRefused({ message: `${what} was refused: ${decision.reason}` })
    return yield* Tool.outcome(prepared, toolName).pipe(Effect.mapError((error) => new CommandRefused({ message: `${what} failed: ${error.message}` })))
  })

/**
 * The body with each `` !`cmd` `` replaced by its output (run in order; the first refused or failing one ends it),
 * `label` naming where it comes from in a refusal (`/name`, `the skill name`).
 */
export const runShellCommands = (services: Services, body: string, label: string) =>
  Effect.gen(function* () {
    const outputs: Array<string> = []
    for (const match of body.matchAll(bashPattern)) {
      const command = match[1] ?? ""
      const what = `${label}: !\`${command}\``
      const result = yield* runTool(services, "Bash", { command }, what)
      if (result.isError === true) return yield* new CommandRefused({ message: `${what} failed: ${textOf(result.content).trim()}` })
      outputs.push(textOf(result.content))
    }
    let index = 0
    return body.replace(bashPattern, () => outputs[index++] ?? "")
  })

/**
 * The files `text` names with `@path` (those that exist), each read through Read, under the session's permissions,
 * as a result block; `label` (`/name: `, or "" for a typed prompt) begins a refusal's message.
 */
export const attachFiles = (services: Services, text: string, label: string) =>
  Effect.gen(function* () {
    const attached: Array<TextBlock> = []
    const seen = new Set<string>()
    for (const match of text.matchAll(filePattern)) {
      const written = (match[2] ?? "").replace(/\\ /g, " ").replace(/[.,;:!?)\]]+$/, "")
      if (written === "") continue
      const path = written === "~" || written.startsWith("~/")
        ? resolve(services.home, written.slice(2))
        : isAbsolute(written) ? written : resolve(services.cwd, written)
      if (seen.has(path) || (yield* probe(path)) !== "File") continue
      seen.add(path)
      const input = { file_path: path }
      const result = yield* runTool(services, "Read", input, `${label}@${written}`)
      if (result.isError === true) return yield* new CommandRefused({ message: `${label}@${written}: ${textOf(result.content).trim()}` })
      attached.push({
        type: "text",
        text: `Called the Read tool with the following input: ${JSON.stringify(input)}\n\nResult of calling the Read tool:\n${textOf(result.content)}`
      })
    }
    return attached
  })

/** The note an unknown `/name` is sent with. */
const unknownNote = (name: string, loaded: Loaded): string => {
  const names = [...loaded.commands, ...loaded.skills].map((item) => `/${item.name}`)
  return `/${name} is not a custom command or skill here, so the prompt was sent as typed. ${
    names.length === 0 ? "There are no custom commands." : `The commands available: ${[...new Set(names)].join(", ")}.`
  }`
}

/**
 * `prompt` expanded with `loaded`'s commands and skills, running what it needs through `services`; a prompt that
 * is not a command comes back as it is.
 */
export const expandWith = Effect.fn("CommandExpansion.expand")(function* (
  prompt: string | ReadonlyArray<ContentBlock>,
  loaded: Loaded,
  services: Services
) {
  const asTyped = (reminders: ReadonlyArray<string> = []): Expanded => ({
    content: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt,
    allowedTools: [],
    reminders
  })
  const parsed = typeof prompt === "string" ? parseCommand(prompt) : undefined
  if (parsed === undefined) return asTyped()
  const extension = find(loaded, parsed.name)
  if (extension === undefined) return asTyped([unknownNote(parsed.name, loaded)])
  if (extension.allowedTools.length > 0) {
    const what = `/${extension.name}`
    yield* services.grant === undefined ? Grants.grant(services.permissions, extension.allowedTools, what) : services.grant(extension.allowedTools, what)
  }
  const substituted = bodyOf(extension, parsed.args)
  // The files the command names (not those a command's output happens to name), read before anything runs.
  const attachments = yield* attachFiles(services, substituted.replace(bashPattern, ""), `/${extension.name}: `)
  const body = yield* runShellCommands(services, substituted, `/${extension.name}`)
  const expanded: Expanded = {
    content: [...attachments, commandBlock(extension, parsed.args), { type: "text", text: body }],
    allowedTools: extension.allowedTools,
    ...(extension.model === undefined ? {} : { model: extension.model }),
    extension,
    reminders: []
  }
  return expanded
})

/**
 * The first prompt of a run, ready for the loop: expanded (`expandWith` on the session's commands, tools,
 * permissions and grants), with the skills listing as a reminder when the session offers the Skill tool (unless
 * `listing` is false: a later prompt of an interactive session). With `mentions`, a prompt that is not a command
 * has the files its `@path`s name attached before it (`attachFiles`), as the terminal's prompt does.
 */
export const prepare = Effect.fn("CommandExpansion.prepare")(function* (
  prompt: string | ReadonlyArray<ContentBlock>,
  options: { readonly sessionId?: string; readonly listing?: boolean; readonly mentions?: boolean } = {}
) {
  const { loaded, services } = yield* sessionServices(options.sessionId)
  for (const warning of loaded.warnings) yield* Effect.logWarning(`weft: ${warning}`)
  const expanded = yield* expandWith(prompt, loaded, services)
  const mentioned = options.mentions === true && typeof prompt === "string" && parseCommand(prompt) === undefined
  const attachments = mentioned ? yield* attachFiles(services, prompt, "") : []
  return {
    ...expanded,
    content: [...attachments, ...expanded.content],
    reminders: [...expanded.reminders, ...(options.listing === false ? [] : yield* listingReminders)]
  }
})

/**
 * What `expandWith` runs with in the session in context: its commands and skills, its tools and permissions (the
 * grants session allow rules). A host that expands each prompt as it comes (the SDK protocol) takes them once.
 */
export const sessionServices = Effect.fn("CommandExpansion.sessionServices")(function* (sessionId?: string) {
  const loaded = yield* Extensions
  const settings = yield* Settings
  const services: Services = {
    registry: yield* ToolRegistry,
    permissions: yield* Permissions,
    home: settings.home || homedir(),
    cwd: settings.projectDir,
    sessionId: sessionId ?? ""
  }
  return { loaded, services }
})

/**
 * The skills listing for a session's first prompt, as a reminder, when the session offers the Skill tool (none
 * otherwise: `--disallowedTools Skill` removes both).
 */
export const listingReminders: Effect.Effect<ReadonlyArray<string>, never, Extensions | ToolRegistry> = Effect.gen(function* () {
  const registry = yield* ToolRegistry
  const list = registry.tools.some((tool) => tool.name === skillToolName) ? listing(yield* Extensions) : undefined
  return list === undefined ? [] : [list]
})

/** The names the init frame lists: `slash_commands` (commands and skills) and `skills`. */
export const initLists = (loaded: Loaded): { readonly slashCommands: ReadonlyArray<string>; readonly skills: ReadonlyArray<string> } => ({
  slashCommands: [...new Set([...loaded.commands, ...loaded.skills].map((item) => item.name))],
  skills: loaded.skills.map((skill) => skill.name)
})

/** The Result of a run that a refused command ended before any request (see the module doc). */
export const refusedResult = (refusal: CommandRefused, sessionId: string | undefined) =>
  Effect.map(sessionId === undefined ? Uuid.v4 : Effect.succeed(sessionId), (id): Result => ({
  _tag: "Result",
  subtype: "error_during_execution",
  isError: true,
  result: refusal.message,
  numTurns: 0,
  durationMs: 0,
  durationApiMs: 0,
  totalCostUsd: 0,
  usage: SessionState.emptyTotals.usage,
  modelUsage: {},
  sessionId: id,
  permissionDenials: []
}))
