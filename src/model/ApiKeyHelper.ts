/**
 * The settings key `apiKeyHelper`, as Claude Code runs it: a command (`/bin/sh -c`, in the project directory) whose
 * stdout, trimmed, is the key of the API requests, sent as both `x-api-key` and `Authorization: Bearer`
 * (ApiClient's KeySource). The key is kept for `CLAUDE_CODE_API_KEY_HELPER_TTL_MS` (default: the whole session),
 * and the helper runs again when the key has expired or the server refused it (401).
 *
 * The helper is a child process like a hook (HookProcess: its own process group, ended past its timeout, TERM then
 * KILL, and with the caller's scope). Its key is told to `onKey` (Credentials.add: withheld from every child,
 * redacted from everything weft records or prints) and is written nowhere else: a failure names the settings file
 * and the exit code, never the output (which may hold the key) nor the command (which may too). Only trusted scopes
 * reach this: the settings loader drops an untrusted project's `apiKeyHelper`.
 *
 * Loaded only when the settings have an `apiKeyHelper`.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Semaphore from "effect/Semaphore"
import * as HookProcess from "../hooks/HookProcess.js"
import * as Variables from "../platform/Variables.js"
import type { KeySource } from "./ApiClient.js"
import { AuthenticationError } from "./ApiError.js"

/** How long the helper may run before it is stopped. */
export const defaultTimeoutMs = 30_000

/** Bytes of output kept from the helper: a key is far smaller. */
const maxOutputBytes = 64 * 1024

export interface Options {
  /** The command, run by `/bin/sh -c`. */
  readonly command: string
  /** The settings file it came from: what errors name (the command itself may hold a secret). */
  readonly origin: string
  /** Where it runs: the project directory. */
  readonly cwd: string
  /** Its environment, read at each run (ChildEnvironment's `process()`: without weft's credentials). */
  readonly env: Effect.Effect<Readonly<Record<string, string>>>
  /** Told each key the helper gives (before it is used). */
  readonly onKey: (key: string) => Effect.Effect<void>
  /** How long a key is used; default `CLAUDE_CODE_API_KEY_HELPER_TTL_MS`, else the whole session. */
  readonly ttlMs?: number
  /** Default `defaultTimeoutMs`. */
  readonly timeoutMs?: number
  /** Between TERM and KILL when it is stopped (HookProcess's default). */
  readonly graceMs?: number
}

const describeFailure = (result: HookProcess.RunResult, timeoutMs: number): string | undefined => {
  switch (result.ending) {
    case "timedOut":
      return `did not finish within ${timeoutMs} ms and was stopped`
    case "flooded":
      return `printed more than ${maxOutputBytes} bytes and was stopped`
    case "notStarted":
      return "could not be started"
    case "exited":
      if (result.exitCode !== 0) return `exited with code ${result.exitCode ?? "unknown"}`
      return result.stdout.trim() === "" ? "printed no key" : undefined
  }
}

/** The helper as the ApiClient's key source (see the module's comment). */
export const make = (options: Options): Effect.Effect<KeySource> =>
  Effect.gen(function* () {
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
    const ttlMs = options.ttlMs ?? Option.getOrUndefined(yield* Variables.positiveInt("CLAUDE_CODE_API_KEY_HELPER_TTL_MS"))
    // One run at a time: requests that start together wait for the same key.
    const lock = yield* Semaphore.make(1)
    let cached: { readonly key: string; readonly at: number } | undefined

    const run = Effect.gen(function* () {
      const result = yield* HookProcess.run({
        command: options.command,
        cwd: options.cwd,
        env: yield* options.env,
        stdin: "",
        timeoutMs,
        maxOutputBytes,
        ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs })
      })
      const failure = describeFailure(result, timeoutMs)
      if (failure !== undefined) {
        return yield* new AuthenticationError({
          message: `apiKeyHelper (from ${options.origin}) ${failure}: no API key for the request. Its output is not shown, as it may hold the key.`,
          status: null,
          requestId: null
        })
      }
      const key = result.stdout.trim()
      yield* options.onKey(key)
      cached = { key, at: yield* Clock.currentTimeMillis }
      return key
    })

    const fresh = (now: number) => cached !== undefined && (ttlMs === undefined || now - cached.at < ttlMs)

    const current = lock.withPermits(1)(
      Effect.flatMap(Clock.currentTimeMillis, (now) => (cached !== undefined && fresh(now) ? Effect.succeed(cached.key) : run))
    )
    // A refused key is replaced once: a request that was refused the same key meanwhile gets the new one.
    const refresh = (refused: string) =>
      lock.withPermits(1)(Effect.suspend(() => (cached !== undefined && cached.key !== refused ? Effect.succeed(cached.key) : run)))

    return { current, refresh } satisfies KeySource
  })
