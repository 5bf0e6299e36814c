/**
 * weft's own credentials: the API key, the bearer token, the value of every header weft adds to its API requests
 * (ANTHROPIC_CUSTOM_HEADERS) and any key produced while running (an apiKeyHelper's). They stay with weft: child
 * processes do not inherit them (ChildEnvironment), and `redact` takes their values out of any text weft records
 * or prints (the transcript, stderr, error messages), by value, whatever printed them.
 *
 * Schema-free and cheap to build: it is made on every start.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The variables that hold weft's credentials: never inherited by a child process. */
export const variableNames: ReadonlyArray<string> = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"]

/** What a credential's value is replaced with. */
export const REDACTED = "[REDACTED]"

/**
 * Values shorter than this are not searched for in text: a placeholder key such as `x` or `test` (common with
 * local servers) would otherwise mangle every word containing it. Their variables are still withheld from children.
 */
export const MIN_REDACTED_LENGTH = 8

export interface Interface {
  /** The credential values known now, longest first. */
  readonly values: () => ReadonlyArray<string>
  /** Records a credential obtained while running (a key from apiKeyHelper), so it is withheld and redacted too. */
  readonly add: (value: string) => Effect.Effect<void>
  /** `text` with every credential value replaced by [REDACTED]. */
  readonly redact: (text: string) => string
  /** JSON text with every credential value replaced, as it appears inside a JSON string (escaped). */
  readonly redactJson: (json: string) => string
}

/** The header values of ANTHROPIC_CUSTOM_HEADERS (`Name: value` lines). */
export const headerValues = (headers: string): Array<string> =>
  headers
    .split(/\r?\n/)
    .map((line) => {
      const colon = line.indexOf(":")
      return colon < 0 ? "" : line.slice(colon + 1).trim()
    })
    .filter((value) => value !== "")

/** The credential values found in an environment. */
export const valuesFromEnv = (env: Readonly<Record<string, string | undefined>>): Array<string> => {
  const values: Array<string> = []
  for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]) {
    const value = env[name]?.trim()
    if (value !== undefined && value !== "") values.push(value)
  }
  const headers = env["ANTHROPIC_CUSTOM_HEADERS"]
  if (headers !== undefined) values.push(...headerValues(headers))
  return values
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A value as it is written inside a JSON string. */
const jsonEscaped = (value: string): string => JSON.stringify(value).slice(1, -1)

/** A redactor over fixed values: the pure core of `fromValues`. */
export const redactor = (values: ReadonlyArray<string>): ((text: string) => string) => {
  const searched = [...new Set(values)].filter((value) => value.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length)
  // Stryker disable next-line ConditionalExpression: a shortcut: with no value, `first` below is empty and every text is returned as it is anyway
  if (searched.length === 0) return (text) => text
  const pattern = new RegExp(searched.map(escapeRegExp).join("|"), "g")
  // Stryker disable next-line MethodExpression: a shorter prefix is only cheaper: text holding a whole value holds its prefix too
  const first = searched.map((value) => value.slice(0, MIN_REDACTED_LENGTH))
  return (text) => {
    // Most text holds no credential: a cheap check before the regular expression.
    // Stryker disable next-line ConditionalExpression: only a shortcut: the replace below leaves text without a value unchanged too
    if (!first.some((prefix) => text.includes(prefix))) return text
    return text.replace(pattern, REDACTED)
  }
}

/** A redactor for JSON text: the values as they are written inside JSON strings. */
export const jsonRedactor = (values: ReadonlyArray<string>): ((json: string) => string) => redactor(values.map(jsonEscaped))

/** Credentials from known values; more can be added while running. */
export const fromValues = (initial: ReadonlyArray<string>): Interface => {
  let values = [...new Set(initial.filter((value) => value !== ""))].sort((a, b) => b.length - a.length)
  let redact = redactor(values)
  let redactJson = jsonRedactor(values)
  const self: Interface = {
    values: () => values,
    add: (value) =>
      Effect.sync(() => {
        const trimmed = value.trim()
        if (trimmed === "" || values.includes(trimmed)) return
        values = [...values, trimmed].sort((a, b) => b.length - a.length)
        redact = redactor(values)
        redactJson = jsonRedactor(values)
      }),
    redact: (text) => redact(text),
    redactJson: (json) => redactJson(json)
  }
  return self
}

/** The credentials found in an environment (see `valuesFromEnv`). */
export const fromEnv = (env: Readonly<Record<string, string | undefined>>): Interface => fromValues(valuesFromEnv(env))

// Stryker disable next-line StringLiteral: the tag's key only has to differ from every other service's
export class Credentials extends Context.Service<Credentials, Interface>()("weft/Credentials") {
  /** weft's credentials from this process's environment. */
  static layer: Layer.Layer<Credentials> = Layer.sync(Credentials, () => fromEnv(process.env))
  /** No credentials (nothing withheld by value, nothing redacted): for tests and hosts that hold none. */
  static layerNone: Layer.Layer<Credentials> = Layer.sync(Credentials, () => fromValues([]))
  static fromValues = fromValues
  static fromEnv = fromEnv
  /** `fromValues` as a layer: credentials given, nothing read from the environment. */
  static layerFromValues = (values: ReadonlyArray<string>): Layer.Layer<Credentials> => Layer.sync(Credentials, () => fromValues(values))
}

// The entry points at the module's top level, as the class's statics.
export const layer = Credentials.layer
export const layerNone = Credentials.layerNone
export const layerFromValues = Credentials.layerFromValues
