/**
 * A shell command in its own process group, as a scoped resource: whatever the command starts (pipelines,
 * background jobs, children that ignore SIGTERM) is ended with the group, TERM first, KILL after a grace period.
 * The node child_process API is wrapped here, at the edge; the rest of weft sees Effects.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import { StringDecoder } from "node:string_decoder"
import { ToolFailed } from "../Tool.js"

/** How often a dying group is checked while waiting for it to go. */
const POLL_MS = 20
/** How long to wait for a group after SIGKILL before giving up on it (the kernel normally needs microseconds). */
const AFTER_KILL_MS = 2_000

/** A sleep on the real clock: process deadlines must pass even under a test clock. */
export const sleepLive = (ms: number): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const handle = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(handle))
  })

/**
 * The state letter of a process from /proc (R, S, Z, ...), or undefined where /proc is unavailable.
 * Needed because an orphan's zombie lingers until PID 1 reaps it, and some PID 1s (containers, VMs) never do.
 */
export const procState = (pid: number): string | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)
  } catch {
    return undefined
  }
}

/** Is a process running (a zombie is not). */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return hasCode(error, "EPERM")
  }
  return procState(pid) !== "Z"
}

const hasCode = (error: unknown, code: string): boolean =>
  typeof error === "object" && error !== null && "code" in error && error.code === code

/** The members of a process group that are not zombies (Linux, through /proc). */
const liveMembers = (pgid: number): Array<number> | undefined => {
  let entries: Array<string>
  try {
    entries = fs.readdirSync("/proc")
  } catch {
    return undefined
  }
  const members: Array<number> = []
  for (const entry of entries) {
    const code = entry.charCodeAt(0)
    if (code < 48 || code > 57) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) members.push(Number(entry))
    } catch {
      // the process ended while we looked
    }
  }
  return members
}

/** Does any live process remain in the group. */
export const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    return hasCode(error, "EPERM")
  }
  const members = liveMembers(pgid)
  return members === undefined ? true : members.length > 0
}

const signalGroup = (pgid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pgid, signal)
  } catch {
    // already gone
  }
}

const waitGone = (pgid: number, ms: number): Effect.Effect<boolean> =>
  Effect.suspend(function poll(remaining: number = ms): Effect.Effect<boolean> {
    if (!groupAlive(pgid)) return Effect.succeed(true)
    if (remaining <= 0) return Effect.succeed(false)
    return Effect.andThen(sleepLive(POLL_MS), Effect.suspend(() => poll(remaining - POLL_MS)))
  })

/** Ends a process group: SIGTERM, then SIGKILL to whatever is left after `graceMs`. */
export const terminateGroup = (pgid: number, graceMs: number): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (!groupAlive(pgid)) return Effect.void
    signalGroup(pgid, "SIGTERM")
    return waitGone(pgid, graceMs).pipe(
      Effect.flatMap((gone) => {
        if (gone) return Effect.void
        signalGroup(pgid, "SIGKILL")
        return Effect.asVoid(waitGone(pgid, AFTER_KILL_MS))
      })
    )
  }).pipe(Effect.uninterruptible)

/** A process as /proc shows it: its parent, its group and when it started (which tells a reused pid apart). */
interface ProcEntry {
  readonly pid: number
  readonly ppid: number
  readonly pgid: number
  readonly startTime: string
}

/** A live (non-zombie) process's /proc entry, if it has one. */
const procEntry = (pid: number): ProcEntry | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // After the command's ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime priority nice num_threads itrealvalue starttime ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    if (fields[0] === "Z") return undefined
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19] ?? "" }
  } catch {
    // gone (or ended while we looked)
    return undefined
  }
}

/** Every live process, through /proc; none where /proc is unavailable. */
const processTable = (): Array<ProcEntry> => {
  let entries: Array<string>
  try {
    entries = fs.readdirSync("/proc")
  } catch {
    return []
  }
  const table: Array<ProcEntry> = []
  for (const entry of entries) {
    const code = entry.charCodeAt(0)
    if (code < 48 || code > 57) continue
    const found = procEntry(Number(entry))
    if (found !== undefined) table.push(found)
  }
  return table
}

/** The descendants of `pid` that left its process group (`setsid`, job control), as /proc shows them now. */
const straysOf = (pid: number): Array<ProcEntry> => {
  const table = processTable()
  const children = new Map<number, Array<ProcEntry>>()
  for (const entry of table) {
    const siblings = children.get(entry.ppid)
    if (siblings === undefined) children.set(entry.ppid, [entry])
    else siblings.push(entry)
  }
  const strays: Array<ProcEntry> = []
  const pending = [pid]
  const seen = new Set<number>(pending)
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue
      seen.add(child.pid)
      pending.push(child.pid)
      if (child.pgid !== pid) strays.push(child)
    }
  }
  return strays
}

/** Is this very process (not another one given its pid since) still running. */
const sameAlive = (stray: ProcEntry): boolean => {
  const now = procEntry(stray.pid)
  return now !== undefined && now.startTime === stray.startTime
}

const signalStray = (stray: ProcEntry, signal: NodeJS.Signals): void => {
  if (!sameAlive(stray)) return
  try {
    process.kill(stray.pid, signal)
  } catch {
    // already gone
  }
}

/**
 * `terminateGroup` for a group whose leader (`pgid`) may have started processes outside it (`setsid`, a shell's
 * job control): those found under the leader when termination starts are ended with the group, TERM then KILL
 * after `graceMs`. Found before the TERM, since a leader that dies of it leaves its descendants to init, where
 * nothing tells them apart any more. Used for command hooks, whose authors do not expect anything to outlive them.
 */
export const terminateTree = (pgid: number, graceMs: number): Effect.Effect<void> =>
  Effect.suspend(() => {
    const strays = groupAlive(pgid) ? straysOf(pgid) : []
    if (strays.length === 0) return terminateGroup(pgid, graceMs)
    const gone = (): boolean => !groupAlive(pgid) && !strays.some(sameAlive)
    const waitAllGone = (ms: number): Effect.Effect<boolean> =>
      Effect.suspend(function poll(remaining: number = ms): Effect.Effect<boolean> {
        if (gone()) return Effect.succeed(true)
        if (remaining <= 0) return Effect.succeed(false)
        return Effect.andThen(sleepLive(POLL_MS), Effect.suspend(() => poll(remaining - POLL_MS)))
      })
    signalGroup(pgid, "SIGTERM")
    for (const stray of strays) signalStray(stray, "SIGTERM")
    return waitAllGone(graceMs).pipe(
      Effect.flatMap((allGone) => {
        if (allGone) return Effect.void
        signalGroup(pgid, "SIGKILL")
        for (const stray of strays) signalStray(stray, "SIGKILL")
        return Effect.asVoid(waitAllGone(AFTER_KILL_MS))
      })
    )
  }).pipe(Effect.uninterruptible)

export interface ShellExit {
  /** The exit code; for a death by signal, 128 + the signal number, as shells report it. */
  readonly code: number
  readonly signal: NodeJS.Signals | undefined
}

export interface ShellProcess {
  readonly pid: number
  /** Completes when the shell itself exits. */
  readonly exit: Effect.Effect<ShellExit>
  /**
   * Ends whatever is left of the group (background jobs of the command, or everything on timeout and
   * interruption), then waits for the output to be read to its end (bounded by the grace period: a process
   * that escaped the group may hold the pipe).
   */
  readonly terminate: Effect.Effect<void>
}

export interface StartOptions {
  /** The program (a shell, or the sandbox wrapping one). */
  readonly file: string
  readonly args: ReadonlyArray<string>
  /** Open file descriptors the child gets as fds 3, 4, ... (the sandbox's seccomp program). */
  readonly fds?: ReadonlyArray<number>
  readonly cwd: string
  /** The child's whole environment (see ChildEnvironment: never this process's own as is). */
  readonly env: Readonly<Record<string, string>>
  readonly graceMs: number
  /** Receives output (stdout and stderr) as it arrives, decoded as UTF-8. */
  readonly onOutput: (text: string) => void
}

const exitOf = (code: number | null, signal: NodeJS.Signals | null): ShellExit => {
  if (code !== null) return { code, signal: undefined }
  const number = signal === null ? 0 : (os.constants.signals[signal] ?? 0)
  return { code: 128 + number, signal: signal ?? undefined }
}

/** `shell -c script shell ...args`: the argv of a shell script with positional parameters. */
export const shellArgs = (shell: string, script: string, args: ReadonlyArray<string> = []): ReadonlyArray<string> => [
  "-c",
  script,
  shell,
  ...args
]

/** Starts `file args` in a new process group; the group is ended when the scope closes. */
export const start = (options: StartOptions): Effect.Effect<ShellProcess, ToolFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const exited = yield* Deferred.make<ShellExit>()
    const closed = yield* Deferred.make<void>()
    const child = yield* Effect.acquireRelease(
      Effect.callback<ChildProcess, ToolFailed>((resume) => {
        let child: ChildProcess
        try {
          child = spawn(options.file, options.args, {
            cwd: options.cwd,
            // Own process group, so the whole tree can be signalled at once.
            detached: true,
            stdio: ["ignore", "pipe", "pipe", ...(options.fds ?? [])],
            env: options.env
          })
        } catch (error) {
          resume(Effect.fail(new ToolFailed({ tool: "Bash", message: `Could not start ${options.file}: ${String(error)}` })))
          return
        }
        const stdout = new StringDecoder("utf8")
        const stderr = new StringDecoder("utf8")
        child.stdout?.on("data", (chunk: Buffer) => options.onOutput(stdout.write(chunk)))
        child.stderr?.on("data", (chunk: Buffer) => options.onOutput(stderr.write(chunk)))
        child.on("exit", (code, signal) => Deferred.doneUnsafe(exited, Effect.succeed(exitOf(code, signal))))
        child.on("close", (code, signal) => {
          const rest = stdout.end() + stderr.end()
          if (rest !== "") options.onOutput(rest)
          Deferred.doneUnsafe(exited, Effect.succeed(exitOf(code, signal)))
          Deferred.doneUnsafe(closed, Effect.void)
        })
        child.once("spawn", () => resume(Effect.succeed(child)))
        child.once("error", (error) => {
          if (child.pid === undefined) {
            resume(Effect.fail(new ToolFailed({ tool: "Bash", message: `Could not start ${options.file}: ${error.message}` })))
          }
        })
      }),
      (child) => terminateAndDrain(child, options.graceMs, closed)
    )
    const pid = child.pid ?? 0
    return {
      pid,
      exit: Deferred.await(exited),
      terminate: terminateAndDrain(child, options.graceMs, closed)
    }
  })

const terminateAndDrain = (child: ChildProcess, graceMs: number, closed: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    if (child.pid !== undefined) yield* terminateGroup(child.pid, graceMs)
    // The timer must stay interruptible inside this uninterruptible region, or the race would wait it out.
    const drained = yield* Effect.race(
      Effect.asSome(Deferred.await(closed)),
      Effect.interruptible(Effect.as(sleepLive(graceMs), Option.none<void>()))
    )
    if (Option.isNone(drained)) {
      // Someone outside the group still holds the pipes; stop reading rather than wait for them.
      child.stdout?.destroy()
      child.stderr?.destroy()
    }
  }).pipe(Effect.uninterruptible)
