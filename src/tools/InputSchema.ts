/**
 * What the model is shown of a tool's input Schema and what it is told when its input does not match.
 *
 * The JSON Schema is derived here by walking the Schema's AST rather than taken from Effect's generator: that one
 * writes a draft-2020-12 document made for round-tripping values (optional fields gain a `null` branch, numbers an
 * `"Infinity"`/`"NaN"` string branch, objects accept extra keys), while the model wants the plain shape Claude Code
 * shows: every object closed (`additionalProperties: false`) with its `required` list, a union of literals as one
 * `enum`, definitions inlined (no `$ref`), and a field's description next to its type.
 *
 * What a Schema says and what comes out:
 * - a `jsonSchema` annotation (on the schema or on one of its checks) is the field's JSON Schema, taken as given;
 * - a check's `toJsonSchema` annotation (Effect's checks have one; `integerField` below too) adds its keywords;
 * - `format`, `title`, `description`, `default` and `examples` annotations are written after the type's keywords;
 * - a transformed schema shows its encoded side, which is what the model sends.
 */
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"

type JsonObject = Record<string, unknown>

type Annotations = Readonly<Record<string, unknown>> | undefined

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/** Every check of a node, groups opened (a group's own annotations come after its members'). */
const checksOf = (ast: SchemaAST.AST): ReadonlyArray<{ readonly annotations: Annotations; readonly check: SchemaAST.Check<any> }> => {
  const flat = (check: SchemaAST.Check<any>): ReadonlyArray<{ readonly annotations: Annotations; readonly check: SchemaAST.Check<any> }> =>
    check._tag === "FilterGroup"
      ? [...check.checks.flatMap(flat), { annotations: check.annotations, check }]
      : [{ annotations: check.annotations, check }]
  return (ast.checks ?? []).flatMap(flat)
}

/** The node's annotations, then its checks' (`annotate` on a checked schema writes onto its last check), then its key's. */
const annotationsOf = (ast: SchemaAST.AST): ReadonlyArray<Annotations> => [
  ast.annotations,
  ...checksOf(ast).map((check) => check.annotations),
  ast.context?.annotations
]

/** The last `jsonSchema` annotation, which replaces the derived document. */
const overrideOf = (ast: SchemaAST.AST): JsonObject | undefined => {
  let found: JsonObject | undefined
  for (const annotations of annotationsOf(ast)) {
    const candidate = annotations?.["jsonSchema"]
    if (isObject(candidate)) found = candidate
  }
  return found
}

/** The documentation keywords, in the order they are written (after the type's own keywords). */
const documentationKeys = ["format", "title", "description", "default", "examples"] as const

const documentationOf = (ast: SchemaAST.AST): JsonObject => {
  const found: JsonObject = {}
  for (const annotations of annotationsOf(ast)) {
    for (const key of documentationKeys) {
      if (annotations?.[key] !== undefined) found[key] = annotations[key]
    }
  }
  return found
}

/** Adds documentation keywords the document does not have yet, in `documentationKeys`' order. */
const withDocumentation = (document: JsonObject, documentation: JsonObject): JsonObject => {
  const result = { ...document }
  for (const key of documentationKeys) {
    if (documentation[key] !== undefined && result[key] === undefined) result[key] = documentation[key]
  }
  return result
}

const hasOwnMeaning = (ast: SchemaAST.AST): boolean =>
  ast.checks !== undefined || ast.encoding !== undefined || Object.keys(documentationOf(ast)).length > 0 || overrideOf(ast) !== undefined

/** A union's members with unions nested in it opened (when they add nothing of their own) and `undefined` left out: JSON has none. */
const membersOf = (union: SchemaAST.Union): ReadonlyArray<SchemaAST.AST> =>
  union.types.flatMap((member) =>
    member._tag === "Undefined" || member._tag === "Void"
      ? []
      : member._tag === "Union" && !hasOwnMeaning(member)
        ? membersOf(member)
        : [member]
  )

const jsonTypeOf = (value: unknown): string | undefined =>
  typeof value === "string" ? "string" : typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : undefined

/** Values of one JSON type as `{ type, enum }` (how a union of literals is shown); several types as a bare `enum`. */
const enumOf = (values: ReadonlyArray<unknown>): JsonObject => {
  const types = new Set(values.map(jsonTypeOf))
  const [type] = types
  return types.size === 1 && type !== undefined ? { type, enum: [...values] } : { enum: [...values] }
}

const unionDocument = (union: SchemaAST.Union, seen: ReadonlySet<SchemaAST.AST>): JsonObject => {
  const members = membersOf(union)
  if (members.length === 1) return walk(members[0]!, seen)
  const isPlainLiteral = (member: SchemaAST.AST) => member._tag === "Literal" && typeof member.literal !== "bigint" && !hasOwnMeaning(member)
  if (members.length > 0 && members.every(isPlainLiteral)) {
    return enumOf(members.map((member) => (member as SchemaAST.Literal).literal))
  }
  return { anyOf: members.map((member) => walk(member, seen)) }
}

const objectDocument = (objects: SchemaAST.Objects, seen: ReadonlySet<SchemaAST.AST>): JsonObject => {
  const properties: JsonObject = {}
  const required: Array<string> = []
  for (const property of objects.propertySignatures) {
    const name = String(property.name)
    properties[name] = walk(property.type, seen)
    if (property.type.context?.isOptional !== true) required.push(name)
  }
  const [index] = objects.indexSignatures
  return {
    type: "object",
    required,
    properties,
    additionalProperties: index === undefined ? false : walk(index.type, seen)
  }
}

const arrayDocument = (arrays: SchemaAST.Arrays, seen: ReadonlySet<SchemaAST.AST>): JsonObject => {
  const [rest] = arrays.rest
  if (arrays.elements.length === 0) return rest === undefined ? { type: "array", maxItems: 0 } : { type: "array", items: walk(rest, seen) }
  const minItems = arrays.elements.filter((element) => element.context?.isOptional !== true).length
  return {
    type: "array",
    prefixItems: arrays.elements.map((element) => walk(element, seen)),
    ...(minItems > 0 ? { minItems } : {}),
    items: rest === undefined ? false : walk(rest, seen)
  }
}

/** The document of the node's type alone (no checks, no documentation). */
const shapeOf = (ast: SchemaAST.AST, seen: ReadonlySet<SchemaAST.AST>): JsonObject => {
  switch (ast._tag) {
    case "String":
    case "TemplateLiteral":
      return { type: "string" }
    case "Number":
      return { type: "number" }
    case "Boolean":
      return { type: "boolean" }
    case "Null":
      return { type: "null" }
    case "Literal":
      // a bigint has no JSON form
      return typeof ast.literal === "bigint" ? {} : enumOf([ast.literal])
    case "Enum":
      return enumOf(ast.enums.map(([, value]) => value))
    case "ObjectKeyword":
      return { type: "object" }
    case "Objects":
      return objectDocument(ast, seen)
    case "Arrays":
      return arrayDocument(ast, seen)
    case "Union":
      return unionDocument(ast, seen)
    case "Suspend":
      // A recursive schema: at the point where it recurs, any value is shown as allowed.
      return seen.has(ast) ? {} : walk(ast.thunk(), new Set([...seen, ast]))
    case "Never":
      return { not: {} }
    default:
      // unknown, any, undefined, and what JSON cannot carry (bigint, symbol, declarations without an encoding)
      return {}
  }
}

/** The keywords the node's checks add (`integer` for `type`, `minimum`, `minLength`, ...). */
const withChecks = (ast: SchemaAST.AST, document: JsonObject): JsonObject => {
  let result = document
  for (const { annotations } of checksOf(ast)) {
    const compile = annotations?.["toJsonSchema"]
    if (typeof compile !== "function") continue
    const type = typeof result["type"] === "string" ? result["type"] : undefined
    const output: unknown = compile({ type, schemas: [] })
    // `[fragment, true]` is a looser approximation of the check: still the best there is to show
    const fragment = Array.isArray(output) ? output[0] : output
    if (isObject(fragment)) result = { ...result, ...fragment }
  }
  return result
}

/** The node the model's value meets first: the far end of its transformations. */
const encodedOf = (ast: SchemaAST.AST): SchemaAST.AST =>
  ast.encoding === undefined ? ast : encodedOf(ast.encoding[ast.encoding.length - 1]!.to)

const walk = (ast: SchemaAST.AST, seen: ReadonlySet<SchemaAST.AST>): JsonObject => {
  const override = overrideOf(ast)
  if (override !== undefined) return { ...override }
  if (ast.encoding !== undefined) {
    // The model sends the encoded side; the decoded side's checks do not hold there, its documentation does.
    return withDocumentation(walk(encodedOf(ast), seen), documentationOf(ast))
  }
  return withDocumentation(withChecks(ast, shapeOf(ast, seen)), documentationOf(ast))
}

/** The JSON Schema of a tool's input, as the Messages API wants it (no `$schema` key, definitions inlined). */
export const jsonSchemaOf = (schema: Schema.Top): Record<string, unknown> => walk(schema.ast, new Set())

/**
 * An integer input field of at least `minimum`, shown as `{ type: "integer", minimum, description }`; a value that
 * fails is told what is wanted.
 */
export const integerField = (description: string, minimum: number) =>
  Schema.Number.check(
    Schema.makeFilter<number>(
      (value) => (Number.isInteger(value) && value >= minimum) || `expected an integer >= ${minimum}, got ${formatValue(value)}`,
      { description, toJsonSchema: () => ({ type: "integer", minimum }) }
    )
  )

// ---------------------------------------------------------------------------------------------------------------
// Invalid input, for the model

/** A value as the model wrote it: JSON where it is JSON. */
const formatValue = (value: unknown): string => {
  if (value === undefined) return "undefined"
  if (typeof value === "bigint") return `${value}n`
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** What a node accepts, in a message: `string`, `"content"`, `number | undefined`, ... */
const expectedOf = (ast: SchemaAST.AST): string => {
  const named = ast.annotations?.["expected"] ?? ast.annotations?.["identifier"]
  if (typeof named === "string") return named
  switch (ast._tag) {
    case "Literal":
      return formatValue(ast.literal)
    case "Union":
      return ast.types.map(expectedOf).join(" | ")
    case "Enum":
      return ast.enums.map(([, value]) => formatValue(value)).join(" | ")
    case "Objects":
      return "object"
    case "Arrays":
      return "array"
    case "ObjectKeyword":
      return "object"
    case "Suspend":
      return expectedOf(ast.thunk())
    case "Declaration":
    case "TemplateLiteral":
    case "UniqueSymbol":
      return String(ast)
    default:
      return ast._tag.toLowerCase()
  }
}

const actual = (issue: SchemaIssue.Issue): string => (SchemaIssue.hasInput(issue) ? `, actual ${formatValue(issue.input)}` : "")

let effectFormatter: SchemaIssue.Formatter<string> | undefined
const effectMessage = (issue: SchemaIssue.Issue): string => (effectFormatter ??= SchemaIssue.makeFormatterDefault())(issue)

interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const invalidType = (ast: SchemaAST.AST, issue: SchemaIssue.Issue): string => {
  const message = ast.annotations?.["message"]
  return typeof message === "string" ? message : `Expected ${expectedOf(ast)}${actual(issue)}`
}

/** A failed check: the check's own words (the message its predicate returned, or its `message`), else what it expects. */
const filterMessage = (issue: SchemaIssue.Filter): string => {
  const inner = issue.issue
  if ((inner._tag === "InvalidValue" || inner._tag === "Forbidden") && typeof inner.annotations?.["message"] === "string") {
    return inner.annotations["message"]
  }
  const annotations = issue.filter.annotations
  if (typeof annotations?.message === "string") return annotations.message
  if (typeof annotations?.expected === "string") return `Expected ${annotations.expected}${actual(issue)}`
  return effectMessage(issue)
}

/** One problem per failing leaf, with its path; a union that nothing matched gives one per member, as Effect 3 did. */
const problemsOf = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<Problem> => {
  switch (issue._tag) {
    case "Pointer":
      return problemsOf(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => problemsOf(inner, path))
    case "Encoding":
      return problemsOf(issue.issue, path)
    case "AnyOf": {
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => problemsOf(inner, path))
      const flatten = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> => (ast._tag === "Union" ? ast.types.flatMap(flatten) : [ast])
      // Each member as the model would have to send it (a transformed member by its encoded side)
      return flatten(issue.ast).map((member) => ({ path, message: invalidType(encodedOf(member), issue) }))
    }
    case "MissingKey":
      return [{ path, message: issue.annotations?.messageMissingKey ?? "is missing" }]
    case "InvalidType":
      return [{ path, message: invalidType(issue.ast, issue) }]
    case "Filter":
      return issue.issue._tag === "Pointer" || issue.issue._tag === "Composite"
        ? problemsOf(issue.issue, path)
        : [{ path, message: filterMessage(issue) }]
    default:
      return [{ path, message: effectMessage(issue) }]
  }
}

const isUndefinedMember = (problem: Problem) => problem.message.startsWith("Expected undefined,") || problem.message === "Expected undefined"

/**
 * The problems with an input, one per field, for the model. An optional field's value that fails also fails the
 * other member of its `T | undefined`: that adds nothing, and is left out when the field has another message.
 */
export const formatIssue = (issue: SchemaIssue.Issue): string => {
  const problems = problemsOf(issue, [])
  const key = (problem: Problem) => problem.path.map(String).join(".")
  const explained = new Set(problems.filter((problem) => !isUndefinedMember(problem)).map(key))
  return problems
    .filter((problem) => !(isUndefinedMember(problem) && explained.has(key(problem))))
    .map((problem) => (problem.path.length > 0 ? `${key(problem)}: ${problem.message}` : problem.message))
    .join("; ")
}

/** How tool input is decoded: every problem reported, with the values that caused them; unknown keys ignored. */
export const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "ignore", reportInput: true }
