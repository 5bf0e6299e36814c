#!/usr/bin/env node
/**
 * The `weft` binary. `--version` answers before anything is loaded; every other command loads the command line
 * (@effect/cli) and, lazily, only the modules that command needs.
 */
import { version } from "./Version.js"

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${version} (weft)\n`)
} else {
  const [{ cli }, Effect, NodeContext] = await Promise.all([
    import("./Commands.js"),
    import("effect/Effect"),
    import("@effect/platform-node/NodeContext")
  ])
  const program = cli(process.argv).pipe(
    Effect.provide(NodeContext.layer),
    // @effect/cli has already printed what was wrong with the arguments.
    Effect.catchAll(() => Effect.sync(() => void (process.exitCode = 1)))
  )
  Effect.runFork(program).addObserver((exit) => {
    if (exit._tag === "Failure") {
      process.stderr.write(`weft: ${String(exit.cause)}\n`)
      process.exitCode = 1
    }
  })
}
