/**
 * One command hook as a child process: `/bin/sh -c command` in the project directory, in its own process group,
 * its input JSON on stdin, stdout and stderr read apart and bounded. Whatever happens it ends within its timeout
 * plus the grace period, and leaves nothing running:
 * - past its timeout the whole group is ended (TERM, then KILL after the grace period: a hook that ignores TERM
 *   does not outlive the session, as it would in Claude Code, which sends TERM only), with what the hook started
 *   outside its group (`setsid`) while it ran;
 * - printing more than the bound ends it the same way (a flooding hook costs at most the bound in memory);
 * - when the shell exits, what it left running in its group (a background job keeping stdout open) is ended too,
 *   so the hook's answer never waits for it;
 * - interrupting the caller (Ctrl-C, a cancelled turn) ends the group as the scope closes.
 * The node child_process API is wrapped here, at the edge; the rest of weft sees an Effect that never fails.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ChildProcess, spawn } from "node:child_process"
import * as os from "node:os"
import type * as Scope from "effect/Scope"
import type { Spawn, SandboxRefused, Wrapped } from "../sandbox/Sandbox.js"
import { sleepLive, terminateTree } from "../tools/shell/ProcessGroup.js"

/** Bytes of stdout, and as many of stderr, kept from one hook; past either the hook is ended as flooding. */
export const maxOutputBytes = 1024 * 1024

/** Between TERM and KILL, and the longest wait for a pipe held open by a process outside the group. */
export const defaultGraceMs = 2_000

export interface RunOptions {
  readonly command: string
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly stdin: string
  readonly timeoutMs: number
  readonly graceMs?: number
  readonly maxOutputBytes?: number
  /** The shell; `/bin/sh` as in Claude Code. */
  readonly shell?: string
  /** The command sandbox to start the hook in (`sandbox.hooks`); none: it runs as it is. */
  readonly sandbox?: (spawn: Spawn) => Effect.Effect<Wrapped, SandboxRefused, Scope.Scope>
}

export type Ending =
  /** The shell exited by itself (`exitCode` is its code, 128 + n for a death by signal n). */
  | "exited"
  /** It ran past its timeout and was ended. */
  | "timedOut"
  /** It printed more than the bound and was ended. */
  | "flooded"
  /** It could not be started. */
  | "notStarted"

export interface RunResult {
  readonly ending: Ending
  readonly exitCode: number | undefined
  readonly stdout: string
  readonly stderr: string
  /** For `notStarted`, why. */
  readonly error?: string
  /** The process group's id (the shell's pid), for tests that check nothing is left. */
  readonly pid?: number
  /** On effect's Clock, as the loop's durations: under a test's TestClock it stands still (the deadlines do not). */
  readonly durationMs: number
}

class Capture {
  private readonly chunks: Array<Buffer> = []
  private bytes = 0
  constructor(
    private readonly limit: number,
    private readonly onOverflow: () => void
  ) {}
  push(chunk: Buffer): void {
    const room = this.limit - this.bytes
    // Output that fills the bound exactly is not yet a flood: the next byte past it is (pipes deliver 64 KiB
    // chunks, so a 1 MiB bound is often met exactly).
    if (chunk.length > room) this.onOverflow()
    if (room <= 0) return
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk
    this.chunks.push(kept)
    this.bytes += kept.length
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8")
  }
}

const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null): number =>
  code !== null ? code : 128 + (signal === null ? 0 : (os.constants.signals[signal] ?? 0))

interface Started {
  readonly child: ChildProcess
  readonly exited: Deferred.Deferred<number>
  readonly closed: Deferred.Deferred<void>
  readonly flooded: Deferred.Deferred<void>
  readonly stdout: Capture
  readonly stderr: Capture
}

const start = (options: RunOptions, spawned: Spawn) =>
  Effect.callback<Started, string>((resume) => {
    const exited = Deferred.makeUnsafe<number>()
    const closed = Deferred.makeUnsafe<void>()
    const flooded = Deferred.makeUnsafe<void>()
    const limit = options.maxOutputBytes ?? maxOutputBytes
    const overflow = () => Deferred.doneUnsafe(flooded, Effect.void)
    const stdout = new Capture(limit, overflow)
    const stderr = new Capture(limit, overflow)
    let child: ChildProcess
    try {
      child = spawn(spawned.file, spawned.args, {
        cwd: spawned.cwd,
        env: spawned.env,
        // Its own process group, so the hook and everything it starts can be ended together.
        detached: true,
        stdio: ["pipe", "pipe", "pipe", ...spawned.fds]
      })
    } catch (error) {
      resume(Effect.fail(error instanceof Error ? error.message : String(error)))
      return
    }
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk))
    // A hook that never reads its input, or exits before reading it all, closes the pipe under us: not an error.
    child.stdin?.on("error", () => {})
    child.on("exit", (code, signal) => Deferred.doneUnsafe(exited, Effect.succeed(exitCodeOf(code, signal))))
    child.on("close", (code, signal) => {
      Deferred.doneUnsafe(exited, Effect.succeed(exitCodeOf(code, signal)))
      Deferred.doneUnsafe(closed, Effect.void)
    })
    child.once("spawn", () => {
      child.stdin?.end(options.stdin)
      resume(Effect.succeed({ child, exited, closed, flooded, stdout, stderr }))
    })
    child.once("error", (error) => {
      if (child.pid === undefined) resume(Effect.fail(error.message))
    })
  })

/** Ends what is left of the group, then waits (at most the grace period) for the pipes to close. */
const endAndDrain = (started: Started, graceMs: number) =>
  Effect.gen(function* () {
    if (started.child.pid !== undefined) yield* terminateTree(started.child.pid, graceMs)
    const drained = yield* Effect.race(
      Effect.asSome(Deferred.await(started.closed)),
      Effect.interruptible(Effect.as(sleepLive(graceMs), Option.none<void>()))
    )
    if (Option.isNone(drained)) {
      // A process outside the group still holds the pipes: stop reading rather than wait for it.
      started.child.stdout?.destroy()
      started.child.stderr?.destroy()
    }
  }).pipe(Effect.uninterruptible)

/** Runs one hook to its end (see the module doc). Never fails. */
export const run = (options: RunOptions): Effect.Effect<RunResult> =>
  Effect.scoped(
    Effect.gen(function* () {
      const graceMs = options.graceMs ?? defaultGraceMs
      const startedAt = yield* Clock.currentTimeMillis
      const shell = options.shell ?? "/bin/sh"
      const plain: Spawn = { file: shell, args: ["-c", options.command], cwd: options.cwd, env: options.env, fds: [] }
      const wrapped = options.sandbox === undefined ? undefined : yield* Effect.result(options.sandbox(plain))
      if (wrapped?._tag === "Failure") {
        return {
          ending: "notStarted",
          exitCode: undefined,
          stdout: "",
          stderr: "",
          error: wrapped.failure.message,
          durationMs: (yield* Clock.currentTimeMillis) - startedAt
        } satisfies RunResult
      }
      const sandboxed = wrapped?.success
      // Runs after the group is ended (registered before it): the sandbox's pid namespace is gone with the hook.
      if (sandboxed !== undefined) yield* Effect.addFinalizer(() => sandboxed.settled)
      const started = yield* Effect.result(
        Effect.acquireRelease(start(options, sandboxed?.spawn ?? plain), (started) => endAndDrain(started, graceMs))
      )
      if (started._tag === "Failure") {
        return {
          ending: "notStarted",
          exitCode: undefined,
          stdout: "",
          stderr: "",
          error: started.failure,
          durationMs: (yield* Clock.currentTimeMillis) - startedAt
        } satisfies RunResult
      }
      const hook = started.success
      const ending = yield* Effect.raceAll([
        Effect.as(Deferred.await(hook.exited), "exited" as const),
        Effect.as(Deferred.await(hook.flooded), "flooded" as const),
        Effect.as(sleepLive(options.timeoutMs), "timedOut" as const)
      ])
      // Ends the shell on timeout or flood, and on a normal exit whatever it left behind; then reads to the end.
      if (ending === "exited" && sandboxed !== undefined) yield* sandboxed.settled
      yield* endAndDrain(hook, graceMs)
      const exitCode = ending === "exited" ? yield* Deferred.await(hook.exited) : undefined
      return {
        ending,
        exitCode,
        stdout: hook.stdout.text(),
        stderr: hook.stderr.text(),
        ...(hook.child.pid === undefined ? {} : { pid: hook.child.pid }),
        durationMs: (yield* Clock.currentTimeMillis) - startedAt
      } satisfies RunResult
    })
  )
