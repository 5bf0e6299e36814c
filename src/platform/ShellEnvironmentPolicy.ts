/**
 * The `shellEnvironmentPolicy` settings key (see ChildEnvironment for what it does), decoded with Schema. Kept apart
 * from ChildEnvironment so that a run without the key does not build the schema.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Policy } from "./ChildEnvironment.js"

export const ShellEnvironmentPolicy = Schema.Struct({
  inherit: Schema.optional(Schema.Literal("all", "core", "none").annotations({ message: () => 'must be "all", "core" or "none"' })),
  exclude: Schema.optional(Schema.Array(Schema.String)),
  includeOnly: Schema.optional(Schema.Array(Schema.String)),
  set: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
})

/** The policy is invalid: the message names what is wrong. */
export class InvalidShellEnvironmentPolicy extends Schema.TaggedError<InvalidShellEnvironmentPolicy>()(
  "InvalidShellEnvironmentPolicy",
  { message: Schema.String }
) {}

/** One line per wrong key: its path and what was expected. */
const describe = (error: ParseResult.ParseError): string => {
  const seen = new Map<string, string>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = ["shellEnvironmentPolicy", ...issue.path.map(String)].join(".")
    if (!seen.has(path)) seen.set(path, issue.message)
  }
  return [...seen].map(([path, message]) => `${path}: ${message}`).join("; ")
}

/** Decodes the settings value (undefined: no policy). */
export const decode = (value: unknown): Effect.Effect<Policy, InvalidShellEnvironmentPolicy> =>
  value === undefined
    ? Effect.succeed({})
    : Schema.decodeUnknown(ShellEnvironmentPolicy)(value, { onExcessProperty: "error", errors: "all" }).pipe(
        Effect.mapError(
          (error) =>
            new InvalidShellEnvironmentPolicy({
              message: `Invalid shellEnvironmentPolicy in the settings: ${describe(error)}`
            })
        )
      )
