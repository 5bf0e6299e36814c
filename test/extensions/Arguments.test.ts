import { describe, expect, it } from "vitest"
import * as Arguments from "../../src/extensions/Arguments.js"

describe("Arguments.split", () => {
  it("splits like a shell: quotes group, backslashes escape", () => {
    expect(Arguments.split(`a "b c" 'd e' f\\ g "h\\"i" ''`)).toEqual(["a", "b c", "d e", "f g", 'h"i', ""])
    expect(Arguments.split("   ")).toEqual([])
  })
})

describe("Arguments.substitute", () => {
  it("$ARGUMENTS is the string as typed; $0, $1 and $ARGUMENTS[n] count from 0; a missing one is empty", () => {
    expect(Arguments.substitute("[$0] [$1] [$ARGUMENTS[1]] [$2] [$ARGUMENTS]", `one "two three"`)).toBe(
      `[one] [two three] [two three] [] [one "two three"]`
    )
  })
  it("appends ARGUMENTS: when the body has no placeholder and there are arguments", () => {
    expect(Arguments.substitute("Do it.", "now please")).toBe("Do it.\n\nARGUMENTS: now please")
    expect(Arguments.substitute("Do it.", "")).toBe("Do it.")
  })
  it("$10 is the eleventh argument, not $1 then 0", () => {
    const args = Array.from({ length: 11 }, (_, i) => `a${i}`).join(" ")
    expect(Arguments.substitute("$10", args)).toBe("a10")
  })
})
