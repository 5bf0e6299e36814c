/**
 * The services a CLI session runs on: the built-in tools' registry, the API client (from the environment, over
 * node:http), permissions, hooks and the transcript (JSONL under `$WEFT_HOME`). The same services as the
 * Layer.mergeAll of each one's layer, made by one Effect from each service's constructor, in order, in the
 * session's scope (closed in reverse: the transcript is flushed before the session store closes its files).
 *
 * Why not that mergeAll: building a graph of layers costs about 150 effect operations per layer (memo map, scopes,
 * a fiber per branch) and as much again to tear it down; the ~20 layers of a session came to ~6,300 operations
 * and 10-15 ms of every `weft -p` (measured with the session bench, scratchpad/bench/session.mjs). Library users
 * still compose the layers; this is the CLI's composition root.
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { Transcript } from "../agent/Transcript.js"
import { Hooks } from "../hooks/Hooks.js"
import { ApiClient } from "../model/ApiClient.js"
import * as NodeApiClient from "../model/NodeApiClient.js"
import { Permissions } from "../permissions/Permissions.js"
import { Settings } from "../context/Settings.js"
import * as ChildEnvironment from "../platform/ChildEnvironment.js"
import * as Credentials from "../platform/Credentials.js"
import type { InvalidShellEnvironmentPolicy } from "../platform/ShellEnvironmentPolicy.js"
import { SessionStore } from "../session/SessionStore.js"
import * as Builtin from "../tools/builtin/index.js"
import { filterTools, ToolRegistry } from "../tools/ToolRegistry.js"

export interface Options {
  readonly cwd: string
  /** weft's version, recorded in the transcript. */
  readonly version: string
  /** Tools the model does not see (`--disallowedTools Name`). */
  readonly removedTools?: ReadonlySet<string>
  /** Rules that deny calls (every `--disallowedTools` entry; deny wins over everything). */
  readonly deniedRules?: ReadonlyArray<string>
  /** weft's credentials (default: from this process's environment): withheld from children, redacted from the transcript. */
  readonly credentials?: Credentials.Interface
  /** The merged settings (default: loaded for `cwd`). */
  readonly settings?: Settings["Type"]
}

export type Services = ToolRegistry | ApiClient | Permissions | Hooks | Transcript

export const make = (
  options: Options
): Effect.Effect<
  Context.Context<Services>,
  ConfigError.ConfigError | InvalidShellEnvironmentPolicy,
  FileSystem.FileSystem | Path.Path | Scope.Scope
> =>
  Effect.gen(function* () {
    const removed = options.removedTools ?? new Set<string>()
    const credentials = options.credentials ?? Credentials.make(Credentials.valuesFromEnv(process.env))
    const settings = options.settings ?? (yield* Settings.make({ cwd: options.cwd }))
    const childEnvironment = yield* ChildEnvironment.makeFromSettings().pipe(
      Effect.provideService(Credentials.Credentials, credentials),
      Effect.provideService(Settings, settings)
    )
    const registry = filterTools(
      yield* Builtin.make({ cwd: options.cwd }).pipe(Effect.provideService(ChildEnvironment.ChildEnvironment, childEnvironment)),
      (name) => !removed.has(name)
    )
    const api = yield* NodeApiClient.make
    const store = yield* SessionStore.makeJsonl().pipe(Effect.provideService(Credentials.Credentials, credentials))
    const transcript = yield* Transcript.make({ cwd: options.cwd, version: options.version }).pipe(
      Effect.provideService(SessionStore, store)
    )
    return Context.make(ToolRegistry, registry).pipe(
      Context.add(ApiClient, api),
      Context.add(Permissions, Permissions.permissive({ deniedRules: options.deniedRules ?? [] })),
      Context.add(Hooks, Hooks.none),
      Context.add(Transcript, transcript)
    )
  })

/** `make` as one layer. */
export const layer = (
  options: Options
): Layer.Layer<Services, ConfigError.ConfigError | InvalidShellEnvironmentPolicy, FileSystem.FileSystem | Path.Path> =>
  Layer.scopedContext(make(options))
