/**
 * Why a tool call ended in an error, as a kind a program can act on (hooks, SDK hosts, renderers); the message
 * beside it is written for the model. Plain data, schema-free.
 */
export type ToolFailureKind =
  /** No tool of that name is registered. */
  | "unknown_tool"
  /** The input did not match the tool's schema, or was cut off / not valid JSON. */
  | "invalid_input"
  /** The file or path named does not exist. */
  | "not_found"
  /** A write to a file the session has not read first. */
  | "not_read_first"
  /** A write to a file changed since it was read. */
  | "stale"
  /** The call ran out of time. */
  | "timeout"
  /** Permissions (or a hook's permission decision) denied the call. */
  | "denied"
  /** A PreToolUse hook blocked the call. */
  | "blocked_by_hook"
  /** The run was interrupted while the call was in flight. */
  | "cancelled"
  /** Any other failure the tool reported. */
  | "failed"

/** A failed call's kind and the message the model was given. */
export interface ToolFailure {
  readonly kind: ToolFailureKind
  readonly message: string
}
