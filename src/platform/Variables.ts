/**
 * Environment variables as weft reads them, through Effect's Config (so a test provides its own ConfigProvider): a
 * variable set to "" counts as not set, and a read never fails.
 *
 * Every read goes through `value`. Under the ConfigProvider effect runs with by default (a `ConfigProvider.fromEnv()`
 * made once), it reads `process.env` itself. That default provider copies the environment when it is first used and
 * reads "" as absent, while weft reads the environment as it is now (a variable set later is seen) and keeps "" as
 * a value (callers such as the proxy settings tell "" from absent). The direct read is also cheaper: a read through
 * Config's interpreter costs an Option that fails, the error it makes, the fallback, for dozens of reads before a
 * session's first request (scratchpad/bench/session.mjs). Under any other provider (a test's
 * `ConfigProvider.fromUnknown`, `ConfigProvider.layer`) it is `Config.String(name)`. The tests check that the direct
 * read answers what Config does over the same environment.
 *
 * The settings' `env` is read as if it were in weft's environment (Claude Code applies it to its own process): the
 * session lays it over the provider in force (`withOverlay`, `layerOverlay`) rather than writing to `process.env`,
 * so that a session built inside another one, or a test, sees only its own. A variable the overlay sets wins; the
 * rest is read as before (directly from `process.env` over the default provider).
 */
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { homedir } from "node:os"
import { join } from "node:path"

/** The ConfigProvider every fiber has unless one is set: the process's environment. */
const processEnvironment = Context.get(Context.empty(), ConfigProvider.ConfigProvider)

/** `name`'s value through `Config.String(name)`; undefined when it is absent or cannot be read. */
export const throughConfig = (name: string): Effect.Effect<string | undefined> =>
  Config.option(Config.String(name)).pipe(
    Effect.map(Option.getOrUndefined),
    Effect.orElseSucceed(() => undefined)
  )

/** The overlays made by `withOverlay`: the variables laid over, and the provider they were laid over. */
const overlays = new WeakMap<
  ConfigProvider.ConfigProvider,
  { readonly env: Readonly<Record<string, string>>; readonly base: ConfigProvider.ConfigProvider }
>()

/**
 * `base` with `env` laid over it: a ConfigProvider that answers `env`'s variables first (empty values kept), then
 * `base`'s. `value` reads it without Config's interpreter.
 */
export const withOverlay = (base: ConfigProvider.ConfigProvider, env: Readonly<Record<string, string>>): ConfigProvider.ConfigProvider => {
  const provider = ConfigProvider.orElse(ConfigProvider.fromEnvRecord({ ...env }, { preserveEmptyStrings: true }), base)
  overlays.set(provider, { env, base })
  return provider
}

/** The provider in force with `env` laid over it (`withOverlay`), for what the layer is provided to. */
export const layerOverlay = (env: Readonly<Record<string, string>>): Layer.Layer<never> =>
  Layer.effect(ConfigProvider.ConfigProvider, ConfigProvider.ConfigProvider.use((base) => Effect.succeed(withOverlay(base, env))))

/**
 * `effect` with `env` laid over the provider in force (`withOverlay`), for one effect: the provider given as a service
 * rather than through `layerOverlay`, which builds a Layer (its scope and memo map) for every read. An empty `env`
 * (most runs) lays nothing.
 */
export const provideOverlay =
  (env: Readonly<Record<string, string>>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Object.keys(env).length === 0
      ? effect
      : ConfigProvider.ConfigProvider.use((base) => Effect.provideService(effect, ConfigProvider.ConfigProvider, withOverlay(base, env)))

const overlayOf = (provider: ConfigProvider.ConfigProvider): Readonly<Record<string, string>> => {
  const laid = overlays.get(provider)
  if (laid === undefined) return {}
  // An overlay laid over another one (a session inside a session) wins over it.
  return overlays.has(laid.base) ? { ...overlayOf(laid.base), ...laid.env } : laid.env
}

/** The variables laid over the provider in force (`withOverlay`, each over the ones below it); empty when none are. */
export const overlay: Effect.Effect<Readonly<Record<string, string>>> = ConfigProvider.ConfigProvider.use((provider) =>
  Effect.succeed(overlayOf(provider))
)

const read = (provider: ConfigProvider.ConfigProvider, name: string): Effect.Effect<string | undefined> => {
  const laid = overlays.get(provider)
  if (laid !== undefined) {
    // Own keys only: `toString` is no variable.
    if (Object.hasOwn(laid.env, name)) return Effect.succeed(laid.env[name])
    // Not in the overlay: the provider below answers (Config through the overlay falls through to it as well).
    return read(laid.base, name)
  }
  return provider === processEnvironment ? Effect.sync(() => process.env[name]) : throughConfig(name)
}

/** `name`'s value as the ConfigProvider in force gives it (undefined: absent). See the module doc. */
export const value = (name: string): Effect.Effect<string | undefined> =>
  ConfigProvider.ConfigProvider.use((provider) => read(provider, name))

/** `name`'s value; none when it is absent or empty. */
export const nonEmpty = (name: string): Effect.Effect<Option.Option<string>> =>
  Effect.map(value(name), (text) => (text === undefined || text === "" ? Option.none() : Option.some(text)))

/** `name`'s value as a positive integer; none when it is absent, empty or no positive integer (the caller's default applies). */
export const positiveInt = (name: string): Effect.Effect<Option.Option<number>> =>
  Effect.map(
    nonEmpty(name),
    Option.flatMap((text) => {
      const parsed = Number(text)
      return Number.isInteger(parsed) && parsed > 0 ? Option.some(parsed) : Option.none()
    })
  )

/**
 * Whether the switch `name` is on: set to 1, true, yes or on (any case), as Claude Code reads its switches
 * (`DISABLE_PROMPT_CACHING=1`, `DISABLE_AUTO_COMPACT=1`); anything else, or nothing, is off.
 */
export const flag = (name: string): Effect.Effect<boolean> =>
  Effect.map(nonEmpty(name), Option.exists((text) => ["1", "true", "yes", "on"].includes(text.trim().toLowerCase())))

/** The user's home: `$HOME`, else the OS's. */
export const home: Effect.Effect<string> = Effect.map(nonEmpty("HOME"), Option.getOrElse(homedir))

/** weft's home: `$WEFT_HOME`, else `<home>/.weft`. */
export const weftHomeOf = (userHome: string): Effect.Effect<string> =>
  Effect.map(nonEmpty("WEFT_HOME"), Option.getOrElse(() => join(userHome, ".weft")))
