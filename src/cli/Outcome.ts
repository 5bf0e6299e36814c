/**
 * How a command of the binary ends, which main.ts alone turns into the exit code: an Outcome when it ran to its
 * end, a CliError (with a message for the user) when it could not.
 */
import * as Data from "effect/Data"
import type { StdinError } from "./Stdin.js"

export type Outcome = Data.TaggedEnum<{
  /** Done, and what was asked succeeded. */
  Succeeded: {}
  /** Done, and what was asked failed; the output already says why (an error result). */
  Failed: {}
  /** The reader of stdout went away (`weft -p ... | head -1`): the run was stopped, quietly. */
  OutputClosed: {}
}>

export const Outcome = Data.taggedEnum<Outcome>()

/** The arguments are not what weft accepts; the message says what is wrong and what would be. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** The run could not go on (a second Ctrl-C, an unexpected failure); the message says what happened. */
export class RunError extends Data.TaggedError("RunError")<{ readonly message: string }> {}

export type CliError = UsageError | RunError | StdinError

const cliErrorTags: ReadonlySet<unknown> = new Set(["UsageError", "RunError", "StdinError"])

export const isCliError = (error: unknown): error is CliError =>
  typeof error === "object" && error !== null && "_tag" in error && cliErrorTags.has(error._tag)

/**
 * The process's exit code. A closed stdout gives 141, what a program killed by SIGPIPE reports (128 + 13: `yes |
 * head -1`, git, cat), so that a `set -o pipefail` script sees the output was cut short, as with those; weft itself
 * ignores SIGPIPE (as Node.js does) so that it can stop its processes and finish the transcript first.
 */
export const exitCode = (outcome: Outcome | CliError): number => {
  switch (outcome._tag) {
    case "Succeeded":
      return 0
    case "OutputClosed":
      return 141
    case "Failed":
    case "UsageError":
    case "RunError":
    case "StdinError":
      return 1
  }
}
