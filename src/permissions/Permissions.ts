/**
 * Decides whether a tool call may run: Allow, Deny (with a reason written for the model) or Ask (a human, an
 * SDK host or nobody answers). SKELETON for the permissions issue: the contract the loop calls, and a
 * permissive layer that stands in until rule matching on parsed commands and resolved paths lands. Even this
 * layer honours explicit denials by tool name (`--disallowedTools Bash`), since deny always wins.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ToolTarget } from "../tools/Tool.js"

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk"

export interface CheckRequest {
  readonly toolName: string
  readonly toolUseId: string
  readonly input: unknown
  readonly target: ToolTarget
  readonly readOnly: boolean
}

export type Decision =
  | { readonly _tag: "Allow" }
  | { readonly _tag: "Deny"; readonly reason: string }
  | { readonly _tag: "Ask"; readonly reason: string }

export const allow: Decision = { _tag: "Allow" }
export const deny = (reason: string): Decision => ({ _tag: "Deny", reason })

export interface Interface {
  readonly mode: PermissionMode
  readonly check: (request: CheckRequest) => Effect.Effect<Decision>
}

export class Permissions extends Context.Tag("weft/Permissions")<Permissions, Interface>() {
  /**
   * Allows every call except tools denied by name. A rule with a specifier (`Bash(rm -rf /)`) denies a call only
   * when the call's command / path / url is exactly the specifier: pattern rules arrive with the permissions issue,
   * and until then nothing is matched by prefix. Its mode is what it does, bypassPermissions (everything runs,
   * deny rules still apply), and that is what the system/init frame reports unless a mode is given.
   */
  static permissive = (options: { readonly deniedRules?: ReadonlyArray<string>; readonly mode?: PermissionMode } = {}): Interface =>
    makePermissive(options.deniedRules ?? [], options.mode ?? "bypassPermissions")

  /** `permissive` as a layer. */
  static layerPermissive = (options: { readonly deniedRules?: ReadonlyArray<string>; readonly mode?: PermissionMode } = {}) =>
    Layer.succeed(Permissions, Permissions.permissive(options))
}

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

const makePermissive = (deniedRules: ReadonlyArray<string>, mode: PermissionMode): Interface => {
  const rules = deniedRules.flatMap((rule) => {
    const match = ruleRe.exec(rule.trim())
    return match?.[1] ? [{ tool: match[1].trim(), spec: match[2] }] : []
  })
  return {
    mode,
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
