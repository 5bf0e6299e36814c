/**
 * The `shellEnvironmentPolicy` settings key (see ChildEnvironment for what it does), decoded with Schema. Kept apart
 * from ChildEnvironment so that a run without the key does not build the schema.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import type { Policy } from "./ChildEnvironment.js"

const inheritMessage = 'must be "all", "core" or "none"'

export const ShellEnvironmentPolicy = Schema.Struct({
  // The message goes on the literals (a string of another value) and on their union with undefined (a number).
  inherit: Schema.optionalKey(
    Schema.UndefinedOr(Schema.Literals(["all", "core", "none"]).annotate({ message: inheritMessage })).annotate({
      message: inheritMessage
    })
  ),
  exclude: Schema.optional(Schema.Array(Schema.String)),
  includeOnly: Schema.optional(Schema.Array(Schema.String)),
  set: Schema.optional(Schema.Record(Schema.String, Schema.String))
})

/** The policy is invalid: the message names what is wrong. */
export class InvalidShellEnvironmentPolicy extends Schema.TaggedError<InvalidShellEnvironmentPolicy>()(
  "InvalidShellEnvironmentPolicy",
  { message: Schema.String }
) {}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** One line per wrong key: its path and what was expected. */
const describe = (error: Schema.SchemaError): string => {
  const seen = new Map<string, string>()
  for (const issue of formatIssues(error.issue).issues) {
    const path = ["shellEnvironmentPolicy", ...(issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment))].join(".")
    if (!seen.has(path)) seen.set(path, issue.message)
  }
  return [...seen].map(([path, message]) => `${path}: ${message}`).join("; ")
}

/** Decodes the settings value (undefined: no policy). */
export const decode = (value: unknown): Effect.Effect<Policy, InvalidShellEnvironmentPolicy> =>
  value === undefined
    ? Effect.succeed({})
    : Schema.decodeUnknownEffect(ShellEnvironmentPolicy)(value, { onExcessProperty: "error", errors: "all" }).pipe(
        Effect.mapError(
          (error) =>
            new InvalidShellEnvironmentPolicy({
              message: `Invalid shellEnvironmentPolicy in the settings: ${describe(error)}`
            })
        )
      )
