import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { listNames, probe, readSmallText } from "../../src/platform/FileProbe.js"
import { tempDir, write } from "../support/TempFiles.js"

describe("FileProbe", () => {
  it.effect("probe tells files, directories and absent paths apart, through symlinks", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      write(path.join(dir, "a.txt"), "a")
      fs.mkdirSync(path.join(dir, "sub"))
      fs.symlinkSync(path.join(dir, "sub"), path.join(dir, "link"))
      expect(yield* probe(path.join(dir, "a.txt"))).toBe("File")
      expect(yield* probe(path.join(dir, "sub"))).toBe("Directory")
      expect(yield* probe(path.join(dir, "link"))).toBe("Directory")
      expect(yield* probe(path.join(dir, "missing"))).toBeUndefined()
      // A path under a file is unreachable, not an error.
      expect(yield* probe(path.join(dir, "a.txt", "below"))).toBeUndefined()
    })
  )

  it.effect("readSmallText reads a file's text, and answers the system's error when it cannot", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      write(path.join(dir, "settings.json"), '{"model":"opus"}')
      expect(yield* readSmallText(path.join(dir, "settings.json"))).toEqual({ text: '{"model":"opus"}' })
      const missing = yield* readSmallText(path.join(dir, "missing.json"))
      expect("error" in missing && missing.error.code).toBe("ENOENT")
      const notADirectory = yield* readSmallText(path.join(dir, "settings.json", "x.json"))
      expect("error" in notADirectory && notADirectory.error.code).toBe("ENOTDIR")
    })
  )

  it.effect("listNames lists a directory's names, and fails with the system's error when it cannot", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      write(path.join(dir, "a.txt"), "a")
      fs.mkdirSync(path.join(dir, "sub"))
      expect([...(yield* listNames(dir))].sort()).toEqual(["a.txt", "sub"])
      const missing = yield* Effect.flip(listNames(path.join(dir, "missing")))
      expect(missing.code).toBe("ENOENT")
      const notADirectory = yield* Effect.flip(listNames(path.join(dir, "a.txt")))
      expect(notADirectory.code).toBe("ENOTDIR")
    })
  )
})
