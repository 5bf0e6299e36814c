/**
 * The composition root of a session: every service a run needs, as one Layer (`layer`) of parts in order
 * (Credentials, Settings, the settings' `env` as weft's environment, Extensions, ChildEnvironment, Environment,
 * Memory, SessionStore, Transcript, ApiClient, Sandbox, ShellSession, Permissions, Hooks, McpClient, ToolRegistry;
 * `layerSession` adds the Session), each overridable by a Layer (a test's fake, an SDK host's own permissions or
 * model). The CLI runs the same Layer a library user composes. Resources are released in reverse order when its
 * scope closes: the transcript is flushed before the session store closes its files, and background shells end.
 *
 * A new service joins the session as one more part in `layer`, after the services it needs. `layerSession` adds the
 * conversation (Session) over them all.
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import type { InvalidShellEnvironmentPolicy } from "../platform/ShellEnvironmentPolicy.js"
import * as Session from "../agent/Session.js"
import { Transcript } from "../agent/Transcript.js"
import { Environment } from "../context/Environment.js"
import { Settings, type SettingsError } from "../context/Settings.js"
import { Memory } from "../context/Memory.js"
import { Extensions, invocable } from "../extensions/Extensions.js"
import * as SkillTool from "../extensions/SkillTool.js"
import { Hooks } from "../hooks/Hooks.js"
import { ApiClient } from "../model/ApiClient.js"
import { McpClient } from "../mcp/McpClient.js"
import type { Server as McpServer } from "../mcp/McpConfig.js"
import * as McpTools from "../mcp/McpTools.js"
import * as NodeApiClient from "../model/NodeApiClient.js"
import { type PermissionMode, Permissions } from "../permissions/Permissions.js"
import { Prompter } from "../permissions/Prompter.js"
import { mcpToolsDeniedBy } from "../permissions/Rules.js"
import { ChildEnvironment } from "../platform/ChildEnvironment.js"
import * as CredentialsModule from "../platform/Credentials.js"
import { Credentials } from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import * as ShellCheck from "../permissions/ShellCheck.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import * as SandboxConfig from "../sandbox/SandboxConfig.js"
import { SessionStore } from "../session/SessionStore.js"
import * as Output from "./Output.js"
import * as Builtin from "../tools/builtin/BuiltinRegistry.js"
import { ShellSession } from "../tools/ShellSession.js"
import { filterTools, fromAnyTools, ToolRegistry, withExtraTools } from "../tools/ToolRegistry.js"
import { erase } from "../tools/Tool.js"

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
  /** Whether the mode may be switched to bypassPermissions later (`--allow-dangerously-skip-permissions`). */
  readonly allowBypassPermissions?: boolean
  /** Who answers when a call must be asked about; default nobody (an ask is a denial the model reads). */
  readonly prompter?: Prompter["Service"]
  /** weft's credentials (default: from this process's environment): withheld from children, redacted from the transcript. */
  readonly credentials?: CredentialsModule.Interface
  /** The merged settings (default: loaded for `cwd`). */
  readonly settings?: Settings["Service"]
  /** MCP servers to connect (McpConfig); their tools join the registry. None: the MCP client library is never loaded. */
  readonly mcpServers?: ReadonlyArray<McpServer>
  /** The conversation (Session): its system prompt, model, limits, who answers permission asks; cwd is the session's. */
  readonly session?: Omit<Session.Options, "cwd">
  /** `--sandbox`: run the model's commands in the OS sandbox whatever the settings say. */
  readonly sandbox?: boolean
}

/** What the session's parts may need from outside: the platform. */
export type Platform = FileSystem.FileSystem | Path.Path

/** What every part may use: the platform, weft's credentials and the merged settings (the first two parts). */
export type Base = Platform | Credentials | Settings

/**
 * Replacements for the default parts, each a Layer on the `Base` services (provide anything else it needs before
 * giving it). The default parts after them use what comes before them in `layer` (the Transcript writes to the
 * SessionStore, Permissions reads the ShellSession's directory, overridden or not).
 */
export interface Overrides<E = never> {
  readonly settings?: Layer.Layer<Settings, E, Platform | Credentials>
  /** The custom commands and skills (default: `.claude/commands` and `.claude/skills` of the project and the user). */
  readonly extensions?: Layer.Layer<Extensions, E, Base>
  readonly environment?: Layer.Layer<Environment, E, Base>
  readonly memory?: Layer.Layer<Memory, E, Base>
  readonly sessionStore?: Layer.Layer<SessionStore, E, Base>
  readonly transcript?: Layer.Layer<Transcript, E, Base>
  readonly apiClient?: Layer.Layer<ApiClient, E, Base>
  /** The OS sandbox Bash's commands run in (default: as the settings and `sandbox` ask; `Sandbox.layerNone` for none). */
  readonly sandbox?: Layer.Layer<Sandbox, E, Base>
  /**
   * Bash's shell (its working directory and background shells), which the default Permissions and tools use; it
   * may use the session's ChildEnvironment, as the default one does.
   */
  readonly shell?: Layer.Layer<ShellSession, E, Base | ChildEnvironment>
  readonly permissions?: Layer.Layer<Permissions, E, Base>
  readonly hooks?: Layer.Layer<Hooks, E, Base>
  /** The MCP client (default: `mcpServers` connected); its tools join the registry's. */
  readonly mcp?: Layer.Layer<McpClient, E, Base>
  /** The tools offered (before `removedTools` is applied). */
  readonly tools?: Layer.Layer<ToolRegistry, E, Base>
  /** The conversation over the services before it. */
  readonly session?: Layer.Layer<Session.Session, E, Base>
}

export type Services =
  | Credentials
  | Settings
  | Extensions
  | ChildEnvironment
  | Environment
  | Memory
  | SessionStore
  | Transcript
  | ApiClient
  | Sandbox
  | ShellSession
  | Permissions
  | Hooks
  | McpClient
  | ToolRegistry

/** `part` after the parts before it: it may use their services, and the session provides both. */
const add =
  <A, E, R>(part: Layer.Layer<A, E, R>) =>
  <A0, E0, R0>(before: Layer.Layer<A0, E0, R0>) =>
    Layer.provideMerge(part, before)

/** No part: the parts before as they are. */
const none = <A, E, R>(before: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> => before

/** The library user's part when one is given, else the default one. */
const overrideOr = <A, E1, R1, E2, R2>(
  override: Layer.Layer<A, E1, R1> | undefined,
  part: Layer.Layer<A, E2, R2>
): Layer.Layer<A, E1 | E2, R1 | R2> => override ?? part

/** Permissions asking `prompter`; none given, nobody answers (an ask is a denial the model reads). */
const withPrompter = <E, R>(prompter: Prompter["Service"] | undefined, permissions: Layer.Layer<Permissions, E, R>) =>
  prompter === undefined ? permissions : permissions.pipe(Layer.provide(Layer.succeed(Prompter, prompter)))

/**
 * The session as a Layer: what a library user composes, and what the CLI runs. Its parts in order, each
 * `Layer.provideMerge`d onto the ones before it, whose services it may use; an override replaces its part.
 */
export const layer = <E = never>(
  options: Options,
  overrides: Overrides<E> = {}
): Layer.Layer<Services, E | Config.ConfigError | InvalidShellEnvironmentPolicy | SettingsError, Platform> => {
  const removed = options.removedTools ?? new Set<string>()
  // The modules' Layer constants are given as `Layer.fresh`: a Layer value is memoized by reference, and a session
  // built inside another one's scope (a nested Effect.provide) would otherwise get the outer session's service.
  return (options.credentials === undefined ? Layer.fresh(Credentials.layer) : Layer.succeed(Credentials, options.credentials)).pipe(
    add(
      overrideOr(
        overrides.settings,
        options.settings === undefined
          ? Settings.layer({ cwd: options.cwd })
          : Layer.succeed(Settings, options.settings)
      )
    ),
    // The settings' `env`, read by every part after it as weft's own environment (no part when the settings given
    // have none: most runs).
    options.settings !== undefined && !hasEnv(options.settings) ? none : add(Layer.fresh(settingsEnvironment)),
    add(overrideOr(overrides.extensions, Layer.fresh(Extensions.layer))),
    add(Layer.fresh(ChildEnvironment.layer)),
    add(
      overrideOr(
        overrides.environment,
        Environment.layer({ cwd: options.cwd, additionalDirectories: options.additionalDirectories ?? [] })
      )
    ),
    add(
      overrideOr(overrides.memory, Memory.layer({ cwd: options.cwd }))
    ),
    add(overrideOr(overrides.sessionStore, SessionStore.layer())),
    add(
      overrideOr(overrides.transcript, Transcript.layer({ cwd: options.cwd, version: options.version }))
    ),
    add(overrideOr(overrides.apiClient, Layer.fresh(NodeApiClient.layerFromSettings))),
    // The sandbox every Bash command (background shells included) starts through; hooks' commands only with
    // `sandbox.hooks`.
    add(overrideOr(overrides.sandbox, sandboxPart(options, overrides.settings === undefined))),
    // Bash's shell: its current directory (after a `cd`) is where Permissions resolves a command's relative paths.
    add(overrideOr(overrides.shell, ShellSession.layer({ cwd: options.cwd }))),
    add(
      overrideOr(
        overrides.permissions,
        withPrompter(
          options.prompter,
          Permissions.layer({
            allowedTools: options.allowedRules ?? [],
            disallowedTools: options.deniedRules ?? [],
            additionalDirectories: (options.additionalDirectories ?? []).map((dir) => nodePath.resolve(options.cwd, dir)),
            ...(options.permissionMode === undefined ? {} : { mode: options.permissionMode }),
            ...(options.allowBypassPermissions === undefined ? {} : { allowBypassPermissions: options.allowBypassPermissions })
          })
        )
      )
    ),
    // Command hooks from the merged settings (an untrusted project's were dropped by the loader) beside none in-process;
    // their runner is loaded only when some are configured.
    add(
      overrideOr(
        overrides.hooks,
        Hooks.layer({
          onWarning: (warning) => Effect.sync(() => Output.stderrSync(`weft: settings: ${warning}\n`))
        })
      )
    ),
    add(overrideOr(overrides.mcp, Layer.effect(McpClient, mcpClient(options)))),
    add(overrideOr(overrides.tools, Layer.fresh(Builtin.layer))),
    // The tools offered: `removedTools` taken out of the registry (overridden or not), the MCP servers' tools added
    // but those denied whole.
    add(
      Layer.effect(
        ToolRegistry,
        Effect.gen(function* () {
          const registry = yield* ToolRegistry
          const mcp = yield* McpClient
          // MCP tools denied whole (`mcp__server`, `mcp__server__tool`), on the command line or in any settings
          // scope, are not offered either.
          const settings = yield* Settings
          const mcpDenied = mcpToolsDeniedBy([
            ...(options.deniedRules ?? []),
            ...settings.sources.flatMap((source) => source.settings.permissions?.deny ?? [])
          ])
          const keep = (name: string) => !removed.has(name) && !mcpDenied(name)
          const filtered = filterTools(yield* withSkillTool(registry), keep)
          if (mcp === McpClient.none) return filtered
          return withExtraTools(filtered, McpTools.make(mcp, { maxOutputTokens: yield* McpTools.maxOutputTokens }), keep)
        })
      )
    )
  )
}

const hasEnv = (settings: Settings["Service"]): boolean => Object.keys(settings.value.env ?? {}).length > 0

/**
 * The settings' `env` (merged from the trusted scopes: the loader drops an untrusted project's) as weft's own
 * environment, as Claude Code applies it to its process: laid over the ConfigProvider in force (Variables), so that
 * ANTHROPIC_BASE_URL, API_TIMEOUT_MS, DISABLE_* ... set there configure the parts after it and the run, and the
 * children (ChildEnvironment) inherit it. A credential it sets (ANTHROPIC_API_KEY ...) joins the Credentials: withheld
 * from children and redacted like one from the environment. No `env`: nothing is laid over.
 */
const settingsEnvironment: Layer.Layer<never, never, Settings | Credentials> = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* Settings
    const env = settings.value.env
    if (env === undefined || !hasEnv(settings)) return Layer.empty
    const credentials = yield* Credentials
    yield* Effect.forEach(CredentialsModule.valuesFromEnv(env), credentials.add, { discard: true })
    return Variables.layerOverlay(env)
  })
)

/**
 * The session's services (`layer`) with the conversation over them as its last part (Session: prompts, events,
 * live mode, model, rules and hooks): what `weft -p`, the SDK protocol and a library user driving a conversation
 * run. Closing it ends the conversation (SessionEnd hooks, once) before the services close.
 */
export const layerSession = <E = never>(
  options: Options,
  overrides: Overrides<E> = {}
): Layer.Layer<Services | Session.Session, E | Config.ConfigError | InvalidShellEnvironmentPolicy | SettingsError, Platform> =>
  layer(options, overrides).pipe(add(overrideOr(overrides.session, Session.layer({ ...options.session, cwd: options.cwd }))))

/**
 * The registry with the Skill tool added when the session has skills or commands the model may run (none: the
 * tools offered are the same as without them).
 */
const withSkillTool = (registry: ToolRegistry["Service"]) =>
  Effect.gen(function* () {
    const loaded = yield* Extensions
    if (invocable(loaded).length === 0 || registry.tools.some((tool) => tool.name === SkillTool.name)) return registry
    // The Skill tool grants a skill's allowed-tools through the session's Permissions; its `!`cmd`` run with the
    // caller's tools (the registry of the call's context, not this one).
    const permissions = yield* Permissions
    const skill = erase(SkillTool.make(loaded), (stream) => Stream.provideService(stream, Permissions, permissions))
    return fromAnyTools([...registry.tools, skill], registry.forgetContext)
  })

/**
 * The sandbox the settings and `--sandbox` ask for. When the session's settings are the value given (`settingsApply`:
 * no Layer overrides them) and leave it off, the part is the "none" sandbox, with nothing to build (measured: 2.8 M
 * instructions of every run, 0.9%).
 */
const sandboxPart = (options: Options, settingsApply: boolean): Layer.Layer<Sandbox, never, Settings> =>
  settingsApply && options.settings !== undefined && !SandboxConfig.isEnabled(options.settings, options.sandbox)
    ? Layer.fresh(Sandbox.layerNone)
    : Sandbox.layer({
        workspaces: [options.cwd, ...(options.additionalDirectories ?? []).map((dir) => nodePath.resolve(options.cwd, dir))],
        ...(options.sandbox === undefined ? {} : { flag: options.sandbox }),
        cliAllowed: options.allowedRules ?? [],
        cliDenied: options.deniedRules ?? [],
        // `excludedCommands` are Bash rule patterns, matched as allow rules are: every command of the line.
        matchesPatterns: ShellCheck.matchesPatterns
      })

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
