/** `weft trust [dir]`, `--revoke [dir]`, `--list`, through the built binary, with a HOME and WEFT_HOME of the test's own. */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { makeProject, runWeft } from "./harness.js"
import { afterEach } from "vitest"

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const project = async () => {
  const made = await makeProject({})
  cleanups.push(made.cleanup)
  const home = join(made.root, "home")
  mkdirSync(home, { recursive: true })
  return { ...made, env: { HOME: home, WEFT_HOME: made.home, CLAUDE_CONFIG_DIR: "" }, userHome: home }
}

describe("weft trust", () => {
  it("trust, list, revoke, list: the project comes and goes", async () => {
    const { dir, env } = await project()
    const trusted = await runWeft(["trust"], { cwd: dir, env })
    expect(trusted.code).toBe(0)
    expect(trusted.stdout).toContain(`trusted ${dir}`)
    expect((await runWeft(["trust", "--list"], { cwd: dir, env })).stdout).toBe(`${dir}\n`)

    const revoked = await runWeft(["trust", "--revoke", dir], { cwd: "/", env })
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toBe(`weft: no longer trusts ${dir}.\n`)
    const listed = await runWeft(["trust", "--list"], { cwd: dir, env })
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/no trusted projects/)
    // Revoking again says there was nothing to revoke.
    expect((await runWeft(["trust", "--revoke"], { cwd: dir, env })).stdout).toMatch(/was not on weft's list/)
  })

  it("revoke names what still trusts the project: a parent on weft's list, Claude Code's record", async () => {
    const { root, dir, env, userHome } = await project()
    const sub = join(dir, "sub")
    mkdirSync(sub)
    expect((await runWeft(["trust", dir], { cwd: root, env })).code).toBe(0)
    writeFileSync(join(userHome, ".claude.json"), JSON.stringify({ projects: { [sub]: { hasTrustDialogAccepted: true } } }))
    const revoked = await runWeft(["trust", "--revoke", sub], { cwd: root, env })
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toContain(`it is still trusted through ${dir}: weft trust --revoke ${dir}`)
    expect(revoked.stdout).toContain("still trusted through Claude Code's record")
    const listed = await runWeft(["trust", "--list"], { cwd: root, env })
    expect(listed.stdout).toBe(`${dir}\n${sub}  (Claude Code: ${join(userHome, ".claude.json")})\n`)
  })

  it("--help shows every form; an unknown option is a usage error", async () => {
    const { dir, env } = await project()
    const help = await runWeft(["trust", "--help"], { cwd: dir, env })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("weft trust --revoke [dir]")
    expect(help.stdout).toContain("weft trust --list")
    expect(help.stdout).toContain("Claude Code's trust dialog")
    const wrong = await runWeft(["trust", "--forget"], { cwd: dir, env })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/unknown option --forget/)
  })
})
