/**
 * weft's command-line options, declared once. Both argument parsers are generated from `printOptions`: the fast
 * one of CommandLine.ts (node:util, which every run goes through, so a plain `weft -p` never loads effect/cli) and
 * the effect/cli command of Commands.ts (shell completions); both only gather each option's raw values, and
 * `decodeOptions` below turns them into the print command's options, so a value is accepted or refused with the
 * same message whichever parser read it. The help (`weft --help`) is rendered from the same table.
 *
 * To add an option: one entry in `printOptions` (its key is the field the print command receives). Kinds:
 * `flag` (boolean), `text` (one value), `choice` (one of a list; with a default, or undefined when not given),
 * `count` (a whole number with a minimum), `list` (repeatable; optionally split on commas and spaces, optionally
 * checked). To add a command (`weft <name> ...`): one entry in `commands`, whose module is loaded only when it runs.
 *
 * Built-ins only (node:fs) and effect's Result: this runs before anything else is loaded.
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { statSync } from "node:fs"
import type { CliError, Outcome } from "./Outcome.js"

/** One option as the parsers and the help see it; `A` is what the print command receives. */
export interface OptionSpec<A> {
  /** The long name, without the dashes. */
  readonly name: string
  /** Other names: one letter is a short option (`-p`), more is a long one (`--allowed-tools`). */
  readonly aliases: ReadonlyArray<string>
  /** For an option that takes a value: its name in the help (`format`). Undefined for a flag. */
  readonly placeholder: string | undefined
  /** The values it accepts, in words, for errors and the help ("one of text, json, stream-json"). */
  readonly accepts: string
  /** Given several times, its values add up; otherwise giving it twice is an error. */
  readonly repeatable: boolean
  /** Takes the arguments after its value too, up to the next option (`--add-dir a b`). */
  readonly variadic?: boolean
  readonly description: string
  /** The values given (`""` for each time a flag was given), in order, to the value or what is wrong with them. */
  readonly decode: (given: ReadonlyArray<string>) => Result.Result<A, string>
}

interface Common {
  readonly name: string
  readonly aliases?: ReadonlyArray<string>
  readonly description: string
}

const base = (spec: Common) => ({ name: spec.name, aliases: spec.aliases ?? [], description: spec.description })

/** A single value: given twice is an error. */
const single = (given: ReadonlyArray<string>): Result.Result<string | undefined, string> =>
  given.length > 1
    ? Result.fail(`is given ${given.length} times (${given.map((value) => JSON.stringify(value)).join(", ")}): give it once`)
    : Result.succeed(given[0])

export const flag = (spec: Common): OptionSpec<boolean> => ({
  ...base(spec),
  placeholder: undefined,
  accepts: "no value",
  repeatable: false,
  decode: (given) => Result.succeed(given.length > 0)
})

export const text = (
  spec: Common & {
    readonly placeholder: string
    readonly accepts: string
    /** What is wrong with the value, if anything. */
    readonly check?: (value: string) => string | undefined
  }
): OptionSpec<string | undefined> => ({
  ...base(spec),
  placeholder: spec.placeholder,
  accepts: spec.accepts,
  repeatable: false,
  decode: (given) =>
    Result.flatMap(single(given), (value) => {
      const problem = value === undefined ? undefined : spec.check?.(value)
      return problem === undefined ? Result.succeed(value) : Result.fail(problem)
    })
})

interface ChoiceSpec<C extends string> extends Common {
  readonly placeholder: string
  readonly choices: ReadonlyArray<C>
}

/** One of a fixed list: `default` when not given (or undefined, without a default, to let settings decide). */
export function choice<const C extends string>(spec: ChoiceSpec<C> & { readonly default: C }): OptionSpec<C>
export function choice<const C extends string>(spec: ChoiceSpec<C>): OptionSpec<C | undefined>
export function choice<const C extends string>(spec: ChoiceSpec<C> & { readonly default?: C }): OptionSpec<C | undefined> {
  const accepts = `one of ${spec.choices.join(", ")}`
  const isChoice = (value: string): value is C => spec.choices.some((choice) => choice === value)
  return {
    ...base(spec),
    placeholder: spec.placeholder,
    accepts,
    repeatable: false,
    decode: (given) =>
      Result.flatMap(single(given), (value) =>
        value === undefined
          ? Result.succeed(spec.default)
          : isChoice(value)
            ? Result.succeed(value)
            : Result.fail(`must be ${accepts}, not ${JSON.stringify(value)}`)
      )
  }
}

export const count = (spec: Common & { readonly placeholder: string; readonly min: number }): OptionSpec<number | undefined> => {
  const accepts = `a whole number, ${spec.min} or more`
  return {
    ...base(spec),
    placeholder: spec.placeholder,
    accepts,
    repeatable: false,
    decode: (given) =>
      Result.flatMap(single(given), (value) => {
        if (value === undefined) return Result.succeed(undefined)
        const number = /^[0-9]{1,9}$/.test(value.trim()) ? Number(value) : Number.NaN
        return number >= spec.min ? Result.succeed(number) : Result.fail(`must be ${accepts}, not ${JSON.stringify(value)}`)
      })
  }
}

export const list = (
  spec: Common & {
    readonly placeholder: string
    readonly accepts: string
    /** Also split each value on commas and spaces outside parentheses (`"Read,Bash(git log)"`). */
    readonly split?: boolean
    /** What is wrong with one value, if anything. */
    readonly check?: (value: string) => string | undefined
    /**
     * Takes every argument after it up to the next option, as Claude Code does (`--allowedTools Edit "Bash(node:*)"`):
     * a prompt after such an option goes after `--`.
     */
    readonly variadic?: boolean
  }
): OptionSpec<ReadonlyArray<string>> => ({
  ...base(spec),
  placeholder: spec.placeholder,
  accepts: spec.accepts,
  repeatable: true,
  variadic: spec.variadic === true,
  decode: (given) => {
    const values = spec.split === true ? splitToolRules(given) : given
    for (const value of values) {
      const problem = spec.check?.(value)
      if (problem !== undefined) return Result.fail(problem)
    }
    return Result.succeed(values)
  }
})

/** `spec`, undefined when not given at all (given empty, it is an empty list: `--setting-sources=`). */
export const givenOrNot = <A>(spec: OptionSpec<A>): OptionSpec<A | undefined> => ({
  ...spec,
  decode: (given) => (given.length === 0 ? Result.succeed(undefined) : spec.decode(given))
})

/** Splits `--allowedTools "Read,Bash(git log)" Grep` values on commas and spaces outside parentheses. */
export const splitToolRules = (values: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const value of values) {
    let depth = 0
    let current = ""
    for (const char of value) {
      if (char === "(") depth++
      if (char === ")") depth = Math.max(0, depth - 1)
      if (depth === 0 && (char === "," || char === " ")) {
        if (current.trim() !== "") out.push(current.trim())
        current = ""
      } else current += char
    }
    if (current.trim() !== "") out.push(current.trim())
  }
  return out
}

/** What is wrong with `path` as a directory to work in, if anything. */
const notADirectory = (path: string): string | undefined => {
  try {
    return statSync(path).isDirectory() ? undefined : `${JSON.stringify(path)} is not a directory`
  } catch {
    return `${JSON.stringify(path)} does not exist`
  }
}

const exampleUuid = "123e4567-e89b-42d3-a456-426614174000"

/** A UUID in its canonical form (any version), as Claude Code requires of `--session-id`. */
export const isUuid = (value: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)

export const outputFormats = ["text", "json", "stream-json"] as const

export const inputFormats = ["text", "stream-json"] as const

/** Claude Code's permission modes. */
export const permissionModes = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"] as const

/** The settings files `--setting-sources` chooses among. */
export const settingSources = ["user", "project", "local"] as const
export type OutputFormat = (typeof outputFormats)[number]

/** The options of `weft [-p] [prompt]`, in the order of the help. */
export const printOptions = {
  print: flag({
    name: "print",
    aliases: ["p"],
    description: "Run the prompt non-interactively and print the result, then exit."
  }),
  outputFormat: choice({
    name: "output-format",
    placeholder: "format",
    choices: outputFormats,
    default: "text",
    description:
      "text (the answer; the default), json (one result object) or stream-json (one JSON frame per line as it happens)."
  }),
  inputFormat: choice({
    name: "input-format",
    placeholder: "format",
    choices: inputFormats,
    default: "text",
    description:
      "text (the prompt as an argument or on stdin; the default) or stream-json (user messages and control requests as JSON lines on stdin, the Agent SDK's protocol; with --output-format stream-json, -p optional; docs/sdk.md)."
  }),
  verbose: flag({
    name: "verbose",
    description: "text: show each tool call on stderr. json: print every frame, not only the result."
  }),
  includePartialMessages: flag({
    name: "include-partial-messages",
    description: "stream-json: also emit the model's raw streaming events (stream_event frames)."
  }),
  replayUserMessages: flag({
    name: "replay-user-messages",
    description: "stream-json in and out: echo each user message back on stdout as it is taken."
  }),
  model: text({
    name: "model",
    placeholder: "model",
    accepts: "a model name, e.g. claude-sonnet-4-5",
    description: "The model to use (default: $ANTHROPIC_MODEL, or weft's default)."
  }),
  fallbackModel: text({
    name: "fallback-model",
    placeholder: "model",
    accepts: "a model name, e.g. claude-haiku-4-5",
    description: "The model a request goes to when the API still refuses it as overloaded after the retries."
  }),
  maxTurns: count({
    name: "max-turns",
    placeholder: "n",
    min: 1,
    description: "Stop after this many model turns (the result is then error_max_turns)."
  }),
  allowedTools: list({
    name: "allowedTools",
    aliases: ["allowed-tools"],
    placeholder: "tools",
    accepts: 'tool rules, e.g. "Read" "Bash(npm test)"',
    split: true,
    variadic: true,
    description:
      'Tools allowed without asking, e.g. "Read" "Bash(npm test)" (several after it, repeat it, or separate with commas; a prompt after it goes after --).'
  }),
  disallowedTools: list({
    name: "disallowedTools",
    aliases: ["disallowed-tools"],
    placeholder: "tools",
    accepts: 'tool rules, e.g. "WebFetch" "Bash(rm -rf /)"',
    split: true,
    variadic: true,
    description:
      'Tools denied, e.g. "WebFetch" "Bash(rm -rf /)" (several after it, repeat it, or separate with commas). Deny always wins.'
  }),
  agents: text({
    name: "agents",
    placeholder: "json",
    accepts: 'a JSON object of agents by name, {"name": {"description": "...", "prompt": "..."}}',
    check: (value) => {
      try {
        const parsed: unknown = JSON.parse(value)
        return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
          ? undefined
          : 'must be a JSON object of agents by name, {"name": {"description": "...", "prompt": "..."}}'
      } catch (error) {
        return `is not valid JSON (${error instanceof Error ? error.message : String(error)})`
      }
    },
    description:
      'Subagents for this run, beside .claude/agents/: {"name": {"description", "prompt", "tools"?, "disallowedTools"?, "model"?}}; they win on a clash of names.'
  }),
  systemPrompt: text({
    name: "system-prompt",
    placeholder: "text",
    accepts: "the system prompt's text",
    description: "Replace weft's system prompt."
  }),
  appendSystemPrompt: text({
    name: "append-system-prompt",
    placeholder: "text",
    accepts: "text to append",
    description: "Append text to the system prompt."
  }),
  addDirs: list({
    name: "add-dir",
    placeholder: "directory",
    accepts: "an existing directory",
    check: notADirectory,
    variadic: true,
    description: "Additional directories the tools may work in (several after it, or repeat it)."
  }),
  mcpConfigs: list({
    name: "mcp-config",
    placeholder: "file or json",
    accepts: 'a file or JSON of MCP servers, {"mcpServers": {...}}',
    description: 'MCP servers from a JSON file or string ({"mcpServers": {...}}); repeat for several.'
  }),
  strictMcpConfig: flag({
    name: "strict-mcp-config",
    description: "Use only the MCP servers of --mcp-config, none from other configuration."
  }),
  permissionMode: choice({
    name: "permission-mode",
    placeholder: "mode",
    choices: permissionModes,
    description:
      "default (reads in the project run, the rest is asked; under -p, asked means denied), acceptEdits (file edits in the project run too), plan (read-only tools only), bypassPermissions (whatever no deny rule forbids), dontAsk (whatever would be asked is denied)."
  }),
  permissionPromptTool: text({
    name: "permission-prompt-tool",
    placeholder: "tool",
    accepts: "stdio",
    check: (value) =>
      value === "stdio"
        ? undefined
        : `must be stdio (permission asks sent to the program on the other end of --input-format stream-json as can_use_tool requests), not ${JSON.stringify(value)}: weft does not ask an MCP tool`,
    description: "stdio: ask the program driving weft over --input-format stream-json (can_use_tool control requests) when a call needs permission."
  }),
  dangerouslySkipPermissions: flag({
    name: "dangerously-skip-permissions",
    description: "The same as --permission-mode bypassPermissions."
  }),
  allowDangerouslySkipPermissions: flag({
    name: "allow-dangerously-skip-permissions",
    description: "Let the permission mode be switched to bypassPermissions later in the session (set_permission_mode)."
  }),
  settings: text({
    name: "settings",
    placeholder: "file-or-json",
    accepts: "a settings file or a JSON object",
    description: "Settings above the user, project and local files: a file, or JSON."
  }),
  settingSources: givenOrNot(
    list({
      name: "setting-sources",
      placeholder: "sources",
      accepts: "user, project, local (comma separated)",
      split: true,
      check: (value) =>
        settingSources.some((source) => source === value) ? undefined : `has an unknown source ${JSON.stringify(value)} (the sources are user, project, local)`,
      description:
        'Which settings files load, e.g. user,project (default: user, project and local; "" none, as the Agent SDK passes for settingSources: []).'
    })
  ),
  resume: text({
    name: "resume",
    aliases: ["r"],
    placeholder: "session-id",
    accepts: "a session id (weft sessions lists them)",
    description:
      "Go on with that session of this directory (`weft sessions` lists them): its conversation is sent again, and the run is recorded in it, under its id."
  }),
  continueSession: flag({
    name: "continue",
    aliases: ["c"],
    description: "Resume the most recent session of this directory."
  }),
  forkSession: flag({
    name: "fork-session",
    description: "With --resume or --continue: go on from that session under a new session id, leaving it as it was."
  }),
  sessionId: text({
    name: "session-id",
    placeholder: "uuid",
    accepts: "a UUID not used by another session",
    check: (value) => (isUuid(value) ? undefined : `must be a UUID (e.g. ${exampleUuid}), not ${JSON.stringify(value)}`),
    description: "The new session's id (a UUID no session uses yet); with --fork-session, the fork's."
  }),
  noSessionPersistence: flag({
    name: "no-session-persistence",
    description: "Record nothing of this run: it cannot be resumed."
  }),
  sandbox: flag({
    name: "sandbox",
    description:
      "Run the model's commands in the OS sandbox for this run (as `sandbox.enabled` in settings): writes only in the workspace, credentials hidden, no network but the allowed hosts. See docs/sandbox.md."
  }),
  trustProject: flag({
    name: "trust-project",
    description: "Trust this project's own settings for this run (hooks, env, MCP servers, allow rules). `weft trust` records it."
  })
}

type Table = Readonly<Record<string, OptionSpec<unknown>>>

/** What a table's options decode to, key by key. */
export type Values<T extends Table> = { readonly [K in keyof T]: T[K] extends OptionSpec<infer A> ? A : never }

/** What the print command receives. */
export type PrintOptions = Values<typeof printOptions> & { readonly prompt: string | undefined }

/** The raw values each option was given (keys of the table), as either parser gathers them. */
export type RawValues = Readonly<Record<string, ReadonlyArray<string>>>

/**
 * `args` with the arguments a variadic option takes (`--allowedTools Edit "Bash(node:*)"`, every argument up to the
 * next option) given to it one by one (`--allowedTools Edit --allowedTools "Bash(node:*)"`), as Claude Code reads
 * them: both parsers read the result, so they agree. `--add-dir=a` takes its one value (what follows is a prompt);
 * nothing after `--` is touched.
 */
export const spreadVariadic = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const variadic = new Map<string, string>()
  for (const spec of Object.values(printOptions)) {
    if (spec.variadic !== true) continue
    for (const name of [spec.name, ...spec.aliases]) variadic.set(dashed(name), dashed(spec.name))
  }
  const out: Array<string> = []
  // The variadic option whose values run on, once its first value is read.
  let open: string | undefined
  let awaitingValue = false
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? ""
    if (arg === "--") {
      out.push(...args.slice(index))
      break
    }
    if (arg.startsWith("-") && arg !== "-") {
      // `--add-dir=a` takes its one value: only the spaced form runs on.
      open = arg.includes("=") ? undefined : variadic.get(arg)
      awaitingValue = open !== undefined
      out.push(arg)
      continue
    }
    if (open !== undefined && !awaitingValue) out.push(`${open}=${arg}`)
    else out.push(arg)
    awaitingValue = false
  }
  return out
}

/** The display name of an option: `--name` (or `-p` for a one-letter name). */
export const dashed = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`)

/** Decodes every option of `table` from `raw`: the values, or the first problem, naming its option. */
export function decodeOptions<T extends Table>(table: T, raw: RawValues): Result.Result<Values<T>, string>
export function decodeOptions(table: Table, raw: RawValues): Result.Result<Record<string, unknown>, string> {
  const values: Record<string, unknown> = {}
  for (const [key, spec] of Object.entries(table)) {
    const decoded = spec.decode(raw[key] ?? [])
    if (Result.isFailure(decoded)) return Result.fail(`${dashed(spec.name)} ${decoded.failure}.`)
    values[key] = decoded.success
  }
  return Result.succeed(values)
}

/** A command, `weft <name> ...`: its module is imported only when it runs. */
export interface CommandSpec {
  readonly name: string
  readonly summary: string
  /** The command's module; its `main` gets the arguments after the command's name. */
  readonly load: () => Promise<{
    readonly main: (args: ReadonlyArray<string>) => Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path>
  }>
}

export const commands: ReadonlyArray<CommandSpec> = [
  {
    name: "demo",
    summary: "Run a scripted session against weft's built-in mock of the Messages API, in a temporary sample project. No API key needed.",
    load: () => import("./Demo.js")
  },
  {
    name: "trust",
    summary:
      "Trust a project (default: the current directory): its own settings and .mcp.json may then run hooks and MCP servers, set the environment and widen permissions. It also takes trust back and lists what is trusted (weft trust --help).",
    load: () => import("./TrustCommand.js")
  },
  {
    name: "mcp",
    summary:
      "List, show, add and remove MCP servers (weft mcp list | get <name> | add <name> <commandOrUrl> [args...] | add-json <name> <json> | remove <name>), in the local, project or user scope (--scope).",
    load: () => import("./McpCommand.js")
  },
  {
    name: "sessions",
    summary: "List this directory's sessions, newest first: id, last activity, turns, cost and first prompt (--json for scripts).",
    load: () => import("./SessionsCommand.js")
  }
]

/** The environment variables the help lists. */
export const environment: ReadonlyArray<readonly [name: string, description: string]> = [
  ["ANTHROPIC_API_KEY", "API key, sent as x-api-key."],
  ["ANTHROPIC_AUTH_TOKEN", "Bearer token, sent as Authorization: Bearer (instead of a key)."],
  ["ANTHROPIC_BASE_URL", "The Messages API's address (default https://api.anthropic.com); a local server needs no key."],
  ["ANTHROPIC_MODEL", "The default model (--model overrides it; it overrides the settings' model)."],
  ["API_TIMEOUT_MS", "How long to wait for the API, in milliseconds."],
  ["CLAUDE_CODE_API_KEY_HELPER_TTL_MS", "How long the settings' apiKeyHelper key is used before it runs again (default: the session)."],
  ["HTTPS_PROXY, HTTP_PROXY, NO_PROXY", "The proxy to reach the API and the web through, and the hosts to reach directly."],
  ["MCP_TIMEOUT", "How long an MCP server may take to connect, in milliseconds (default 30000)."],
  ["MCP_TOOL_TIMEOUT", "How long an MCP tool call may take, in milliseconds."],
  ["MAX_MCP_OUTPUT_TOKENS", "The most an MCP tool's result may give the model, in tokens (default 25000)."],
  ["WEFT_HOME", "Where sessions and caches are kept (default ~/.weft)."],
  ["WEFT_TRUST_PROJECT", "1: trust the project's own settings for this run (as --trust-project)."]
]
