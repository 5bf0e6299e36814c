/**
 * weft's command line (@effect/cli): `weft -p "prompt"` runs one prompt non-interactively (the print mode of
 * Claude Code, with its flags), `weft demo` runs a scripted session against the built-in mock server.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Options from "@effect/cli/Options"
import type * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { PrintCommandOptions } from "./PrintCommand.js"
import { outputFormats, splitToolRules } from "./PrintArgs.js"
import { version } from "./Version.js"

const print = Options.boolean("print").pipe(
  Options.withAlias("p"),
  Options.withDescription("Run the prompt non-interactively and print the result, then exit.")
)
const outputFormat = Options.choice("output-format", outputFormats).pipe(
  Options.withDefault("text"),
  Options.withDescription(
    "With -p: text (the answer), json (one result object), stream-json (one JSON frame per line as it happens)."
  )
)
const verbose = Options.boolean("verbose").pipe(
  Options.withDescription("Text: show each tool call on stderr. json: print every frame, not only the result.")
)
const includePartialMessages = Options.boolean("include-partial-messages").pipe(
  Options.withDescription("stream-json: also emit the model's raw streaming events (stream_event frames).")
)
const model = Options.text("model").pipe(
  Options.optional,
  Options.withDescription("The model to use (default: $ANTHROPIC_MODEL, or weft's default).")
)
const maxTurns = Options.integer("max-turns").pipe(
  Options.optional,
  Options.withDescription("Stop after this many model turns (the result is then error_max_turns).")
)
const allowedTools = Options.text("allowedTools").pipe(
  Options.withAlias("allowed-tools"),
  Options.repeated,
  Options.withDescription('Tools allowed without asking, e.g. "Read" "Bash(npm test)" (repeat, or separate with commas).')
)
const disallowedTools = Options.text("disallowedTools").pipe(
  Options.withAlias("disallowed-tools"),
  Options.repeated,
  Options.withDescription('Tools denied, e.g. "WebFetch" "Bash(rm -rf /)" (repeat, or separate with commas). Deny always wins.')
)
const systemPrompt = Options.text("system-prompt").pipe(
  Options.optional,
  Options.withDescription("Replace weft's system prompt.")
)
const appendSystemPrompt = Options.text("append-system-prompt").pipe(
  Options.optional,
  Options.withDescription("Append text to the system prompt.")
)
const addDir = Options.directory("add-dir").pipe(
  Options.repeated,
  Options.withDescription("An additional directory the tools may work in (repeat for several).")
)
const prompt = Args.text({ name: "prompt" }).pipe(
  Args.optional,
  Args.withDescription("The prompt. With -p and no prompt, it is read from stdin.")
)

const demo = Command.make("demo", {}, () =>
  Effect.promise(() => import("./Demo.js")).pipe(Effect.flatMap((module) => module.runDemo))
).pipe(
  Command.withDescription(
    "Run a scripted session end to end against weft's built-in mock of the Messages API, in a temporary sample project. No API key needed."
  )
)

const rootConfig = {
  print,
  outputFormat,
  verbose,
  includePartialMessages,
  model,
  maxTurns,
  allowedTools,
  disallowedTools,
  systemPrompt,
  appendSystemPrompt,
  addDir,
  prompt
}

/** What the print command receives, from @effect/cli's parse of the options above. */
const toPrintOptions = (config: Command.Command.ParseConfig<typeof rootConfig>): PrintCommandOptions => ({
  print: config.print,
  outputFormat: config.outputFormat,
  verbose: config.verbose,
  includePartialMessages: config.includePartialMessages,
  model: Option.getOrUndefined(config.model),
  maxTurns: Option.getOrUndefined(config.maxTurns),
  allowedTools: splitToolRules(config.allowedTools),
  disallowedTools: splitToolRules(config.disallowedTools),
  systemPrompt: Option.getOrUndefined(config.systemPrompt),
  appendSystemPrompt: Option.getOrUndefined(config.appendSystemPrompt),
  addDirs: config.addDir,
  prompt: Option.getOrUndefined(config.prompt)
})

/** The command line, with `print` as what the root command does with its options (tests pass their own). */
export const cliWith = <E, R>(print: (options: PrintCommandOptions) => Effect.Effect<void, E, R>) =>
  Command.run(
    Command.make("weft", rootConfig, (config) => print(toPrintOptions(config))).pipe(
      Command.withDescription("weft: an agent runtime in the shape of Claude Code. Use -p to run a prompt non-interactively."),
      Command.withSubcommands([demo])
    ),
    { name: "weft", version }
  )

export const cli = cliWith((options) =>
  Effect.promise(() => import("./PrintCommand.js")).pipe(Effect.flatMap((module) => module.runPrint(options)))
)

// @effect/cli renders its help and its errors with ANSI styles: kept for a terminal, dropped when the stream is a
// pipe or a file (`weft --help | less`, a program reading the help) or when NO_COLOR is set (no-color.org).
const ansiStyles = /\u001b\[[0-9;]*m/g
const withoutStyles = (args: ReadonlyArray<unknown>) =>
  args.map((arg) => (typeof arg === "string" ? arg.replace(ansiStyles, "") : arg))

/** `base`, writing without ANSI styles to whichever of stdout and stderr is not to be styled. */
export const plainConsole = (base: Console.Console, plain: { readonly stdout: boolean; readonly stderr: boolean }): Console.Console => ({
  ...base,
  log: (...args) => base.log(...(plain.stdout ? withoutStyles(args) : args)),
  info: (...args) => base.info(...(plain.stdout ? withoutStyles(args) : args)),
  error: (...args) => base.error(...(plain.stderr ? withoutStyles(args) : args)),
  warn: (...args) => base.warn(...(plain.stderr ? withoutStyles(args) : args))
})

const styled = (stream: NodeJS.WriteStream) => stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

/** `cli` on Node's terminal (which help, errors and prompts write to). */
export const run = (argv: ReadonlyArray<string>) =>
  Effect.consoleWith((console) =>
    cli(argv).pipe(
      Effect.withConsole(plainConsole(console, { stdout: !styled(process.stdout), stderr: !styled(process.stderr) }))
    )
  ).pipe(Effect.provide(NodeTerminal.layer))
