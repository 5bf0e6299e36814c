/**
 * The reader of weft's output going away (`weft -p ... | head -1`), through the built binary: the run stops
 * quietly, with its processes killed, its transcript complete and its temporary files removed.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { isAlive, startWeft, useSessions, waitUntil } from "./harness.js"

const { setup } = useSessions()

/** Every transcript entry weft recorded under `home`. */
const transcriptEntries = async (home: string): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const projects = join(home, "projects")
  const entries: Array<Record<string, unknown>> = []
  for (const folder of await readdir(projects)) {
    for (const file of await readdir(join(projects, folder))) {
      const text = await readFile(join(projects, folder, file), "utf8")
      for (const line of text.split("\n")) if (line.trim() !== "") entries.push(JSON.parse(line))
    }
  }
  return entries
}

describe("weft -p with its output closed", () => {
  it("stream-json: a Bash command and its background child are killed, the transcript is complete, no temp file stays", async () => {
    // The command starts a background child, then waits for the test's signal; by then nobody reads stdout.
    const command = "sleep 300 & echo $! >> pids; echo $$ >> pids; while [ ! -e go ]; do sleep 0.05; done; echo finished"
    const { root, dir, env, home } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command, description: "wait" }, "wait1")]), textTurn("never")]
    }))
    const tmp = join(root, "tmp")
    await mkdir(tmp)
    const run = startWeft(["-p", "go on", "--output-format", "stream-json", "--dangerously-skip-permissions"], { cwd: dir, env: { ...env, TMPDIR: tmp } })
    await run.waitForStdout(/"type":"assistant"/)
    const pidFile = join(dir, "pids")
    let pids: ReadonlyArray<number> = []
    await waitUntil(async () => {
      pids = (await readFile(pidFile, "utf8").catch(() => "")).split("\n").filter((line) => line !== "").map(Number)
      return pids.length >= 2
    }, "the command to start")
    // `| head -1` having read what it wanted: the pipe's reader goes away, then the command ends.
    run.child.stdout?.destroy()
    await writeFile(join(dir, "go"), "")
    const out = await run.done
    expect(out.stderr).toBe("")
    expect(out.code).toBe(141)
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), "the command's processes to end", 10_000)
    expect(pids.filter(isAlive)).toEqual([])
    expect(await readdir(tmp)).toEqual([])
    // The transcript has the prompt, the call and its result (the last thing that happened).
    const entries = await transcriptEntries(home)
    expect(entries.map((entry) => entry["type"])).toEqual(["user", "assistant", "user"])
    expect(JSON.stringify(entries[2])).toContain("finished")
  })

  it.each([["text"], ["json"], ["stream-json"]])("%s: exits quietly when nobody reads the output", async (format) => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("An answer nobody reads.")] }))
    const run = startWeft(["-p", "hi", "--output-format", format], { cwd: dir, env })
    run.child.stdout?.destroy()
    const out = await run.done
    expect(out.stderr).toBe("")
    expect(out.code).toBe(141)
  })
})
