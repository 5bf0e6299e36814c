/**
 * The set of tools a session offers the model. Built from typed tools by a Layer that requires whatever the
 * tools need (FileSystem, CommandExecutor, ...) and provides it to each of them, so the registry's tools need
 * nothing more.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { ToolDefinition } from "../domain/Request.js"
import { FileState } from "./FileState.js"
import { type AnyTool, type Tool, erase, UnknownTool } from "./Tool.js"

export interface Interface {
  readonly tools: ReadonlyArray<AnyTool>
  readonly get: (name: string) => Effect.Effect<AnyTool, UnknownTool>
  /** The `tools` array of a Messages API request, in registration order. */
  readonly definitions: ReadonlyArray<ToolDefinition>
  /**
   * The conversation was compacted: the model no longer holds what the tools showed it, so what the tools remember
   * of that is forgotten (FileState: a file read before must be read again before an Edit or a Write). Absent: the
   * tools remember nothing of the kind.
   */
  readonly forgetContext?: Effect.Effect<void>
}

type ToolRequirements<T extends ReadonlyArray<Tool<any, any>>> = T[number] extends Tool<any, infer R> ? R : never

export const fromAnyTools = (tools: ReadonlyArray<AnyTool>, forgetContext?: Effect.Effect<void>): Interface => {
  const byName = new Map<string, AnyTool>()
  for (const tool of tools) byName.set(tool.name, tool)
  const unique = [...byName.values()]
  return {
    tools: unique,
    get: Effect.fn("ToolRegistry.get")(function* (name: string) {
      const tool = byName.get(name)
      if (tool !== undefined) return tool
      return yield* new UnknownTool({
        tool: name,
        message: `No such tool: ${name}. Available tools: ${unique.map((t) => t.name).join(", ")}`
      })
    }),
    definitions: unique.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputJsonSchema
    })),
    ...(forgetContext === undefined ? {} : { forgetContext })
  }
}

/** The registry's tools that `keep` accepts, in the same order. */
export const filterTools = (registry: Interface, keep: (name: string) => boolean): Interface =>
  fromAnyTools(
    registry.tools.filter((tool) => keep(tool.name)),
    registry.forgetContext
  )

/**
 * A registry whose tools can change during a session (an MCP server's list changed): every read answers what
 * `current()` holds then, so the next model request carries the new set.
 */
export const dynamic = (current: () => Interface): Interface => ({
  get tools() {
    return current().tools
  },
  get definitions() {
    return current().definitions
  },
  forgetContext: Effect.suspend(() => current().forgetContext ?? Effect.void),
  get: (name) => Effect.suspend(() => current().get(name))
})

/**
 * `base`'s tools followed by `extra()`'s (a later tool of a name already taken is dropped: built-in tools keep
 * theirs), filtered by `keep`; rebuilt only when `extra()` answers a different array.
 */
export const withExtraTools = (
  base: Interface,
  extra: () => ReadonlyArray<AnyTool>,
  keep: (name: string) => boolean = () => true
): Interface => {
  let last: ReadonlyArray<AnyTool> | undefined
  let built: Interface = base
  return dynamic(() => {
    const tools = extra()
    if (tools !== last) {
      last = tools
      const taken = new Set(base.tools.map((tool) => tool.name))
      built = fromAnyTools(
        [...base.tools, ...tools.filter((tool) => !taken.has(tool.name) && keep(tool.name))],
        base.forgetContext
      )
    }
    return built
  })
}

export class ToolRegistry extends Context.Service<ToolRegistry, Interface>()("weft/ToolRegistry") {
  /**
   * A registry of the given tools, each provided with what it needs from the current context; a later tool of
   * the same name replaces an earlier one.
   */
  static make = <const T extends ReadonlyArray<Tool<any, any>>>(
    ...tools: T
  ): Effect.Effect<Interface, never, ToolRequirements<T>> =>
    Effect.map(Effect.context<ToolRequirements<T>>(), (context) =>
      fromAnyTools(
        // The context holds every tool's requirements, so each tool's stream needs nothing once it is provided.
        tools.map((tool) => erase(tool, (stream) => Stream.provideContext(stream, context) as Stream.Stream<any, any, never>)),
        // The tools' FileState, when they were given one, is what compaction makes them forget.
        Option.match(Context.getOption(context, FileState), { onNone: () => undefined, onSome: (files) => files.clear })
      )
    )

  /** `make` as a layer. */
  static layer = <const T extends ReadonlyArray<Tool<any, any>>>(
    ...tools: T
  ): Layer.Layer<ToolRegistry, never, ToolRequirements<T>> => Layer.effect(ToolRegistry, ToolRegistry.make(...tools))

  /** A registry holding already-erased tools (MCP tools, tools built at run time): `fromAnyTools` as a layer. */
  static layerFromAnyTools = (tools: ReadonlyArray<AnyTool>): Layer.Layer<ToolRegistry> =>
    Layer.succeed(ToolRegistry, fromAnyTools(tools))

  /** The registry in context, filtered by tool name (`--allowedTools`, `--disallowedTools`). */
  static layerFiltered = (keep: (name: string) => boolean): Layer.Layer<ToolRegistry, never, ToolRegistry> =>
    Layer.effect(
      ToolRegistry,
      ToolRegistry.useSync((registry) => filterTools(registry, keep))
    )
}

// The entry points at the module's top level: `import { ToolRegistry } from "weft"` reads `ToolRegistry.layer...(...)`, and
// `ToolRegistry.ToolRegistry` is the Tag (`yield* ToolRegistry.ToolRegistry`).
export const make = ToolRegistry.make
export const layer = ToolRegistry.layer
export const layerFromAnyTools = ToolRegistry.layerFromAnyTools
export const layerFiltered = ToolRegistry.layerFiltered
