/**
 * How the loop passes on what hooks answered: their activity and messages as AgentEvents for renderers, and their
 * text for the model as Claude Code gives it, a system reminder in the conversation
 * ("PostToolUse:Bash hook additional context: …").
 */
import * as Effect from "effect/Effect"
import type { AgentEvent } from "../domain/AgentEvent.js"
import type { Outcome } from "../hooks/Hooks.js"

/** Emits each hook that ran (started, then its response) and what the hooks tell the user. */
export const report = (emit: (event: AgentEvent) => Effect.Effect<void>, hookEvent: string, outcome: Outcome) =>
  Effect.gen(function* () {
    for (const activity of outcome.activity ?? []) {
      yield* emit({ _tag: "HookStarted", hookId: activity.hookId, hookName: activity.hookName, hookEvent: activity.hookEvent })
      yield* emit({ _tag: "HookResponse", activity })
    }
    for (const text of outcome.systemMessages ?? []) yield* emit({ _tag: "HookNotice", hookEvent, text })
    if (outcome.stopRun !== undefined) yield* emit({ _tag: "HookNotice", hookEvent, text: `stopped the run: ${outcome.stopRun}` })
  })

/** Text for the model wrapped as Claude Code wraps what is not the user's own words. */
export const systemReminder = (text: string): string => `<system-reminder>\n${text}\n</system-reminder>`

/** A hook's additional context, labelled with the event and what its matcher saw ("PostToolUse:Bash"). */
export const additionalContext = (label: string, text: string): string => systemReminder(`${label} hook additional context: ${text}`)

/** A PostToolUse hook's objection to a result (exit 2 or `decision: "block"`), for the model. */
export const blockingFeedback = (label: string, text: string): string => systemReminder(`${label} hook blocking error: ${text}`)
