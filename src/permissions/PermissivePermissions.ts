/**
 * Permissions that allow every call except tools denied by name or by a rule whose specifier is exactly the call's
 * command / path / url (`Permissions.permissive`): for tests and examples that want tools to run.
 */
import * as Effect from "effect/Effect"
import type { PermissionMode } from "../context/Settings.js"
import type { ToolTarget } from "../domain/ToolTarget.js"
import { allow, deny } from "./PermissionDecision.js"
import type { Interface } from "./Permissions.js"

const ruleRe = /^([^()]+)(?:\((.*)\))?$/s

const targetText = (target: ToolTarget): string | undefined => {
  switch (target._tag) {
    case "Path":
      return target.path
    case "Command":
      return target.command
    case "Url":
      return target.url
    case "None":
      return undefined
  }
}

export const makePermissive = (deniedRules: ReadonlyArray<string>, mode: PermissionMode): Interface => {
  const rules = deniedRules.flatMap((rule) => {
    const match = ruleRe.exec(rule.trim())
    return match?.[1] ? [{ tool: match[1].trim(), spec: match[2] }] : []
  })
  return {
    mode,
    warnings: [],
    prompt: (request) => Effect.succeed(deny(`Permission to use ${request.toolName} was not granted.`)),
    check: (request) =>
      Effect.sync(() => {
        for (const rule of rules) {
          if (rule.tool !== request.toolName) continue
          if (rule.spec === undefined || rule.spec === targetText(request.target)) {
            return deny(`Permission to use ${request.toolName} has been denied by the rule "${rule.spec === undefined ? rule.tool : `${rule.tool}(${rule.spec})`}".`)
          }
        }
        return allow
      })
  }
}
