/**
 * The `shellEnvironmentPolicy` settings key (see ChildEnvironment for what it does), decoded with Schema. Kept apart
 * from ChildEnvironment so that a run without the key does not build the schema.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Policy } from "./ChildEnvironment.js"

export const ShellEnvironmentPolicy = Schema.Struct({
  inherit: Schema.optional(Schema.Literal("all", "core", "none")),
  exclude: Schema.optional(Schema.Array(Schema.String)),
  includeOnly: Schema.optional(Schema.Array(Schema.String)),
  set: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
})

/** The policy is invalid: the message names what is wrong. */
export class InvalidShellEnvironmentPolicy extends Schema.TaggedError<InvalidShellEnvironmentPolicy>()(
  "InvalidShellEnvironmentPolicy",
  { message: Schema.String }
) {}

/** Decodes the settings value (undefined: no policy). */
export const decode = (value: unknown): Effect.Effect<Policy, InvalidShellEnvironmentPolicy> =>
  value === undefined
    ? Effect.succeed({})
    : Schema.decodeUnknown(ShellEnvironmentPolicy)(value, { onExcessProperty: "error" }).pipe(
        Effect.mapError(
          (error) =>
            new InvalidShellEnvironmentPolicy({
              message: `Invalid shellEnvironmentPolicy in settings: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
            })
        )
      )
