/**
 * PathGuard.ts: real paths through links, containment by whole components, path rules (anchors, depth, case) and
 * protected paths. Decisions, not wording: a path that must stay protected, a pattern that must not match. The end
 * of the file checks through Permissions that the home's credentials and start-up files stay protected in every
 * permission mode, bypassPermissions included.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { permissionModes } from "../../src/context/Settings.js"
import {
  compilePathPattern,
  foldName,
  homeProtectedLocations,
  isInside,
  isInsideAny,
  matchesPath,
  mayContain,
  type PathPattern,
  protectedPatternReason,
  protectedReason,
  protectedUnder,
  realPath,
  rootProtectedLocations
} from "../../src/permissions/PathGuard.js"
import { tempDir, write } from "../support/TempFiles.js"
import { type Case, decisionOf, verdict } from "./support.js"

// ---------------------------------------------------------------------------------------------------------------
// realPath

describe("realPath", () => {
  const link = (at: string, target: string) => {
    fs.mkdirSync(path.dirname(at), { recursive: true })
    fs.symlinkSync(target, at)
  }

  it.effect("an existing file is itself", () =>
    Effect.gen(function* () {
      const root = tempDir()
      write(path.join(root, "f"), "x")
      expect(yield* realPath(path.join(root, "f"))).toBe(path.join(root, "f"))
      expect(yield* realPath(root)).toBe(root)
    })
  )

  it.effect("a file through a linked directory is the file in the link's target", () =>
    Effect.gen(function* () {
      const root = tempDir()
      write(path.join(root, "real", "f"), "x")
      link(path.join(root, "l"), path.join(root, "real"))
      expect(yield* realPath(path.join(root, "l", "f"))).toBe(path.join(root, "real", "f"))
      expect(yield* realPath(path.join(root, "l"))).toBe(path.join(root, "real"))
    })
  )

  it.effect("a missing path is its longest existing ancestor's real path with the rest in order", () =>
    Effect.gen(function* () {
      const root = tempDir()
      expect(yield* realPath(path.join(root, "a"))).toBe(path.join(root, "a"))
      expect(yield* realPath(path.join(root, "a", "b", "c"))).toBe(path.join(root, "a", "b", "c"))
      fs.mkdirSync(path.join(root, "real"))
      link(path.join(root, "l"), path.join(root, "real"))
      expect(yield* realPath(path.join(root, "l", "new", "deep"))).toBe(path.join(root, "real", "new", "deep"))
    })
  )

  it.effect("a missing path right under the filesystem root is itself", () =>
    Effect.gen(function* () {
      const name = `weft-no-such-dir-${process.pid}-${Date.now()}`
      expect(yield* realPath(`/${name}`)).toBe(`/${name}`)
      expect(yield* realPath(`/${name}/a/b`)).toBe(`/${name}/a/b`)
    })
  )

  it.effect("a dangling link with an absolute target is its target, with the missing rest appended", () =>
    Effect.gen(function* () {
      const root = tempDir()
      link(path.join(root, "d"), path.join(root, "out", "new"))
      expect(yield* realPath(path.join(root, "d"))).toBe(path.join(root, "out", "new"))
      expect(yield* realPath(path.join(root, "d", "x", "y"))).toBe(path.join(root, "out", "new", "x", "y"))
    })
  )

  it.effect("a dangling link with a relative target is relative to the link's real directory", () =>
    Effect.gen(function* () {
      const root = tempDir()
      fs.mkdirSync(path.join(root, "deep", "real"), { recursive: true })
      link(path.join(root, "deep", "real", "dl"), "../target")
      link(path.join(root, "l"), path.join(root, "deep", "real"))
      expect(yield* realPath(path.join(root, "deep", "real", "dl"))).toBe(path.join(root, "deep", "target"))
      // named through the linked directory: `..` is taken from where the link really is
      expect(yield* realPath(path.join(root, "l", "dl"))).toBe(path.join(root, "deep", "target"))
      expect(yield* realPath(path.join(root, "l", "dl", "f"))).toBe(path.join(root, "deep", "target", "f"))
    })
  )

  it.effect("a chain of links ending in a dangling one is followed to its end", () =>
    Effect.gen(function* () {
      const root = tempDir()
      link(path.join(root, "b"), path.join(root, "c", "new"))
      link(path.join(root, "a"), path.join(root, "b"))
      expect(yield* realPath(path.join(root, "a"))).toBe(path.join(root, "c", "new"))
      expect(yield* realPath(path.join(root, "a", "f"))).toBe(path.join(root, "c", "new", "f"))
    })
  )

  it.effect("a dangling link to a directory that exists elsewhere resolves into its real path", () =>
    Effect.gen(function* () {
      const root = tempDir()
      fs.mkdirSync(path.join(root, "real"))
      link(path.join(root, "r"), path.join(root, "real"))
      // d -> r/new: r is a link too, so the target's real path is under real/
      link(path.join(root, "d"), path.join(root, "r", "new"))
      expect(yield* realPath(path.join(root, "d"))).toBe(path.join(root, "real", "new"))
    })
  )

  it.effect("an existing link whose target climbs out of a linked directory is resolved as the kernel does", () =>
    Effect.gen(function* () {
      const root = tempDir()
      write(path.join(root, "outside", "f"), "x")
      write(path.join(root, "outside", "deep", "g"), "x")
      write(path.join(root, "proj", "f"), "x")
      link(path.join(root, "proj", "d"), path.join(root, "outside", "deep"))
      link(path.join(root, "proj", "l"), "d/../f")
      // d/.. is outside/, not proj/
      expect(yield* realPath(path.join(root, "proj", "l"))).toBe(path.join(root, "outside", "f"))
    })
  )

  it.effect("a dangling link whose target climbs out of a linked directory is where the kernel writes", () =>
    Effect.gen(function* () {
      const root = tempDir()
      write(path.join(root, "outside", "deep", "g"), "x")
      fs.mkdirSync(path.join(root, "proj"))
      link(path.join(root, "proj", "d"), path.join(root, "outside", "deep"))
      link(path.join(root, "proj", "rel"), "d/../new")
      link(path.join(root, "proj", "abs"), `${root}/proj/d/../new2`)
      link(path.join(root, "proj", "two"), "d/../../proj/d/../new3")
      expect(yield* realPath(path.join(root, "proj", "rel"))).toBe(path.join(root, "outside", "new"))
      expect(yield* realPath(path.join(root, "proj", "abs"))).toBe(path.join(root, "outside", "new2"))
      expect(yield* realPath(path.join(root, "proj", "rel", "sub", "f"))).toBe(path.join(root, "outside", "new", "sub", "f"))
      expect(yield* realPath(path.join(root, "proj", "two"))).toBe(path.join(root, "outside", "new3"))
    })
  )

  it.effect("a loop of links is the path as written", () =>
    Effect.gen(function* () {
      const root = tempDir()
      link(path.join(root, "loop"), path.join(root, "loop2"))
      link(path.join(root, "loop2"), path.join(root, "loop"))
      expect(yield* realPath(path.join(root, "loop"))).toBe(path.join(root, "loop"))
      expect(yield* realPath(path.join(root, "loop", "x"))).toBe(path.join(root, "loop", "x"))
    })
  )

  it.effect("a long chain of links (within the limit) is followed", () =>
    Effect.gen(function* () {
      const root = tempDir()
      // 30 dangling hops: more than the kernel's own limit would matter for, fewer than realPath's
      link(path.join(root, "n30"), path.join(root, "end", "file"))
      for (let i = 29; i >= 0; i--) link(path.join(root, `n${i}`), path.join(root, `n${i + 1}`))
      expect(yield* realPath(path.join(root, "n0"))).toBe(path.join(root, "end", "file"))
    })
  )

  it.effect("a chain of 39 links is followed; one of 40 is taken for a loop, as the kernel does: the path as written", () =>
    Effect.gen(function* () {
      const root = tempDir()
      const chain = (name: string, links: number) => {
        link(path.join(root, `${name}${links - 1}`), path.join(root, `${name}-end`, "file"))
        for (let i = links - 2; i >= 0; i--) link(path.join(root, `${name}${i}`), path.join(root, `${name}${i + 1}`))
      }
      chain("a", 39)
      chain("b", 40)
      expect(yield* realPath(path.join(root, "a0"))).toBe(path.join(root, "a-end", "file"))
      expect(yield* realPath(path.join(root, "b0"))).toBe(path.join(root, "b0"))
    })
  )
})

// ---------------------------------------------------------------------------------------------------------------
// isInside

describe("isInside", () => {
  it("by whole components", () => {
    expect(isInside("/proj", "/proj")).toBe(true)
    expect(isInside("/proj/a", "/proj")).toBe(true)
    expect(isInside("/proj/a/b", "/proj/")).toBe(true)
    expect(isInside("/proj-evil", "/proj")).toBe(false)
    expect(isInside("/proj-evil/a", "/proj")).toBe(false)
    expect(isInside("/pro", "/proj")).toBe(false)
    expect(isInside("/", "/proj")).toBe(false)
    expect(isInside("/etc/passwd", "/")).toBe(true)
    expect(isInside("/", "/")).toBe(true)
  })

  it("isInsideAny: inside one of the roots", () => {
    expect(isInsideAny("/b/x", ["/a", "/b"])).toBe(true)
    expect(isInsideAny("/a/x", ["/a", "/b"])).toBe(true)
    expect(isInsideAny("/c/x", ["/a", "/b"])).toBe(false)
    expect(isInsideAny("/a/x", [])).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Path rules

const compiled = (specifier: string, root = "/r/proj", home = "/r/home", anchorReal?: (dir: string) => string): PathPattern => {
  const parsed = compilePathPattern(specifier, root, home, anchorReal)
  if (parsed._tag !== "Pattern") throw new Error(`${specifier}: ${parsed.message}`)
  return parsed.pattern
}

describe("compilePathPattern", () => {
  const anchors: ReadonlyArray<readonly [string, string, string | undefined]> = [
    // specifier, anchor, fixedRoot
    ["//etc/**", "/", "/etc"],
    ["//", "/", "/"],
    ["///", "/", "/"],
    ["~", "/r/home", "/r/home"],
    ["~/", "/r/home", "/r/home"],
    ["~/.ssh/**", "/r/home", "/r/home/.ssh"],
    ["/secret", "/r/proj", "/r/proj/secret"],
    ["/", "/r/proj", "/r/proj"],
    [".", "/r/proj", "/r/proj"],
    ["./", "/r/proj", "/r/proj"],
    ["./src/**", "/r/proj", "/r/proj/src"],
    ["./src/", "/r/proj", "/r/proj/src"],
    ["./a/b/*.ts", "/r/proj", "/r/proj/a/b"],
    ["./a/?/c", "/r/proj", "/r/proj/a"],
    ["./a/[bc]/d", "/r/proj", "/r/proj/a"],
    ["./a/{b,c}/d", "/r/proj", "/r/proj/a"],
    ["./a/**/b", "/r/proj", "/r/proj/a"],
    ["./a//b", "/r/proj", "/r/proj/a"],
    ["a/b", "/r/proj", "/r/proj/a/b"],
    ["*.env", "/r/proj", undefined],
    ["secret", "/r/proj", undefined],
    ["~foo", "/r/proj", undefined],
    ["**", "/r/proj", undefined],
    ["  ./a  ", "/r/proj", "/r/proj/a"]
  ]
  for (const [specifier, anchor, fixedRoot] of anchors) {
    it(`${JSON.stringify(specifier)} is anchored at ${anchor}`, () => {
      const pattern = compiled(specifier)
      expect(pattern.anchor).toBe(anchor)
      expect(pattern.fixedRoot).toBe(fixedRoot)
      expect(pattern.specifier).toBe(specifier.trim())
    })
  }

  it("the anchor is mapped to its real path, and the fixed root with it", () => {
    const pattern = compiled("./src/**", "/r/proj", "/r/home", (dir) => (dir === "/r/proj" ? "/real/proj" : dir))
    expect(pattern.anchor).toBe("/real/proj")
    expect(pattern.fixedRoot).toBe("/real/proj/src")
    const home = compiled("~/x", "/r/proj", "/r/home", (dir) => (dir === "/r/home" ? "/real/home" : dir))
    expect(home.anchor).toBe("/real/home")
  })

  const invalid: ReadonlyArray<string> = ["", "   ", "../x", "./../x", "a/../b", "~/../x", "//..", "/..", "..", "!x", "#x", "./{a", "{a,b"]
  for (const specifier of invalid) {
    it(`${JSON.stringify(specifier)} is refused`, () => {
      const parsed = compilePathPattern(specifier, "/r/proj", "/r/home")
      expect(parsed._tag).toBe("Invalid")
      if (parsed._tag === "Invalid") expect(parsed.message).not.toBe("")
    })
  }

  it("names that merely contain dots are patterns", () => {
    expect(compilePathPattern("..foo", "/r/proj", "/r/home")._tag).toBe("Pattern")
    expect(compilePathPattern("./x/..y", "/r/proj", "/r/home")._tag).toBe("Pattern")
    expect(compilePathPattern("./!x", "/r/proj", "/r/home")._tag).toBe("Pattern")
  })
})

describe("matchesPath", () => {
  const yes = (specifier: string, file: string, caseFolded = false) => expect(matchesPath(compiled(specifier), file, caseFolded), `${specifier} ~ ${file}`).toBe(true)
  const no = (specifier: string, file: string, caseFolded = false) => expect(matchesPath(compiled(specifier), file, caseFolded), `${specifier} !~ ${file}`).toBe(false)

  it("an anchored rule names one path under its anchor, and what is inside it", () => {
    yes("./.env", "/r/proj/.env")
    no("./.env", "/r/proj/sub/.env")
    no("./.env", "/r/proj/a/b/.env")
    no("./.env", "/r/.env")
    no("./.env", "/r/proj/.env.local")
    yes("/secret", "/r/proj/secret")
    yes("/secret", "/r/proj/secret/key")
    yes("/secret", "/r/proj/secret/a/b/key")
    no("/secret", "/r/proj/a/secret")
    no("/secret", "/r/proj/a/secret/key")
    no("/secret", "/secret")
    no("/secret", "/r/proj/secrets")
    yes("a/b", "/r/proj/a/b")
    no("a/b", "/r/proj/x/a/b")
  })

  it("an unanchored rule is a name at any depth under its anchor, nowhere else", () => {
    yes("*.ts", "/r/proj/a.ts")
    yes("*.ts", "/r/proj/src/a/b.ts")
    no("*.ts", "/r/other/b.ts")
    no("*.ts", "/r/proj-evil/b.ts")
    no("*.ts", "/b.ts")
    no("*.ts", "/r/proj/b.tsx")
    // a directory the name matches covers what is inside it
    yes("secret", "/r/proj/a/secret/key")
    yes("*.d", "/r/proj/conf.d/x/y")
    no("secret", "/r/proj/a/secrets/key")
  })

  it("a directory pattern covers the directory itself and its contents", () => {
    yes("./src/**", "/r/proj/src")
    yes("./src/**", "/r/proj/src/a")
    yes("./src/**", "/r/proj/src/a/b/c")
    no("./src/**", "/r/proj/srcx")
    no("./src/**", "/r/proj/lib/src/a")
    yes("./a/**/b", "/r/proj/a/b")
    yes("./a/**/b", "/r/proj/a/x/y/b")
    yes("./a/**/b", "/r/proj/a/x/b/inner")
    no("./a/**/b", "/r/proj/a/x/c")
    yes("./a/*.ts", "/r/proj/a/x.ts")
    no("./a/*.ts", "/r/proj/a/b/x.ts")
    yes("./a/{,x}", "/r/proj/a")
    yes("./a/{,x}", "/r/proj/a/x/y")
    no("./a/{,x}", "/r/proj/a/zzz")
  })

  it("a rule for the whole anchor covers the anchor itself and all under it", () => {
    for (const specifier of [".", "./", "/", "~"]) {
      const pattern = compiled(specifier)
      expect(matchesPath(pattern, pattern.anchor, false), specifier).toBe(true)
      expect(matchesPath(pattern, path.join(pattern.anchor, "a", "b"), false), specifier).toBe(true)
      expect(matchesPath(pattern, "/elsewhere/a", false), specifier).toBe(false)
    }
    yes("./*", "/r/proj")
    // a pattern that matches the empty path covers the anchor itself, and only what it names under it
    yes("./{,x}", "/r/proj")
    yes("./{,x}", "/r/proj/x")
    no("./{,x}", "/r/proj/y")
    yes("./*", "/r/proj/a")
    no("./x", "/r/proj")
  })

  it("an absolute rule is relative to the filesystem root", () => {
    yes("//etc/**", "/etc")
    yes("//etc/**", "/etc/passwd")
    yes("//etc/passwd", "/etc/passwd")
    no("//etc/passwd", "/r/etc/passwd")
    no("//etc/**", "/r/proj/etc/passwd")
    yes("///etc", "/etc/passwd")
    yes("//", "/anything/at/all")
  })

  it("a home rule is relative to the home", () => {
    yes("~/.ssh/**", "/r/home/.ssh/id_rsa")
    no("~/.ssh/**", "/r/proj/.ssh/id_rsa")
    no("~/.ssh/**", "/r/home/a/.ssh/id_rsa")
    yes("~foo", "/r/proj/a/~foo")
    no("~foo", "/r/home/foo")
  })

  it("matches another letter case only when asked to (deny and ask rules)", () => {
    no("./Secret/**", "/r/proj/secret/a")
    yes("./Secret/**", "/r/proj/secret/a", true)
    no("*.ENV", "/r/proj/a/prod.env")
    yes("*.ENV", "/r/proj/a/prod.env", true)
    yes("./Secret/**", "/r/proj/Secret/a")
    // the anchor itself is compared exactly
    no("./secret/**", "/R/PROJ/secret/a", true)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Protected paths

describe("foldName", () => {
  it("folds case, compatibility forms and invisible characters; drops trailing dots and blanks", () => {
    expect(foldName(".GIT")).toBe(".git")
    expect(foldName(".Bashrc")).toBe(".bashrc")
    expect(foldName("\uff0e\uff47\uff49\uff54")).toBe(".git")
    expect(foldName("\uff0e\uff27\uff29\uff34")).toBe(".git")
    expect(foldName(".git\u200b")).toBe(".git")
    expect(foldName(".g\u200bi\u200bt")).toBe(".git")
    expect(foldName(".gi\u00adt")).toBe(".git")
    // default-ignorable code points that are not format characters
    expect(foldName(".gi\u034ft")).toBe(".git")
    expect(foldName(".g\u115fit")).toBe(".git")
    // format characters that are not default-ignorable
    expect(foldName(".gi\u0600t")).toBe(".git")
    expect(foldName(".GIT\u200b")).toBe(".git")
    expect(foldName("\u00c9t\u00e9")).toBe("\u00e9t\u00e9")
    expect(foldName(".git.")).toBe(".git")
    expect(foldName(".git..")).toBe(".git")
    expect(foldName(".git. .")).toBe(".git")
    expect(foldName(".git ")).toBe(".git")
    expect(foldName("a.b")).toBe("a.b")
    expect(foldName(".")).toBe(".")
    expect(foldName("..")).toBe("..")
    expect(foldName("")).toBe("")
    expect(foldName("a~b")).toBe("a~b")
  })
})

/** Every file protectedReason names in a home: shell start-up files, credentials, tool configurations. */
const homeFiles = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".mkshrc",
  ".inputrc",
  ".envrc",
  ".gitconfig",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".netrc",
  ".ssh",
  ".gnupg"
]

describe("protectedReason", () => {
  const weftHome = "/r/home/.weft"
  // protected: a reason to give (any non-empty text; the wording is not pinned here)
  const isProtected = (file: string) => expect(protectedReason(file, weftHome) ?? "", file).not.toBe("")
  const isFree = (file: string) => expect(protectedReason(file, weftHome), file).toBeUndefined()

  it("the repository, the agent's settings and the MCP configuration, at any depth and in any case", () => {
    for (const name of [".git", ".claude", ".mcp.json"]) {
      isProtected(`/r/proj/${name}`)
      isProtected(`/r/proj/sub/${name}`)
      isProtected(`/r/proj/${name}/a/b`)
      isProtected(`/r/proj/${name.toUpperCase()}/x`)
      isProtected(`/r/proj/${name}./x`)
      isProtected(`/r/proj/${name}\u200b/x`)
    }
    isProtected("/r/proj/\uff0e\uff47\uff49\uff54/config")
  })

  it("every shell start-up and credentials file, as the last component", () => {
    for (const name of homeFiles) {
      isProtected(`/r/home/${name}`)
      isProtected(`/r/proj/sub/${name}`)
      isProtected(`/r/home/${name.toUpperCase()}`)
    }
  })

  it("anything under ~/.ssh and ~/.gnupg", () => {
    for (const file of ["/r/home/.ssh/authorized_keys", "/r/home/.ssh/config", "/r/home/.ssh/keys/id_ed25519", "/r/home/.gnupg/gpg.conf", "/r/home/.gnupg/private-keys-v1.d/k.key", "/r/home/.SSH/authorized_keys", "/r/home/.GnuPG/x"]) {
      isProtected(file)
    }
  })

  it("fish's configuration", () => {
    isProtected("/r/home/.config/fish/config.fish")
    isProtected("/r/home/.config/FISH/Config.fish")
    isProtected("fish/config.fish")
    isFree("/r/home/.config/other/config.fish")
    isFree("/r/home/.config/fish/other.fish")
    isFree("config.fish")
  })

  it("weft's home and all under it, in any case", () => {
    isProtected("/r/home/.weft")
    isProtected("/r/home/.weft/trusted-projects.json")
    isProtected("/r/home/.WEFT/a/b")
    expect(protectedReason("/r/home/.weft/x", "/r/HOME/.Weft") ?? "").not.toBe("")
    expect(protectedReason("/r/state/x", "/r/state") ?? "").not.toBe("")
    isFree("/r/home/.weft-other/x")
    isFree("/r/home/.wef")
    isFree("/r/home")
  })

  it("ordinary files are not protected", () => {
    for (const file of [
      "/r/proj/src/a.ts",
      "/r/proj/.github/workflows/ci.yml",
      "/r/proj/.gitignore",
      "/r/proj/.git-blame-ignore-revs",
      "/r/proj/.claude-notes",
      "/r/proj/mcp.json",
      "/r/home/.bashrc.bak",
      "/r/home/bashrc",
      "/r/home/.sshd/x",
      "/r/home/ssh/authorized_keys",
      "/r/home/.config/x",
      "/r/home/.profile.d/a.sh",
      "/r/proj/.envrc/x"
    ]) {
      isFree(file)
    }
  })
})

describe("mayContain", () => {
  it("a path contains itself and what lies under it, by folded components", () => {
    expect(mayContain("/p", "/p")).toBe(true)
    expect(mayContain("/p", "/p/.git")).toBe(true)
    expect(mayContain("/p/", "/p/.git/hooks")).toBe(true)
    expect(mayContain("/", "/p/.git")).toBe(true)
    expect(mayContain("/p/.GIT", "/p/.git/config")).toBe(true)
    expect(mayContain("/p/.git", "/p/.GIT\u200b/config")).toBe(true)
    expect(mayContain("/p/.git\u200b", "/p/.git/config")).toBe(true)
    expect(mayContain("/p/.git.", "/p/.git")).toBe(true)
    expect(mayContain("/p/\uff0e\uff47\uff49\uff54", "/p/.git")).toBe(true)
    expect(mayContain("/p/x", "/p/.git")).toBe(false)
    expect(mayContain("/p/a/b", "/p/a")).toBe(false)
    expect(mayContain("/q", "/p/.git")).toBe(false)
    expect(mayContain("/p-evil", "/p/.git")).toBe(false)
  })

  it("a glob component may match a name, a dot name included", () => {
    expect(mayContain("/p/*", "/p/.git/hooks")).toBe(true)
    // a pattern under a directory does not contain the directory itself
    expect(mayContain("/p/*", "/p")).toBe(false)
    expect(mayContain("/p/*/*", "/p/a")).toBe(false)
    expect(mayContain("/p/.g*", "/p/.git")).toBe(true)
    expect(mayContain("/p/.G?T", "/p/.git")).toBe(true)
    expect(mayContain("/p/[.]git", "/p/.git")).toBe(true)
    expect(mayContain("/*/.git", "/p/.git")).toBe(true)
    expect(mayContain("/p/*.o", "/p/.git")).toBe(false)
    expect(mayContain("/p/.g*x", "/p/.git")).toBe(false)
    expect(mayContain("/p/a*", "/p/ba")).toBe(false)
    expect(mayContain("/p/*a", "/p/ab")).toBe(false)
  })

  it("an extended glob or a pattern that does not compile may match anything", () => {
    expect(mayContain("/p/@(x)", "/p/.git")).toBe(true)
    expect(mayContain("/p/!(x)", "/p/.git")).toBe(true)
    expect(mayContain("/p/+(x)", "/p/.git")).toBe(true)
    expect(mayContain("/p/?(x)", "/p/.git")).toBe(true)
    expect(mayContain("/p/*(x)", "/p/.git")).toBe(true)
    expect(mayContain("/p/{a", "/p/.git")).toBe(true)
    // an extended glob still takes one component
    expect(mayContain("/p/@(x)/y", "/p/.git")).toBe(false)
    // parentheses alone are no extended glob
    expect(mayContain("/p/(x)", "/p/.git")).toBe(false)
  })

  it("protectedUnder names the protected location a write reaching under a path may change", () => {
    const locations = ["/p/.git", "/h/.bashrc"]
    expect(protectedUnder("/p", locations)).toBe("/p/.git")
    expect(protectedUnder("/h", locations)).toBe("/h/.bashrc")
    expect(protectedUnder("/", locations)).toBe("/p/.git")
    expect(protectedUnder("/p/src", locations)).toBeUndefined()
    expect(protectedUnder("/p", [])).toBeUndefined()
  })
})

describe("protectedPatternReason", () => {
  const may = (pattern: string) => expect(protectedPatternReason(pattern) ?? "", pattern).not.toBe("")
  const mayNot = (pattern: string) => expect(protectedPatternReason(pattern), pattern).toBeUndefined()

  it("a glob component that may match a protected name, at any depth", () => {
    may("/p/.g*/config")
    may("/p/.g*")
    may("/p/*")
    may("/p/*/x")
    may("/p/.c?aude/x")
    may("/p/.mcp.*")
    may("/p/.GI?")
    may("/p/*(x)/y")
  })

  it("a start-up file only as the last component, ~/.ssh and ~/.gnupg anywhere", () => {
    may("/h/.b*")
    may("/h/.b*/")
    may("/h/.z*")
    may("/h/.n*")
    may("/h/.s*/authorized_keys")
    may("/h/.gn*/x")
    may("/h/.[s]sh/x")
    mayNot("/h/.b*/x")
    mayNot("/h/.z*/x")
    mayNot("/h/.p*/x")
  })

  it("names that are no pattern, and patterns that match no protected name", () => {
    mayNot("/p/.git/config")
    mayNot("/h/.bashrc")
    mayNot("/p/src/*.ts")
    mayNot("/p/*.o")
    mayNot("/p/a?")
    mayNot("/p/x")
    mayNot("/p/\\*")
  })
})

describe("protected locations", () => {
  it("the home's start-up and credentials files, its .claude and fish's configuration", () => {
    const locations = homeProtectedLocations("/h")
    expect([...locations].sort()).toEqual(
      [...homeFiles.map((name) => `/h/${name}`), "/h/.claude", "/h/.config/fish/config.fish"].sort()
    )
    for (const location of locations) expect(protectedReason(location, "/w") ?? "", location).not.toBe("")
  })

  it("a workspace root's .git, .claude and .mcp.json", () => {
    expect([...rootProtectedLocations("/p")].sort()).toEqual(["/p/.claude", "/p/.git", "/p/.mcp.json"])
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Through Permissions: the home's credentials and start-up files, in every mode

const protectedHomeFiles = [
  "$H/.ssh/authorized_keys",
  "$H/.ssh/config",
  "$H/.ssh/id_ed25519",
  "$H/.ssh",
  "$H/.gnupg/gpg.conf",
  "$H/.gnupg/private-keys-v1.d/k.key",
  "$H/.bashrc",
  "$H/.zshenv",
  "$H/.profile",
  "$H/.gitconfig",
  "$H/.netrc",
  "$H/.config/fish/config.fish",
  "$H/.claude/settings.json",
  "$W/trusted-projects.json",
  "$P/.git/config",
  "$P/.mcp.json"
]

const everyMode: Array<Case> = []
for (const mode of permissionModes) {
  for (const file of protectedHomeFiles) {
    for (const tool of ["Write", "Edit"]) {
      // asked about (dontAsk: denied, as nothing is asked), never allowed
      everyMode.push({ name: `${tool} ${file} in ${mode}`, tool, path: file, mode, allowedTools: ["Edit", "Write"], expect: mode === "dontAsk" ? "deny" : "ask" })
    }
  }
}

const throughLinks: ReadonlyArray<Case> = [
  { name: "a link to ~/.ssh/authorized_keys, in bypass", tool: "Write", path: "$P/keys", mode: "bypassPermissions", files: ["$H/.ssh/authorized_keys"], links: [["$P/keys", "$H/.ssh/authorized_keys"]], expect: "ask" },
  { name: "a file under a link to ~/.ssh, in bypass", tool: "Write", path: "$P/s/authorized_keys", mode: "bypassPermissions", files: ["$H/.ssh/known_hosts"], links: [["$P/s", "$H/.ssh"]], expect: "ask" },
  { name: "a dangling link into ~/.gnupg, in acceptEdits", tool: "Write", path: "$P/g", mode: "acceptEdits", links: [["$P/g", "$H/.gnupg/new.conf"]], expect: "ask" },
  { name: "another letter case of ~/.ssh, in bypass", tool: "Write", path: "$H/.SSH/authorized_keys", mode: "bypassPermissions", expect: "ask" },
  { name: "reading ~/.ssh is not a write", tool: "Read", path: "$H/.ssh/known_hosts", mode: "bypassPermissions", expect: "allow" },
  { name: "a file beside ~/.ssh is no credential", tool: "Write", path: "$H/ssh-notes.txt", mode: "bypassPermissions", expect: "allow" },
  { name: "a dangling link climbing out of a linked directory, in acceptEdits", tool: "Write", path: "$P/l", mode: "acceptEdits", files: ["$R/outside/deep/x"], links: [["$P/d", "$R/outside/deep"], ["$P/l", "d/../new"]], expect: "ask" },
  { name: "a dangling link climbing into weft's home, in bypass", tool: "Write", path: "$P/l", mode: "bypassPermissions", files: ["$H/docs/x"], links: [["$P/d", "$H/docs"], ["$P/l", "d/../.weft/trusted-projects.json"]], expect: "ask" },
  { name: "a .git file in the project, in bypass", tool: "Write", path: "$P/sub/.git/HEAD", mode: "bypassPermissions", expect: "ask" }
]

describe("protected paths through Permissions", () => {
  for (const test of [...everyMode, ...throughLinks]) {
    it.effect(`${test.name} -> ${test.expect}`, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(test)
        expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
      })
    )
  }
})
