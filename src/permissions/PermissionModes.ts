/**
 * The permission mode: which one is in force, and what dontAsk makes of a call that would be asked about. (What
 * the other modes allow is part of each check: bypassPermissions allows after deny and ask rules, plan refuses
 * what is not read-only, acceptEdits lets edits inside the workspace run.)
 */
import type { Interface as SettingsInterface, PermissionMode } from "../context/Settings.js"
import { type CheckRequest, type Decision, deny } from "./PermissionDecision.js"

/**
 * `requested` (the CLI's), else `permissions.defaultMode`, else default; bypassPermissions falls back to default
 * (told in `warnings`) where settings disable it.
 */
export const modeOf = (requested: PermissionMode | undefined, settings: SettingsInterface, warnings: Array<string>): PermissionMode => {
  const disableBypass = settings.value.permissions?.disableBypassPermissionsMode === "disable"
  let mode: PermissionMode = requested ?? settings.value.permissions?.defaultMode ?? "default"
  if (mode === "bypassPermissions" && disableBypass) {
    warnings.push("weft: bypassPermissions is disabled by settings (permissions.disableBypassPermissionsMode); using default")
    mode = "default"
  }
  return mode
}

/** In dontAsk mode, a call that would be asked about is denied, saying why. */
export const unlessAsking = (mode: PermissionMode, request: CheckRequest, decision: Decision): Decision =>
  decision._tag === "Ask" && mode === "dontAsk"
    ? deny(`Permission to use ${request.toolName} was not granted: ${decision.reason} The session is in dontAsk mode, where nothing is asked.`)
    : decision
