/**
 * Environment variables as weft reads them, through Effect's Config (so a test provides its own ConfigProvider): a
 * variable set to "" counts as not set, and a read never fails.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { homedir } from "node:os"
import { join } from "node:path"

/** `name`'s value; none when it is absent or empty. */
export const nonEmpty = (name: string): Effect.Effect<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.filter((value) => value !== "")),
    Effect.orElseSucceed(() => Option.none<string>())
  )

/** `name`'s value as a positive integer; none when it is absent, empty or no positive integer (the caller's default applies). */
export const positiveInt = (name: string): Effect.Effect<Option.Option<number>> =>
  Effect.map(
    nonEmpty(name),
    Option.flatMap((value) => {
      const parsed = Number(value)
      return Number.isInteger(parsed) && parsed > 0 ? Option.some(parsed) : Option.none()
    })
  )

/**
 * Whether the switch `name` is on: set to 1, true, yes or on (any case), as Claude Code reads its switches
 * (`DISABLE_PROMPT_CACHING=1`, `DISABLE_AUTO_COMPACT=1`); anything else, or nothing, is off.
 */
export const flag = (name: string): Effect.Effect<boolean> =>
  Effect.map(nonEmpty(name), Option.exists((value) => ["1", "true", "yes", "on"].includes(value.trim().toLowerCase())))

/** The user's home: `$HOME`, else the OS's. */
export const home: Effect.Effect<string> = Effect.map(nonEmpty("HOME"), Option.getOrElse(homedir))

/** weft's home: `$WEFT_HOME`, else `<home>/.weft`. */
export const weftHomeOf = (userHome: string): Effect.Effect<string> =>
  Effect.map(nonEmpty("WEFT_HOME"), Option.getOrElse(() => join(userHome, ".weft")))
