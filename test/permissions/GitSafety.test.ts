/**
 * git that cannot be turned into code execution: read-only git refuses the options that point it at a repository of
 * the model's choosing, and weft's shells keep git from discovering a planted bare repository.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { forShell, makeWith, withGitSafety } from "../../src/platform/ChildEnvironment.js"
import { Credentials } from "../../src/platform/Credentials.js"
import { parsed } from "../../src/permissions/ShellCheck.js"
import { tempDir, write } from "../support/TempFiles.js"
import { type Case, decisionOf, verdict } from "./support.js"

const bash = (command: string, rest: Omit<Case, "name" | "tool" | "command">): Case => ({ name: command, tool: "Bash", command, ...rest })

const readOnlyGit: ReadonlyArray<Case> = [
  bash("git --git-dir=evil show HEAD", { expect: "ask" }),
  bash("git --git-dir evil log -p", { expect: "ask" }),
  bash("git --work-tree=. --git-dir=evil status", { expect: "ask" }),
  bash("git --work-tree=. status", { expect: "ask" }),
  bash("git --bare log -p", { expect: "ask" }),
  bash("git -C src --git-dir=../evil status", { expect: "ask" }),
  bash("git --git-dir=evil show HEAD", { mode: "acceptEdits", expect: "ask" }),
  bash("git --git-dir=evil show HEAD", { mode: "plan", expect: "deny" }),
  bash("GIT_DIR=evil git show HEAD", { expect: "ask" }),
  bash("GIT_WORK_TREE=. GIT_DIR=evil git status", { expect: "ask" }),
  bash("env GIT_DIR=evil git log", { expect: "ask" }),
  bash("GIT_EXTERNAL_DIFF=./x git diff", { expect: "ask" }),
  bash("GIT_CONFIG_COUNT=0 git log -p", { expect: "ask" }),
  bash("git -c core.pager=./x log", { expect: "ask" }),
  bash("git -c diff.external=./x diff", { expect: "ask" }),
  bash("git --config-env=core.pager=X log", { expect: "ask" }),
  bash("git --exec-path=./bin log", { expect: "ask" }),
  bash("cd src && git --git-dir=../evil status", { expect: "ask" }),
  // What stays read-only: the repository git finds from here (or from -C), with options that only shape output.
  bash("git status", { expect: "allow" }),
  bash("git -C src log --oneline", { expect: "allow" }),
  bash("git --no-pager diff HEAD", { expect: "allow" }),
  bash("cd src && git status", { expect: "allow" })
]

describe("read-only git refuses the options that choose its repository or its programs", () => {
  for (const test of readOnlyGit) {
    it.effect(`${test.command} [${test.mode ?? "default"}] -> ${test.expect}`, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(test, parsed)
        expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
      })
    )
  }
})

describe("ChildEnvironment.withGitSafety", () => {
  it("sets safe.bareRepository=explicit through GIT_CONFIG_COUNT", () => {
    expect(withGitSafety({ PATH: "/bin" })).toEqual({
      PATH: "/bin",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "safe.bareRepository",
      GIT_CONFIG_VALUE_0: "explicit"
    })
  })

  it("appends after the user's own entries, so that theirs still hold and ours is the last word on the key", () => {
    const env = withGitSafety({ GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "a.b", GIT_CONFIG_VALUE_0: "1", GIT_CONFIG_KEY_1: "safe.bareRepository", GIT_CONFIG_VALUE_1: "all" })
    expect(env["GIT_CONFIG_COUNT"]).toBe("3")
    expect(env["GIT_CONFIG_KEY_0"]).toBe("a.b")
    expect(env["GIT_CONFIG_KEY_2"]).toBe("safe.bareRepository")
    expect(env["GIT_CONFIG_VALUE_2"]).toBe("explicit")
  })

  it("leaves a count git would refuse as it is", () => {
    expect(withGitSafety({ GIT_CONFIG_COUNT: "x" })).toEqual({ GIT_CONFIG_COUNT: "x" })
  })

  it.effect("is in the environment of the model's shells (not in hooks' or servers')", () =>
    Effect.gen(function* () {
      const environment = yield* makeWith({ parent: () => ({ PATH: "/bin" }) })
      const shell = yield* environment.shell
      expect(shell["GIT_CONFIG_KEY_0"]).toBe("safe.bareRepository")
      const processEnv = yield* environment.process()
      expect(processEnv["GIT_CONFIG_COUNT"]).toBeUndefined()
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
  )
})

// ---------------------------------------------------------------------------------------------------------------
// The attack, for real: a bare repository planted as plain files in a project, whose config runs a program under
// `git show`. Needs git >= 2.38 (safe.bareRepository); skipped where git is missing or older.

const gitVersion = (() => {
  const result = spawnSync("git", ["--version"], { encoding: "utf8" })
  const match = result.status === 0 ? /(\d+)\.(\d+)/.exec(result.stdout) : null
  return match === null ? undefined : { major: Number(match[1]), minor: Number(match[2]) }
})()
const gitKnowsSafeBareRepository = gitVersion !== undefined && (gitVersion.major > 2 || (gitVersion.major === 2 && gitVersion.minor >= 38))

// A machine with only Node.js (a fresh clone) has no git to run; CI installs it (.ci/run), and there these cases must
// run: under CI a missing or old git fails them instead of skipping them.
describe.skipIf(!gitKnowsSafeBareRepository && process.env["CI"] !== "true")("a planted bare repository, with the real git", () => {
  it("runs on a git that knows safe.bareRepository (2.38 or later)", () => {
    expect(gitVersion).toBeDefined()
    expect(gitKnowsSafeBareRepository).toBe(true)
  })

  /** A project holding `evil/`, a bare repository with one commit whose config runs `touch <marker>` as a textconv. */
  const plant = () => {
    const root = tempDir("weft-git-plant-")
    const project = path.join(root, "proj")
    const marker = path.join(root, "PWNED")
    const git = (args: ReadonlyArray<string>, cwd: string) => {
      const result = spawnSync("git", [...args], { cwd, encoding: "utf8", env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: root } })
      expect(result.status, result.stderr).toBe(0)
    }
    write(path.join(project, "a.txt"), "hi\n")
    git(["init", "-q", "--bare", "evil"], project)
    git(["--git-dir=evil", "--work-tree=.", "add", "a.txt"], project)
    git(["--git-dir=evil", "--work-tree=.", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "x"], project)
    fs.writeFileSync(path.join(project, "evil", "config"), `[core]\n\tbare = true\n[diff "x"]\n\ttextconv = "touch '${marker}'; cat"\n`)
    write(path.join(project, "evil", "info", "attributes"), "* diff=x\n")
    return { root, project, marker }
  }

  const showIn = (cwd: string, env: Record<string, string>) => spawnSync("git", ["-C", "evil", "show", "HEAD"], { cwd, env, encoding: "utf8" })

  it("runs the planted program when git discovers the repository on its own", () => {
    const { root, project, marker } = plant()
    showIn(project, { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: root })
    expect(fs.existsSync(marker)).toBe(true)
  })

  it("refuses the planted repository in the environment weft gives its shells", () => {
    const { root, project, marker } = plant()
    const env = withGitSafety(forShell({ PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: root }, []))
    const result = showIn(project, env)
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain("safe.bareRepository")
    expect(fs.existsSync(marker)).toBe(false)
  })
})
