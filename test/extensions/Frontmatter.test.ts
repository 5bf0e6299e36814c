import { describe, expect, it } from "vitest"
import * as Frontmatter from "../../src/extensions/Frontmatter.js"

describe("Frontmatter.parse", () => {
  it("reads scalars, quoted strings, booleans, inline and block lists, and block scalars", () => {
    const parsed = Frontmatter.parse(
      [
        "---",
        "description: Review the diff: carefully",
        "argument-hint: '[file] [focus]'",
        'model: "claude-haiku-4-5" ',
        "disable-model-invocation: true",
        "allowed-tools: [Read, \"Bash(git log:*)\"]",
        "tags:",
        "  - one",
        "  - 'two'",
        "# a comment",
        "long: |",
        "  line one",
        "  line two",
        "folded: >",
        "  a",
        "  b",
        "---",
        "",
        "The body $ARGUMENTS",
        ""
      ].join("\n")
    )
    expect(parsed.warnings).toEqual([])
    expect(Object.fromEntries(parsed.attributes)).toEqual({
      description: "Review the diff: carefully",
      "argument-hint": "[file] [focus]",
      model: "claude-haiku-4-5",
      "disable-model-invocation": true,
      "allowed-tools": ["Read", "Bash(git log:*)"],
      tags: ["one", "two"],
      long: "line one\nline two",
      folded: "a b"
    })
    expect(parsed.body).toBe("The body $ARGUMENTS\n")
  })

  it("answers the whole text as the body when there is no header, and CRLF and a BOM are read", () => {
    expect(Frontmatter.parse("Just a prompt.")).toEqual({ attributes: new Map(), body: "Just a prompt.", warnings: [] })
    const parsed = Frontmatter.parse("\uFEFF---\r\ndescription: x\r\n---\r\nBody\r\n")
    expect(parsed.attributes.get("description")).toBe("x")
    expect(parsed.body).toBe("Body\n")
  })

  it("skips what it cannot read with a warning naming the line, and keeps the rest", () => {
    const parsed = Frontmatter.parse("---\ndescription: ok\nnot a key line\nmeta: {a: 1}\nnested:\n  a: 1\nopen: [a, b\n---\nbody")
    expect(parsed.attributes.get("description")).toBe("ok")
    expect(parsed.attributes.has("meta")).toBe(false)
    expect(parsed.attributes.has("nested")).toBe(false)
    expect(parsed.warnings).toHaveLength(4)
    expect(parsed.warnings[0]).toContain("line 3")
    expect(parsed.body).toBe("body")
  })

  it("a header that never ends is read as plain text, with a warning", () => {
    const parsed = Frontmatter.parse("---\ndescription: x\nbody")
    expect(parsed.attributes.size).toBe(0)
    expect(parsed.body).toBe("---\ndescription: x\nbody")
    expect(parsed.warnings).toHaveLength(1)
  })
})

describe("Frontmatter.rulesOf", () => {
  const rules = (value: Frontmatter.Value) => Frontmatter.rulesOf(new Map([["allowed-tools", value]]), "allowed-tools")
  it("splits a string at commas and spaces outside parentheses", () => {
    expect(rules("Bash(git add:*), Bash(git commit -m 'a, b'),Read Write")).toEqual([
      "Bash(git add:*)",
      "Bash(git commit -m 'a, b')",
      "Read",
      "Write"
    ])
  })
  it("takes a list as it is, each item split the same way", () => {
    expect(rules(["Read", "Bash(ls:*) Glob"])).toEqual(["Read", "Bash(ls:*)", "Glob"])
    expect(rules(true)).toEqual([])
  })
})
