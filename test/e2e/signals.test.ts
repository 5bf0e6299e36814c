/** weft -p stopped by a signal: processes killed, the output ending with a result, through the built binary. */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { frames, isAlive, resultFrame, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

describe("weft -p: signals", () => {
  it("SIGINT during a Bash call that started a process tree leaves no process behind and ends with a result", async () => {
    const command =
      "bash -c 'trap \"\" TERM; echo $$ >> pids; sleep 300' & echo $! >> pids; sleep 300 & echo $! >> pids; echo $$ >> pids; wait"
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command, description: "start a tree" }, "tree")]), textTurn("never")]
    }))
    const run = startWeft(["-p", "start it", "--output-format", "stream-json", "--dangerously-skip-permissions"], { cwd: dir, env })
    const pidFile = join(dir, "pids")
    const readPids = async () =>
      (await readFile(pidFile, "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map(Number)
    let pids: ReadonlyArray<number> = []
    await waitUntil(async () => (pids = await readPids()).length >= 4, "the process tree to start")
    expect(pids.length).toBe(4)
    run.child.kill("SIGINT")
    const out = await run.done
    expect(out.code).toBe(1)
    const result = resultFrame(out.stdout)
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true })
    const toolResult = frames(out.stdout).find((frame) => frame["type"] === "user")
    expect(JSON.stringify(toolResult)).toMatch(/"tool_use_id":"tree"/)
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), "every process of the tree to end", 10_000)
    expect(pids.filter(isAlive)).toEqual([])
  })
})
