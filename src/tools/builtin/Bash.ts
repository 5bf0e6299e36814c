/**
 * Bash, BashOutput and KillShell: Claude Code's shell tools, on the session's ShellSession.
 *
 * A command that exits non-zero is a normal run whose result is marked `is_error` (as Claude Code does): the
 * output followed by "Exit code N". A timeout is also `is_error`, with the output so far and the time limit.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { ShellSession } from "../ShellSession.js"
import * as Tool from "../Tool.js"

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000
/** Progress lines are batched: at most one per this interval. */
const PROGRESS_INTERVAL = Duration.millis(250)
/** A progress line carries at most the last this-many characters of new output. */
const PROGRESS_CHARS = 2_000

const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${ms}ms`
  const seconds = Math.round(ms / 1000)
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`
}

export const BashInput = Schema.Struct({
  command: Schema.String.annotate({ description: "The command to execute" }),
  timeout: Schema.optional(
    Schema.Number.annotate({ description: `Optional timeout in milliseconds (max ${MAX_TIMEOUT_MS})` })
  ),
  description: Schema.optional(
    Schema.String.annotate({
      description: `Clear, concise description of what this command does in 5-10 words, in active voice. Examples:
Input: ls
Output: List files in current directory

Input: git status
Output: Show working tree status

Input: npm install
Output: Install package dependencies

Input: mkdir foo
Output: Create directory 'foo'`
    })
  ),
  run_in_background: Schema.optional(
    Schema.Boolean.annotate({
      description: "Set to true to run this command in the background. Use BashOutput to read the output later."
    })
  )
})
export type BashInput = typeof BashInput.Type

/** The Bash tool's input when the session's commands run in the sandbox: the model may ask to leave it. */
export type BashSandboxedInput = BashInput & { readonly dangerouslyDisableSandbox?: boolean | undefined }

/** Its Schema, built when a sandboxed session first offers Bash (a run without the sandbox builds none). */
const makeBashSandboxedInput = () =>
  Schema.Struct({
    ...BashInput.fields,
    dangerouslyDisableSandbox: Schema.optional(
      Schema.Boolean.annotate({
        description:
          "Set this to true to dangerously override sandbox mode and run commands without sandboxing. Only when the sandbox refused what the command needs (see <sandbox_violations>) and the user agrees: it is a permission question."
      })
    )
  })

const BASH_DESCRIPTION = `Executes a given bash command with an optional timeout, in a shell session whose working directory persists between calls.

Usage notes:
- The command argument is required.
- You can specify an optional timeout in milliseconds (up to ${MAX_TIMEOUT_MS}ms / ${MAX_TIMEOUT_MS / 60_000} minutes). If not specified, commands will timeout after ${DEFAULT_TIMEOUT_MS}ms (${DEFAULT_TIMEOUT_MS / 60_000} minutes). Larger values are lowered to the maximum.
- It is very helpful if you write a clear, concise description of what this command does in 5-10 words.
- If the output exceeds 30000 characters, output will be truncated before being returned to you (the beginning and the end are kept).
- stdout and stderr are returned together, interleaved as printed. A non-zero exit status is reported as "Exit code N".
- You can use the \`run_in_background\` parameter to run the command in the background, which allows you to continue working while the command runs. You can monitor the output using the BashOutput tool as it becomes available. Never use \`run_in_background\` to run 'sleep' as it will stay running until you kill it with KillShell.
- Processes a foreground command leaves running are ended when it exits: start servers and watchers with \`run_in_background\`.
- Avoid using search commands like \`find\` and \`grep\`: use the Grep and Glob tools. Avoid \`cat\`, \`head\`, \`tail\`: use the Read tool.
- When issuing multiple commands, use the ';' or '&&' operator to separate them. DO NOT use newlines (newlines are ok in quoted strings).
- Try to maintain your current working directory throughout the session by using absolute paths and avoiding usage of \`cd\`. You may use \`cd\` if the User explicitly requests it.`

/**
 * Claude Code's Bash result, what PostToolUse hooks read (`.tool_response.stdout`). weft's command has one stream,
 * stdout and stderr interleaved as printed (what the model reads too): it is `stdout`, and `stderr` is empty.
 */
const bashResponse = (output: string, interrupted: boolean) => ({
  stdout: output,
  stderr: "",
  interrupted,
  isImage: false,
  noOutputExpected: false
})

const lastChars = (text: string, count: number): string => (text.length > count ? text.slice(-count) : text)

const runBash = (input: BashSandboxedInput) =>
    Stream.unwrap(
      Effect.gen(function* () {
        const session = yield* ShellSession
        if (input.command.trim() === "") return Stream.fail(Tool.fail("Bash", "The command is empty."))
        // Granted by the permission layer (a call asking for it is a permission question).
        const unsandboxed = input.dangerouslyDisableSandbox === true
        if (input.run_in_background === true) {
          return Stream.fromEffect(
            Effect.map(session.startBackground(input.command, { unsandboxed }), (shell) =>
              Tool.withResponse(
                Tool.result(
                  `Command running in background with ID: ${shell.id}. Use BashOutput with bash_id "${shell.id}" to read its output, and KillShell to stop it.`,
                  { backgroundShellId: shell.id }
                ),
                { ...bashResponse("", false), backgroundTaskId: shell.id }
              )
            )
          )
        }
        const requested = input.timeout ?? DEFAULT_TIMEOUT_MS
        if (!(requested > 0)) return Stream.fail(Tool.fail("Bash", `timeout must be a positive number of milliseconds (got ${requested}).`))
        const timeoutMs = Math.min(Math.floor(requested), MAX_TIMEOUT_MS)
        return session.run(input.command, { timeoutMs, unsandboxed }).pipe(
          Stream.groupedWithin(256, PROGRESS_INTERVAL),
          Stream.map((events): Array<Tool.ToolOutput> => {
            const out: Array<Tool.ToolOutput> = []
            let text = ""
            for (const event of events) {
              if (event._tag === "Output") {
                text = lastChars(text + event.text, PROGRESS_CHARS)
                continue
              }
              const output = event.output.replace(/\n+$/, "")
              const parts = output === "" ? [] : [output]
              if (event.timedOut) parts.push(`Command timed out after ${formatDuration(timeoutMs)}`)
              else if (event.exitCode !== 0) parts.push(`Exit code ${event.exitCode}`)
              const data = { exitCode: event.exitCode, timedOut: event.timedOut, cwd: event.cwd }
              const isError = event.timedOut || event.exitCode !== 0
              out.push(
                Tool.withResponse(
                  isError
                    ? { _tag: "ToolResult", content: parts.join("\n"), isError: true, data }
                    : Tool.result(parts.length > 0 ? parts.join("\n") : "(No output)", data),
                  bashResponse(output, event.timedOut)
                )
              )
            }
            if (text !== "") out.unshift(Tool.progress(text))
            return out
          }),
          Stream.flattenIterable
        )
      })
    )

export const BashTool = Tool.make({
  name: "Bash",
  description: BASH_DESCRIPTION,
  input: BashInput,
  target: (input) => ({ _tag: "Command", command: input.command }),
  run: runBash
})

const makeBashToolSandboxed = () =>
  Tool.make({
    name: "Bash",
    description: `${BASH_DESCRIPTION}
- Commands run in a sandbox (see the system prompt). If one fails because the sandbox refused something (the result ends with <sandbox_violations>), say so; set \`dangerouslyDisableSandbox\` only when the user wants the command run outside it (they are asked).`,
    input: makeBashSandboxedInput(),
    target: (input) => ({ _tag: "Command", command: input.command }),
    run: runBash
  })

let sandboxedBash: ReturnType<typeof makeBashToolSandboxed> | undefined

/** Bash as offered when the session's commands run in the sandbox (its input has `dangerouslyDisableSandbox`). */
export const sandboxedBashTool = (): ReturnType<typeof makeBashToolSandboxed> => (sandboxedBash ??= makeBashToolSandboxed())

export const BashOutputInput = Schema.Struct({
  bash_id: Schema.String.annotate({ description: "The ID of the background shell to retrieve output from" }),
  filter: Schema.optional(
    Schema.String.annotate({
      description:
        "Optional regular expression to filter the output lines. Only lines matching this regex will be included in the result. Any lines that do not match will no longer be available to read."
    })
  )
})

const compileFilter = (filter: string | undefined): Effect.Effect<RegExp | undefined, Tool.ToolFailed> =>
  filter === undefined
    ? Effect.succeed(undefined)
    : Effect.try({
        try: () => new RegExp(filter),
        catch: (error) => Tool.fail("BashOutput", `Invalid filter regex: ${error instanceof Error ? error.message : String(error)}`)
      })

export const BashOutputTool = Tool.fromEffect({
  name: "BashOutput",
  description: `- Retrieves output from a running or completed background bash shell
- Takes a shell_id parameter identifying the shell
- Always returns only new output since the last check
- Returns stdout and stderr output (interleaved) along with shell status
- Supports optional regex filtering to show only lines matching a pattern
- Use this tool when you need to monitor or check the output of a long-running shell`,
  input: BashOutputInput,
  readOnly: true,
  run: (input) =>
    Effect.gen(function* () {
      const session = yield* ShellSession
      const filter = yield* compileFilter(input.filter)
      const { output, shell } = yield* session
        .readBackground(input.bash_id)
        .pipe(Effect.mapError((error) => Tool.fail("BashOutput", error.message)))
      const lines = output.replace(/\n+$/, "")
      const shown = filter === undefined ? lines : lines.split("\n").filter((line) => filter.test(line)).join("\n")
      const parts = [`<status>${shell.status}</status>`]
      if (shell.exitCode !== undefined) parts.push(`<exit_code>${shell.exitCode}</exit_code>`)
      if (shown !== "") parts.push(`<stdout>\n${shown}\n</stdout>`)
      parts.push(`<timestamp>${new Date(yield* Clock.currentTimeMillis).toISOString()}</timestamp>`)
      return Tool.result(parts.join("\n\n"), { status: shell.status, exitCode: shell.exitCode })
    })
})

export const KillShellInput = Schema.Struct({
  shell_id: Schema.String.annotate({ description: "The ID of the background shell to kill" })
})

export const KillShellTool = Tool.fromEffect({
  name: "KillShell",
  description: `- Kills a running background bash shell by its ID
- Takes a shell_id parameter identifying the shell to kill
- Returns a success or failure status
- Use this tool when you need to terminate a long-running shell`,
  input: KillShellInput,
  run: (input) =>
    Effect.gen(function* () {
      const session = yield* ShellSession
      const before = (yield* session.background).find((shell) => shell.id === input.shell_id)
      if (before !== undefined && before.status !== "running") {
        return yield* Tool.fail(
          "KillShell",
          `Shell ${input.shell_id} is not running (status: ${before.status}${before.exitCode !== undefined ? `, exit code ${before.exitCode}` : ""}).`
        )
      }
      const shell = yield* session
        .killBackground(input.shell_id)
        .pipe(Effect.mapError((error) => Tool.fail("KillShell", error.message)))
      return Tool.result(`Successfully killed shell: ${shell.id} (${shell.command})`)
    })
})
