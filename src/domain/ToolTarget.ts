/**
 * What a tool call touches (a path read or written, a command, a URL), so permission rules like `Read(./src/**)`
 * or `Bash(npm test)` can be matched, and hooks and prompts can say what a call would do. Tools name it; the loop
 * hands it to Permissions and the Prompter. Plain data, schema-free (it is built on every call).
 */
export type ToolTarget =
  | { readonly _tag: "Path"; readonly path: string; readonly access: "read" | "write" }
  | { readonly _tag: "Command"; readonly command: string }
  | { readonly _tag: "Url"; readonly url: string }
  | { readonly _tag: "None" }
