/**
 * The bubblewrap command line a sandboxed command runs under (pure: the file-system probes are passed in), and the
 * probes themselves.
 *
 * Shape: new session, dies with weft, its own network (loopback only), pid and user namespaces, no new user
 * namespaces (bwrap >= 0.8), no capabilities; the whole file system read-only, a fresh /dev and /proc; writable:
 * the workspace (and `--add-dir` directories), the sandbox's own temp dir and `allowWrite` paths; then, over those,
 * read-only again: the agent's own configuration inside each workspace and `denyWrite` paths; hidden (an empty
 * read-only directory, or an empty file): the credential paths and `denyRead` paths. Every path is resolved through
 * symlinks first, so a link cannot point a mount elsewhere; a path that does not exist gets no mount (nothing inside
 * can create it: its parent is read-only) except the protected configuration inside a writable workspace, which the
 * sandbox checks after each command.
 */
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { isInside } from "../permissions/PathGuard.js"
import * as ShellStartupFiles from "../platform/ShellStartupFiles.js"

export type Kind = "file" | "directory" | "missing"

/** The file kind of a path after symlinks, and its real path. */
export interface Probe {
  readonly real: (path: string) => string | undefined
  readonly kind: (path: string) => Kind
}

export const nodeProbe: Probe = {
  real: (path) => {
    try {
      return fs.realpathSync(path)
    } catch {
      return undefined
    }
  },
  kind: (path) => {
    try {
      const stat = fs.statSync(path)
      return stat.isDirectory() ? "directory" : "file"
    } catch {
      return "missing"
    }
  }
}

/** Inside a workspace: what git and the agent run or read, kept read-only while the rest is writable. */
export const protectedInWorkspace: ReadonlyArray<string> = [
  ".claude",
  ".mcp.json",
  ".git/hooks",
  ".git/config",
  ".gitmodules",
  ...ShellStartupFiles.posix,
  ".envrc"
]

/** Under the home directory: credentials a command has no business reading. */
export const credentialsInHome: ReadonlyArray<string> = [
  ".ssh",
  ".aws",
  ".config/gcloud",
  ".netrc",
  ".docker",
  ".kube",
  ".claude.json",
  ".gnupg",
  ".git-credentials",
  ".config/gh",
  ".npmrc",
  ".pypirc"
]

/**
 * The git directories a workspace that is a linked worktree (`.git` a file: `gitdir: <dir>`) commits into: its own
 * and the repository's common one (`commondir`). None for an ordinary repository (its `.git` is in the workspace).
 */
export const linkedGitDirs = (workspace: string): ReadonlyArray<string> => {
  let text: string
  try {
    const dotGit = nodePath.join(workspace, ".git")
    if (!fs.statSync(dotGit).isFile()) return []
    text = fs.readFileSync(dotGit, "utf8")
  } catch {
    return []
  }
  const match = /^gitdir:\s*(.+)$/m.exec(text)
  if (match?.[1] === undefined) return []
  const gitDir = nodePath.resolve(workspace, match[1].trim())
  const dirs = [gitDir]
  try {
    const common = fs.readFileSync(nodePath.join(gitDir, "commondir"), "utf8").trim()
    if (common !== "") dirs.push(nodePath.resolve(gitDir, common))
  } catch {
    // no common directory: a gitdir of its own
  }
  return dirs
}

export interface Plan {
  /** Writable directories the commands work in (the session's cwd first, then `--add-dir` ones). */
  readonly workspaces: ReadonlyArray<string>
  /** The sandbox's own temp dir ($TMPDIR inside). */
  readonly tempDir: string
  readonly home: string
  readonly weftHome: string
  readonly allowWrite: ReadonlyArray<string>
  readonly denyWrite: ReadonlyArray<string>
  readonly denyRead: ReadonlyArray<string>
  readonly allowRead: ReadonlyArray<string>
  /** An empty directory to show in place of a hidden one. */
  readonly emptyDir: string
  /** bwrap understands `--disable-userns` (0.8 and later). */
  readonly disableUserns: boolean
  /** The fd bwrap reads the seccomp program from, if any. */
  readonly seccompFd: number | undefined
  /**
   * Git directories outside the workspaces that its `git commit` writes (a linked worktree's, and the repository's
   * common one): writable, with their hooks and config read-only.
   */
  readonly gitDirs?: ReadonlyArray<string>
  /** Hide /run (an empty tmpfs): the host's unix sockets live there. */
  readonly hideRun?: boolean
}

/** Protected names that are directories: missing, they get an empty read-only directory (bwrap makes the mount point). */
const protectedDirectories: ReadonlySet<string> = new Set([".claude", ".git/hooks"])

export interface Mounts {
  /** bwrap's options, up to (not including) `--` and the command. */
  readonly args: ReadonlyArray<string>
  /** Protected files inside a workspace that did not exist: the sandbox checks them after each command. */
  readonly missingProtected: ReadonlyArray<string>
  /** Empty directories bwrap creates in a workspace as mount points (removed once no command runs). */
  readonly mountPoints: ReadonlyArray<string>
  /** The credential and denyRead paths hidden. */
  readonly hidden: ReadonlyArray<string>
}

export const mounts = (plan: Plan, probe: Probe = nodeProbe): Mounts => {
  const args: Array<string> = [
    "--new-session",
    "--die-with-parent",
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-user",
    ...(plan.disableUserns ? ["--disable-userns"] : []),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...(plan.hideRun === true ? ["--tmpfs", "/run"] : [])
  ]
  const real = (path: string): string | undefined => probe.real(path)
  const writable: Array<string> = []
  for (const path of [...plan.workspaces, plan.tempDir, ...(plan.gitDirs ?? []), ...plan.allowWrite]) {
    const target = real(path)
    if (target === undefined || target === "/" || writable.includes(target)) continue
    writable.push(target)
    args.push("--bind", target, target)
  }

  const hide = (target: string): void => {
    if (probe.kind(target) === "directory") args.push("--ro-bind", plan.emptyDir, target)
    else args.push("--ro-bind", "/dev/null", target)
  }
  const readOnly = (target: string): void => {
    args.push("--ro-bind", target, target)
  }

  // The agent's configuration inside each writable workspace stays read-only.
  const missingProtected: Array<string> = []
  const mountPoints: Array<string> = []
  for (const workspace of plan.workspaces) {
    const root = real(workspace)
    if (root === undefined) continue
    for (const name of protectedInWorkspace) {
      const path = nodePath.join(root, name)
      const target = real(path)
      if (target === undefined) {
        // Inside a git directory only when there is one: the check after the command covers the rest.
        const parent = nodePath.dirname(path)
        if (parent !== root && probe.kind(parent) !== "directory") continue
        if (protectedDirectories.has(name)) {
          args.push("--ro-bind", plan.emptyDir, path)
          mountPoints.push(path)
        } else {
          missingProtected.push(path)
        }
        continue
      }
      // A link out of the workspace points somewhere already read-only, unless that is writable too.
      if (writable.some((dir) => isInside(target, dir))) readOnly(target)
    }
  }
  for (const gitDir of plan.gitDirs ?? []) {
    for (const name of ["hooks", "config"]) {
      const target = real(nodePath.join(gitDir, name))
      if (target !== undefined && writable.some((dir) => isInside(target, dir))) readOnly(target)
    }
  }
  for (const path of plan.denyWrite) {
    const target = real(path)
    if (target !== undefined && writable.some((dir) => isInside(target, dir))) readOnly(target)
  }

  // Hidden: the default credential paths (unless allowRead re-opens one) and denyRead paths (always).
  const allowRead = plan.allowRead.map((path) => real(path) ?? nodePath.resolve(path))
  const hidden: Array<string> = []
  const defaults = [...credentialsInHome.map((name) => nodePath.join(plan.home, name)), plan.weftHome]
  for (const path of defaults) {
    const target = real(path)
    if (target === undefined || hidden.includes(target)) continue
    if (allowRead.some((open) => isInside(target, open))) continue
    // Never hide what the commands work in (a weft home inside the workspace is the user's choice).
    if (plan.workspaces.some((workspace) => isInside(real(workspace) ?? workspace, target))) continue
    hidden.push(target)
  }
  for (const path of plan.denyRead) {
    const target = real(path)
    if (target === undefined || hidden.includes(target)) continue
    hidden.push(target)
  }
  for (const target of hidden) hide(target)

  if (plan.seccompFd !== undefined) args.push("--seccomp", String(plan.seccompFd))
  return { args, missingProtected, mountPoints, hidden }
}
