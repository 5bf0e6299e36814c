/**
 * weft's command line as an effect/cli command, generated from the options table (CliOptions.ts). The binary
 * reads its arguments with CommandLine.ts and comes here only for effect/cli's own options (`--completions
 * bash|zsh|fish|powershell`, `--wizard`, `--log-level`); like CommandLine.ts, the command only gathers each option's raw
 * values, and the same `toInvocation` decodes them (test/cli/CommandLine.test.ts checks that both read alike).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { type OptionSpec, printOptions, spreadVariadic } from "./CliOptions.js"
import { type Invocation, toInvocation } from "./CommandLine.js"
import { type CliError, isCliError, Outcome } from "./Outcome.js"
import { version } from "./Version.js"

/** One option of the table as effect/cli's: its raw values (`""` for each time a flag was given). */
const toFlag = (spec: OptionSpec<unknown>): Flag.Flag<ReadonlyArray<string>> => {
  const named = <A>(flag: Flag.Flag<A>) =>
    spec.aliases.reduce((named, alias) => Flag.withAlias(named, alias), flag).pipe(Flag.withDescription(spec.description))
  if (spec.placeholder === undefined) {
    // No `--no-<name>` form: the table's flags have none.
    return named(Flag.Boolean(spec.name).pipe(Flag.withoutNegation)).pipe(
      Flag.atLeast(0),
      Flag.map((given): ReadonlyArray<string> => given.flatMap((on) => (on ? [""] : [])))
    )
  }
  // Text, not effect/cli's choice or integer: the table's decoding judges the values, with its own messages.
  return named(Flag.String(spec.name).pipe(Flag.withMetavar(`<${spec.placeholder}>`))).pipe(Flag.atLeast(0))
}

const flags = Object.fromEntries(Object.entries(printOptions).map(([key, spec]) => [key, toFlag(spec)]))
const prompt = Argument.String("prompt").pipe(Argument.variadic())

/**
 * The command line, with what it does with the invocation it read (tests pass their own). It reads the process's
 * whole argv (`node`, the script, then weft's arguments).
 */
export const cliWith = <E, R>(handle: (invocation: Invocation) => Effect.Effect<void, E, R>) => {
  const run = Command.runWith(
    Command.make("weft", { options: flags, prompt }, (config) => handle(toInvocation(config.options, config.prompt))),
    { version }
  )
  return (argv: ReadonlyArray<string>) => run(spreadVariadic(argv.slice(2)))
}

// effect/cli renders its help and its errors with ANSI styles when stdout is a terminal: kept for a terminal,
// dropped from whichever stream is a pipe or a file, or from both when NO_COLOR is set (no-color.org).
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
 * The command line on Node's terminal, for effect/cli's own options: it prints what they ask for (completions), or
 * hands `dispatch` the invocation they built (the wizard).
 */
export const run = <R>(
  argv: ReadonlyArray<string>,
  dispatch: (invocation: Invocation) => Effect.Effect<Outcome, CliError, R>
) =>
  Effect.gen(function* () {
    let outcome: Outcome = Outcome.Succeeded()
    const console = yield* Console.Console
    yield* cliWith((invocation) => Effect.map(dispatch(invocation), (ended) => void (outcome = ended)))(argv).pipe(
      Effect.provideService(Console.Console, plainConsole(console, { stdout: !styled(process.stdout), stderr: !styled(process.stderr) })),
      // effect/cli has printed what was wrong with the arguments.
      Effect.catchIf(
        (error): error is Exclude<typeof error, CliError> => !isCliError(error),
        () => Effect.sync(() => void (outcome = Outcome.Failed()))
      )
    )
    return outcome
  }).pipe(Effect.provide(NodeServices.layer))
