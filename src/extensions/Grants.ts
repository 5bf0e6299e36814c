/**
 * Allow rules granted while a session runs by what it loaded: a command's or skill's `allowed-tools` (Claude Code
 * grants them for the rest of the run). They are the session's own rules (`addRules` with the `session`
 * destination): kept in memory, never written to a settings file, compiled with the rest, so a deny rule, an ask
 * rule or a protected path still wins over them as over any allow rule.
 */
import * as Effect from "effect/Effect"
import type * as Permissions from "../permissions/Permissions.js"

/**
 * Grants `rules` on `permissions` for the rest of the session. Permissions that take no rules at run time (a fixed
 * set a library user gave) grant nothing: said in a warning naming `what` asked for them.
 */
export const grant = (permissions: Permissions.Interface, rules: ReadonlyArray<string>, what: string): Effect.Effect<void> => {
  if (rules.length === 0) return Effect.void
  if (permissions.addRules === undefined) {
    return Effect.logWarning(`weft: ${what}: allowed-tools not granted: the session's permissions take no rules at run time`)
  }
  return permissions.addRules(rules, "allow", "session").pipe(
    Effect.catch((error) => Effect.logWarning(`weft: ${what}: allowed-tools not granted: ${error.message}`))
  )
}
