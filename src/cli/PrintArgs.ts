/**
 * The arguments of `weft -p ...` read without loading @effect/cli. Loading and running @effect/cli costs about
 * 15 ms of a print run's start-up (measured: median of 61 runs of the 2-turn session, 205.6 -> 191.3 ms to exit),
 * so main.ts asks this module first: a plain print invocation (only the options below, valid values, at most one
 * prompt) runs straight away; anything else (`--help`, `demo`, a bad value, no `-p`, ...) goes to the command line
 * of Commands.ts, which defines weft's options, help and messages. test/cli/PrintArgs.test.ts checks that both
 * read every plain invocation alike and that the option names here are those of the help.
 *
 * Built-ins only (node:util), no effect: this runs before anything else is loaded.
 */
import { parseArgs, type ParseArgsConfig } from "node:util"
import type { PrintCommandOptions } from "./PrintCommand.js"

/** The values of `--output-format` (Commands.ts declares the option with them). */
export const outputFormats = ["text", "json", "stream-json"] as const
export type OutputFormat = (typeof outputFormats)[number]

const isOutputFormat = (value: string): value is OutputFormat => (outputFormats as ReadonlyArray<string>).includes(value)

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

/** weft's options, as Commands.ts declares them (names and aliases, flag or value, repeatable or not). */
export const printOptions = {
  print: { type: "boolean", short: "p" },
  "output-format": { type: "string" },
  verbose: { type: "boolean" },
  "include-partial-messages": { type: "boolean" },
  model: { type: "string" },
  "max-turns": { type: "string" },
  allowedTools: { type: "string", multiple: true },
  "allowed-tools": { type: "string", multiple: true },
  disallowedTools: { type: "string", multiple: true },
  "disallowed-tools": { type: "string", multiple: true },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "add-dir": { type: "string", multiple: true }
} as const satisfies NonNullable<ParseArgsConfig["options"]>

/** node:util's strict parse; undefined for an unknown option, a missing value, a value that looks like an option. */
const strictParse = (args: ReadonlyArray<string>) => {
  try {
    return parseArgs({ args: [...args], options: printOptions, allowPositionals: true, strict: true, tokens: true })
  } catch {
    return undefined
  }
}

type Token = NonNullable<ReturnType<typeof strictParse>>["tokens"][number]

/** How many times the option `name` was given. */
const count = (tokens: ReadonlyArray<Token>, name: string) =>
  tokens.filter((token) => token.kind === "option" && token.name === name).length

/** The values of the options named `names` (an option and its alias), in the order given. */
const collect = (tokens: ReadonlyArray<Token>, ...names: ReadonlyArray<string>): ReadonlyArray<string> =>
  tokens.flatMap((token) =>
    token.kind === "option" && names.includes(token.name) && typeof token.value === "string" ? [token.value] : []
  )

/**
 * The print command's options when `args` (the arguments after `weft`) are a plain print invocation, else
 * undefined. Conservative on purpose: whatever it is not sure of is left to the full command line.
 */
export const parsePrintArgs = (args: ReadonlyArray<string>): PrintCommandOptions | undefined => {
  const parsed = strictParse(args)
  if (parsed === undefined) return undefined
  const { values, positionals, tokens } = parsed
  if (values.print !== true) return undefined
  if (positionals.length > 1 || positionals[0] === "demo") return undefined
  // `--` (positionals after it) and `--name=value` forms are left to the full command line.
  if (tokens.some((token) => token.kind === "option-terminator" || (token.kind === "option" && token.inlineValue === true))) {
    return undefined
  }
  for (const name of ["print", "output-format", "verbose", "include-partial-messages", "model", "max-turns", "system-prompt", "append-system-prompt"]) {
    if (count(tokens, name) > 1) return undefined
  }
  const outputFormat = values["output-format"] ?? "text"
  if (!isOutputFormat(outputFormat)) return undefined
  const maxTurnsText = values["max-turns"]
  if (maxTurnsText !== undefined && !/^[0-9]{1,9}$/.test(maxTurnsText)) return undefined
  return {
    print: true,
    outputFormat,
    verbose: values.verbose === true,
    includePartialMessages: values["include-partial-messages"] === true,
    model: values.model,
    maxTurns: maxTurnsText === undefined ? undefined : Number(maxTurnsText),
    allowedTools: splitToolRules(collect(tokens, "allowedTools", "allowed-tools")),
    disallowedTools: splitToolRules(collect(tokens, "disallowedTools", "disallowed-tools")),
    systemPrompt: values["system-prompt"],
    appendSystemPrompt: values["append-system-prompt"],
    addDirs: collect(tokens, "add-dir"),
    prompt: positionals[0]
  }
}

/** The options @effect/cli adds to every command line (Commands.ts runs through it). */
const builtInOptions = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  wizard: { type: "boolean" },
  completions: { type: "string" },
  "log-level": { type: "string" }
} as const satisfies NonNullable<ParseArgsConfig["options"]>

/**
 * The first option weft does not have (`--bogus`), if any: @effect/cli would take it for a prompt or a subcommand
 * and answer something beside the point.
 */
export const unknownOption = (args: ReadonlyArray<string>): string | undefined => {
  try {
    parseArgs({ args: [...args], options: { ...printOptions, ...builtInOptions }, allowPositionals: true, strict: true })
    return undefined
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
    if (code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION" || !(error instanceof Error)) return undefined
    return /option '([^']+)'/.exec(error.message)?.[1] ?? error.message
  }
}
