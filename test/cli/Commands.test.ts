import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { plainConsole } from "../../src/cli/Commands.js"

describe("plainConsole", () => {
  it("drops ANSI styles from the stream that is not a terminal and keeps them on the one that is", () => {
    const written: Array<[string, ReadonlyArray<unknown>]> = []
    const recording: Console.Console = {
      ...Effect.runSync(Console.Console.useSync((console) => console)),
      log: (...args) => void written.push(["log", args]),
      error: (...args) => void written.push(["error", args])
    }
    const styledText = "\u001b[0;1mUSAGE\u001b[0m"
    Effect.runSync(
      Effect.all([Console.log(styledText, 3), Console.error(styledText)]).pipe(
        Effect.provideService(Console.Console, plainConsole(recording, { stdout: true, stderr: false }))
      )
    )
    expect(written).toEqual([
      ["log", ["USAGE", 3]],
      ["error", [styledText]]
    ])
  })
})
