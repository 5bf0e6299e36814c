/**
 * The decision for a call that is neither a file access nor a Bash command: a URL (WebFetch, whose rules name
 * domains), another tool's command, or a tool that names nothing. Deny rules, ask rules, bypassPermissions, allow
 * rules, the tools that need no permission, plan mode; then a read-only tool that touches nothing named runs and
 * the rest is asked about.
 */
import type { PermissionMode } from "../context/Settings.js"
import { allow, ask, type CheckRequest, type Decision, deny } from "./PermissionDecision.js"
import { type CompiledRule, type CompiledRules, denyMessage, ruleLabel } from "./PermissionRules.js"

/**
 * Tools that touch nothing outside the session and need no permission (a subagent's own calls are checked one by
 * one; `Agent(type)` rules still allow or deny a type).
 */
const noPermissionTools: ReadonlySet<string> = new Set(["Agent", "Task", "TodoWrite", "BashOutput", "KillShell", "ListMcpResourcesTool", "ReadMcpResourceTool"])

export const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "")
  } catch {
    return undefined
  }
}

/** `example.com` is that host; `*.example.com` its subdomains (not itself). Compared by whole labels. */
export const hostMatches = (pattern: string, host: string): boolean => {
  const wanted = pattern.toLowerCase().replace(/\.$/, "")
  if (wanted.startsWith("*.")) return host.endsWith(wanted.slice(1))
  return host === wanted
}

/** The decision for `request`, whose target reads `what` in messages, the rules that `matches` counting. */
export type CheckOther = (request: CheckRequest, what: string, matches: (entry: CompiledRule) => boolean) => Decision

export const makeOtherToolCheck = (rules: CompiledRules, mode: PermissionMode): CheckOther => {
  const { rulesFor } = rules
  return (request, what, matches) => {
    const denied = rulesFor(request.toolName, "deny").find(matches)
    if (denied !== undefined) return deny(denyMessage(request.toolName, denied, what))
    // Leaving plan mode is always a question to whoever answers (no rule or mode allows it silently).
    if (request.toolName === "ExitPlanMode") {
      return mode === "plan" ? ask("Leave plan mode and carry out this plan?") : deny("The session is not in plan mode.")
    }
    const asked = rulesFor(request.toolName, "ask").find(matches)
    if (asked !== undefined) return ask(`${request.toolName}${what} matches the rule ${ruleLabel(asked.rule)}, which asks.`)
    if (mode === "bypassPermissions") return allow
    if (noPermissionTools.has(request.toolName)) return allow
    // Plan mode refuses what is not read-only even where a rule allows it.
    if (mode === "plan" && !request.readOnly) return deny(`${request.toolName} is not read-only, and the session is in plan mode, where only read-only tools run.`)
    if (rulesFor(request.toolName, "allow").some(matches)) return allow
    // A read-only tool that touches nothing named runs; one that reaches out (WebFetch) is asked about.
    if (request.readOnly && request.target._tag === "None") return allow
    return ask(`${request.toolName}${what} needs approval.`)
  }
}
