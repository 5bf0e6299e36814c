import { describe, expect, it } from "vitest"
import { parsePartial, PartialJsonParser } from "../../src/model/PartialJson.js"

/** A small deterministic PRNG (mulberry32), so random splits are reproducible. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * Pushes the pieces and ends the input. `watch` asks for the value after every piece, which makes the scanner
 * read each piece as it comes; unwatched, `end()` may take the native JSON.parse route instead.
 */
const feed = (pieces: ReadonlyArray<string>, watch = true) => {
  const parser = new PartialJsonParser()
  for (const piece of pieces) {
    parser.push(piece)
    if (watch) parser.value()
  }
  parser.end()
  return parser
}

const chars = (text: string): Array<string> => text.split("")

const randomSplit = (text: string, next: () => number, maxPiece = 12): Array<string> => {
  const pieces: Array<string> = []
  let i = 0
  while (i < text.length) {
    const size = 1 + Math.floor(next() * maxPiece)
    pieces.push(text.slice(i, i + size))
    i += size
  }
  return pieces
}

const documents: ReadonlyArray<string> = [
  `{}`,
  `[]`,
  `{"path":"src/main.ts","offset":10,"limit":-2.5e3,"all":true,"none":null,"no":false}`,
  `{"a":[1,2,[3,[4,{"b":[]}]],{"c":{}}],"d":"x"}`,
  `  { "spaced" : [ 1 , 2 ] ,\n\t"tab"\r\n: "v" }  `,
  `{"escapes":"quote \\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t end"}`,
  `{"unicode":"\\u00e9\\u4e2d\\uD83D\\uDE00 and raw é 中 😀"}`,
  `{"nums":[0,-0,1,-1,0.5,-0.25,1e10,1E-7,2.5e+3,123456789012345678901234567890]}`,
  `"top-level string"`,
  `42`,
  `-0.5e-3`,
  `true`,
  `null`,
  `[{"k":"v"},{"k":"w"},"s",3,false]`,
  `{"__proto__":{"polluted":true},"constructor":"c"}`,
  `{"dup":1,"dup":2}`,
  `{"empty":"","emptyKey":{"":""}}`
]

describe("PartialJsonParser", () => {
  it("parses complete documents exactly like JSON.parse, whole and split every possible way", () => {
    const next = random(7)
    for (const doc of documents) {
      const expected: unknown = JSON.parse(doc)
      for (const whole of [feed([doc]), feed([doc], false), feed(chars(doc), false)]) {
        expect(whole.error()).toBeUndefined()
        expect(whole.isComplete()).toBe(true)
        expect(whole.value()).toStrictEqual(expected)
      }
      expect(feed(chars(doc)).value()).toStrictEqual(expected)
      for (let round = 0; round < 20; round++) {
        const parser = feed(randomSplit(doc, next))
        expect(parser.value()).toStrictEqual(expected)
        expect(parser.text).toBe(doc)
      }
    }
  })

  it("keeps __proto__ as an own property, like JSON.parse", () => {
    for (const parser of [feed([`{"__proto__":{"polluted":true}}`]), feed([`{"__proto__":"partial`])]) {
      const value = parser.value()
      expect(typeof value === "object" && value !== null && Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(Object.keys(value ?? {})).toEqual(["__proto__"])
      expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false)
    }
  })

  it("scans nothing until asked: unwatched input is parsed once, at end()", () => {
    const parser = new PartialJsonParser()
    parser.push(`{"a":`)
    parser.push(`[1, "two"]}`)
    expect(parser.text).toBe(`{"a":[1, "two"]}`)
    parser.end()
    expect(parser.isComplete()).toBe(true)
    expect(parser.value()).toEqual({ a: [1, "two"] })
    // After end() more input is still checked: only whitespace may follow.
    parser.push("  ")
    expect(parser.isComplete()).toBe(true)
    parser.push("x")
    expect(parser.error()).toMatch(/Unexpected data after the JSON value at position 18/)
  })

  it("shows strings as far as they go, drops keys without values, closes open containers", () => {
    expect(parsePartial(`{"path":"src/ma`)).toEqual({ path: "src/ma" })
    expect(parsePartial(`{"path":"`)).toEqual({ path: "" })
    expect(parsePartial(`{"path":`)).toEqual({})
    expect(parsePartial(`{"path"`)).toEqual({})
    expect(parsePartial(`{"pa`)).toEqual({})
    expect(parsePartial(`{`)).toEqual({})
    expect(parsePartial(`{"a":"x","b`)).toEqual({ a: "x" })
    expect(parsePartial(`{"a":"x",`)).toEqual({ a: "x" })
    expect(parsePartial(`{"a":[1,2,{"b":"c`)).toEqual({ a: [1, 2, { b: "c" }] })
    expect(parsePartial(`[["a","b`)).toEqual([["a", "b"]])
    expect(parsePartial(`[`)).toEqual([])
    expect(parsePartial(`"abc`)).toBe("abc")
    expect(parsePartial(``)).toBeUndefined()
    expect(parsePartial(`   `)).toBeUndefined()
  })

  it("drops a number that may still grow, and keeps it once something ends it", () => {
    expect(parsePartial(`{"a":12`)).toEqual({})
    expect(parsePartial(`{"a":12,`)).toEqual({ a: 12 })
    expect(parsePartial(`[1,2`)).toEqual([1])
    expect(parsePartial(`[1,2 `)).toEqual([1, 2])
    expect(parsePartial(`[1.`)).toEqual([])
    expect(parsePartial(`[1e-`)).toEqual([])
    const parser = new PartialJsonParser()
    parser.push("12")
    expect(parser.value()).toBeUndefined()
    parser.push("3")
    expect(parser.isComplete()).toBe(false)
    parser.end()
    expect(parser.value()).toBe(123)
    expect(parser.isComplete()).toBe(true)
  })

  it("completes literals at their first letter and fails on a mismatch", () => {
    expect(parsePartial(`{"a":t`)).toEqual({ a: true })
    expect(parsePartial(`[f`)).toEqual([false])
    expect(parsePartial(`{"a":nu`)).toEqual({ a: null })
    const parser = new PartialJsonParser()
    parser.push(`{"a":tru`)
    parser.push(`x}`)
    expect(parser.error()).toMatch(/Unexpected character "x" at position 8/)
    expect(parser.value()).toEqual({ a: true })
  })

  it("holds back an escape split across fragments until it is complete", () => {
    const parser = new PartialJsonParser()
    const steps: Array<[string, unknown]> = [
      [`{"s":"a\\`, { s: "a" }],
      [`u00`, { s: "a" }],
      [`e`, { s: "a" }],
      [`9b`, { s: "aéb" }],
      [`\\uD83D`, { s: "aéb\uD83D" }],
      [`\\uDE0`, { s: "aéb\uD83D" }],
      [`0`, { s: "aéb😀" }],
      [`\\`, { s: "aéb😀" }],
      [`n"}`, { s: "aéb😀\n" }]
    ]
    for (const [fragment, expected] of steps) {
      parser.push(fragment)
      expect(parser.value()).toEqual(expected)
    }
    expect(parser.isComplete()).toBe(true)
    expect(parser.error()).toBeUndefined()
  })

  it("reassembles a raw surrogate pair split between fragments", () => {
    const doc = `{"e":"x😀y"}`
    const at = doc.indexOf("😀") + 1 // between the two UTF-16 halves
    expect(feed([doc.slice(0, at), doc.slice(at)]).value()).toEqual({ e: "x😀y" })
  })

  it("gives the same partial value at every prefix whatever the chunking", () => {
    const next = random(42)
    const oneShot = (prefix: string): string => {
      const parser = new PartialJsonParser()
      parser.push(prefix)
      return JSON.stringify(parser.value()) ?? "undefined"
    }
    for (const doc of documents) {
      const byChar = new PartialJsonParser()
      for (let i = 0; i < doc.length; i++) {
        byChar.push(doc.charAt(i))
        expect(JSON.stringify(byChar.value()) ?? "undefined").toBe(oneShot(doc.slice(0, i + 1)))
      }
      const byPieces = new PartialJsonParser()
      let seen = 0
      for (const piece of randomSplit(doc, next, 5)) {
        byPieces.push(piece)
        seen += piece.length
        expect(JSON.stringify(byPieces.value()) ?? "undefined").toBe(oneShot(doc.slice(0, seen)))
      }
    }
  })

  it("reports malformed input once, with a position, and keeps the value built before it", () => {
    const cases: Array<[string, RegExp, unknown]> = [
      [`{"foo": "bar", "baz": "qux": "quux"}`, /Expected ',' or a closing bracket but found ":" at position 27/, { foo: "bar", baz: "qux" }],
      [`{"a":1}x`, /Unexpected data after the JSON value at position 7/, { a: 1 }],
      [`{"a":1]`, /Unexpected character "]" at position 6/, { a: 1 }],
      [`[1,]`, /Unexpected character "]"/, [1]],
      [`{"a":1,}`, /Expected a property name/, { a: 1 }],
      [`{a:1}`, /Expected a property name/, {}],
      [`[01]`, /Expected ','/, [0]],
      [`[-]`, /Incomplete number/, []],
      [`["a\tb"]`, /Bad control character U\+0009/, ["a"]],
      [`["\\x"]`, /Bad escape "x"/, [""]],
      [`["\\u12G4"]`, /Bad Unicode escape "G"/, [""]],
      [`{"a" 1}`, /Expected ':'/, {}],
      [`}`, /Unexpected character/, undefined]
    ]
    for (const [doc, message, value] of cases) {
      expect(() => JSON.parse(doc)).toThrow()
      for (const parser of [feed([doc]), feed(chars(doc)), feed(chars(doc), false)]) {
        expect(parser.error()).toMatch(message)
        expect(parser.isComplete()).toBe(false)
        expect(parser.value()).toEqual(value)
        expect(parser.text).toBe(doc)
      }
    }
    const parser = new PartialJsonParser()
    parser.push(`{"a":1}}`)
    const first = parser.error()
    parser.push(`{"more": "input"}`)
    expect(parser.error()).toBe(first)
    expect(parser.text).toBe(`{"a":1}}{"more": "input"}`)
  })

  it("agrees with JSON.parse on random documents fed in random pieces", () => {
    const next = random(2024)
    const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
    const alphabet = ["a", "b", "é", "中", "😀", "\"", "\\", "/", "\n", "\t", "\u0001", "\u2028", " "]
    const make = (depth: number): unknown => {
      const kind = depth > 3 ? Math.floor(next() * 4) : Math.floor(next() * 6)
      switch (kind) {
        case 0: {
          let s = ""
          const length = Math.floor(next() * 8)
          for (let i = 0; i < length; i++) s += pick(alphabet)
          return s
        }
        case 1:
          return pick([0, -1, 3.25, 1e21, -2.5e-8, 123456])
        case 2:
          return pick([true, false, null])
        case 3:
          return ""
        case 4:
          return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1))
        default:
          return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}${pick(alphabet)}`, make(depth + 1)]))
      }
    }
    for (let round = 0; round < 300; round++) {
      const value = make(0)
      const doc = JSON.stringify(value, null, round % 3 === 0 ? 2 : undefined)
      const parser = feed(randomSplit(doc, next, 6))
      expect(parser.error()).toBeUndefined()
      expect(parser.value()).toStrictEqual(JSON.parse(doc))
    }
  })

  it("stays linear: a 1 MB document in 5k fragments with value() after each push", () => {
    const items = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ["x", "y"], ok: i % 2 === 0 }))
    const content = "line of file content with \"quotes\" and \\ backslashes\n".repeat(12000)
    const doc = JSON.stringify({ path: "src/big.ts", content, items })
    expect(doc.length).toBeGreaterThan(1_000_000)
    const size = Math.ceil(doc.length / 5000)
    const parser = new PartialJsonParser()
    let lastContentLength = 0
    for (let i = 0; i < doc.length; i += size) {
      parser.push(doc.slice(i, i + size))
      const value = parser.value()
      // The value grows monotonically and never re-scans: the content string only ever gets longer.
      if (typeof value === "object" && value !== null && "content" in value && typeof value.content === "string") {
        expect(value.content.length).toBeGreaterThanOrEqual(lastContentLength)
        lastContentLength = value.content.length
      }
    }
    expect(parser.isComplete()).toBe(true)
    expect(parser.value()).toStrictEqual(JSON.parse(doc))
    expect(parser.text.length).toBe(doc.length)
  })
})
