/**
 * `weft sessions [--json]`: the sessions of the current directory, newest first — id, last activity, turns, cost
 * and first prompt — as a table to read, or (`--json`) as a JSON array for scripts. What `--resume <id>` takes.
 */
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Credentials from "../platform/Credentials.js"
import { type SessionInfo, SessionStore } from "../session/SessionStore.js"
import { commands, flag } from "./CliOptions.js"
import { renderCommandHelp } from "./Help.js"
import { type CliError, Outcome, RunError, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"

const options = {
  json: flag({
    name: "json",
    description:
      "Print a JSON array instead of the table: {sessionId, cwd, firstPrompt, lastModified, turns, costUSD, entryCount} per session, newest first."
  })
}

const help = () =>
  renderCommandHelp({
    title: "weft sessions",
    summary: `${commands.find((command) => command.name === "sessions")?.summary ?? ""} Resume one with weft -p --resume <id> "...", the latest with weft -p --continue "...".`,
    usage: ["weft sessions [--json]"],
    options: Object.values(options)
  })

/** Local time, to the minute: 2026-11-23 17:43. */
const localTime = (date: Date): string => {
  const two = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`
}

const dollars = (cost: number): string => `$${cost.toFixed(cost >= 1 ? 2 : 4)}`

/**
 * The text with its control characters (C0, DEL, C1) shown as U+FFFD: a prompt may have been piped in from anywhere,
 * and its escape sequences must not reach the terminal (retitle it, clear it, forge output).
 */
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd")

/** The sessions as a table, each row on one line (the prompt cut to fit `width`). */
export const renderTable = (sessions: ReadonlyArray<SessionInfo>, width: number): string => {
  const header = ["SESSION ID", "LAST ACTIVITY", "TURNS", "COST", "FIRST PROMPT"] as const
  const rows = sessions.map((info) => [
    info.sessionId,
    localTime(info.lastModified),
    String(info.turns),
    dollars(info.costUSD),
    info.firstPrompt === "" ? "(no prompt)" : printable(info.firstPrompt)
  ])
  const widths = header.slice(0, 4).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
  const line = (cells: ReadonlyArray<string>) => {
    const fixed = cells
      .slice(0, 4)
      .map((cell, column) => (column === 2 || column === 3 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
    const room = Math.max(20, width - fixed.length - 2)
    const prompt = cells[4] ?? ""
    return `${fixed}  ${prompt.length > room ? `${prompt.slice(0, room - 1)}…` : prompt}`.trimEnd()
  }
  return [line(header), ...rows.map(line)].join("\n") + "\n"
}

const asJson = (sessions: ReadonlyArray<SessionInfo>): string =>
  JSON.stringify(
    sessions.map((info) => ({
      sessionId: info.sessionId,
      cwd: info.cwd,
      firstPrompt: info.firstPrompt,
      lastModified: info.lastModified.toISOString(),
      turns: info.turns,
      costUSD: info.costUSD,
      entryCount: info.entryCount
    })),
    null,
    2
  ) + "\n"

export const main = (args: ReadonlyArray<string>): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    if (args.includes("--help") || args.includes("-h")) {
      yield* Output.stdout(help())
      return Outcome.Succeeded()
    }
    let json = false
    for (const arg of args) {
      if (arg === `--${options.json.name}`) json = true
      else {
        return yield* new UsageError({
          message: `weft sessions: unknown ${arg.startsWith("-") ? "option" : "argument"} ${JSON.stringify(arg)}. See weft sessions --help.`
        })
      }
    }
    const cwd = process.cwd()
    const sessions = yield* Effect.flatMap(SessionStore.make(), (store) => store.list(cwd)).pipe(
      Effect.provideService(Credentials.Credentials, Credentials.fromEnv(process.env)),
      Effect.scoped,
      Effect.mapError((error) => new RunError({ message: `weft sessions: ${error.message}` }))
    )
    if (json) yield* Output.stdout(asJson(sessions))
    else if (sessions.length === 0) {
      yield* Output.stdout(`No sessions in ${cwd} yet. Start one with weft -p "...".\n`)
    } else {
      yield* Output.stdout(renderTable(sessions, process.stdout.columns ?? 120))
    }
    return Outcome.Succeeded()
  }).pipe(Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed())))
