/**
 * Claude Code's built-in tools, and the per-session services they run on (`layerServices({ cwd })`). `layer` is a
 * ToolRegistry of all of them on the session's shell, `layerNode({ cwd })` the same on a shell of its own
 * (BuiltinRegistry.ts); its scope is the session's (closing it ends background shells).
 */
export { BashOutputTool, BashTool, KillShellTool } from "./Bash.js"
export { EditTool } from "./Edit.js"
export { GlobTool } from "./Glob.js"
export { GrepTool } from "./Grep.js"
export { NotebookEditTool } from "./NotebookEdit.js"
export { ReadTool } from "./Read.js"
export { TodoStore, TodoWriteTool } from "./TodoWrite.js"
export { WebFetchTool } from "./WebFetch.js"
export { WriteTool } from "./Write.js"
export { all, type Requirements } from "./all.js"
export { layer, layerNode, layerServices, make, type Options } from "./BuiltinRegistry.js"
