/**
 * weft's application: the command line (@effect/cli) over Node's file system, path and terminal. The build bundles
 * it into one CommonJS file, `dist/bin/weft-app.cjs`, which the `weft` launcher (bin.ts) runs through V8's code
 * cache; the modules of each command (print, demo) are initialized only when that command runs.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Terminal from "@effect/platform/Terminal"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { cli } from "./Commands.js"

/**
 * Node's Terminal, made on first use: making it opens process.stdin (about 4 ms), which only @effect/cli's prompts
 * and help need, and which `weft -p "prompt"` never reads.
 */
const lazyTerminal = Layer.scoped(
  Terminal.Terminal,
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const terminal = yield* Effect.cached(NodeTerminal.make().pipe(Scope.extend(scope)))
    return Terminal.Terminal.of({
      columns: Effect.flatMap(terminal, (t) => t.columns),
      rows: Effect.flatMap(terminal, (t) => t.rows),
      isTTY: Effect.flatMap(terminal, (t) => t.isTTY),
      readInput: Effect.flatMap(terminal, (t) => t.readInput),
      readLine: Effect.flatMap(terminal, (t) => t.readLine),
      display: (text) => Effect.flatMap(terminal, (t) => t.display(text))
    })
  })
)

const program = cli(process.argv).pipe(
  Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, lazyTerminal)),
  // @effect/cli has already printed what was wrong with the arguments.
  Effect.catchAll(() => Effect.sync(() => void (process.exitCode = 1)))
)

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
