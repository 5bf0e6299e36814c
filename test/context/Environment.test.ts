import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as TestClock from "effect/testing/TestClock"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { branchFromHead, Environment, formatDate } from "../../src/context/Environment.js"
import { tempDir as makeTempDir, write } from "../support/TempFiles.js"

const tempDir = () => makeTempDir("weft-env-")

const environmentOf = (cwd: string, additionalDirectories?: ReadonlyArray<string>) =>
  Effect.provide(
    Environment,
    Environment.layerNode(additionalDirectories === undefined ? { cwd } : { cwd, additionalDirectories })
  )

describe("Environment.layer", () => {
  it.effect("reads the branch from .git/HEAD of the enclosing repository, from a subdirectory too", () => {
    const repo = tempDir()
    write(path.join(repo, ".git", "HEAD"), "ref: refs/heads/feature/login\n")
    const sub = path.join(repo, "src", "deep")
    fs.mkdirSync(sub, { recursive: true })
    return Effect.gen(function* () {
      yield* TestClock.setTime(new Date(2025, 5, 15, 9, 30).getTime())
      const env = yield* environmentOf(sub, ["../../other", "/abs/dir"])
      expect(env.cwd).toBe(sub)
      expect(env.isGitRepo).toBe(true)
      expect(env.gitBranch).toEqual(Option.some("feature/login"))
      expect(env.today).toBe("2025-06-15")
      expect(env.platform).toBe(process.platform)
      expect(env.osVersion).toBe(`${os.type()} ${os.release()}`)
      expect(env.additionalDirectories).toEqual([path.join(repo, "other"), "/abs/dir"])
    })
  })

  it.effect("a detached HEAD is a repository without a branch", () => {
    const repo = tempDir()
    write(path.join(repo, ".git", "HEAD"), "3f2a9c1d0e4b5a6978877665544332211ffeeddc\n")
    return Effect.gen(function* () {
      const env = yield* environmentOf(repo)
      expect(env.isGitRepo).toBe(true)
      expect(env.gitBranch).toEqual(Option.none())
    })
  })

  it.effect("follows a worktree's .git file to its gitdir", () => {
    const root = tempDir()
    write(path.join(root, "main", ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/topic\n")
    write(path.join(root, "wt", ".git"), "gitdir: ../main/.git/worktrees/wt\n")
    return Effect.gen(function* () {
      const env = yield* environmentOf(path.join(root, "wt"))
      expect(env.isGitRepo).toBe(true)
      expect(env.gitBranch).toEqual(Option.some("topic"))
    })
  })

  it.effect("outside a repository", () => {
    const dir = tempDir()
    return Effect.gen(function* () {
      const env = yield* environmentOf(dir)
      expect(env.isGitRepo).toBe(false)
      expect(env.gitBranch).toEqual(Option.none())
      expect(env.additionalDirectories).toEqual([])
    })
  })

  it.effect("layerStatic gives deterministic defaults and takes overrides", () =>
    Effect.gen(function* () {
      const env = yield* Environment
      expect(env).toEqual({
        cwd: "/repo",
        platform: "linux",
        osVersion: "Linux 6.0.0",
        today: "2025-01-01",
        isGitRepo: true,
        gitBranch: Option.none(),
        additionalDirectories: []
      })
    }).pipe(Effect.provide(Environment.layerStatic({ cwd: "/repo", isGitRepo: true })))
  )
})

describe("Environment helpers", () => {
  it("branchFromHead", () => {
    expect(branchFromHead("ref: refs/heads/main\n")).toEqual(Option.some("main"))
    expect(branchFromHead("ref: refs/remotes/origin/x\n")).toEqual(Option.none())
    expect(branchFromHead("abc123\n")).toEqual(Option.none())
  })

  it("formatDate pads month and day", () => {
    expect(formatDate(new Date(2024, 0, 5))).toBe("2024-01-05")
    expect(formatDate(new Date(2024, 11, 31, 23, 59))).toBe("2024-12-31")
  })
})
