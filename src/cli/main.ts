/**
 * weft's application: the command line (@effect/cli, Commands.ts) over Node's file system and paths. A
 * plain `weft -p ...` (PrintArgs.ts) runs the print command without loading @effect/cli at all. The build bundles
 * it into one CommonJS file, `dist/bin/weft-app.cjs`, which the `weft` launcher (bin.ts) runs through V8's code
 * cache; the modules of each command (print, demo) are initialized only when that command runs.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { parsePrintArgs, unknownOption } from "./PrintArgs.js"

const args = process.argv.slice(2)
const plainPrint = parsePrintArgs(args)
const unknown = plainPrint === undefined ? unknownOption(args) : undefined

const fullCommandLine = Effect.promise(() => import("./Commands.js")).pipe(
  Effect.flatMap(({ run }) => run(process.argv)),
  // @effect/cli has already printed what was wrong with the arguments.
  Effect.catchAll(() => Effect.sync(() => void (process.exitCode = 1)))
)

const command =
  plainPrint !== undefined
    ? Effect.promise(() => import("./PrintCommand.js")).pipe(Effect.flatMap((module) => module.runPrint(plainPrint)))
    : unknown !== undefined
      ? Effect.sync(() => {
          process.stderr.write(
            `weft: unknown option '${unknown}'. Run weft --help for the options; a prompt that starts with "-" goes after --.\n`
          )
          process.exitCode = 1
        })
      : fullCommandLine

const program = command.pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))

/**
 * Once the command is done its scopes are closed (processes ended, the transcript written): exit as soon as stdout
 * and stderr have taken everything, rather than wait for what Node still winds down (V8's pending GC tasks, closing
 * sockets: about 10 ms of a print run).
 */
const exitWhenFlushed = () => {
  let pending = 2
  const flushed = () => {
    pending -= 1
    if (pending === 0) process.exit()
  }
  process.stdout.write("", flushed)
  process.stderr.write("", flushed)
}

Effect.runFork(program).addObserver((exit) => {
  if (exit._tag === "Failure") {
    process.stderr.write(`weft: ${String(exit.cause)}\n`)
    process.exitCode = 1
  }
  exitWhenFlushed()
})
