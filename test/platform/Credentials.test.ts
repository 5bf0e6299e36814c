/**
 * weft's credentials: which values are taken from the environment, and how `redact` / `redactJson` take them out of
 * text (by value, the longest first, values shorter than the minimum left alone), including values added while running.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import {
  Credentials,
  fromValues,
  headerValues,
  jsonRedactor,
  MIN_REDACTED_LENGTH,
  redactor,
  valuesFromEnv,
  variableNames
} from "../../src/platform/Credentials.js"

describe("Credentials.variableNames", () => {
  it("names the key, the token and the custom headers", () => {
    expect([...variableNames].sort()).toEqual(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"])
  })
})

describe("Credentials.headerValues", () => {
  it("takes the trimmed value after the first colon of each line, LF or CRLF separated", () => {
    expect(headerValues("X-A:   spaced value  \r\nX-B: b: with colon\nX-C:c")).toEqual(["spaced value", "b: with colon", "c"])
  })

  it("skips lines without a colon and headers without a value", () => {
    expect(headerValues("no colon here\nX-Empty:\nX-Blank:    \n\nX-Real: real")).toEqual(["real"])
    expect(headerValues("")).toEqual([])
  })

  it("keeps a value whose line starts with the colon", () => {
    expect(headerValues(": only-value")).toEqual(["only-value"])
  })
})

describe("Credentials.valuesFromEnv", () => {
  it("takes the key, then the token, then the header values, trimmed", () => {
    expect(
      valuesFromEnv({ ANTHROPIC_CUSTOM_HEADERS: "X-T: header-value", ANTHROPIC_AUTH_TOKEN: "  the-token ", ANTHROPIC_API_KEY: "the-key\n" })
    ).toEqual(["the-key", "the-token", "header-value"])
  })

  it("skips what is unset or blank, and reads nothing else", () => {
    expect(valuesFromEnv({})).toEqual([])
    expect(valuesFromEnv({ ANTHROPIC_API_KEY: "   ", ANTHROPIC_AUTH_TOKEN: undefined, OTHER_KEY: "other-secret" })).toEqual([])
    expect(valuesFromEnv({ ANTHROPIC_AUTH_TOKEN: "token-only" })).toEqual(["token-only"])
    expect(valuesFromEnv({ ANTHROPIC_CUSTOM_HEADERS: "" })).toEqual([])
  })
})

describe("Credentials.redactor", () => {
  const exact = "12345678" // exactly MIN_REDACTED_LENGTH
  it("redacts values of the minimum length and longer, not shorter ones", () => {
    expect(MIN_REDACTED_LENGTH).toBe(8)
    const redact = redactor([exact, "1234567", "abcdefghij"])
    expect(redact(`a ${exact} b`)).toBe("a [REDACTED] b")
    expect(redact("a 1234567 b")).toBe("a 1234567 b")
    expect(redact("x abcdefghij y")).toBe("x [REDACTED] y")
    expect(redactor(["short"])("short text")).toBe("short text")
    expect(redactor([])("anything at all")).toBe("anything at all")
  })

  it("replaces every occurrence of every value", () => {
    const redact = redactor(["first-secret", "second-secret"])
    expect(redact("first-secret second-secret first-secret")).toBe("[REDACTED] [REDACTED] [REDACTED]")
    expect(redact("only second-secret here")).toBe("only [REDACTED] here")
    expect(redact("only first-secret here")).toBe("only [REDACTED] here")
  })

  it("replaces the longest value first, whatever order the values come in", () => {
    // "secret-value" is a prefix of the longer one: replaced first, it would leave the longer one's tail in the text.
    for (const values of [["secret-value", "secret-value-and-more"], ["secret-value-and-more", "secret-value"]]) {
      expect(redactor(values)("x secret-value-and-more y secret-value z")).toBe("x [REDACTED] y [REDACTED] z")
    }
  })

  it("matches values literally, regular expression characters included", () => {
    const special = "a.b*c+d?e^f$g{1}(h)|i[j]k\\l"
    const redact = redactor([special])
    expect(redact(`<${special}>`)).toBe("<[REDACTED]>")
    expect(redact("<aXb*c+d?e^f$g{1}(h)|i[j]k\\l>")).toBe("<aXb*c+d?e^f$g{1}(h)|i[j]k\\l>")
    expect(redactor(["dot.dot.dot"])("dotXdotXdot")).toBe("dotXdotXdot")
    expect(redactor(["slash\\dslash"])("slash7slash slash\\dslash")).toBe("slash7slash [REDACTED]")
  })

  it("leaves text without a credential unchanged, even when it shares a value's start", () => {
    const redact = redactor(["abcdefgh-rest-of-key"])
    expect(redact("abcdefgh-rest-of-other")).toBe("abcdefgh-rest-of-other")
    expect(redact("")).toBe("")
  })
})

describe("Credentials.jsonRedactor", () => {
  it("redacts a value as it is written inside a JSON string", () => {
    const value = 'quote"back\\slash\nnewline'
    const json = JSON.stringify({ a: `before ${value} after`, b: [value] })
    const redacted = jsonRedactor([value])(json)
    expect(JSON.parse(redacted)).toEqual({ a: "before [REDACTED] after", b: ["[REDACTED]"] })
  })

  it("redacts plain values in JSON text, and leaves short ones", () => {
    expect(jsonRedactor(["plain-secret-1"])('{"k":"plain-secret-1"}')).toBe('{"k":"[REDACTED]"}')
    expect(jsonRedactor(["short"])('{"k":"short"}')).toBe('{"k":"short"}')
  })
})

describe("Credentials.fromValues", () => {
  it.effect("knows its values longest first, without duplicates or empty ones", () =>
    Effect.sync(() => {
      const credentials = fromValues(["", "mid-length", "s", "the-longest-value", "mid-length"])
      expect(credentials.values()).toEqual(["the-longest-value", "mid-length", "s"])
    })
  )

  it.effect("redacts in text and JSON what it was made with", () =>
    Effect.sync(() => {
      const credentials = fromValues(["made-with-value", 'made"with"quotes'])
      expect(credentials.redact("x made-with-value y")).toBe("x [REDACTED] y")
      expect(credentials.redactJson(JSON.stringify('x made"with"quotes y'))).toBe('"x [REDACTED] y"')
      expect(credentials.redact("x y")).toBe("x y")
    })
  )

  it.effect("a value added while running is known, redacted and JSON-redacted from then on", () =>
    Effect.gen(function* () {
      const credentials = fromValues(["initial-value"])
      expect(credentials.redact("added-later-value")).toBe("added-later-value")
      yield* credentials.add("  added-later-value\n")
      expect(credentials.values()).toEqual(["added-later-value", "initial-value"])
      expect(credentials.redact("added-later-value and initial-value")).toBe("[REDACTED] and [REDACTED]")
      expect(credentials.redactJson('{"k":"added-later-value"}')).toBe('{"k":"[REDACTED]"}')
      // A longer value added later still goes first.
      yield* credentials.add("initial-value-extended")
      expect(credentials.values()).toEqual(["initial-value-extended", "added-later-value", "initial-value"])
      expect(credentials.redact("initial-value-extended")).toBe("[REDACTED]")
      expect(credentials.redactJson('"initial-value-extended"')).toBe('"[REDACTED]"')
    })
  )

  it.effect("adding a blank or a known value changes nothing", () =>
    Effect.gen(function* () {
      const credentials = fromValues(["known-value"])
      yield* credentials.add("   ")
      yield* credentials.add("")
      yield* credentials.add("known-value")
      yield* credentials.add(" known-value ")
      expect(credentials.values()).toEqual(["known-value"])
    })
  )

  it.effect("a short value added is known (withheld from children) but not redacted", () =>
    Effect.gen(function* () {
      const credentials = fromValues([])
      yield* credentials.add("x")
      expect(credentials.values()).toEqual(["x"])
      expect(credentials.redact("x marks the spot")).toBe("x marks the spot")
    })
  )
})

describe("Credentials layers", () => {
  const saved = { key: process.env["ANTHROPIC_API_KEY"], token: process.env["ANTHROPIC_AUTH_TOKEN"], headers: process.env["ANTHROPIC_CUSTOM_HEADERS"] }
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  afterEach(() => {
    restore("ANTHROPIC_API_KEY", saved.key)
    restore("ANTHROPIC_AUTH_TOKEN", saved.token)
    restore("ANTHROPIC_CUSTOM_HEADERS", saved.headers)
  })

  it.effect("layer reads this process's environment when it is built", () => {
    process.env["ANTHROPIC_API_KEY"] = "layer-test-api-key"
    delete process.env["ANTHROPIC_AUTH_TOKEN"]
    process.env["ANTHROPIC_CUSTOM_HEADERS"] = "X-Layer: layer-header-value-longer"
    return Effect.gen(function* () {
      const credentials = yield* Credentials
      expect(credentials.values()).toEqual(["layer-header-value-longer", "layer-test-api-key"])
      expect(credentials.redact("k=layer-test-api-key")).toBe("k=[REDACTED]")
    }).pipe(Effect.provide(Credentials.layer))
  })

  it.effect("layerNone knows nothing and redacts nothing; layerFromValues knows what it is given", () =>
    Effect.gen(function* () {
      const none = yield* Effect.provide(Credentials, Credentials.layerNone)
      expect(none.values()).toEqual([])
      expect(none.redact("given-value-1")).toBe("given-value-1")
      const given = yield* Effect.provide(Credentials, Credentials.layerFromValues(["given-value-1"]))
      expect(given.values()).toEqual(["given-value-1"])
      expect(given.redact("given-value-1")).toBe("[REDACTED]")
    })
  )
})
