/**
 * weft's application: reads the arguments (CommandLine.ts, from the options table of CliOptions.ts), runs what they
 * ask for over Node's file system and paths, and turns how it ended (an Outcome, or a CliError with its message)
 * into the exit code, here and nowhere else. The build bundles it into one CommonJS file, `dist/bin/weft-app.cjs`,
 * which the `weft` launcher (bin.ts) runs through V8's code cache; the modules of each command (print, demo, help,
 * effect/cli's completions) are initialized only when that command runs.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Cause from "effect/Cause"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Effect from "effect/Effect"
import { type Invocation, parse } from "./CommandLine.js"
import { type CliError, exitCode, Outcome, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import { version } from "./Version.js"

/** Prints `text` on stdout; a reader that went away (`weft --help | head -1`) is no error. */
const show = (text: string) =>
  Output.stdout(text).pipe(
    Effect.as(Outcome.Succeeded()),
    Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed()))
  )

const dispatch = (invocation: Invocation): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> => {
  switch (invocation._tag) {
    case "Print":
      // User messages and control requests on stdin (the Agent SDK's protocol): its own module.
      if (invocation.options.inputFormat === "stream-json") {
        return Effect.promise(() => import("./sdk/SdkCommand.js")).pipe(Effect.flatMap((module) => module.run(invocation.options)))
      }
      return Effect.promise(() => import("./PrintCommand.js")).pipe(
        Effect.flatMap((module) => module.runPrint(invocation.options))
      )
    case "Interactive":
      return Effect.promise(() => import("../ui/Interactive.js")).pipe(
        Effect.flatMap((module) => module.runInteractive(invocation.options))
      )
    case "Help":
      return Effect.promise(() => import("./Help.js")).pipe(Effect.flatMap((module) => show(module.renderHelp())))
    case "Version":
      return show(`${version} (weft)\n`)
    case "Command":
      return Effect.promise(invocation.command.load).pipe(Effect.flatMap((module) => module.main(invocation.args)))
    case "EffectCli":
      return Effect.promise(() => import("./Commands.js")).pipe(Effect.flatMap(({ run }) => run(process.argv, dispatch)))
    case "Invalid":
      return Effect.fail(new UsageError({ message: invocation.message }))
  }
}

const program = dispatch(parse(process.argv.slice(2))).pipe(
  Effect.map(exitCode),
  Effect.catch((error) => Output.stderr(`weft: ${error.message}\n`).pipe(Effect.ignore, Effect.as(exitCode(error)))),
  // One layer after the other: `Layer.mergeAll` would build a third, around them.
  Effect.provide(NodePath.layer),
  Effect.provide(NodeFileSystem.layer)
)

/**
 * Once the command is done its scopes are closed (processes ended, the transcript written): exit as soon as stdout
 * and stderr have taken everything, rather than wait for what Node still winds down (V8's pending GC tasks, closing
 * sockets: about 10 ms of a print run). Output's own writes are done when they return; what Node's process.stdout and
 * process.stderr streams still hold (where something made them) is waited for, unless their reader has gone.
 */
const exitWhenFlushed = (code: number) => {
  const open = Output.madeStreams()
    .filter((name) => !Output.isClosed(name))
    .map((name) => process[name])
  let pending = open.length
  if (pending === 0) process.exit(code)
  for (const stream of open) {
    stream.write("", () => {
      pending -= 1
      if (pending === 0) process.exit(code)
    })
  }
}

Effect.runFork(program).addObserver((exit) => {
  if (exit._tag === "Success") return exitWhenFlushed(exit.value)
  // A defect: a bug, reported as such.
  Output.stderrSync(`weft: unexpected failure: ${Cause.pretty(exit.cause)}\n`)
  exitWhenFlushed(1)
})
