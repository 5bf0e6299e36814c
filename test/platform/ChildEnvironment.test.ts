import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { ChildEnvironment, forProcess, forShell, make, namePattern, withGitSafety } from "../../src/platform/ChildEnvironment.js"
import { Credentials, headerValues, REDACTED, valuesFromEnv } from "../../src/platform/Credentials.js"
import * as ShellEnvironmentPolicy from "../../src/platform/ShellEnvironmentPolicy.js"

const KEY = "sk-ant-api03-secret-value-0123456789"
const TOKEN = "bearer-token-abcdefghijkl"
const parent = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/user",
  LANG: "C.UTF-8",
  LC_ALL: "C",
  ANTHROPIC_API_KEY: KEY,
  ANTHROPIC_AUTH_TOKEN: TOKEN,
  ANTHROPIC_CUSTOM_HEADERS: "X-Tenant: tenant-secret-42\nX-Other: other-header-value",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
  COPY_OF_KEY: `prefix ${KEY}`,
  GITHUB_TOKEN: "ghp_token",
  AWS_SECRET_ACCESS_KEY: "aws",
  PROJECT_NAME: "weft",
  UNSET: undefined
}
const credentials = valuesFromEnv(parent)

describe("Credentials", () => {
  it("takes the key, the token and every custom header's value", () => {
    expect(headerValues("A: one\r\nB:two\nbroken\n")).toEqual(["one", "two"])
    expect(credentials).toEqual([KEY, TOKEN, "tenant-secret-42", "other-header-value"])
  })

  it.effect("redacts by value, in text and in JSON text, including values added while running", () =>
    Effect.gen(function* () {
      const store = yield* Credentials
      expect(store.redact(`the key is ${KEY}.`)).toBe(`the key is ${REDACTED}.`)
      expect(store.redact("nothing here")).toBe("nothing here")
      yield* store.add('helper"key\\value-123')
      expect(store.redactJson(JSON.stringify({ text: 'x helper"key\\value-123 y' }))).toBe(JSON.stringify({ text: `x ${REDACTED} y` }))
      // Short placeholder values are not searched for in text.
      yield* store.add("x")
      expect(store.redact("x marks the spot")).toBe("x marks the spot")
    }).pipe(Effect.provide(Credentials.fromValues(credentials)))
  )
})

describe("ChildEnvironment", () => {
  it("matches names with * and ?, case-insensitively", () => {
    expect(namePattern("*TOKEN*")("github_token")).toBe(true)
    expect(namePattern("LC_?LL")("LC_ALL")).toBe(true)
    expect(namePattern("LC_*")("LANG")).toBe(false)
    expect(namePattern("A.B")("AxB")).toBe(false)
  })

  it("by default keeps everything but weft's credentials, by name and by value", () => {
    const env = forShell(parent, credentials)
    expect(Object.keys(env).sort()).toEqual(
      ["ANTHROPIC_BASE_URL", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "HOME", "LANG", "LC_ALL", "PATH", "PROJECT_NAME"].sort()
    )
  })

  it("applies inherit, exclude, includeOnly, then set", () => {
    expect(Object.keys(forShell(parent, credentials, { inherit: "core" })).sort()).toEqual(["HOME", "LANG", "LC_ALL", "PATH"])
    expect(forShell(parent, credentials, { inherit: "none", set: { ONLY: "1" } })).toEqual({ ONLY: "1" })
    const hidden = forShell(parent, credentials, { exclude: ["*TOKEN*", "*SECRET*", "*KEY*"] })
    expect(hidden["GITHUB_TOKEN"]).toBeUndefined()
    expect(hidden["AWS_SECRET_ACCESS_KEY"]).toBeUndefined()
    expect(hidden["PROJECT_NAME"]).toBe("weft")
    expect(forShell(parent, credentials, { includeOnly: ["PATH", "project_*"], set: { EXTRA: "e", PATH: "/x" } })).toEqual({
      PATH: "/x",
      PROJECT_NAME: "weft",
      EXTRA: "e"
    })
    // include_only cannot bring a credential back.
    expect(forShell(parent, credentials, { includeOnly: ["ANTHROPIC_*"] })).toEqual({ ANTHROPIC_BASE_URL: "http://127.0.0.1:1" })
  })

  it("gives hooks and servers no credential unless their configuration names it", () => {
    const env = forProcess(parent, credentials, { SERVER_KEY: KEY })
    expect(env["ANTHROPIC_API_KEY"]).toBeUndefined()
    expect(env["COPY_OF_KEY"]).toBeUndefined()
    expect(env["GITHUB_TOKEN"]).toBe("ghp_token")
    expect(env["SERVER_KEY"]).toBe(KEY)
  })

  it.effect("reads the parent when a child starts, and a key added later is withheld too", () =>
    Effect.gen(function* () {
      const current: Record<string, string> = { PATH: "/bin" }
      const children = yield* make({ parent: () => current, policy: { set: { FIXED: "1" } } })
      current["LATER"] = "helper-produced-key"
      // Shells also get git's safe.bareRepository (withGitSafety; GitSafety.test.ts).
      expect(yield* children.shell).toEqual(withGitSafety({ PATH: "/bin", LATER: "helper-produced-key", FIXED: "1" }))
      yield* Effect.flatMap(Credentials, (store) => store.add("helper-produced-key"))
      expect(yield* children.shell).toEqual(withGitSafety({ PATH: "/bin", FIXED: "1" }))
      expect(yield* children.process({ A: "b" })).toEqual({ PATH: "/bin", A: "b" })
    }).pipe(Effect.provide(Credentials.fromValues([])))
  )

  it.effect("the Node layer withholds this process's credentials", () =>
    Effect.gen(function* () {
      const env = yield* Effect.flatMap(ChildEnvironment, (children) => children.shell)
      expect(env["ANTHROPIC_API_KEY"]).toBeUndefined()
      expect(env["PATH"]).toBe(process.env["PATH"])
    }).pipe(Effect.provide(ChildEnvironment.layerNode))
  )
})

describe("ShellEnvironmentPolicy.decode", () => {
  it.effect("decodes the settings key and rejects what it does not know", () =>
    Effect.gen(function* () {
      expect(yield* ShellEnvironmentPolicy.decode(undefined)).toEqual({})
      expect(yield* ShellEnvironmentPolicy.decode({ inherit: "core", exclude: ["*KEY*"], set: { A: "1" } })).toEqual({
        inherit: "core",
        exclude: ["*KEY*"],
        set: { A: "1" }
      })
      const bad = yield* Effect.either(ShellEnvironmentPolicy.decode({ inherit: "some" }))
      expect(Either.isLeft(bad) && bad.left.message).toMatch(/shellEnvironmentPolicy/)
      const unknown = yield* Effect.either(ShellEnvironmentPolicy.decode({ include_only: ["A"] }))
      expect(Either.isLeft(unknown)).toBe(true)
    })
  )
})
