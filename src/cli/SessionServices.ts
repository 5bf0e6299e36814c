/**
 * The composition root of a session: every service a run needs, as the list of parts a library user would
 * compose (Credentials, Settings, ChildEnvironment, Environment, Memory, SessionStore, Transcript, ApiClient, Permissions, Hooks, McpClient, ToolRegistry), each
 * overridable by a Layer (a test's fake, an SDK host's own permissions or model). The list is written once
 * (`composition`); `layer` is its Layer form, and `make` the Effect the CLI runs: the same constructors, in order,
 * without the cost of building a graph of layers (see src/platform/Composition.ts). Resources are released in
 * reverse order when the scope closes: the transcript is flushed before the session store closes its files, and
 * background shells end.
 *
 * A new service joins the session as one more `.add(...)` in `composition`, after the services it needs.
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Config from "effect/Config"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as nodePath from "node:path"
import type { InvalidShellEnvironmentPolicy } from "../platform/ShellEnvironmentPolicy.js"
import { Transcript } from "../agent/Transcript.js"
import * as EnvironmentModule from "../context/Environment.js"
import { Environment } from "../context/Environment.js"
import { Settings } from "../context/Settings.js"
import * as MemoryModule from "../context/Memory.js"
import { Memory } from "../context/Memory.js"
import { Hooks } from "../hooks/Hooks.js"
import { ApiClient } from "../model/ApiClient.js"
import { McpClient } from "../mcp/McpClient.js"
import type { Server as McpServer } from "../mcp/McpConfig.js"
import * as McpTools from "../mcp/McpTools.js"
import * as NodeApiClient from "../model/NodeApiClient.js"
import { type PermissionMode, Permissions } from "../permissions/Permissions.js"
import type * as Prompter from "../permissions/Prompter.js"
import * as ChildEnvironmentModule from "../platform/ChildEnvironment.js"
import { ChildEnvironment } from "../platform/ChildEnvironment.js"
import * as Composition from "../platform/Composition.js"
import * as CredentialsModule from "../platform/Credentials.js"
import { Credentials } from "../platform/Credentials.js"
import { SessionStore } from "../session/SessionStore.js"
import * as Output from "./Output.js"
import * as Builtin from "../tools/builtin/BuiltinRegistry.js"
import { filterTools, ToolRegistry, withExtraTools } from "../tools/ToolRegistry.js"

export interface Options {
  readonly cwd: string
  /** weft's version, recorded in the transcript. */
  readonly version: string
  /** `--add-dir` directories, relative to `cwd` unless absolute. */
  readonly additionalDirectories?: ReadonlyArray<string>
  /** Tools the model does not see (`--disallowedTools Name`), whichever registry provides them. */
  readonly removedTools?: ReadonlySet<string>
  /** Rules that deny calls (every `--disallowedTools` entry; deny wins over everything). */
  readonly deniedRules?: ReadonlyArray<string>
  /** Rules that allow calls (`--allowedTools`). */
  readonly allowedRules?: ReadonlyArray<string>
  /** The permission mode (`--permission-mode`); default the settings' `permissions.defaultMode`, else default. */
  readonly permissionMode?: PermissionMode
  /** Who answers when a call must be asked about; default nobody (an ask is a denial the model reads). */
  readonly prompter?: Prompter.Interface
  /** weft's credentials (default: from this process's environment): withheld from children, redacted from the transcript. */
  readonly credentials?: CredentialsModule.Interface
  /** The merged settings (default: loaded for `cwd`). */
  readonly settings?: Settings["Service"]
  /** MCP servers to connect (McpConfig); their tools join the registry. None: the MCP client library is never loaded. */
  readonly mcpServers?: ReadonlyArray<McpServer>
}

/** What the session's parts may need from outside: the platform. */
export type Platform = FileSystem.FileSystem | Path.Path

/** What every part may use: the platform, weft's credentials and the merged settings (the first two parts). */
export type Base = Platform | Credentials | Settings

/**
 * Replacements for the default parts, each a Layer on the `Base` services (provide anything else it needs before
 * giving it). The default parts after them use what comes before them in `composition` (the Transcript writes to
 * the SessionStore, overridden or not).
 */
export interface Overrides<E = never> {
  readonly settings?: Layer.Layer<Settings, E, Platform | Credentials>
  readonly environment?: Layer.Layer<Environment, E, Base>
  readonly memory?: Layer.Layer<Memory, E, Base>
  readonly sessionStore?: Layer.Layer<SessionStore, E, Base>
  readonly transcript?: Layer.Layer<Transcript, E, Base>
  readonly apiClient?: Layer.Layer<ApiClient, E, Base>
  readonly permissions?: Layer.Layer<Permissions, E, Base>
  readonly hooks?: Layer.Layer<Hooks, E, Base>
  /** The MCP client (default: `mcpServers` connected); its tools join the registry's. */
  readonly mcp?: Layer.Layer<McpClient, E, Base>
  /** The tools offered (before `removedTools` is applied). */
  readonly tools?: Layer.Layer<ToolRegistry, E, Base>
}

export type Services =
  | Credentials
  | Settings
  | ChildEnvironment
  | Environment
  | Memory
  | SessionStore
  | Transcript
  | ApiClient
  | Permissions
  | Hooks
  | McpClient
  | ToolRegistry

/** The session's parts, in order; what each default part needs comes from the platform and the parts before it. */
export const composition = <E = never>(options: Options, overrides: Overrides<E> = {}) => {
  const removed = options.removedTools ?? new Set<string>()
  // Where Bash runs now (after a `cd`), for the paths of the commands Permissions checks: the built-in tools' shell,
  // known once the tools are built (Permissions comes before them); the project directory until then.
  let shellDirectory: Effect.Effect<string> = Effect.succeed(options.cwd)
  return Composition.empty
    .add(
      Composition.succeed(
        Credentials,
        options.credentials ?? CredentialsModule.make(CredentialsModule.valuesFromEnv(process.env))
      )
    )
    .add(
      Composition.orElse(overrides.settings, () =>
        options.settings === undefined
          ? Composition.service(Settings, Settings.make({ cwd: options.cwd }))
          : Composition.succeed(Settings, options.settings)
      )
    )
    .add(Composition.service(ChildEnvironment, ChildEnvironmentModule.makeFromSettings()))
    .add(
      Composition.orElse(overrides.environment, () =>
        Composition.service(
          Environment,
          EnvironmentModule.make({ cwd: options.cwd, additionalDirectories: options.additionalDirectories ?? [] })
        )
      )
    )
    .add(
      Composition.orElse(overrides.memory, () =>
        Composition.service(Memory, Effect.map(MemoryModule.load({ cwd: options.cwd }), (files) => ({ files })))
      )
    )
    .add(Composition.orElse(overrides.sessionStore, () => Composition.service(SessionStore, SessionStore.makeJsonl())))
    .add(
      Composition.orElse(overrides.transcript, () =>
        Composition.service(Transcript, Transcript.make({ cwd: options.cwd, version: options.version }))
      )
    )
    .add(Composition.orElse(overrides.apiClient, () => Composition.service(ApiClient, NodeApiClient.make)))
    .add(
      Composition.orElse(overrides.permissions, () =>
        Composition.service(
          Permissions,
          Settings.use((settings) =>
            Permissions.make({
              settings,
              allowedTools: options.allowedRules ?? [],
              disallowedTools: options.deniedRules ?? [],
              additionalDirectories: (options.additionalDirectories ?? []).map((dir) => nodePath.resolve(options.cwd, dir)),
              shellDirectory: Effect.suspend(() => shellDirectory),
              ...(options.permissionMode === undefined ? {} : { mode: options.permissionMode }),
              ...(options.prompter === undefined ? {} : { prompter: options.prompter })
            })
          )
        )
      )
    )
    // Command hooks from the merged settings (an untrusted project's were dropped by the loader) beside none in-process;
    // their runner is loaded only when some are configured.
    .add(
      Composition.orElse(overrides.hooks, () =>
        Composition.service(
          Hooks,
          Hooks.fromSettings({
            onWarning: (warning) => Effect.sync(() => Output.stderrSync(`weft: settings: ${warning}\n`))
          })
        )
      )
    )
    .add(Composition.orElse(overrides.mcp, () => Composition.service(McpClient, mcpClient(options))))
    .add(
      Composition.orElse(overrides.tools, () =>
        Composition.service(
          ToolRegistry,
          Effect.map(Builtin.makeWithShell({ cwd: options.cwd }), (built) => {
            shellDirectory = built.shell.cwd
            return built.registry
          })
        )
      )
    )
    .add(
      Composition.service(
        ToolRegistry,
        Effect.gen(function* () {
          const registry = yield* ToolRegistry
          const mcp = yield* McpClient
          const keep = (name: string) => !removed.has(name)
          const filtered = filterTools(registry, keep)
          if (mcp === McpClient.none) return filtered
          return withExtraTools(filtered, McpTools.make(mcp, { maxOutputTokens: yield* McpTools.maxOutputTokens }), keep)
        })
      )
    )
}

/**
 * The MCP servers connected, offered the workspace as roots, with ChildEnvironment's environment (no credentials
 * unless a server's configuration names them). No servers: nothing of MCP is loaded.
 */
const mcpClient = (options: Options) => {
  const servers = options.mcpServers ?? []
  if (servers.length === 0) return Effect.succeed(McpClient.none)
  return ChildEnvironment.use((childEnvironment) =>
    McpClient.make({
      servers,
      cwd: options.cwd,
      roots: [options.cwd, ...(options.additionalDirectories ?? [])],
      clientVersion: options.version,
      childEnv: childEnvironment.process
    })
  )
}

/** The session as a Layer: what a library user composes. */
export const layer = <E = never>(
  options: Options,
  overrides: Overrides<E> = {}
): Layer.Layer<Services, E | Config.ConfigError | InvalidShellEnvironmentPolicy, Platform> =>
  composition(options, overrides).layer

/** The session built in the current scope, as one Effect (the CLI's fast path: the same parts as `layer`). */
export const make = <E = never>(
  options: Options,
  overrides: Overrides<E> = {}
): Effect.Effect<Context.Context<Services>, E | Config.ConfigError | InvalidShellEnvironmentPolicy, Platform | Scope.Scope> =>
  composition(options, overrides).build
