/**
 * weft's command line as an @effect/cli command, generated from the options table (CliOptions.ts). The binary
 * reads its arguments with CommandLine.ts and comes here only for @effect/cli's own options (`--completions
 * bash|zsh|fish|sh`, `--wizard`, `--log-level`); like CommandLine.ts, the command only gathers each option's raw
 * values, and the same `toInvocation` decodes them (test/cli/CommandLine.test.ts checks that both read alike).
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import type * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { type OptionSpec, printOptions } from "./CliOptions.js"
import { type Invocation, toInvocation } from "./CommandLine.js"
import { type CliError, isCliError, Outcome } from "./Outcome.js"
import { version } from "./Version.js"

/** One option of the table as @effect/cli's: its raw values (`""` for each time a flag was given). */
const toEffectOption = (spec: OptionSpec<unknown>): Options.Options<ReadonlyArray<string>> => {
  const withAliases = <A>(option: Options.Options<A>) =>
    spec.aliases.reduce((named, alias) => Options.withAlias(named, alias), option).pipe(Options.withDescription(spec.description))
  if (spec.placeholder === undefined) {
    return withAliases(Options.boolean(spec.name)).pipe(Options.map((given): ReadonlyArray<string> => (given ? [""] : [])))
  }
  // Text, not @effect/cli's choice or integer: the table's decoding judges the values, with its own messages.
  return withAliases(Options.text(spec.name)).pipe(Options.repeated)
}

const options = Options.all(Object.fromEntries(Object.entries(printOptions).map(([key, spec]) => [key, toEffectOption(spec)])))
const prompt = Args.text({ name: "prompt" }).pipe(Args.repeated)

const valueOptions = new Set(
  Object.values(printOptions).flatMap((spec) => (spec.placeholder === undefined ? [] : [spec.name, ...spec.aliases]))
)

/** `--name=value` as `--name value`: @effect/cli's repeated options read only the second form. */
const splitInlineValues = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const end = argv.indexOf("--")
  return argv.flatMap((arg, index) => {
    const inline = /^--([^=]+)=(.*)$/s.exec(arg)
    return inline !== null && (end === -1 || index < end) && valueOptions.has(inline[1] ?? "") ? [`--${inline[1]}`, inline[2] ?? ""] : [arg]
  })
}

/** The command line, with what it does with the invocation it read (tests pass their own). */
export const cliWith = <E, R>(handle: (invocation: Invocation) => Effect.Effect<void, E, R>) => {
  const run = Command.run(
    Command.make("weft", { options, prompt }, (config) => handle(toInvocation(config.options, config.prompt))),
    { name: "weft", version }
  )
  return (argv: ReadonlyArray<string>) => run(splitInlineValues(argv))
}

// @effect/cli renders its help and its errors with ANSI styles: kept for a terminal, dropped when the stream is a
// pipe or a file or when NO_COLOR is set (no-color.org).
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

/**
 * The command line on Node's terminal, for @effect/cli's own options: it prints what they ask for (completions), or
 * hands `dispatch` the invocation they built (the wizard).
 */
export const run = <R>(
  argv: ReadonlyArray<string>,
  dispatch: (invocation: Invocation) => Effect.Effect<Outcome, CliError, R>
) =>
  Effect.gen(function* () {
    let outcome: Outcome = Outcome.Succeeded()
    const console = yield* Effect.console
    yield* cliWith((invocation) => Effect.map(dispatch(invocation), (ended) => void (outcome = ended)))(argv).pipe(
      Effect.withConsole(plainConsole(console, { stdout: !styled(process.stdout), stderr: !styled(process.stderr) })),
      // @effect/cli has printed what was wrong with the arguments.
      Effect.catchIf(
        (error): error is Exclude<typeof error, CliError> => !isCliError(error),
        () => Effect.sync(() => void (outcome = Outcome.Failed()))
      )
    )
    return outcome
  }).pipe(Effect.provide(NodeTerminal.layer))
