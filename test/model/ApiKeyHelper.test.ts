import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as ApiKeyHelper from "../../src/model/ApiKeyHelper.js"
import { isAlive, waitUntil } from "../e2e/harness.js"
import { tempDir } from "../support/TempFiles.js"

/** A helper that counts its runs in `count` (in its directory) and prints `key-<n>` between spaces. */
const counting = () => `n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; printf '  key-%s\\n' $n`

const options = (dir: string, command: string, told: Array<string> = []): ApiKeyHelper.Options => ({
  command,
  origin: "/home/u/.claude/settings.json",
  cwd: dir,
  env: Effect.succeed({ PATH: process.env["PATH"] ?? "/usr/bin:/bin" }),
  onKey: (key) => Effect.sync(() => void told.push(key))
})

describe("ApiKeyHelper", () => {
  it.effect("runs once for the session by default: its trimmed stdout, told to onKey", () =>
    Effect.gen(function* () {
      const dir = tempDir("weft-keyhelper-")
      const told: Array<string> = []
      const source = yield* ApiKeyHelper.make(options(dir, counting(), told))
      expect(yield* source.current).toBe("key-1")
      yield* TestClock.adjust("1000 days")
      expect(yield* source.current).toBe("key-1")
      expect(told).toEqual(["key-1"])
    })
  )

  it.effect("runs again once the TTL has passed, and after a refusal of the key it gave (once for many refusals)", () =>
    Effect.gen(function* () {
      const dir = tempDir("weft-keyhelper-")
      const source = yield* ApiKeyHelper.make({ ...options(dir, counting()), ttlMs: 60_000 })
      expect(yield* source.current).toBe("key-1")
      yield* TestClock.adjust("59 seconds")
      expect(yield* source.current).toBe("key-1")
      yield* TestClock.adjust("1 second")
      expect(yield* source.current).toBe("key-2")
      expect(yield* source.refresh("key-2")).toBe("key-3")
      // A request refused the older key meanwhile gets the new one without another run.
      expect(yield* source.refresh("key-2")).toBe("key-3")
      expect(readFileSync(join(dir, "count"), "utf8").trim()).toBe("3")
    })
  )

  it.effect("a failure names the settings file and the exit code, never the output or the command", () =>
    Effect.gen(function* () {
      const dir = tempDir("weft-keyhelper-")
      const failing = yield* ApiKeyHelper.make(options(dir, "echo sk-secret-output; echo sk-secret-err >&2; exit 7"))
      const error = yield* Effect.flip(failing.current)
      expect(error._tag).toBe("AuthenticationError")
      expect(error.message).toContain("apiKeyHelper (from /home/u/.claude/settings.json) exited with code 7")
      expect(error.message).not.toContain("sk-secret")
      const silent = yield* ApiKeyHelper.make(options(dir, "true"))
      expect((yield* Effect.flip(silent.current)).message).toContain("printed no key")
    })
  )

  it.live("past its timeout it is stopped, a child that ignores TERM included", () =>
    Effect.gen(function* () {
      const dir = tempDir("weft-keyhelper-")
      const source = yield* ApiKeyHelper.make({
        ...options(dir, "trap '' TERM; echo $$ > pid; while :; do sleep 0.05; done"),
        timeoutMs: 300,
        graceMs: 100
      })
      const error = yield* Effect.flip(source.current)
      expect(error.message).toContain("did not finish within 300 ms and was stopped")
      const pid = Number(readFileSync(join(dir, "pid"), "utf8").trim())
      yield* Effect.promise(() => waitUntil(() => !isAlive(pid), "the helper to be gone", 5_000))
    })
  )
})
