import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { Settings } from "../../src/context/Settings.js"
import {
  ChildEnvironment,
  coreVariables,
  forProcess,
  forShell,
  make,
  makeWith,
  namePattern,
  withGitSafety
} from "../../src/platform/ChildEnvironment.js"
import { Credentials, headerValues, REDACTED, valuesFromEnv } from "../../src/platform/Credentials.js"
import * as ShellEnvironmentPolicy from "../../src/platform/ShellEnvironmentPolicy.js"
import * as Variables from "../../src/platform/Variables.js"

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
    }).pipe(Effect.provide(Credentials.layerFromValues(credentials)))
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
      const children = yield* makeWith({ parent: () => current, policy: { set: { FIXED: "1" } } })
      current["LATER"] = "helper-produced-key"
      // Shells also get git's safe.bareRepository (withGitSafety; GitSafety.test.ts).
      expect(yield* children.shell).toEqual(withGitSafety({ PATH: "/bin", LATER: "helper-produced-key", FIXED: "1" }))
      yield* Effect.flatMap(Credentials, (store) => store.add("helper-produced-key"))
      expect(yield* children.shell).toEqual(withGitSafety({ PATH: "/bin", FIXED: "1" }))
      expect(yield* children.process({ A: "b" })).toEqual({ PATH: "/bin", A: "b" })
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
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
      const bad = yield* Effect.result(ShellEnvironmentPolicy.decode({ inherit: "some" }))
      expect(Result.isFailure(bad) && bad.failure.message).toMatch(/shellEnvironmentPolicy/)
      const unknown = yield* Effect.result(ShellEnvironmentPolicy.decode({ include_only: ["A"] }))
      expect(Result.isFailure(unknown)).toBe(true)
    })
  )
})

describe("ChildEnvironment: credentials withheld by name and by value", () => {
  it("withholds each credential variable by its name alone, whatever its value", () => {
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_AUTH_TOKEN: "t", ANTHROPIC_CUSTOM_HEADERS: "X: h", KEEP: "kept" }
    expect(forShell(env, [])).toStrictEqual({ KEEP: "kept" })
    expect(forProcess(env, [])).toStrictEqual({ KEEP: "kept" })
  })

  it("withholds any variable whose value contains a credential value, short values included", () => {
    const env = { A: "x-secret-value-y", B: "abc", C: "zz", D: "unrelated" }
    expect(forShell(env, ["secret-value", "b"])).toStrictEqual({ C: "zz", D: "unrelated" })
    expect(forProcess(env, ["secret-value", "b"])).toStrictEqual({ C: "zz", D: "unrelated" })
  })

  it("ignores an empty credential value (it would match every variable)", () => {
    const env = { PATH: "/bin", HOME: "/home/u", OTHER: "has-the-key" }
    expect(forShell(env, ["", "the-key"])).toStrictEqual({ PATH: "/bin", HOME: "/home/u" })
    expect(forProcess(env, [""])).toStrictEqual(env)
  })

  it("leaves out unset variables, and keeps empty ones", () => {
    const env = { UNSET: undefined, EMPTY: "", SET: "1" }
    expect(forShell(env, [])).toStrictEqual({ EMPTY: "", SET: "1" })
    expect(forProcess(env, [])).toStrictEqual({ EMPTY: "", SET: "1" })
  })

  it("forProcess with no explicit variables is the parent without the credentials", () => {
    expect(forProcess({ PATH: "/bin", ANTHROPIC_API_KEY: "k" }, ["k"])).toStrictEqual({ PATH: "/bin" })
  })
})

describe("ChildEnvironment: the shell policy", () => {
  const everyCore = { HOME: "h", LOGNAME: "l", LOGIN: "li", PATH: "p", SHELL: "s", USER: "u", USERNAME: "un", TMPDIR: "td", TEMP: "te", TMP: "tm", LANG: "la", LANGUAGE: "lg", LC_CTYPE: "lc", LC_ALL: "la2", TERM: "t", TZ: "z" }
  const others = { EDITOR: "vi", LC: "not-lc", LANGX: "no", XTERM: "no", PATHS: "no", GITHUB_TOKEN: "ghp" }

  it("inherit core keeps exactly the core variables, still without credentials", () => {
    expect(forShell({ ...everyCore, ...others, ANTHROPIC_API_KEY: "k" }, [], { inherit: "core" })).toStrictEqual(everyCore)
    expect(coreVariables).toContain("LC_*")
  })

  it("inherit core still applies exclude, includeOnly and set", () => {
    expect(forShell({ ...everyCore, ...others }, [], { inherit: "core", exclude: ["L*"], includeOnly: ["*A*"], set: { X: "1" } })).toStrictEqual({
      PATH: "p",
      USERNAME: "un",
      X: "1"
    })
  })

  it("inherit all (and no policy) keeps everything but the credentials", () => {
    const parent = { ...everyCore, ...others, ANTHROPIC_AUTH_TOKEN: "t" }
    const expected = { ...everyCore, ...others }
    expect(forShell(parent, [], { inherit: "all" })).toStrictEqual(expected)
    expect(forShell(parent, [])).toStrictEqual(expected)
    expect(forShell(parent, [], {})).toStrictEqual(expected)
  })

  it("inherit none keeps nothing from the parent, only set", () => {
    expect(forShell({ ...everyCore }, [], { inherit: "none" })).toStrictEqual({})
    expect(forShell({ ...everyCore }, [], { inherit: "none", includeOnly: ["*"], set: { A: "a" } })).toStrictEqual({ A: "a" })
  })

  it("exclude leaves out what any one of its patterns matches", () => {
    expect(forShell({ AB: "1", CD: "2", EF: "3" }, [], { exclude: ["ab", "C?"] })).toStrictEqual({ EF: "3" })
    expect(forShell({ AB: "1" }, [], { exclude: [] })).toStrictEqual({ AB: "1" })
  })

  it("includeOnly keeps what any one of its patterns matches; an empty list keeps nothing", () => {
    expect(forShell({ AB: "1", CD: "2", EF: "3" }, [], { includeOnly: ["ab", "C?"] })).toStrictEqual({ AB: "1", CD: "2" })
    expect(forShell({ AB: "1" }, [], { includeOnly: [] })).toStrictEqual({})
  })

  it("set overrides and adds, even a name exclude or includeOnly leaves out", () => {
    expect(forShell({ A: "1", B: "2" }, [], { exclude: ["A"], includeOnly: ["B"], set: { A: "set", C: "3" } })).toStrictEqual({
      B: "2",
      A: "set",
      C: "3"
    })
  })
})

describe("ChildEnvironment.namePattern", () => {
  it("anchors the whole name", () => {
    expect(namePattern("PATH")("PATH")).toBe(true)
    expect(namePattern("PATH")("path")).toBe(true)
    expect(namePattern("PATH")("MYPATH")).toBe(false)
    expect(namePattern("PATH")("PATHS")).toBe(false)
  })

  it("* is any run of characters, none included; ? is exactly one", () => {
    expect(namePattern("A*")("A")).toBe(true)
    expect(namePattern("A*")("ABC")).toBe(true)
    expect(namePattern("*C")("ABC")).toBe(true)
    expect(namePattern("A?")("AB")).toBe(true)
    expect(namePattern("A?")("A")).toBe(false)
    expect(namePattern("A?")("ABC")).toBe(false)
    expect(namePattern("A?C")("A.C")).toBe(true)
  })

  it("takes every other character literally", () => {
    for (const literal of ["A.B", "A+B", "A^B", "A$B", "A{2}", "A(B)", "A|B", "A[B]", "A\\B", "PWD", "A\\dB"]) {
      expect(namePattern(literal)(literal), literal).toBe(true)
    }
    expect(namePattern("A.B")("AxB")).toBe(false)
    expect(namePattern("A+B")("AAB")).toBe(false)
    expect(namePattern("A{2}")("AA")).toBe(false)
    expect(namePattern("A(B)")("AB")).toBe(false)
    expect(namePattern("A|B")("AZ")).toBe(false)
    expect(namePattern("A|B")("ZB")).toBe(false)
    expect(namePattern("A[B]")("AB")).toBe(false)
    expect(namePattern("A\\dB")("A1B")).toBe(false)
  })
})

describe("ChildEnvironment.withGitSafety: the count the environment already has", () => {
  const ours = (n: number) => ({
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: "safe.bareRepository",
    [`GIT_CONFIG_VALUE_${n}`]: "explicit"
  })

  it("a blank or zero count is no entries: ours is entry 0", () => {
    for (const given of ["", "  ", "0"]) expect(withGitSafety({ GIT_CONFIG_COUNT: given })).toStrictEqual(ours(0))
    expect(withGitSafety({})).toStrictEqual(ours(0))
  })

  it("ours goes after the given entries", () => {
    expect(withGitSafety({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "k", GIT_CONFIG_VALUE_0: "v" })).toStrictEqual({
      GIT_CONFIG_KEY_0: "k",
      GIT_CONFIG_VALUE_0: "v",
      ...ours(1)
    })
    expect(withGitSafety({ GIT_CONFIG_COUNT: " 5 " })).toStrictEqual(ours(5))
  })

  it("a negative, fractional or non-numeric count is left as it is", () => {
    for (const given of ["-1", "1.5", "two", "NaN", "Infinity", "1e400"]) {
      expect(withGitSafety({ GIT_CONFIG_COUNT: given, A: "a" })).toStrictEqual({ GIT_CONFIG_COUNT: given, A: "a" })
    }
  })
})

describe("ChildEnvironment services", () => {
  it.effect("shell applies the policy and git safety; process applies neither, but adds its explicit variables", () =>
    Effect.gen(function* () {
      const parent = { PATH: "/bin", EDITOR: "vi", ANTHROPIC_API_KEY: "k" }
      const children = yield* makeWith({ parent: () => parent, policy: { inherit: "core" } })
      expect(yield* children.shell).toStrictEqual(withGitSafety({ PATH: "/bin" }))
      expect(yield* children.process()).toStrictEqual({ PATH: "/bin", EDITOR: "vi" })
      expect(yield* children.process({ EXTRA: "e" })).toStrictEqual({ PATH: "/bin", EDITOR: "vi", EXTRA: "e" })
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
  )

  it.effect("withholds the credentials known to the Credentials service, by value", () =>
    Effect.gen(function* () {
      const children = yield* makeWith({ parent: () => ({ PATH: "/bin", COPY: "known-secret-1" }) })
      expect(yield* children.shell).toStrictEqual(withGitSafety({ PATH: "/bin" }))
      expect(yield* children.process()).toStrictEqual({ PATH: "/bin" })
    }).pipe(Effect.provide(Credentials.layerFromValues(["known-secret-1"])))
  )

  it.effect("make uses the settings' shellEnvironmentPolicy", () =>
    Effect.gen(function* () {
      const children = yield* make({ parent: () => ({ PATH: "/bin", EDITOR: "vi" }) }).pipe(
        Effect.provide(Settings.layerFromValue({ shellEnvironmentPolicy: { inherit: "none", set: { ONLY: "1" } } }))
      )
      expect(yield* children.shell).toStrictEqual(withGitSafety({ ONLY: "1" }))
      const plain = yield* make({ parent: () => ({ PATH: "/bin", EDITOR: "vi" }) }).pipe(
        Effect.provide(Settings.layerFromValue({}))
      )
      expect(yield* plain.shell).toStrictEqual(withGitSafety({ PATH: "/bin", EDITOR: "vi" }))
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
  )

  it.effect("the settings' env laid over weft's environment is inherited; credentials and the policy still apply after it", () =>
    Effect.gen(function* () {
      const children = yield* make({ parent: () => ({ PATH: "/bin", KEPT: "parent", SECRET_X: "s" }) }).pipe(
        Effect.provide(Settings.layerFromValue({ shellEnvironmentPolicy: { exclude: ["SECRET_*"] } }))
      )
      expect(yield* children.shell).toStrictEqual(withGitSafety({ PATH: "/bin", KEPT: "from-settings", ADDED: "1" }))
      expect(yield* children.process()).toStrictEqual({ PATH: "/bin", KEPT: "from-settings", ADDED: "1", SECRET_X: "s", SECRET_Y: "y" })
    }).pipe(
      Effect.provide(
        Variables.layerOverlay({ KEPT: "from-settings", ADDED: "1", ANTHROPIC_API_KEY: "sk-from-settings", SECRET_Y: "y" })
      ),
      Effect.provide(Credentials.layerFromValues([]))
    )
  )

  it.effect("make fails on an invalid policy", () =>
    Effect.gen(function* () {
      const error = yield* make({ parent: () => ({}) }).pipe(
        Effect.provide(Settings.layerFromValue({ shellEnvironmentPolicy: { inherit: "some" } })),
        Effect.flip
      )
      expect(error._tag).toBe("InvalidShellEnvironmentPolicy")
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
  )

  it.effect("the layers read this process's environment", () =>
    Effect.gen(function* () {
      const viaWith = yield* Effect.flatMap(ChildEnvironment, (children) => children.process()).pipe(
        Effect.provide(ChildEnvironment.layerWith({ policy: { inherit: "none" } }))
      )
      expect(viaWith["PATH"]).toBe(process.env["PATH"])
      const shell = yield* Effect.flatMap(ChildEnvironment, (children) => children.shell).pipe(
        Effect.provide(ChildEnvironment.layerWith({ policy: { inherit: "none" } }))
      )
      expect(shell).toStrictEqual(withGitSafety({}))
      const fromSettings = yield* Effect.flatMap(ChildEnvironment, (children) => children.shell).pipe(
        Effect.provide(ChildEnvironment.layer),
        Effect.provide(Settings.layerFromValue({ shellEnvironmentPolicy: { inherit: "none", set: { S: "s" } } }))
      )
      expect(fromSettings).toStrictEqual(withGitSafety({ S: "s" }))
    }).pipe(Effect.provide(Credentials.layerFromValues([])))
  )
})
