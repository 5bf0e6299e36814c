/**
 * The JSON Schema a tool's input Schema shows the model, and the message an input that does not match gets: the
 * documents are Claude Code's shape (closed objects with their `required` list, literal unions as one `enum`, no
 * `null` branch for an optional field, no `$ref`), written out here key by key, in order.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { describe, expect, it } from "vitest"
import * as Tool from "../../src/tools/Tool.js"

/** Compares documents with their keys' order, as the request body (and its wire snapshot) has them. */
const text = (value: unknown) => JSON.stringify(value, null, 2)

const invalidMessage = (input: Schema.Decoder<any>, raw: unknown): string => {
  const tool = Tool.erase(
    Tool.make({ name: "T", description: "t", input, run: () => Stream.empty }),
    (stream) => stream
  )
  const exit = Effect.runSyncExit(Effect.flip(tool.prepare(raw, { toolUseId: "u", sessionId: "s", cwd: "/" })))
  if (exit._tag === "Failure") throw new Error(`the input was accepted: ${JSON.stringify(raw)}`)
  return exit.value.message
}

describe("jsonSchemaOf", () => {
  it("a struct: required and optional fields, descriptions and defaults after the type, closed", () => {
    const schema = Schema.Struct({
      command: Schema.String.annotate({ description: "The command to execute" }),
      timeout: Schema.optional(Schema.Number.annotate({ description: "Optional timeout" })),
      replace_all: Schema.optional(Schema.Boolean.annotate({ description: "Replace all", default: false })),
      flag: Schema.optionalKey(Schema.Boolean)
    })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["command"],
        properties: {
          command: { type: "string", description: "The command to execute" },
          timeout: { type: "number", description: "Optional timeout" },
          replace_all: { type: "boolean", description: "Replace all", default: false },
          flag: { type: "boolean" }
        },
        additionalProperties: false
      })
    )
  })

  it("an empty struct still says it is a closed object", () => {
    expect(text(Tool.jsonSchemaOf(Schema.Struct({})))).toBe(
      text({ type: "object", required: [], properties: {}, additionalProperties: false })
    )
  })

  it("a union of literals is one enum, with the union's description; an optional one gains no null", () => {
    const mode = Schema.Literals(["content", "files_with_matches", "count"]).annotate({ description: "Output mode" })
    const schema = Schema.Struct({ required_mode: mode, output_mode: Schema.optional(mode), one: Schema.Literal(3) })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["required_mode", "one"],
        properties: {
          required_mode: { type: "string", enum: ["content", "files_with_matches", "count"], description: "Output mode" },
          output_mode: { type: "string", enum: ["content", "files_with_matches", "count"], description: "Output mode" },
          one: { type: "number", enum: [3] }
        },
        additionalProperties: false
      })
    )
  })

  it("other unions are anyOf; null is a member like any other", () => {
    const schema = Schema.Struct({ value: Schema.Union([Schema.String, Schema.Number]), maybe: Schema.NullOr(Schema.String) })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["value", "maybe"],
        properties: {
          value: { anyOf: [{ type: "string" }, { type: "number" }] },
          maybe: { anyOf: [{ type: "string" }, { type: "null" }] }
        },
        additionalProperties: false
      })
    )
  })

  it("arrays of closed objects, with the array's description after its items", () => {
    const item = Schema.Struct({ content: Schema.String, status: Schema.Literals(["pending", "completed"]) })
    const schema = Schema.Struct({ todos: Schema.Array(item).annotate({ description: "The list" }) })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["todos"],
        properties: {
          todos: {
            type: "array",
            items: {
              type: "object",
              required: ["content", "status"],
              properties: { content: { type: "string" }, status: { type: "string", enum: ["pending", "completed"] } },
              additionalProperties: false
            },
            description: "The list"
          }
        },
        additionalProperties: false
      })
    )
  })

  it("numbers with checks: integerField is an integer with its minimum, Effect's checks add their keywords, no Infinity/NaN branch", () => {
    const schema = Schema.Struct({
      offset: Schema.optional(Tool.integerField("The line to start from", 0)),
      limit: Tool.integerField("How many lines", 1),
      ratio: Schema.Number.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1)).annotate({ description: "A ratio" }),
      plain: Schema.Number
    })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["limit", "ratio", "plain"],
        properties: {
          offset: { type: "integer", minimum: 0, description: "The line to start from" },
          limit: { type: "integer", minimum: 1, description: "How many lines" },
          ratio: { type: "number", minimum: 0, maximum: 1, description: "A ratio" },
          plain: { type: "number" }
        },
        additionalProperties: false
      })
    )
  })

  it("a jsonSchema annotation is the field's document as given, on a schema or on a check", () => {
    const schema = Schema.Struct({
      url: Schema.String.annotate({
        description: "The URL",
        jsonSchema: { type: "string", format: "uri", description: "The URL" }
      }),
      content: Schema.String.check(
        Schema.makeFilter((value: string) => value.length > 0, {
          description: "Not shown: the annotation is the whole document",
          jsonSchema: { type: "string", minLength: 1 },
          message: "must not be empty"
        })
      ),
      link: Schema.String.annotate({ description: "A link", format: "uri" })
    })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["url", "content", "link"],
        properties: {
          url: { type: "string", format: "uri", description: "The URL" },
          content: { type: "string", minLength: 1 },
          link: { type: "string", format: "uri", description: "A link" }
        },
        additionalProperties: false
      })
    )
  })

  it("a transformed field shows what the model sends (its encoded side), and records their value schema", () => {
    const schema = Schema.Struct({
      count: Schema.NumberFromString.annotate({ description: "A count, as text" }),
      env: Schema.Record(Schema.String, Schema.String)
    })
    expect(text(Tool.jsonSchemaOf(schema))).toBe(
      text({
        type: "object",
        required: ["count", "env"],
        properties: {
          count: { type: "string", description: "A count, as text" },
          env: { type: "object", required: [], properties: {}, additionalProperties: { type: "string" } }
        },
        additionalProperties: false
      })
    )
  })
})

describe("invalid input", () => {
  const Input = Schema.Struct({
    file_path: Schema.String,
    offset: Schema.optional(Tool.integerField("offset", 0)),
    mode: Schema.optional(Schema.Literals(["replace", "insert", "delete"])),
    todos: Schema.optional(
      Schema.Array(
        Schema.Struct({
          content: Schema.String.check(Schema.makeFilter((value: string) => value.length > 0, { message: "must not be empty" })),
          status: Schema.Literals(["pending", "completed"])
        })
      )
    )
  })

  it("names each field's problem with what was sent, one per field, in the Schema's order", () => {
    expect(invalidMessage(Input, { file_path: 17 })).toBe("Invalid input for T: file_path: Expected string, actual 17")
    expect(invalidMessage(Input, { file_path: ["ls"] })).toBe('Invalid input for T: file_path: Expected string, actual ["ls"]')
    expect(invalidMessage(Input, {})).toBe("Invalid input for T: file_path: is missing")
    expect(invalidMessage(Input, { file_path: 3, offset: "x" })).toBe(
      'Invalid input for T: file_path: Expected string, actual 3; offset: Expected number, actual "x"'
    )
  })

  it("a check says what is wanted; unknown keys are ignored", () => {
    expect(invalidMessage(Input, { file_path: "a", offset: -1, extra: true })).toBe(
      "Invalid input for T: offset: expected an integer >= 0, got -1"
    )
    expect(invalidMessage(Input, { file_path: "a", offset: 1.5 })).toBe("Invalid input for T: offset: expected an integer >= 0, got 1.5")
  })

  it("a literal union lists each literal; nested paths are dotted", () => {
    expect(invalidMessage(Input, { file_path: "a", mode: "move" })).toBe(
      'Invalid input for T: mode: Expected "replace", actual "move"; mode: Expected "insert", actual "move"; mode: Expected "delete", actual "move"'
    )
    expect(invalidMessage(Input, { file_path: "a", todos: [{ content: "", status: "later" }, { status: "pending" }] })).toBe(
      "Invalid input for T: todos.0.content: must not be empty; " +
        'todos.0.status: Expected "pending", actual "later"; todos.0.status: Expected "completed", actual "later"; ' +
        "todos.1.content: is missing"
    )
  })

  it("input that is not an object", () => {
    expect(invalidMessage(Input, "read a.txt")).toBe('Invalid input for T: Expected object, actual "read a.txt"')
    expect(invalidMessage(Input, null)).toBe("Invalid input for T: Expected object, actual null")
  })
})
