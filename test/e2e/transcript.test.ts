/** What weft records of a session under $WEFT_HOME, through the built binary. */
import { existsSync } from "node:fs"
import { readdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, resultFrame, runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

describe("weft -p's session record", () => {
  it("an unwritable $WEFT_HOME is warned about once, on stderr, and the run goes on", async () => {
    const { root, dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo hi" }, "b1")]), textTurn("Done.")]
    }))
    // A file where $WEFT_HOME's parent directory should be: nothing can be created under it.
    const blocked = join(root, "blocked")
    await writeFile(blocked, "")
    const out = await runWeft(["-p", "go", "--output-format", "stream-json"], { cwd: dir, env: { ...env, WEFT_HOME: join(blocked, "home") } })
    expect(out.code).toBe(0)
    // stdout is frames only; the warning is one line on stderr.
    expect(frames(out.stdout).map((frame) => frame["type"])).toEqual(["system", "assistant", "user", "assistant", "result"])
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success", result: "Done." })
    const lines = out.stderr.split("\n").filter((line) => line !== "")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^weft: could not record the session \(.*\); going on without recording it\.$/)
  })

  it("a run that never got an answer from the API leaves no session file", async () => {
    const { dir, env, home } = await setup({}, () => ({ script: [ScriptTurn.status(401)] }))
    const out = await runWeft(["-p", "hi", "--output-format", "json"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(JSON.parse(out.stdout)).toMatchObject({ is_error: true })
    const projects = join(home, "projects")
    const files = existsSync(projects)
      ? (await Promise.all((await readdir(projects)).map((folder) => readdir(join(projects, folder))))).flat()
      : []
    expect(files).toEqual([])
  })

  it("a run that got an answer is recorded", async () => {
    const { dir, env, home } = await setup({}, () => ({ script: [textTurn("Hello.")] }))
    const out = await runWeft(["-p", "hi"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const projects = join(home, "projects")
    const files = (await Promise.all((await readdir(projects)).map((folder) => readdir(join(projects, folder))))).flat()
    expect(files).toHaveLength(1)
  })
})
