/**
 * The environment of the processes weft starts. weft's own credentials (Credentials: the API key, the token, the
 * headers it sends, a helper's key) are never inherited: a variable that holds one, by name or by value, is left
 * out. What a configuration names explicitly (an MCP server's `env`, a policy's `set`) is passed as given.
 *
 * - `shell`: for Bash and background shells (and so whatever the model's commands start). The settings key
 *   `shellEnvironmentPolicy` shapes the rest of the environment, as Codex's `shell_environment_policy` does:
 *     inherit      "all" (default) | "core" (HOME, PATH, SHELL, USER, LANG, TMPDIR...) | "none"
 *     exclude      name patterns to leave out (`*` any run of characters, `?` one; case-insensitive)
 *     includeOnly  if given, only names matching one of these patterns stay
 *     set          fixed values, applied last (so always present)
 *   The default (no policy) keeps everything but the credentials.
 * - `process(explicit)`: for hooks and MCP stdio servers: everything but the credentials, plus `explicit`.
 * The parent's environment is this process's with the settings' `env` laid over it (Variables.overlay).
 *
 * Schema-free (it is built on every start); the policy's Schema is in ShellEnvironmentPolicy.ts.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Settings } from "../context/Settings.js"
import * as Credentials from "./Credentials.js"
import * as Variables from "./Variables.js"
import type { InvalidShellEnvironmentPolicy } from "./ShellEnvironmentPolicy.js"

export type Inherit = "all" | "core" | "none"

export interface Policy {
  readonly inherit?: Inherit | undefined
  readonly exclude?: ReadonlyArray<string> | undefined
  readonly includeOnly?: ReadonlyArray<string> | undefined
  readonly set?: Readonly<Record<string, string>> | undefined
}

export type Env = Record<string, string>

/** The variables `inherit: "core"` keeps: what a shell and common tools need to run as the user. */
export const coreVariables: ReadonlyArray<string> = [
  "HOME",
  "LOGNAME",
  "LOGIN",
  "PATH",
  "SHELL",
  "USER",
  "USERNAME",
  "TMPDIR",
  "TEMP",
  "TMP",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "TZ"
]

/** A name pattern (`*`, `?`, case-insensitive) as a test. */
export const namePattern = (pattern: string): ((name: string) => boolean) => {
  const source = pattern
    .split("")
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("")
  const regex = new RegExp(`^${source}$`, "i")
  return (name) => regex.test(name)
}

const anyOf = (patterns: ReadonlyArray<string>): ((name: string) => boolean) => {
  const tests = patterns.map(namePattern)
  return (name) => tests.some((test) => test(name))
}

/** Does a variable carry a credential: by its name, or by a value that contains one. */
const carriesCredential = (credentialValues: ReadonlyArray<string>) => {
  const names = new Set(Credentials.variableNames)
  return (name: string, value: string): boolean =>
    names.has(name) || credentialValues.some((credential) => credential !== "" && value.includes(credential))
}

/** The parent's variables that have a value. */
const defined = (parent: Readonly<Record<string, string | undefined>>): Array<[string, string]> => {
  const entries: Array<[string, string]> = []
  for (const name in parent) {
    const value = parent[name]
    if (value !== undefined) entries.push([name, value])
  }
  return entries
}

/** The environment of a Bash command: the parent's shaped by `policy`, without weft's credentials. */
export const forShell = (
  parent: Readonly<Record<string, string | undefined>>,
  credentialValues: ReadonlyArray<string>,
  policy: Policy = {}
): Env => {
  const withheld = carriesCredential(credentialValues)
  // Stryker disable next-line StringLiteral: any value but "core" and "none" inherits everything, as "all" does
  const inherit = policy.inherit ?? "all"
  const core = anyOf(coreVariables)
  // Stryker disable next-line ArrayDeclaration: the mutant's pattern only leaves out a variable named "Stryker was here"
  const excluded = anyOf(policy.exclude ?? [])
  const included = policy.includeOnly === undefined ? () => true : anyOf(policy.includeOnly)
  const env: Env = {}
  if (inherit !== "none") {
    for (const [name, value] of defined(parent)) {
      if (inherit === "core" && !core(name)) continue
      if (withheld(name, value) || excluded(name) || !included(name)) continue
      env[name] = value
    }
  }
  for (const [name, value] of Object.entries(policy.set ?? {})) env[name] = value
  return env
}

/** The environment of a hook or an MCP server: the parent's without weft's credentials, plus what its configuration names. */
export const forProcess = (
  parent: Readonly<Record<string, string | undefined>>,
  credentialValues: ReadonlyArray<string>,
  explicit: Readonly<Record<string, string>> = {}
): Env => {
  const withheld = carriesCredential(credentialValues)
  const env: Env = {}
  for (const [name, value] of defined(parent)) if (!withheld(name, value)) env[name] = value
  for (const [name, value] of Object.entries(explicit)) env[name] = value
  return env
}

/**
 * Git in the model's commands does not discover bare repositories: `safe.bareRepository=explicit`, given through
 * `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` after any the environment already has (the last
 * value of a key wins, so ours holds). Why: a model that can write files in the workspace can plant a bare
 * repository (HEAD, config, objects: ordinary files, none of them under a protected name) whose config runs a
 * program (`diff.<driver>.textconv`, `core.fsmonitor`, `core.pager`...), then run a read-only-looking
 * `git -C planted show` or `cd planted && git log`, which weft lets run unasked: git would discover the planted
 * repository and honour its config. With the setting, git refuses to use a bare repository it was not pointed at
 * explicitly; pointing it explicitly (`--git-dir`, `GIT_DIR=`) is not read-only for weft (ReadOnlyCommands.ts), so
 * it is asked about. A non-bare repository needs a `.git`, which is a protected name. Costs: a user's own bare
 * repository needs `git --git-dir=.` in the model's commands (git >= 2.38 knows the setting; older ones ignore it).
 */
export const withGitSafety = (env: Env): Env => {
  const given = env["GIT_CONFIG_COUNT"]
  const count =
    given === undefined ||
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: Number() of a blank string is 0 too: the check only says so
    given.trim() === ""
      ? 0
      : Number(given)
  // A count git would refuse makes every git command fail already: left as it is, not made valid.
  if (!Number.isSafeInteger(count) || count < 0) return env
  return {
    ...env,
    GIT_CONFIG_COUNT: String(count + 1),
    [`GIT_CONFIG_KEY_${count}`]: "safe.bareRepository",
    [`GIT_CONFIG_VALUE_${count}`]: "explicit"
  }
}

export interface Interface {
  /** The environment of a Bash command or background shell. */
  readonly shell: Effect.Effect<Env>
  /** The environment of a hook or MCP stdio server: `explicit` is its configuration's own `env`. */
  readonly process: (explicit?: Readonly<Record<string, string>>) => Effect.Effect<Env>
}

export interface Options {
  /** The parent's environment, read when a child starts (default: this process's). */
  readonly parent?: () => Readonly<Record<string, string | undefined>>
  /** The decoded `shellEnvironmentPolicy` (default: keep everything but the credentials). */
  readonly policy?: Policy
}

/** Children of this process, with the policy given (nothing read from the Settings). */
export const makeWith = (options: Options = {}): Effect.Effect<Interface, never, Credentials.Credentials> =>
  Effect.gen(function* () {
    const credentials = yield* Credentials.Credentials
    // The settings' `env` (laid over weft's environment by the session: Variables.layerOverlay) is inherited as
    // Claude Code's children inherit it; the credentials are withheld and the policy applied after it.
    const overlay = yield* Variables.overlay
    const base = options.parent ?? (() => process.env)
    // Stryker disable next-line ConditionalExpression: a shortcut: with no overlay the spread is the parent as it is
    const parent = Object.keys(overlay).length === 0 ? base : () => ({ ...base(), ...overlay })
    return {
      shell: Effect.sync(() => withGitSafety(forShell(parent(), credentials.values(), options.policy))),
      process: (explicit) => Effect.sync(() => forProcess(parent(), credentials.values(), explicit))
    } satisfies Interface
  })

/**
 * Children of this process, with the policy of the merged settings (`shellEnvironmentPolicy`; an untrusted project's
 * is already dropped by the loader). An invalid policy fails: running commands with an environment the user meant to
 * narrow is not safe. The policy's Schema is loaded only when the key is there.
 */
export const make = (
  options: Omit<Options, "policy"> = {}
): Effect.Effect<Interface, InvalidShellEnvironmentPolicy, Settings | Credentials.Credentials> =>
  Effect.gen(function* () {
    const value = (yield* Settings).value.shellEnvironmentPolicy
    // Stryker disable next-line ConditionalExpression: decode(undefined) is the empty policy: the check only spares loading the Schema
    if (value === undefined) return yield* makeWith(options)
    const { decode } = yield* Effect.promise(() => import("./ShellEnvironmentPolicy.js"))
    return yield* makeWith({ ...options, policy: yield* decode(value) })
  })

// Stryker disable next-line StringLiteral: the tag's key only has to differ from every other service's
export class ChildEnvironment extends Context.Service<ChildEnvironment, Interface>()("weft/ChildEnvironment") {
  static make = make
  /** This process's environment, with the policy of the merged settings. */
  static layer: Layer.Layer<ChildEnvironment, InvalidShellEnvironmentPolicy, Settings | Credentials.Credentials> =
    Layer.effect(ChildEnvironment, make())
  static makeWith = makeWith
  /** `makeWith` as a layer: the policy given (none: everything but the credentials). */
  static layerWith = (options: Options = {}): Layer.Layer<ChildEnvironment, never, Credentials.Credentials> =>
    Layer.effect(ChildEnvironment, makeWith(options))
  /** Needs nothing: this process's environment and credentials, no policy (no Settings read). */
  static layerNode: Layer.Layer<ChildEnvironment> = ChildEnvironment.layerWith().pipe(Layer.provide(Credentials.Credentials.layer))
}

// The entry points at the module's top level, as the class's statics.
export const layer = ChildEnvironment.layer
export const layerWith = ChildEnvironment.layerWith
export const layerNode = ChildEnvironment.layerNode
