/**
 * weft's arguments, read with Node's `util.parseArgs` configured from the options table (CliOptions.ts): every run
 * goes through here, so a plain `weft -p`, `--help` and argument errors never load effect/cli, whose CliOutput module
 * builds an `Intl.Segmenter` as it loads (ICU's grapheme rules: a large share of a whole print session, measured in
 * docs/performance.md). Only effect/cli's own options (`--completions`, `--wizard`, `--log-level`) are handed to the
 * command line of Commands.ts, generated from the same table; test/cli/CommandLine.test.ts checks that the two read
 * every invocation alike.
 */
import * as Result from "effect/Result"
import { parseArgs, type ParseArgsConfig } from "node:util"
import {
  type CommandSpec,
  commands,
  dashed,
  decodeOptions,
  type OptionSpec,
  printOptions,
  type PrintOptions,
  type RawValues,
  spreadVariadic
} from "./CliOptions.js"

export type Invocation =
  | { readonly _tag: "Print"; readonly options: PrintOptions }
  /** No -p and no prompt: the interactive terminal (src/ui). */
  | { readonly _tag: "Interactive"; readonly options: PrintOptions }
  | { readonly _tag: "Help" }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Command"; readonly command: CommandSpec; readonly args: ReadonlyArray<string> }
  /** One of effect/cli's own options: Commands.ts answers. */
  | { readonly _tag: "EffectCli" }
  | { readonly _tag: "Invalid"; readonly message: string }

/** weft's own options beside the table's (the help lists them). */
const builtIn = { help: "h", version: "v" } as const
/** effect/cli's options, which only its command line (Commands.ts) knows. */
const effectCliOptions = new Set(["completions", "wizard", "log-level"])

interface Known {
  readonly key: string
  readonly spec: OptionSpec<unknown>
}

/** Every name (long names and aliases) of the table's options, to its key and spec. */
const byName = new Map<string, Known>()
const config: NonNullable<ParseArgsConfig["options"]> = {}
for (const [key, spec] of Object.entries(printOptions)) {
  const type = spec.placeholder === undefined ? "boolean" : "string"
  const short = spec.aliases.find((alias) => alias.length === 1)
  config[spec.name] = short === undefined ? { type } : { type, short }
  byName.set(spec.name, { key, spec })
  for (const alias of spec.aliases) {
    byName.set(alias, { key, spec })
    if (alias.length > 1) config[alias] = { type }
  }
}
for (const [name, short] of Object.entries(builtIn)) config[name] = { type: "boolean", short }
config["completions"] = { type: "string" }
config["log-level"] = { type: "string" }

/** A value that is really the next option (`--model --verbose`): the option's value is missing. */
const looksLikeOption = (value: string) => /^--?[A-Za-z]/.test(value)

/**
 * Claude Code's options that weft does not have (the Agent SDK passes them for the query options of the same
 * names): refused by name, so that a program learns which of its options to leave out.
 */
const claudeCodeOnly = new Set([
  "agent", "await-initialize", "betas", "channels", "debug", "debug-file", "effort", "include-hook-events",
  "initialize-fields", "json-schema", "managed-settings", "managed-settings-in-initialize", "max-budget-usd",
  "max-thinking-tokens", "permission-prompts", "plugin-dir", "plugin-dir-no-mcp", "project-config-root",
  "resume-drops-turn", "resume-session-at", "sdk-url", "session-mirror", "system-prompt-file", "task-budget", "thinking",
  "thinking-display", "tools"
])

const unknownOption = (name: string) =>
  claudeCodeOnly.has(name.replace(/^--?/, ""))
    ? `'${name}' is an option of Claude Code that weft does not have yet: leave it out (from the Agent SDK, the query option of that name). See docs/sdk.md.`
    : `unknown option '${name}'. Run weft --help for the options; a prompt that starts with "-" goes after --.`

const notACommand = (words: ReadonlyArray<string>) =>
  `${JSON.stringify(words[0])} is not a weft command (the commands: ${commands.map((command) => command.name).join(", ")}). ` +
  `To run it as a prompt: weft -p ${JSON.stringify(words.join(" "))}, or start weft and type it. See weft --help.`

/** What `args` (the arguments after `weft`) ask for. */
export const parse = (args: ReadonlyArray<string>): Invocation => {
  const command = commands.find((command) => command.name === args[0])
  if (command !== undefined) return { _tag: "Command", command, args: args.slice(1) }

  const { tokens } = parseArgs({ args: [...spreadVariadic(args)], options: config, allowPositionals: true, strict: false, tokens: true })
  const raw: Record<string, Array<string>> = {}
  const positionals: Array<string> = []
  let problem: string | undefined
  let asked: "Help" | "Version" | "EffectCli" | undefined
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value)
    if (token.kind !== "option") continue
    if (token.name === "help") asked = "Help"
    else if (token.name === "version") asked ??= "Version"
    else if (effectCliOptions.has(token.name)) asked ??= "EffectCli"
    if (asked !== undefined || problem !== undefined) continue
    const known = byName.get(token.name)
    if (known === undefined) {
      problem = unknownOption(token.rawName)
      continue
    }
    const { key, spec } = known
    if (spec.placeholder === undefined) {
      if (token.value !== undefined) problem = `${token.rawName} takes no value (given ${JSON.stringify(token.value)}).`
      else (raw[key] ??= []).push("")
    } else if (token.value === undefined || (token.inlineValue !== true && looksLikeOption(token.value))) {
      problem =
        `${dashed(spec.name)} needs a value: ${spec.accepts}.` +
        (token.value === undefined ? "" : ` (${token.value} is an option; a value that starts with "-" goes as ${dashed(spec.name)}=-...)`)
    } else (raw[key] ??= []).push(token.value)
  }
  if (asked !== undefined) return { _tag: asked }
  if (problem !== undefined) return { _tag: "Invalid", message: problem }
  return toInvocation(raw, positionals)
}

/** What is wrong with the options of the stream-json protocol (`--input-format stream-json`), if anything. */
const streamJsonProblem = (options: Omit<PrintOptions, "prompt">, positionals: ReadonlyArray<string>): string | undefined => {
  if (options.inputFormat === "stream-json") {
    if (options.outputFormat !== "stream-json") return "--input-format stream-json needs --output-format stream-json (the answers are frames too)."
    if (positionals.length > 0) {
      return `with --input-format stream-json the prompts come on stdin as user messages, not as arguments (given ${JSON.stringify(positionals[0])}).`
    }
    return undefined
  }
  if (options.replayUserMessages) return "--replay-user-messages goes with --input-format stream-json and --output-format stream-json."
  if (options.permissionPromptTool !== undefined) {
    return "--permission-prompt-tool stdio goes with --input-format stream-json: the asks go to the program writing stdin."
  }
  return undefined
}

/** The invocation, from the raw values and positionals either parser gathered. */
export const toInvocation = (raw: RawValues, positionals: ReadonlyArray<string>): Invocation => {
  const decoded = decodeOptions(printOptions, raw)
  if (Result.isFailure(decoded)) return { _tag: "Invalid", message: decoded.failure }
  const streamed = streamJsonProblem(decoded.success, positionals)
  if (streamed !== undefined) return { _tag: "Invalid", message: streamed }
  // Over the Agent SDK's protocol the prompts come on stdin: -p is optional there, as in Claude Code.
  if (!decoded.success.print && decoded.success.inputFormat !== "stream-json") {
    return positionals.length === 0
      ? { _tag: "Interactive", options: { ...decoded.success, prompt: undefined } }
      : { _tag: "Invalid", message: notACommand(positionals) }
  }
  if (positionals.length > 1) {
    const [first, second] = positionals
    return {
      _tag: "Invalid",
      message:
        `one prompt is expected, but ${JSON.stringify(first)} is followed by ${JSON.stringify(second)}. ` +
        `Quote a prompt of several words: weft -p ${JSON.stringify(positionals.join(" "))}`
    }
  }
  return { _tag: "Print", options: { ...decoded.success, prompt: positionals[0] } }
}
