/**
 * The Agent SDK's hook callbacks (`options.hooks` of `query()`), as the initialize request names them:
 * `{PreToolUse: [{matcher: "Bash", hookCallbackIds: ["hook_0"], timeout?}]}`. They run as command hooks do (the same
 * matchers, inputs, merging and answers: CommandHooks), except that running one is a `hook_callback` control request
 * whose answer is the hook's JSON output. A callback that fails or does not answer within its timeout (default 60 s)
 * is a non-blocking error, as a command hook's would be.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { isRecord } from "../../domain/Json.js"
import * as CommandHooks from "../../hooks/CommandHooks.js"
import * as HookConfig from "../../hooks/HookConfig.js"
import { isEventName } from "../../hooks/HookEvent.js"
import type * as HookProcess from "../../hooks/HookProcess.js"
import type * as Hooks from "../../hooks/Hooks.js"
import type * as ControlChannel from "./ControlChannel.js"

/** The callbacks of an initialize request's `hooks`, as a HookConfig whose "commands" are callback ids. */
export const decode = (hooks: unknown): HookConfig.HookConfig => {
  if (hooks === undefined || hooks === null) return HookConfig.empty
  if (!isRecord(hooks)) return { events: {}, warnings: ["initialize: hooks is not an object of events; no SDK hook runs"] }
  const warnings: Array<string> = []
  const events: Partial<Record<string, Array<HookConfig.MatcherGroup>>> = {}
  for (const [event, entries] of Object.entries(hooks)) {
    if (!isEventName(event)) {
      warnings.push(`initialize: weft has no ${event} hook event; those callbacks never run`)
      continue
    }
    if (!Array.isArray(entries)) continue
    for (const entry of entries) {
      if (!isRecord(entry) || !Array.isArray(entry["hookCallbackIds"])) {
        warnings.push(`initialize: a ${event} entry without hookCallbackIds is ignored`)
        continue
      }
      const source = typeof entry["matcher"] === "string" ? entry["matcher"] : undefined
      const matcher = HookConfig.compileMatcher(HookConfig.takesMatcher(event) ? source : undefined)
      if (Result.isFailure(matcher)) {
        warnings.push(`initialize: a ${event} entry is ignored: ${matcher.failure}`)
        continue
      }
      const timeout = entry["timeout"]
      const timeoutSeconds = typeof timeout === "number" && timeout > 0 ? timeout : HookConfig.defaultTimeoutSeconds
      const hooksOfEntry = entry["hookCallbackIds"].flatMap((id: unknown) => (typeof id === "string" ? [{ command: id, timeoutSeconds }] : []))
      ;(events[event] ??= []).push({ matcher: matcher.success, hooks: hooksOfEntry })
    }
  }
  return { events, warnings }
}

/** The hooks that ask the program over `channel`; `transcriptPath` as the session's command hooks have it. */
export const make = (
  config: HookConfig.HookConfig,
  channel: ControlChannel.Interface,
  transcriptPath: (sessionId: string, cwd: string) => string
): Effect.Effect<Hooks.Interface> =>
  CommandHooks.make({
    settings: config,
    transcriptPath,
    onWarning: () => Effect.void,
    runner: (hook, input) =>
      Effect.gen(function* () {
        const startedAt = yield* Clock.currentTimeMillis
        const toolUseId = "tool_use_id" in input.value && typeof input.value.tool_use_id === "string" ? input.value.tool_use_id : undefined
        const answered = yield* channel
          .request({ subtype: "hook_callback", callback_id: hook.command, input: input.value, ...(toolUseId === undefined ? {} : { tool_use_id: toolUseId }) })
          .pipe(Effect.timeoutOption(Duration.seconds(hook.timeoutSeconds)), Effect.exit)
        const durationMs = (yield* Clock.currentTimeMillis) - startedAt
        const ran = (ending: HookProcess.Ending, exitCode: number | undefined, stdout: string, stderr: string): HookProcess.RunResult => ({
          ending,
          exitCode,
          stdout,
          stderr,
          durationMs
        })
        if (Exit.isFailure(answered)) {
          const failure = Cause.findErrorOption(answered.cause)
          return ran("exited", 1, "", `the SDK's callback failed: ${Option.isSome(failure) ? failure.value.message : Cause.pretty(answered.cause)}`)
        }
        if (Option.isNone(answered.value)) return ran("timedOut", undefined, "", "")
        return ran("exited", 0, JSON.stringify(answered.value.value ?? {}), "")
      })
  })
