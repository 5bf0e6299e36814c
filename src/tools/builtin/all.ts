/** Claude Code's built-in tools, typed, in the order the model sees them. */
import type { Tool } from "../Tool.js"
import { BashOutputTool, BashTool, KillShellTool } from "./Bash.js"
import { EditTool } from "./Edit.js"
import { GlobTool } from "./Glob.js"
import { GrepTool } from "./Grep.js"
import { NotebookEditTool } from "./NotebookEdit.js"
import { ReadTool } from "./Read.js"
import { TodoWriteTool } from "./TodoWrite.js"
import { WebFetchTool } from "./WebFetch.js"
import { WriteTool } from "./Write.js"

export const all = [
  BashTool,
  BashOutputTool,
  KillShellTool,
  GlobTool,
  GrepTool,
  ReadTool,
  EditTool,
  WriteTool,
  NotebookEditTool,
  WebFetchTool,
  TodoWriteTool
] as const

/** Everything the built-in tools need from their context. */
export type Requirements = (typeof all)[number] extends Tool<any, infer R> ? R : never
