import { describe, expect, it } from "vitest"
import * as Markdown from "../../src/ui/Markdown.js"
import { toPlain } from "../../src/ui/Text.js"

const render = (text: string) => Markdown.feed(Markdown.initial, text).lines

describe("Markdown", () => {
  it("styles a line once it is complete; the rest waits as the partial line", () => {
    const fed = Markdown.feed(Markdown.initial, "a **b** `c`\nand mo")
    expect(fed.lines.map(toPlain)).toEqual(["a b c"])
    expect(fed.lines[0]).toContainEqual({ text: "b", style: { bold: true } })
    expect(fed.lines[0]).toContainEqual({ text: "c", style: { color: "cyan" } })
    expect(toPlain(Markdown.partialLine(fed.state) ?? [])).toBe("and mo")
  })

  it("a fenced block is set apart and highlighted by its language; the fence state carries across pieces", () => {
    const first = Markdown.feed(Markdown.initial, "```ts\nconst a = \"x\" // note\n")
    const second = Markdown.feed(first.state, "return 42\n```\nafter\n")
    const lines = [...first.lines, ...second.lines]
    expect(lines.map(toPlain)).toEqual(["  ╭─ ts", '  │ const a = "x" // note', "  │ return 42", "  ╰─", "after"])
    expect(lines[1]).toContainEqual({ text: "const", style: { color: "magenta" } })
    expect(lines[1]).toContainEqual({ text: '"x"', style: { color: "green" } })
    expect(lines[1]).toContainEqual({ text: "// note", style: { color: "gray" } })
    expect(lines[2]).toContainEqual({ text: "42", style: { color: "yellow" } })
  })

  it("in a shell block # starts a comment; without a language nothing is highlighted", () => {
    expect(render("```sh\necho hi # say it\n```\n")[1]).toContainEqual({ text: "# say it", style: { color: "gray" } })
    expect(render("```\nconst x = 1\n```\n")[1]).toEqual([{ text: "  │ ", style: { dim: true } }, { text: "const x = 1", style: {} }])
  })

  it("headings, bullets, numbered items, quotes and rules", () => {
    expect(render("# Title\n- item\n2. second\n> quoted\n---\n").map(toPlain)).toEqual([
      "Title",
      "  • item",
      "  2. second",
      "  │ quoted",
      "─".repeat(20)
    ])
  })
})
