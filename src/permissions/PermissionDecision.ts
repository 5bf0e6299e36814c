/** What Permissions is asked about (a tool call and what it touches) and what it answers. */
import type { ToolTarget } from "../domain/ToolTarget.js"

export interface CheckRequest {
  readonly toolName: string
  readonly toolUseId: string
  readonly input: unknown
  readonly target: ToolTarget
  readonly readOnly: boolean
}

/**
 * What Permissions answers. After an ask (Permissions.prompt), Allow may carry the input the person approved in
 * place of the model's (checked again by the caller), and Deny may end the turn (`interrupt`).
 */
export type Decision =
  | { readonly _tag: "Allow"; readonly updatedInput?: unknown }
  | { readonly _tag: "Deny"; readonly reason: string; readonly interrupt?: boolean }
  | { readonly _tag: "Ask"; readonly reason: string; readonly blockedPath?: string }

export const allow: Decision = { _tag: "Allow" }
export const deny = (reason: string): Decision => ({ _tag: "Deny", reason })
export const ask = (reason: string): Decision => ({ _tag: "Ask", reason })
