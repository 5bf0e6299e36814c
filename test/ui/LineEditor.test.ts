import { describe, expect, it } from "vitest"
import * as Keys from "../../src/ui/Keys.js"
import * as LineEditor from "../../src/ui/LineEditor.js"

/** Types `input` (the terminal's bytes) into `state`: the state after, and what was submitted. */
const type = (input: string, state: LineEditor.State = LineEditor.empty()) => {
  const submitted: Array<string> = []
  let current = state
  for (const key of Keys.parse("", input).keys) {
    const applied = LineEditor.apply(current, key)
    current = applied.state
    if (applied.submitted !== undefined) submitted.push(applied.submitted)
  }
  return { state: current, submitted }
}

describe("Keys.parse", () => {
  it("reads characters, controls and escape sequences", () => {
    expect(Keys.parse("", "ab\x1b[A\x01\x7f\r").keys).toEqual([
      { _tag: "char", text: "ab" },
      { _tag: "up" },
      { _tag: "ctrlA" },
      { _tag: "backspace" },
      { _tag: "enter" }
    ])
  })

  it("reads Shift+Enter as terminals report it (CSI u, modifyOtherKeys, Alt+Enter), Shift+Tab and a lone Esc", () => {
    expect(Keys.parse("", "\x1b[13;2u\x1b[27;2;13~\x1b\r\x1b[Z").keys.map((key) => key._tag)).toEqual(["newline", "newline", "newline", "shiftTab"])
    expect(Keys.parse("", "\x1b").keys).toEqual([{ _tag: "escape" }])
  })

  it("a bracketed paste is one key, even split across reads, with its line breaks and escapes kept as text", () => {
    const first = Keys.parse("", "x\x1b[200~line 1\r\nline")
    expect(first.keys).toEqual([{ _tag: "char", text: "x" }])
    const second = Keys.parse(first.pending, " 2\x1b[A\x1b[201~y")
    expect(second.keys).toEqual([
      { _tag: "paste", text: "line 1\nline 2\x1b[A" },
      { _tag: "char", text: "y" }
    ])
    expect(second.pending).toBe("")
  })

  it("finds a paste's end marker cut between two reads", () => {
    let pending = ""
    const keys: Array<Keys.Key> = []
    for (const chunk of ["\x1b[200~abc", "def\x1b[20", "1~", "z"]) {
      const parsed = Keys.parse(pending, chunk)
      pending = parsed.pending
      keys.push(...parsed.keys)
    }
    expect(keys).toEqual([{ _tag: "paste", text: "abcdef" }, { _tag: "char", text: "z" }])
  })

  it("keeps an escape sequence cut between two reads", () => {
    const first = Keys.parse("", "a\x1b[")
    expect(first.keys).toEqual([{ _tag: "char", text: "a" }])
    expect(Keys.parse(first.pending, "B").keys).toEqual([{ _tag: "down" }])
  })
})

describe("LineEditor", () => {
  it("Enter submits the text and clears the prompt; the prompt goes into the history", () => {
    const { state, submitted } = type("hello\r")
    expect(submitted).toEqual(["hello"])
    expect(state.text).toBe("")
    expect(state.history).toEqual(["hello"])
  })

  it("multi-line: Shift+Enter and \\ + Enter break the line instead of sending", () => {
    const shifted = type("one\x1b[13;2utwo")
    expect(shifted.state.text).toBe("one\ntwo")
    expect(shifted.submitted).toEqual([])
    const escaped = type("one\\\rtwo\r")
    expect(escaped.submitted).toEqual(["one\ntwo"])
  })

  it("Ctrl+A / Ctrl+E move to the line's start and end; Ctrl+K and Ctrl+U cut to them; Ctrl+W deletes a word", () => {
    expect(type("hello world\x01X").state.text).toBe("Xhello world")
    expect(type("hello world\x01\x05X").state.text).toBe("hello worldX")
    expect(type("hello world\x1b[D\x1b[D\x1b[D\x0b").state.text).toBe("hello wo")
    expect(type("hello world\x1b[D\x1b[D\x15").state).toMatchObject({ text: "ld", cursor: 0 })
    expect(type("git commit -m\x17").state.text).toBe("git commit ")
    // Ctrl+U cuts the current line of a multi-line prompt only.
    expect(type("first\x1b\rsecond\x15").state.text).toBe("first\n")
  })

  it("backspace and left step over a character outside the BMP as one", () => {
    expect(type("a😀\x7f").state).toMatchObject({ text: "a", cursor: 1 })
    expect(type("a😀\x1b[DX").state.text).toBe("aX😀")
  })

  it("↑/↓ walk the history and come back to the draft", () => {
    const start = LineEditor.empty(["first", "second"])
    const up = type("draft\x1b[A", start).state
    expect(up.text).toBe("second")
    expect(type("\x1b[A", up).state.text).toBe("first")
    expect(type("\x1b[B", up).state.text).toBe("draft")
  })

  it("↑ inside a multi-line prompt moves the cursor up a line before it reaches the history", () => {
    const state = type("ab\x1b\rcd", LineEditor.empty(["old"])).state
    const up = type("\x1b[A", state).state
    expect(up).toMatchObject({ text: "ab\ncd", cursor: 2 })
    expect(type("\x1b[A", up).state.text).toBe("old")
  })

  it("a paste is inserted whole, its line breaks kept, and not sent", () => {
    const { state, submitted } = type("\x1b[200~one\ntwo\x1b[201~")
    expect(state.text).toBe("one\ntwo")
    expect(submitted).toEqual([])
  })

  it("a large paste is a placeholder in the prompt, put back in when the prompt is sent", () => {
    const big = Array.from({ length: 5000 }, (_, index) => `line ${index}`).join("\n")
    const { state } = type(`see \x1b[200~${big}\x1b[201~ and \x1b[200~${"y".repeat(1000)}\x1b[201~`)
    expect(state.text).toBe("see [Pasted text #1 +5000 lines] and [Pasted text #2 1000 chars]")
    const sent = LineEditor.apply(state, { _tag: "enter" })
    expect(sent.submitted).toBe(`see ${big} and ${"y".repeat(1000)}`)
    expect(sent.shown).toBe(state.text)
    expect(sent.state.history).toEqual([state.text])
  })

  it("the history keeps no blanks and no repeats in a row", () => {
    expect(LineEditor.remember(["a"], "a")).toEqual(["a"])
    expect(LineEditor.remember(["a"], "  ")).toEqual(["a"])
    expect(LineEditor.remember(["a", "b"], "c", 2)).toEqual(["b", "c"])
  })
})
