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
 */
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
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

/** `name`'s value as the ConfigProvider in force gives it (undefined: absent). See the module doc. */
export const value = (name: string): Effect.Effect<string | undefined> =>
  ConfigProvider.ConfigProvider.use((provider) =>
    provider === processEnvironment ? Effect.sync(() => process.env[name]) : throughConfig(name)
  )

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
