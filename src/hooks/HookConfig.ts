/**
 * The `hooks` section of the settings, Claude Code's format:
 *
 *   { "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "...", "timeout": 30 }] }] } }
 *
 * decoded entry by entry: an entry that does not fit (an unknown event, a hook type weft does not run, a matcher
 * that is not a valid regex, a missing command) is left out with a warning naming it, and the rest still applies.
 * A bad hook never stops weft from starting.
 *
 * Matchers, as in Claude Code: none, `""` or `"*"` match everything; a plain name (`Bash`, `mcp__github__get_issue`)
 * matches exactly, case-sensitively; `Edit|Write` matches either name; anything else is an unanchored regular
 * expression (`mcp__github__.*`, `Notebook`). What a matcher is compared with depends on the event: the tool name
 * for tool events, `source` for SessionStart, `trigger` for PreCompact, `notification_type` for Notification,
 * `reason` for SessionEnd; the other events take no matcher.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { type EventName, isEventName } from "./HookEvent.js"
import { isRecord } from "../domain/Json.js"

/** Seconds a hook may run when its entry names no `timeout` (Claude Code's default). */
export const defaultTimeoutSeconds = 60

export interface CommandHook {
  readonly command: string
  readonly timeoutSeconds: number
}

export interface Matcher {
  /** The matcher as written ("" when absent), for messages and hook names. */
  readonly source: string
  readonly test: (value: string | undefined) => boolean
}

export interface MatcherGroup {
  readonly matcher: Matcher
  readonly hooks: ReadonlyArray<CommandHook>
}

export interface HookConfig {
  readonly events: Readonly<Partial<Record<EventName, ReadonlyArray<MatcherGroup>>>>
  /** One line per entry that was left out, naming it and why. */
  readonly warnings: ReadonlyArray<string>
}

export const empty: HookConfig = { events: {}, warnings: [] }

const CommandHookEntry = Schema.Struct({
  type: Schema.Literal("command"),
  command: Schema.String.check(Schema.makeFilter((text) => text.trim() !== "", { message: "an empty command" })),
  timeout: Schema.optional(Schema.Number.check(Schema.isGreaterThan(0), Schema.isFinite()))
})

const MatcherEntry = Schema.Struct({
  matcher: Schema.optional(Schema.String),
  hooks: Schema.Array(Schema.Unknown)
})

const plainName = /^[A-Za-z0-9_-]+$/
const nameList = /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)+$/

const all: (source: string) => Matcher = (source) => ({ source, test: () => true })

/** Compiles a matcher; a failure with the reason when it is not a valid regular expression. */
export const compileMatcher = (source: string | undefined): Result.Result<Matcher, string> => {
  if (source === undefined || source === "" || source === "*") return Result.succeed(all(source ?? ""))
  if (plainName.test(source)) return Result.succeed({ source, test: (value) => value === source })
  if (nameList.test(source)) {
    const names = new Set(source.split("|"))
    return Result.succeed({ source, test: (value) => value !== undefined && names.has(value) })
  }
  try {
    const regex = new RegExp(source)
    return Result.succeed({ source, test: (value) => value !== undefined && regex.test(value) })
  } catch (error) {
    return Result.fail(`its matcher ${JSON.stringify(source)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** The events whose matcher is compared with something; on the others a matcher is ignored. */
export const takesMatcher = (event: EventName): boolean =>
  event !== "UserPromptSubmit" && event !== "Stop"

const formatIssue = SchemaIssue.makeFormatterDefault()

const formatError = (error: Schema.SchemaError) => formatIssue(error.issue).replace(/\s+/g, " ")

/**
 * Decodes the `hooks` value of the merged settings. `disableAllHooks: true` turns every command hook off (the
 * entries are not even read).
 */
export const decode = (hooks: unknown, options: { readonly disableAllHooks?: boolean } = {}): HookConfig => {
  if (options.disableAllHooks === true || hooks === undefined || hooks === null) return empty
  if (!isRecord(hooks)) return { events: {}, warnings: ["hooks: expected an object of events, e.g. { \"PreToolUse\": [...] }; all hooks ignored"] }
  const warnings: Array<string> = []
  const events: Partial<Record<EventName, Array<MatcherGroup>>> = {}
  for (const [event, entries] of Object.entries(hooks)) {
    if (!isEventName(event)) {
      warnings.push(`hooks.${event}: not a hook event weft knows; ignored`)
      continue
    }
    if (!Array.isArray(entries)) {
      warnings.push(`hooks.${event}: expected a list of { matcher, hooks } entries; ignored`)
      continue
    }
    const groups: Array<MatcherGroup> = []
    entries.forEach((entry: unknown, index) => {
      const where = `hooks.${event}[${index}]`
      const decoded = Schema.decodeUnknownResult(MatcherEntry)(entry)
      if (Result.isFailure(decoded)) {
        warnings.push(`${where}: ${formatError(decoded.failure)}; ignored`)
        return
      }
      const matcher = compileMatcher(takesMatcher(event) ? decoded.success.matcher : undefined)
      if (Result.isFailure(matcher)) {
        warnings.push(`${where}: ${matcher.failure}; ignored`)
        return
      }
      const commands: Array<CommandHook> = []
      decoded.success.hooks.forEach((hook, hookIndex) => {
        const hookWhere = `${where}.hooks[${hookIndex}]`
        if (isRecord(hook) && typeof hook["type"] === "string" && hook["type"] !== "command") {
          warnings.push(`${hookWhere}: hooks of type ${JSON.stringify(hook["type"])} are not supported (only "command"); ignored`)
          return
        }
        const command = Schema.decodeUnknownResult(CommandHookEntry)(hook)
        if (Result.isFailure(command)) {
          warnings.push(`${hookWhere}: ${formatError(command.failure)}; ignored`)
          return
        }
        commands.push({ command: command.success.command, timeoutSeconds: command.success.timeout ?? defaultTimeoutSeconds })
      })
      if (commands.length > 0) groups.push({ matcher: matcher.success, hooks: commands })
    })
    if (groups.length > 0) events[event] = groups
  }
  return { events, warnings }
}

/** True when no command hook is configured for any event. */
export const isEmpty = (config: HookConfig): boolean => Object.keys(config.events).length === 0

/**
 * The hooks to run for one occurrence of `event`, whose matcher target is `target`: each command once (identical
 * commands under several matchers run once, with the longest timeout any of them gives).
 */
export const matching = (config: HookConfig, event: EventName, target: string | undefined): ReadonlyArray<CommandHook> => {
  const groups = config.events[event]
  if (groups === undefined) return []
  const byCommand = new Map<string, CommandHook>()
  // The subagent tool's calls are matched under its former name too (`Task`), as Claude Code reads them.
  const alias = target === "Agent" ? "Task" : target === "Task" ? "Agent" : undefined
  for (const group of groups) {
    if (!group.matcher.test(target) && (alias === undefined || !group.matcher.test(alias))) continue
    for (const hook of group.hooks) {
      const seen = byCommand.get(hook.command)
      if (seen === undefined || seen.timeoutSeconds < hook.timeoutSeconds) byCommand.set(hook.command, hook)
    }
  }
  return [...byCommand.values()]
}
