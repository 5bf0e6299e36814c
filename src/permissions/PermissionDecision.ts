/** What Permissions is asked about (a tool call and what it touches) and what it answers. */
import type { ToolTarget } from "../domain/ToolTarget.js"

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
export const ask = (reason: string): Decision => ({ _tag: "Ask", reason })
