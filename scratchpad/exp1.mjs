import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Exit from "effect/Exit"
const Int = (description, minimum) => Schema.Number.check(Schema.makeFilter((v) => Number.isInteger(v) && v >= minimum, { description, message: "m" }))
const S = Schema.Struct({
  file_path: Schema.String.annotate({ description: "d" }),
  offset: Schema.optional(Int("off", 0)),
  mode: Schema.optional(Schema.Literals(["a", "b", "c"]).annotate({ description: "lit" })),
  todos: Schema.optional(Schema.Array(Schema.Struct({ s: Schema.Literals(["x","y"]), t: Schema.String }))),
})
const show = (x) => console.dir(x, { depth: 12 })
const dec = Schema.decodeUnknownExit(S, { errors: "all", onExcessProperty: "ignore", reportInput: true })
for (const input of [{ file_path: 17, offset: -1, mode: "z", todos: [{ s: "q" }], extra: 1 }, { file_path: "a", offset: "x" }, "str", null]) {
  const r = dec(input)
  if (Exit.isFailure(r)) {
    const err = r.cause.reasons[0].error
    console.log(err.message)
    show(SchemaIssue.makeFormatterStandardSchemaV1()(err.issue).issues)
  }
}
show(Schema.toJsonSchemaDocument(S))
