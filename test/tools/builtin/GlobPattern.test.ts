import { describe, expect, it } from "@effect/vitest"
import { compile, expandBraces, splitBase } from "../../../src/tools/search/GlobPattern.js"
import { decide, IgnoreStack, Overrides, parse, parseRule } from "../../../src/tools/search/Gitignore.js"

const matches = (pattern: string, path: string) => compile(pattern).matches(path)

describe("GlobPattern", () => {
  it("matches *, ?, ** and character classes segment by segment", () => {
    expect(matches("*.ts", "a.ts")).toBe(true)
    expect(matches("*.ts", "src/a.ts")).toBe(false)
    expect(matches("**/*.ts", "a.ts")).toBe(true)
    expect(matches("**/*.ts", "src/deep/er/a.ts")).toBe(true)
    expect(matches("**/*.ts", "src/a.tsx")).toBe(false)
    expect(matches("src/**/*.ts", "src/a.ts")).toBe(true)
    expect(matches("src/**/*.ts", "lib/a.ts")).toBe(false)
    expect(matches("src/**", "src/a/b/c.txt")).toBe(true)
    expect(matches("file?.md", "file1.md")).toBe(true)
    expect(matches("file?.md", "file10.md")).toBe(false)
    expect(matches("[ab]*.js", "b.js")).toBe(true)
    expect(matches("[!ab]*.js", "b.js")).toBe(false)
    expect(matches("[a-c][0-9].txt", "c7.txt")).toBe(true)
    expect(matches("[[:digit:]].txt", "7.txt")).toBe(true)
    expect(matches("\\*.txt", "*.txt")).toBe(true)
    expect(matches("\\*.txt", "a.txt")).toBe(false)
    expect(matches("./src/*.ts", "src/a.ts")).toBe(true)
  })

  it("expands braces, nested and across slashes", () => {
    expect(expandBraces("src/**/*.{ts,tsx}")).toEqual(["src/**/*.ts", "src/**/*.tsx"])
    expect(expandBraces("{a,b{c,d}}x")).toEqual(["ax", "bcx", "bdx"])
    expect(expandBraces("{lonely}")).toEqual(["{lonely}"])
    expect(matches("{src,test}/**/*.{ts,tsx}", "test/x/y.tsx")).toBe(true)
    expect(matches("{src,test}/**/*.{ts,tsx}", "lib/y.ts")).toBe(false)
    expect(() => compile("{a,b")).toThrow(/unclosed/)
    expect(() => compile("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}{u,v}")).toThrow(/more than 1024/)
  })

  it("does not match dot names with wildcards unless the pattern spells the dot", () => {
    expect(matches("**/*.yml", ".github/workflows/ci.yml")).toBe(false)
    expect(matches(".github/**/*.yml", ".github/workflows/ci.yml")).toBe(true)
    expect(matches("*", ".env")).toBe(false)
    expect(matches(".env*", ".env.local")).toBe(true)
  })

  it("prunes directories that cannot lead to a match", () => {
    const matcher = compile("src/**/*.ts")
    expect(matcher.enter(matcher.initial, "lib")).toBeUndefined()
    const src = matcher.enter(matcher.initial, "src")
    expect(src).toBeDefined()
    const topLevel = compile("*.ts")
    expect(topLevel.enter(topLevel.initial, "src")).toBeUndefined()
    const anywhere = compile("**/*.ts")
    expect(anywhere.enter(anywhere.initial, ".git")).toBeUndefined()
    expect(anywhere.enter(anywhere.initial, "src")).toBeDefined()
  })

  it("splits a literal base off absolute and relative patterns", () => {
    expect(splitBase("/abs/src/**/*.ts")).toEqual({ base: "/abs/src", rest: "**/*.ts" })
    expect(splitBase("../other/*.md")).toEqual({ base: "../other", rest: "*.md" })
    expect(splitBase("**/*.ts")).toEqual({ base: "", rest: "**/*.ts" })
    expect(splitBase("package.json")).toEqual({ base: "", rest: "package.json" })
  })
})

describe("Gitignore", () => {
  const ignored = (content: string, path: string, isDirectory = false) => {
    const name = path.split("/").pop() ?? path
    return decide(parse(content), path, name, isDirectory) === "ignore"
  }

  it("matches names at any depth unless anchored", () => {
    expect(ignored("node_modules", "a/b/node_modules", true)).toBe(true)
    expect(ignored("*.log", "deep/x.log")).toBe(true)
    expect(ignored("/build", "build", true)).toBe(true)
    expect(ignored("/build", "src/build", true)).toBe(false)
    expect(ignored("doc/*.txt", "doc/a.txt")).toBe(true)
    expect(ignored("doc/*.txt", "doc/sub/a.txt")).toBe(false)
    expect(ignored("doc/*.txt", "x/doc/a.txt")).toBe(false)
  })

  it("directory-only patterns, negation (last match wins), ** forms, comments and escapes", () => {
    expect(ignored("out/", "out", true)).toBe(true)
    expect(ignored("out/", "out", false)).toBe(false)
    expect(ignored("*.log\n!keep.log", "keep.log")).toBe(false)
    expect(ignored("!keep.log\n*.log", "keep.log")).toBe(true)
    expect(ignored("**/cache", "a/b/cache", true)).toBe(true)
    expect(ignored("logs/**", "logs/a/b.txt")).toBe(true)
    expect(ignored("a/**/z", "a/z")).toBe(true)
    expect(ignored("a/**/z", "a/b/c/z")).toBe(true)
    expect(ignored("# comment\n\n", "# comment")).toBe(false)
    expect(ignored("\\#hash", "#hash")).toBe(true)
    expect(ignored("\\!bang", "!bang")).toBe(true)
    expect(ignored("trailing   ", "trailing")).toBe(true)
    expect(parseRule("   ")).toBeUndefined()
  })

  it("deeper ignore files override shallower ones", () => {
    const repo = IgnoreStack.empty.push("/repo", parse("*.gen.ts\n/top.txt"))
    const keep = repo.push("/repo/keep", parse("!*.gen.ts"))
    expect(keep.ignored("/repo/keep/a.gen.ts", "a.gen.ts", false)).toBe(false)
    expect(repo.ignored("/repo/other/a.gen.ts", "a.gen.ts", false)).toBe(true)
    // Anchored rules are relative to the directory of their file.
    expect(keep.ignored("/repo/top.txt", "top.txt", false)).toBe(true)
    expect(keep.ignored("/repo/keep/top.txt", "top.txt", false)).toBe(false)
  })

  it("ripgrep --glob overrides: positive globs include (beating ignore files), ! globs exclude", () => {
    const overrides = new Overrides(["*.ts", "!vendor"])
    expect(overrides.decide("src/a.ts", "a.ts", false)).toBe("include")
    expect(overrides.decide("src/a.js", "a.js", false)).toBe("ignore")
    expect(overrides.decide("src", "src", true)).toBe("none")
    expect(overrides.decide("vendor", "vendor", true)).toBe("ignore")
    expect(new Overrides(["!*.md"]).decide("a.txt", "a.txt", false)).toBe("none")
  })
})
