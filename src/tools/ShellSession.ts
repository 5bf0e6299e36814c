/**
 * The shell state of one agent session, as Claude Code keeps it: the working directory (a `cd` in one Bash call
 * carries over to the next) and the background shells started with `run_in_background`. The layer is scoped:
 * closing it ends every background process group (TERM, then KILL after the grace period).
 *
 * Commands run with `$SHELL -c` when $SHELL is bash or zsh, else `bash -c`; stderr is merged into stdout so the
 * model sees them interleaved as they happened. When the session has a Sandbox, every command (background shells
 * included) is started through it, and its note on what it refused ends the output.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { ChildEnvironment } from "../platform/ChildEnvironment.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import type * as SandboxModule from "../sandbox/Sandbox.js"
import * as Uuid from "../platform/Uuid.js"
import * as Variables from "../platform/Variables.js"
import { ToolFailed } from "./Tool.js"
import { OutputBuffer } from "./shell/OutputBuffer.js"
import * as ProcessGroup from "./shell/ProcessGroup.js"

export interface Options {
  /** The directory the session starts in. */
  readonly cwd: string
  /** How long a process group gets between SIGTERM and SIGKILL. Default 2000 ms. */
  readonly graceMs?: number
  /** The shell binary. Default: $SHELL when it is bash or zsh, else `bash` from PATH. */
  readonly shell?: string
}

/** Output chunks while a foreground command runs, then its outcome. */
export type RunEvent =
  | { readonly _tag: "Output"; readonly text: string }
  | {
      readonly _tag: "Done"
      /** All output, capped (head and tail kept, the middle counted). */
      readonly output: string
      readonly exitCode: number
      readonly timedOut: boolean
      /** The working directory after the command (unchanged if it left none that exists). */
      readonly cwd: string
    }

export type BackgroundStatus = "running" | "completed" | "killed"

export interface BackgroundShell {
  readonly id: string
  readonly command: string
  readonly pid: number
  readonly status: BackgroundStatus
  /** Set once the shell has exited by itself. */
  readonly exitCode: number | undefined
}

export interface SandboxOptions {
  /** Run outside the session's sandbox (granted by the permission layer: `dangerouslyDisableSandbox`). */
  readonly unsandboxed?: boolean
}

export interface RunOptions extends SandboxOptions {
  readonly timeoutMs: number
}

/** No background shell has that id. */
export class ShellNotFound extends Data.TaggedError("ShellNotFound")<{ readonly id: string; readonly message: string }> {}

export interface Interface {
  /** The current working directory of the session. */
  readonly cwd: Effect.Effect<string>
  readonly setCwd: (cwd: string) => Effect.Effect<void>
  /**
   * Runs a command in the session's directory, streaming its output, then its outcome. On timeout, and when the
   * stream is interrupted, the whole process group is ended. Any process the command left behind in its group
   * is ended when it exits (long-lived processes belong in the background).
   */
  readonly run: (command: string, options: RunOptions) => Stream.Stream<RunEvent, ToolFailed>
  /** Starts a command in the background; it lives until it exits, is killed, or the session ends. */
  readonly startBackground: (command: string, options?: SandboxOptions) => Effect.Effect<BackgroundShell, ToolFailed>
  /** The output a background shell printed since the last read, and its status. */
  readonly readBackground: (
    id: string
  ) => Effect.Effect<{ readonly shell: BackgroundShell; readonly output: string }, ShellNotFound>
  /** Ends a background shell's process group. */
  readonly killBackground: (id: string) => Effect.Effect<BackgroundShell, ShellNotFound>
  readonly background: Effect.Effect<ReadonlyArray<BackgroundShell>>
}

/**
 * Bound on output chunks queued for progress (a chunk is one pipe read, at most 64 KiB, so at most 2 MiB here);
 * older chunks are dropped: progress only shows recent output, and the final output keeps its own buffer.
 */
const PROGRESS_QUEUE_CHUNKS = 32

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** The shell to run commands with: $SHELL if it is bash or zsh (what the user's commands are written for), else bash. */
export const defaultShell: Effect.Effect<string> = Effect.map(Variables.value("SHELL"), (shell) =>
  shell !== undefined && /(^|\/)(bash|zsh)$/.test(shell) && fs.existsSync(shell) ? shell : "bash"
)

/**
 * Runs the command given as the script's first argument. The command never becomes part of the wrapper's own text:
 * it is parsed by `eval` as a whole, so whatever it ends with (a backslash, an open quote, a heredoc without its
 * end, a comment) it cannot join or swallow the wrapper's next line. The wrapper's variable is unset before the
 * command runs, and the command sees no positional parameters.
 */
const runArgument = `__weft_command=$1; shift\neval "unset __weft_command\n$__weft_command"`

/**
 * The script run for a foreground command (passed as the first argument): stderr merged into stdout, and the final
 * directory written to `cwdFile`, with the command's own exit status kept: by a line after the command (which
 * holds when the command sets an EXIT trap of its own) and by an EXIT trap (which holds when it calls `exit`). `pwd`
 * stays quiet when the directory is gone.
 */
export const foregroundScript = (cwdFile: string): string => {
  const record = `pwd -P >| ${quote(cwdFile)} 2>/dev/null`
  return `exec 2>&1; trap ${quote(record)} EXIT\n${runArgument}\n__weft_status=$?; ${record}; exit "$__weft_status"`
}

/** The script run for a background command (passed as the first argument). */
export const backgroundScript = `exec 2>&1\n${runArgument}`

const isDirectory = (path: string): boolean => {
  try {
    return fs.statSync(path).isDirectory()
  } catch {
    return false
  }
}

interface BackgroundEntry {
  readonly id: string
  readonly command: string
  readonly scope: Scope.Closeable
  readonly buffer: OutputBuffer
  pid: number
  status: BackgroundStatus
  exitCode: number | undefined
}

const snapshot = (entry: BackgroundEntry): BackgroundShell => ({
  id: entry.id,
  command: entry.command,
  pid: entry.pid,
  status: entry.status,
  exitCode: entry.exitCode
})

export const make = (options: Options): Effect.Effect<Interface, never, Scope.Scope | ChildEnvironment> =>
  Effect.gen(function* () {
    // Commands run without weft's credentials, in the environment the settings' policy shapes.
    const childEnvironment = yield* ChildEnvironment
    const graceMs = options.graceMs ?? 2_000
    // The sandbox every command is started through; a session without one runs them as they are.
    const sandbox = Option.getOrUndefined(yield* Effect.serviceOption(Sandbox))
    // Scratch files the shell writes (its final directory) go where a sandboxed command can write.
    const scratchDir = sandbox?.tempDir ?? os.tmpdir()
    const start = (
      command: string,
      spawn: SandboxModule.Spawn,
      onOutput: (text: string) => void,
      sandboxOptions: SandboxOptions | undefined
    ) =>
      Effect.gen(function* () {
        const wrapped =
          sandbox === undefined
            ? undefined
            : yield* sandbox
                .wrap(spawn, { unsandboxed: sandboxOptions?.unsandboxed === true, command })
                .pipe(Effect.mapError((error) => new ToolFailed({ tool: "Bash", message: error.message })))
        const actual = wrapped?.spawn ?? spawn
        const settled = wrapped?.settled ?? Effect.void
        // Registered before the process group, so it runs after the group is ended (on interruption, a kill, the
        // session's end): the sandbox's pid namespace is gone, with all it held, before the scope is.
        yield* Effect.addFinalizer(() => settled)
        const child = yield* ProcessGroup.start({
          file: actual.file,
          args: actual.args,
          fds: actual.fds,
          env: actual.env,
          cwd: actual.cwd,
          graceMs,
          onOutput
        })
        return { child, settled, report: wrapped?.report ?? (() => Effect.succeed("")) }
      })
    const shell = options.shell ?? (yield* defaultShell)
    const cwdRef = yield* Ref.make(options.cwd)
    const shells = new Map<string, BackgroundEntry>()
    let counter = 0

    // Every background shell ends with the session, concurrently, so N shells cost one grace period, not N. Each
    // shell's scope releases what it holds as it was acquired.
    yield* Effect.addFinalizer(() =>
      Effect.forEach([...shells.values()], (entry) => Scope.close(entry.scope, Exit.void), {
        concurrency: "unbounded",
        discard: true
      })
    )

    const run: Interface["run"] = (command, { timeoutMs, ...sandboxOptions }) =>
      Stream.unwrap(
        Effect.gen(function* () {
          const current = yield* Ref.get(cwdRef)
          // The directory a command left the session in may have been removed since: say so, and start over.
          const cwd = isDirectory(current) ? current : options.cwd
          const cwdFile = nodePath.join(scratchDir, `weft-cwd-${yield* Uuid.v4}`)
          const moved = cwd === current ? "" : `(The working directory ${current} no longer exists; this command ran in ${cwd}.)\n`
          yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(cwdFile, { force: true })))
          const queue = yield* Effect.acquireRelease(Queue.sliding<string>(PROGRESS_QUEUE_CHUNKS), Queue.shutdown)
          const buffer = new OutputBuffer()
          if (moved !== "") buffer.append(moved)
          const { child, settled, report } = yield* start(
            command,
            {
              file: shell,
              args: ProcessGroup.shellArgs(shell, foregroundScript(cwdFile), [command]),
              env: yield* childEnvironment.shell,
              cwd,
              fds: []
            },
            (text) => {
              buffer.append(text)
              Queue.offerUnsafe(queue, text)
            },
            sandboxOptions
          )
          const finish = Effect.gen(function* () {
            const exited = yield* Effect.timeoutOption(child.exit, timeoutMs)
            // A sandbox ends what the command left behind by itself: let it, rather than signal it.
            if (exited._tag === "Some") yield* settled
            yield* child.terminate
            yield* settled
            const exit = yield* child.exit
            let next = cwd
            try {
              const written = fs.readFileSync(cwdFile, "utf8").trim()
              if (written !== "" && isDirectory(written)) next = written
            } catch {
              // The command replaced the EXIT trap or was killed: the directory stays as it was.
            }
            yield* Ref.set(cwdRef, next)
            const rendered = buffer.render()
            // What the sandbox refused, after the command's own output (and so never cut from it).
            const note = yield* report(rendered)
            const done: RunEvent = {
              _tag: "Done",
              output: note === "" ? rendered : `${rendered.replace(/\n*$/, "\n")}${note}`,
              exitCode: exit.code,
              timedOut: exited._tag === "None",
              cwd: next
            }
            return done
          })
          const output: Stream.Stream<RunEvent> = Stream.map(Stream.fromQueue(queue), (text) => ({ _tag: "Output", text }))
          return Stream.merge(output, Stream.fromEffect(finish), { haltStrategy: "right" })
        })
      )

    const startBackground = Effect.fn("ShellSession.startBackground")(function* (
      command: string,
      sandboxOptions?: SandboxOptions
    ) {
      const cwd = yield* Ref.get(cwdRef)
      const scope = yield* Scope.make()
      const entry: BackgroundEntry = {
        id: `bash_${++counter}`,
        command,
        scope,
        buffer: new OutputBuffer(),
        pid: 0,
        status: "running",
        exitCode: undefined
      }
      const { child, report } = yield* start(
        command,
        {
          file: shell,
          args: ProcessGroup.shellArgs(shell, backgroundScript, [command]),
          env: yield* childEnvironment.shell,
          cwd: isDirectory(cwd) ? cwd : options.cwd,
          fds: []
        },
        (text) => entry.buffer.append(text),
        sandboxOptions
      ).pipe(
        Scope.provide(scope),
        Effect.tapError(() => Scope.close(scope, Exit.void))
      )
      entry.pid = child.pid
      shells.set(entry.id, entry)
      yield* child.exit.pipe(
        Effect.tap((exit) =>
          Effect.sync(() => {
            if (entry.status === "running") {
              entry.status = "completed"
              entry.exitCode = exit.code
            }
          })
        ),
        Effect.andThen(Effect.suspend(() => report(entry.buffer.render()))),
        Effect.tap((note) => Effect.sync(() => note === "" || entry.buffer.append(`\n${note}\n`))),
        Effect.forkIn(scope)
      )
      return snapshot(entry)
    })

    const find = (id: string) =>
      Effect.suspend(() => {
        const entry = shells.get(id)
        return entry === undefined
          ? Effect.fail(
              new ShellNotFound({
                id,
                message: `No background shell with id ${id}.${shells.size > 0 ? ` Known shells: ${[...shells.keys()].join(", ")}` : ""}`
              })
            )
          : Effect.succeed(entry)
      })

    const readBackground = Effect.fn("ShellSession.readBackground")(function* (id: string) {
      const entry = yield* find(id)
      return { shell: snapshot(entry), output: entry.buffer.take() }
    })

    const killBackground = Effect.fn("ShellSession.killBackground")(function* (id: string) {
      const entry = yield* find(id)
      if (entry.status === "running") {
        entry.status = "killed"
        yield* Scope.close(entry.scope, Exit.void)
      }
      return snapshot(entry)
    })

    return {
      cwd: Ref.get(cwdRef),
      setCwd: (cwd) => Ref.set(cwdRef, cwd),
      run,
      startBackground,
      readBackground,
      killBackground,
      background: Effect.sync(() => [...shells.values()].map(snapshot))
    } satisfies Interface
  })

export class ShellSession extends Context.Service<ShellSession, Interface>()("weft/ShellSession") {
  static make = make
  /** One session's shell state; closing the layer's scope ends every background process. */
  static layer = (options: Options): Layer.Layer<ShellSession, never, ChildEnvironment> => Layer.effect(ShellSession, make(options))
}

export const layer = ShellSession.layer
