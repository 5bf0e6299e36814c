/**
 * `weft trust [dir]`, `weft trust --revoke [dir]`, `weft trust --list`: weft's record of trusted projects under
 * `$WEFT_HOME`, beside Claude Code's, which weft reads and never writes (see src/context/Trust.ts).
 */
import * as Effect from "effect/Effect"
import { statSync } from "node:fs"
import { resolve } from "node:path"
import * as Variables from "../platform/Variables.js"
import { claudeCodeRecord, claudeCodeTrusted, isWithin, realPathOf, revoke, trust, trustedDirectories, trustFile } from "../context/Trust.js"
import { flag } from "./CliOptions.js"
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

const usage = ["weft trust [dir]", "weft trust --revoke [dir]", "weft trust --list"]

const help = () =>
  renderCommandHelp({
    title: "weft trust",
    summary:
      "Trust a project (default: the current directory), the directory and everything under it: its own settings " +
      "(.claude/settings.json, .claude/settings.local.json) and .mcp.json may then run hooks and MCP servers, set the " +
      "environment and widen permissions. --revoke takes it off weft's list; --list shows every trusted project. A " +
      "project is also trusted when you accepted Claude Code's trust dialog there (its ~/.claude.json, or " +
      "$CLAUDE_CONFIG_DIR/.claude.json), and the .mcp.json servers you approved or refused in Claude Code stay approved " +
      "or refused; weft never changes that file. --trust-project or WEFT_TRUST_PROJECT=1 trusts a project for one run " +
      "without recording it.",
    usage,
    options: [
      flag({ name: "revoke", description: "Take the directory (default: the current one) off weft's list of trusted projects." }),
      flag({ name: "list", description: "List the trusted projects: weft's own list, then those Claude Code's record trusts." })
    ]
  })

export const main = (args: ReadonlyArray<string>): Effect.Effect<Outcome, CliError> =>
  Effect.gen(function* () {
    if (args.includes("--help") || args.includes("-h")) {
      yield* Output.stdout(help())
      return Outcome.Succeeded()
    }
    const flags = args.filter((arg) => arg.startsWith("-"))
    const unknown = flags.find((flag) => flag !== "--revoke" && flag !== "--list")
    if (unknown !== undefined) return yield* new UsageError({ message: `weft trust: unknown option ${unknown}. See weft trust --help.` })
    const operands = args.filter((arg) => !arg.startsWith("-"))
    const home = yield* Variables.home
    const weftHome = yield* Variables.weftHomeOf(home)

    if (flags.includes("--list")) {
      if (flags.length > 1 || operands.length > 0) {
        return yield* new UsageError({ message: "weft trust --list takes no directory nor other option. See weft trust --help." })
      }
      const own = yield* trustedDirectories(weftHome)
      const claude = yield* claudeCodeTrusted(home)
      const lines = [
        ...own.map((dir) => `${dir}\n`),
        ...claude.directories.filter((dir) => !own.includes(dir)).map((dir) => `${dir}  (Claude Code: ${claude.path})\n`)
      ]
      yield* Output.stdout(lines.length === 0 ? "weft: no trusted projects. `weft trust [dir]` trusts one.\n" : lines.join(""))
      return Outcome.Succeeded()
    }

    if (operands.length > 1) return yield* new UsageError({ message: "weft trust takes at most one directory. See weft trust --help." })
    const dir = resolve(operands[0] ?? process.cwd())

    if (flags.includes("--revoke")) {
      const removed = yield* revoke(weftHome, dir).pipe(Effect.mapError((error) => new RunError({ message: error.message })))
      const real = yield* realPathOf(dir)
      // What still trusts it: a parent on weft's list, or Claude Code's record (weft never writes that file).
      const parent = (yield* trustedDirectories(weftHome)).find((entry) => isWithin(real, entry))
      const claude = yield* claudeCodeRecord(home, dir)
      const lines = [
        removed === undefined ? `weft: ${real} was not on weft's list of trusted projects (${trustFile(weftHome)}).\n` : `weft: no longer trusts ${removed}.\n`,
        ...(parent === undefined ? [] : [`weft: it is still trusted through ${parent}: weft trust --revoke ${parent}\n`]),
        ...(claude.trusted
          ? [`weft: it is still trusted through Claude Code's record (${claude.path}); revoke it there (hasTrustDialogAccepted).\n`]
          : [])
      ]
      yield* Output.stdout(lines.join(""))
      return Outcome.Succeeded()
    }

    if (!isDirectory(dir)) return yield* new UsageError({ message: `weft trust: ${JSON.stringify(dir)} is not a directory.` })
    const real = yield* trust(weftHome, dir).pipe(Effect.mapError((error) => new RunError({ message: error.message })))
    yield* Output.stdout(
      `weft: trusted ${real}. Its own settings may now run hooks and MCP servers, set the environment and widen permissions.\n`
    )
    return Outcome.Succeeded()
  }).pipe(Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed())))
