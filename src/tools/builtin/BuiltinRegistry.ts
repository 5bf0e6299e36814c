/**
 * The registry of Claude Code's built-in tools for a session, and the per-session services they run on.
 */
import * as FileSystem from "effect/FileSystem"
import * as HttpClient from "effect/http/HttpClient"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as NodeApiClient from "../../model/NodeApiClient.js"
import { ChildEnvironment } from "../../platform/ChildEnvironment.js"
import { FileState, make as makeFileState } from "../FileState.js"
import { SearchFiles } from "../search/SearchFiles.js"
import * as SearchFilesModule from "../search/SearchFiles.js"
import { ShellSession, make as makeShellSession } from "../ShellSession.js"
import { TodoStore } from "../TodoStore.js"
import { type Interface as ToolRegistryInterface, ToolRegistry } from "../ToolRegistry.js"
import * as Option from "effect/Option"
import { Sandbox } from "../../sandbox/Sandbox.js"
import { all } from "./all.js"
import { sandboxedBashTool } from "./Bash.js"

export interface Options {
  /** The session's working directory (where Bash starts). */
  readonly cwd: string
  /** How long a process group gets between TERM and KILL. */
  readonly graceMs?: number
}

const shellOptions = (options: Options) =>
  options.graceMs === undefined ? { cwd: options.cwd } : { cwd: options.cwd, graceMs: options.graceMs }

/** The services the built-in tools need besides a FileSystem and the session's shell, one of each per session. */
const makeToolServices = Effect.gen(function* () {
  return Context.make(FileState, yield* makeFileState).pipe(
    Context.add(TodoStore, yield* TodoStore.make),
    Context.add(SearchFiles, SearchFilesModule.node),
    // WebFetch's: the session's proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) apply to it as to the API.
    Context.add(HttpClient.HttpClient, yield* NodeApiClient.makeHttpClient)
  )
})

/** The services the built-in tools need besides a FileSystem, one of each per session (shells end with the scope). */
const makeServices = (options: Options) =>
  Effect.gen(function* () {
    const shell = yield* makeShellSession(shellOptions(options))
    return Context.add(yield* makeToolServices, ShellSession, shell)
  })

/** The services the built-in tools need, one of each per session (children get this process's environment without its credentials). */
export const layerServices = (options: Options) =>
  Layer.merge(NodeFileSystem.layer, Layer.effectContext(makeServices(options)).pipe(Layer.provide(ChildEnvironment.layerNode)))

/**
 * A registry of every built-in tool on the session's shell (the ShellSession in context, whose current directory
 * Permissions reads too), with their other services made here.
 */
export const make: Effect.Effect<ToolRegistryInterface, never, FileSystem.FileSystem | ShellSession | Scope.Scope> =
  Effect.gen(function* () {
    const services = yield* makeToolServices
    const context = services.pipe(
      Context.add(ShellSession, yield* ShellSession),
      Context.add(FileSystem.FileSystem, yield* FileSystem.FileSystem)
    )
    // With the sandbox on, Bash's input has `dangerouslyDisableSandbox` (the model can ask to leave it).
    const sandbox = yield* Effect.serviceOption(Sandbox)
    const sandboxed = Option.isSome(sandbox) && sandbox.value.state._tag === "On"
    const [_bash, ...others] = all
    // Compaction makes the tools forget what they remember of the files they showed (FileState, in the context).
    return yield* Effect.provideContext(
      sandboxed ? ToolRegistry.make(sandboxedBashTool(), ...others) : ToolRegistry.make(...all),
      context
    )
  })

/** `make` as a layer: a ToolRegistry of every built-in tool, on the ShellSession and the FileSystem in context. */
export const layer: Layer.Layer<ToolRegistry, never, FileSystem.FileSystem | ShellSession> = Layer.effect(ToolRegistry, make)

/**
 * Needs nothing: `layer` on a shell of its own (background shells end when the layer's scope closes) and Node's
 * file system; children get this process's environment without its credentials.
 */
export const layerNode = (options: Options): Layer.Layer<ToolRegistry> =>
  layer.pipe(
    Layer.provide(Layer.merge(NodeFileSystem.layer, ShellSession.layer(shellOptions(options)))),
    Layer.provide(ChildEnvironment.layerNode)
  )
