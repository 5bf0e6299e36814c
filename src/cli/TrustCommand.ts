/** `weft trust [dir]`: records the project as trusted under `$WEFT_HOME` (see src/context/Trust.ts). */
import * as Effect from "effect/Effect"
import { statSync } from "node:fs"
import { resolve } from "node:path"
import * as Variables from "../platform/Variables.js"
import { trust } from "../context/Trust.js"
import { commands } from "./CliOptions.js"
import { renderCommandHelp } from "./Help.js"
import { type CliError, Outcome, RunError, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export const main = (args: ReadonlyArray<string>): Effect.Effect<Outcome, CliError> =>
  Effect.gen(function* () {
    if (args.includes("--help") || args.includes("-h")) {
      const summary = commands.find((command) => command.name === "trust")?.summary ?? ""
      yield* Output.stdout(renderCommandHelp({ title: "weft trust", summary, usage: ["weft trust [dir]"] }))
      return Outcome.Succeeded()
    }
    if (args.length > 1) return yield* new UsageError({ message: "weft trust takes at most one directory. See weft trust --help." })
    const dir = resolve(args[0] ?? process.cwd())
    if (!isDirectory(dir)) return yield* new UsageError({ message: `weft trust: ${JSON.stringify(dir)} is not a directory.` })
    const weftHome = yield* Variables.weftHomeOf(yield* Variables.home)
    const real = yield* trust(weftHome, dir).pipe(Effect.mapError((error) => new RunError({ message: error.message })))
    yield* Output.stdout(
      `weft: trusted ${real}. Its own settings may now run hooks and MCP servers, set the environment and widen permissions.\n`
    )
    return Outcome.Succeeded()
  }).pipe(Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed())))
