/**
 * Claude Code's built-in tools, and the per-session services they run on. `layer({ cwd })` is a ToolRegistry of
 * all of them; its scope is the session's (closing it ends background shells).
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as NodeApiClient from "../../model/NodeApiClient.js"
import { ChildEnvironment } from "../../platform/ChildEnvironment.js"
import { FileState, make as makeFileState } from "../FileState.js"
import { SearchFiles } from "../search/SearchFiles.js"
import * as SearchFilesModule from "../search/SearchFiles.js"
import { type Interface as ShellSessionInterface, ShellSession, make as makeShellSession } from "../ShellSession.js"
import { type Interface as ToolRegistryInterface, ToolRegistry } from "../ToolRegistry.js"
import { BashOutputTool, BashTool, KillShellTool } from "./Bash.js"
import { EditTool } from "./Edit.js"
import { GlobTool } from "./Glob.js"
import { GrepTool } from "./Grep.js"
import { NotebookEditTool } from "./NotebookEdit.js"
import { ReadTool } from "./Read.js"
import { TodoStore, TodoWriteTool } from "./TodoWrite.js"
import { WebFetchTool } from "./WebFetch.js"
import { WriteTool } from "./Write.js"

export {
  BashOutputTool,
  BashTool,
  EditTool,
  GlobTool,
  GrepTool,
  KillShellTool,
  NotebookEditTool,
  ReadTool,
  TodoWriteTool,
  WebFetchTool,
  WriteTool
}

/** In the order the model sees them. */
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

export interface Options {
  /** The session's working directory (where Bash starts). */
  readonly cwd: string
  /** How long a process group gets between TERM and KILL. */
  readonly graceMs?: number
}

const shellOptions = (options: Options) =>
  options.graceMs === undefined ? { cwd: options.cwd } : { cwd: options.cwd, graceMs: options.graceMs }

/** The services the built-in tools need besides a FileSystem, one of each per session (shells end with the scope). */
const makeServices = (options: Options) =>
  Effect.gen(function* () {
    return Context.make(FileState, yield* makeFileState).pipe(
      Context.add(TodoStore, yield* TodoStore.make),
      Context.add(ShellSession, yield* makeShellSession(shellOptions(options))),
      Context.add(SearchFiles, SearchFilesModule.node),
      // WebFetch's: the session's proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) apply to it as to the API.
      Context.add(HttpClient.HttpClient, yield* NodeApiClient.makeHttpClient)
    )
  })

/** The services the built-in tools need, one of each per session (children get this process's environment without its credentials). */
export const services = (options: Options) =>
  Layer.merge(NodeFileSystem.layer, Layer.scopedContext(makeServices(options)).pipe(Layer.provide(ChildEnvironment.layerNode)))

/**
 * A registry of every built-in tool, with its services made here (background shells end when the scope closes),
 * and the session's shell (whose current directory Permissions reads for Bash paths).
 */
export const makeWithShell = (
  options: Options
): Effect.Effect<{ readonly registry: ToolRegistryInterface; readonly shell: ShellSessionInterface }, never, FileSystem.FileSystem | ChildEnvironment | Scope.Scope> =>
  Effect.gen(function* () {
    const services = yield* makeServices(options)
    const context = Context.add(services, FileSystem.FileSystem, yield* FileSystem.FileSystem)
    const registry = yield* ToolRegistry.make(...all).pipe(Effect.provide(context))
    return { registry, shell: Context.get(services, ShellSession) }
  })

/**
 * A registry of every built-in tool, with its services made here (background shells end when the scope closes):
 * what `layer` builds, as an Effect for a caller that composes a session in one (src/cli/SessionServices.ts).
 */
export const make = (
  options: Options
): Effect.Effect<ToolRegistryInterface, never, FileSystem.FileSystem | ChildEnvironment | Scope.Scope> =>
  Effect.map(makeWithShell(options), (made) => made.registry)

/** A ToolRegistry of every built-in tool, with its services (children get this process's environment without its credentials). */
export const layer = (options: Options) =>
  Layer.scoped(ToolRegistry, make(options)).pipe(Layer.provide([NodeFileSystem.layer, ChildEnvironment.layerNode]))
