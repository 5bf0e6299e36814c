import { describe, expect, it } from "vitest"
import { patchRow, Screen } from "../../src/ui/Screen.js"
import { FakeTerminal } from "../support/FakeTerminal.js"

describe("Screen", () => {
  it("finished rows go above the live region once; the live region is not drawn again for them", () => {
    const terminal = new FakeTerminal(40, 10)
    const screen = new Screen(terminal.sink)
    const live = ["partial", "", "> typed", "status"]
    screen.draw({ commit: [], live, cursor: { row: 2, column: 7 } })
    const before = terminal.bytes.length
    screen.draw({ commit: ["finished one", "finished two"], live: ["partial more", "", "> typed", "status"], cursor: { row: 2, column: 7 } })
    const written = terminal.bytes.slice(before)
    expect(written).not.toContain("> typed")
    expect(written).not.toContain("status")
    expect(terminal.visible).toEqual(["finished one", "finished two", "partial more", "", "> typed", "status"])
    expect(terminal.cursor).toEqual({ row: 4, column: 7 })
  })

  it("at the bottom of the screen, finished rows scroll into the scrollback in order", () => {
    const terminal = new FakeTerminal(20, 5)
    const screen = new Screen(terminal.sink)
    const live = ["", "> ", "status"]
    screen.draw({ commit: [], live, cursor: { row: 1, column: 2 } })
    for (let index = 0; index < 12; index++) screen.draw({ commit: [`line ${index}`], live, cursor: { row: 1, column: 2 } })
    expect(terminal.all).toEqual([...Array.from({ length: 12 }, (_, index) => `line ${index}`), "", ">", "status"])
    expect(terminal.autoWraps).toBe(0)
  })

  it("a row that changes in one place is patched there, its style kept", () => {
    const was = "\x1b[35m⠋ Working\x1b[0m (3s)"
    const now = "\x1b[35m⠙ Working\x1b[0m (3s)"
    expect(patchRow(was, now)).toBe("\r\x1b[35m⠙\x1b[0m")
    expect(patchRow("abc", "abcdef")).toBe("\r\x1b[3Cdef")
    expect(patchRow("abcdef", "abX")).toBe("\r\x1b[2CX\x1b[K")
  })

  it("draws nothing when nothing changed", () => {
    const terminal = new FakeTerminal(20, 5)
    const screen = new Screen(terminal.sink)
    screen.draw({ commit: [], live: ["> a"], cursor: { row: 0, column: 3 } })
    const bytes = terminal.bytes.length
    screen.draw({ commit: [], live: ["> a"], cursor: { row: 0, column: 3 } })
    expect(terminal.bytes.length).toBe(bytes)
  })
})
