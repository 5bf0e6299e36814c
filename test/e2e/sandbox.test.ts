/**
 * weft -p --sandbox through the built binary: the model's commands run in the OS sandbox (a fake HOME with a key in
 * it, a script the repository holds writing outside the workspace), the model is told what was refused, and
 * leaving the sandbox is a permission question nobody answers under -p.
 */
import * as fs from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { sandboxSkip } from "../sandbox/support.js"
import { frames, resultFrame, runWeft, toolResults, useSessions } from "./harness.js"

const { setup } = useSessions()

const SECRET = "e2e-sandbox-secret-51d0"

describe.skipIf(sandboxSkip !== undefined)("weft -p --sandbox", () => {
  it("runs Bash in the sandbox: writes outside the workspace and credentials refused, the model told which path", async () => {
    const { dir, root, env, server } = await setup(
      { "scripts/setup.sh": `echo pwned >> "$HOME/.bashrc"\ncat "$HOME/.ssh/id_ed25519"\necho built > out.txt\necho done\n` },
      () => ({
        script: [ScriptTurn.blocks([toolUse("Bash", { command: "bash scripts/setup.sh" }, "bash1")]), textTurn("Done.")]
      })
    )
    const home = join(root, "home")
    fs.mkdirSync(join(home, ".ssh"), { recursive: true })
    fs.writeFileSync(join(home, ".ssh", "id_ed25519"), `${SECRET}\n`)
    fs.writeFileSync(join(home, ".bashrc"), "# rc\n")
    const out = await runWeft(
      ["-p", "set up", "--sandbox", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"],
      { cwd: dir, env: { ...env, HOME: home } }
    )
    expect(out.code).toBe(0)
    const result = toolResults(out.stdout)["bash1"] ?? ""
    expect(result).toContain("done")
    expect(result).not.toContain(SECRET)
    expect(result).toContain(`file: refused writing ${home}/.bashrc`)
    expect(fs.readFileSync(join(home, ".bashrc"), "utf8")).toBe("# rc\n")
    expect(fs.readFileSync(join(dir, "out.txt"), "utf8")).toBe("built\n")
    // The model is told about the sandbox, and Bash offers the way out (as a question).
    const request = server.requests().find((entry) => entry.path.startsWith("/v1/messages"))
    const body = JSON.stringify(request?.body)
    expect(body).toContain("# Sandbox")
    expect(body).toContain("dangerouslyDisableSandbox")
    expect(resultFrame(out.stdout)).toMatchObject({ subtype: "success" })
  })

  it("dangerouslyDisableSandbox is refused under -p in the default mode, even for an allowed command", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [
        ScriptTurn.blocks([toolUse("Bash", { command: "echo outside > ../escaped.txt", dangerouslyDisableSandbox: true }, "bash1")]),
        textTurn("Could not.")
      ]
    }))
    const out = await runWeft(["-p", "escape", "--sandbox", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash(echo:*)"], {
      cwd: dir,
      env
    })
    expect(out.code).toBe(0)
    expect(toolResults(out.stdout)["bash1"]).toMatch(/outside the sandbox/)
    expect(fs.existsSync(join(dir, "..", "escaped.txt"))).toBe(false)
    expect(resultFrame(out.stdout)["permission_denials"]).toHaveLength(1)
  })
})

describe("weft -p without --sandbox", () => {
  it("Bash has no dangerouslyDisableSandbox and the prompt no sandbox section", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(frames(out.stdout).length).toBeGreaterThan(0)
    const body = JSON.stringify(server.requests().find((entry) => entry.path.startsWith("/v1/messages"))?.body)
    expect(body).not.toContain("dangerouslyDisableSandbox")
    expect(body).not.toContain("# Sandbox")
  })

  it("a sandbox that cannot start refuses commands and says why", async () => {
    const { dir, env } = await setup({}, () => ({
      script: [ScriptTurn.blocks([toolUse("Bash", { command: "echo hi > ran.txt" }, "bash1")]), textTurn("ok")]
    }))
    // bwrap not on PATH (a PATH of the node binary's folder alone).
    const out = await runWeft(["-p", "run", "--sandbox", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], {
      cwd: dir,
      env: { ...env, PATH: join(process.execPath, "..") }
    })
    expect(out.stderr).toContain("the command sandbox cannot start")
    expect(toolResults(out.stdout)["bash1"]).toContain("cannot start")
    expect(fs.existsSync(join(dir, "ran.txt"))).toBe(false)
  })
})
