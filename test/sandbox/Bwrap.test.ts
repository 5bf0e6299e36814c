import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import * as Bwrap from "../../src/sandbox/Bwrap.js"
import { tempDir, write } from "../support/TempFiles.js"

const plan = (root: string, overrides: Partial<Bwrap.Plan> = {}): Bwrap.Plan => ({
  workspaces: [nodePath.join(root, "ws")],
  tempDir: nodePath.join(root, "tmp"),
  home: nodePath.join(root, "home"),
  weftHome: nodePath.join(root, "home", ".weft"),
  allowWrite: [],
  denyWrite: [],
  denyRead: [],
  allowRead: [],
  emptyDir: nodePath.join(root, "empty"),
  disableUserns: true,
  seccompFd: 3,
  ...overrides
})

/** The [option, source, target] triples of `args` for a mount option. */
const triples = (args: ReadonlyArray<string>, option: string) => {
  const out: Array<[string, string]> = []
  args.forEach((arg, index) => {
    if (arg === option) out.push([args[index + 1] ?? "", args[index + 2] ?? ""])
  })
  return out
}

describe("Bwrap.mounts", () => {
  it("has the namespaces, no capabilities, a read-only root, then the writable binds, then the protections", () => {
    const root = tempDir()
    for (const dir of ["ws/.git/hooks", "tmp", "home/.ssh", "empty"]) fs.mkdirSync(nodePath.join(root, dir), { recursive: true })
    write(nodePath.join(root, "ws/.git/config"), "")
    write(nodePath.join(root, "home/.netrc"), "")
    const { args } = Bwrap.mounts(plan(root))
    for (const option of ["--new-session", "--die-with-parent", "--unshare-net", "--unshare-pid", "--unshare-user", "--disable-userns"]) {
      expect(args).toContain(option)
    }
    expect(args.slice(args.indexOf("--cap-drop"), args.indexOf("--cap-drop") + 2)).toEqual(["--cap-drop", "ALL"])
    expect(triples(args, "--bind")).toEqual([
      [nodePath.join(root, "ws"), nodePath.join(root, "ws")],
      [nodePath.join(root, "tmp"), nodePath.join(root, "tmp")]
    ])
    const readOnly = triples(args, "--ro-bind")
    expect(readOnly[0]).toEqual(["/", "/"])
    expect(readOnly).toContainEqual([nodePath.join(root, "ws/.git/hooks"), nodePath.join(root, "ws/.git/hooks")])
    expect(readOnly).toContainEqual([nodePath.join(root, "ws/.git/config"), nodePath.join(root, "ws/.git/config")])
    // Missing `.claude`: an empty read-only directory, whose mount point the sandbox removes later.
    expect(readOnly).toContainEqual([nodePath.join(root, "empty"), nodePath.join(root, "ws/.claude")])
    expect(readOnly).toContainEqual([nodePath.join(root, "empty"), nodePath.join(root, "home/.ssh")])
    expect(readOnly).toContainEqual(["/dev/null", nodePath.join(root, "home/.netrc")])
    expect(args.slice(-2)).toEqual(["--seccomp", "3"])
    // Protections come after the writable binds they cover.
    expect(args.lastIndexOf("--bind")).toBeLessThan(args.indexOf(nodePath.join(root, "ws/.git/hooks")))
  })

  it("resolves paths through symlinks: a linked allowWrite binds its target, a linked credential dir hides its target", () => {
    const root = tempDir()
    for (const dir of ["ws", "tmp", "real-cache", "real-ssh", "home", "empty"]) fs.mkdirSync(nodePath.join(root, dir), { recursive: true })
    fs.symlinkSync(nodePath.join(root, "real-cache"), nodePath.join(root, "cache"))
    fs.symlinkSync(nodePath.join(root, "real-ssh"), nodePath.join(root, "home/.ssh"))
    const result = Bwrap.mounts(plan(root, { allowWrite: [nodePath.join(root, "cache"), "/"] }))
    expect(triples(result.args, "--bind")).toContainEqual([nodePath.join(root, "real-cache"), nodePath.join(root, "real-cache")])
    // "/" is never made writable.
    expect(triples(result.args, "--bind").map(([source]) => source)).not.toContain("/")
    expect(result.hidden).toContain(nodePath.join(root, "real-ssh"))
  })

  it("allowRead re-opens a default credential path; denyRead does not yield to it", () => {
    const root = tempDir()
    for (const dir of ["ws", "tmp", "home/.aws", "home/.ssh", "empty", "secret"]) fs.mkdirSync(nodePath.join(root, dir), { recursive: true })
    const result = Bwrap.mounts(
      plan(root, { allowRead: [nodePath.join(root, "home/.aws"), nodePath.join(root, "secret")], denyRead: [nodePath.join(root, "secret")] })
    )
    expect(result.hidden).not.toContain(nodePath.join(root, "home/.aws"))
    expect(result.hidden).toContain(nodePath.join(root, "home/.ssh"))
    expect(result.hidden).toContain(nodePath.join(root, "secret"))
  })

  it("without --disable-userns support, leaves it out (the seccomp filter still refuses new namespaces)", () => {
    const root = tempDir()
    const { args } = Bwrap.mounts(plan(root, { disableUserns: false }))
    expect(args).not.toContain("--disable-userns")
  })

  it("hides /run when asked; a linked worktree's git directories are writable, their hooks and config not", () => {
    const root = tempDir()
    for (const dir of ["ws", "tmp", "empty", "repo/.git/hooks", "repo/.git/worktrees/ws"]) fs.mkdirSync(nodePath.join(root, dir), { recursive: true })
    write(nodePath.join(root, "repo/.git/config"), "")
    write(nodePath.join(root, "repo/.git/worktrees/ws/commondir"), "../..\n")
    write(nodePath.join(root, "ws/.git"), `gitdir: ${nodePath.join(root, "repo/.git/worktrees/ws")}\n`)
    const gitDirs = Bwrap.linkedGitDirs(nodePath.join(root, "ws"))
    expect(gitDirs).toEqual([nodePath.join(root, "repo/.git/worktrees/ws"), nodePath.join(root, "repo/.git")])
    const { args } = Bwrap.mounts(plan(root, { hideRun: true, gitDirs }))
    expect(args.slice(args.indexOf("/proc") + 1, args.indexOf("/proc") + 3)).toEqual(["--tmpfs", "/run"])
    expect(triples(args, "--bind")).toContainEqual([nodePath.join(root, "repo/.git"), nodePath.join(root, "repo/.git")])
    expect(triples(args, "--ro-bind")).toContainEqual([nodePath.join(root, "repo/.git/hooks"), nodePath.join(root, "repo/.git/hooks")])
    expect(triples(args, "--ro-bind")).toContainEqual([nodePath.join(root, "repo/.git/config"), nodePath.join(root, "repo/.git/config")])
    expect(Bwrap.linkedGitDirs(nodePath.join(root, "repo"))).toEqual([])
    expect(Bwrap.mounts(plan(root)).args).not.toContain("--tmpfs")
  })
})
