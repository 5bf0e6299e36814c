import { describe, expect, it } from "vitest"
import { renderTable } from "../../src/cli/SessionsCommand.js"
import type { SessionInfo } from "../../src/session/SessionStore.js"

const info = (firstPrompt: string): SessionInfo => ({
  sessionId: "0b7c2a1e-3f4d-4e5a-8b9c-0d1e2f3a4b5c",
  cwd: "/w",
  firstPrompt,
  lastModified: new Date(2026, 10, 23, 17, 43),
  entryCount: 4,
  turns: 2,
  costUSD: 0.0123
})

describe("weft sessions: the table", () => {
  it("shows each session on one line, newest first as given", () => {
    const table = renderTable([info("fix the bug"), info("")], 120)
    expect(table.split("\n")).toEqual([
      "SESSION ID                            LAST ACTIVITY     TURNS     COST  FIRST PROMPT",
      "0b7c2a1e-3f4d-4e5a-8b9c-0d1e2f3a4b5c  2026-11-23 17:43      2  $0.0123  fix the bug",
      "0b7c2a1e-3f4d-4e5a-8b9c-0d1e2f3a4b5c  2026-11-23 17:43      2  $0.0123  (no prompt)",
      ""
    ])
  })

  it("never writes a prompt's control characters to the terminal (a piped prompt may hold escape sequences)", () => {
    const table = renderTable([info("look \u001b]0;pwned\u0007at \u001b[2Jthis\u009b1m\u007f")], 120)
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    expect(table).toContain("look �]0;pwned�at �[2Jthis�1m�")
  })
})
