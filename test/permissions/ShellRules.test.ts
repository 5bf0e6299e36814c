/**
 * Bash rules word by word: how a specifier parses, which argv it matches in each sense (`must` for allow, `may` for
 * deny and ask), at which wrapper level, and the decision over every command of a line.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"

const { wordOf, unknownWord } = ShellCommand

const rule = (specifier: string | undefined): ShellCommand.BashRule => {
  const parsed = ShellCommand.parseRule(specifier)
  if (parsed._tag === "Invalid") throw new Error(parsed.message)
  return parsed.rule
}

const ruleWords = (specifier: string): ReadonlyArray<ShellCommand.RuleWord> => {
  const parsed = rule(specifier)
  if (parsed._tag === "Any") throw new Error(`${specifier} is Any`)
  return parsed.words
}

/** A rule's words as text: literal words as they are, `<glob>` for a pattern, `*` for any number of words. */
const shape = (specifier: string): string =>
  ruleWords(specifier)
    .map((word) => (word._tag === "Literal" ? word.text : word._tag === "Glob" ? `<${word.text}>` : "*"))
    .join(" | ")

const argv = (line: string) => line.split(" ").filter((word) => word !== "").map(wordOf)

const matches = (line: string, specifier: string, sense: "must" | "may" = "must") => ShellCommand.argvMatches(argv(line), ruleWords(specifier), sense)

describe("ShellCommand.parseRule", () => {
  it("the whole tool: nothing, blanks, `*`, `:*`", () => {
    for (const specifier of [undefined, "", "   ", "*", " * ", ":*", " :* "]) {
      expect(ShellCommand.parseRule(specifier)).toEqual({ _tag: "Rule", rule: { _tag: "Any", specifier: (specifier ?? "").trim() } })
    }
  })

  it("keeps the specifier trimmed", () => {
    expect(rule("  npm test  ")).toMatchObject({ _tag: "Words", specifier: "npm test" })
    expect(rule("\tgit:*\n")).toMatchObject({ _tag: "Words", specifier: "git:*" })
  })

  const shapes: ReadonlyArray<readonly [specifier: string, shape: string]> = [
    ["npm test", "npm | test"],
    ["npm   test", "npm | test"],
    ["npm\ttest", "npm | test"],
    ["npm run:*", "npm | run | *"],
    ["npm run :*", "npm | run | *"],
    ["git commit *", "git | commit | *"],
    ["git * main", "git | * | main"],
    ["ls*", "<ls> | *"],
    ["npm run test*", "npm | run | <test> | *"],
    ["a*b", "<ab>"],
    ["a*b c", "<ab> | c"],
    ["ls* -l", "<ls> | -l"],
    ["git * *", "git | * | *"],
    ["echo '*'", "echo | *"],
    ["echo \\*", "echo | *"],
    ["echo \"a b\"", "echo | a b"],
    ["echo 'a b'", "echo | a b"],
    ["echo a\\ b", "echo | a b"],
    ["echo '' x", "echo |  | x"],
    ["echo \"it's\"", "echo | it's"],
    ["echo 'say \"hi\"'", "echo | say \"hi\""],
    ["echo '.' '+'", "echo | . | +"],
    ["echo '*'*", "<*> | *"],
    ["echo x:*", "echo | x | *"],
    ["echo 'x:*'", "echo | x:*"],
    ["a:* b", "<a:> | b"],
    ["rm -rf /", "rm | -rf | /"],
    ["a ** b", "a | <> | b"],
    ["a *x", "a | <x>"],
    ["a x* :*", "a | <x> | *"],
    ["a ''*", "a | *"]
  ]
  for (const [specifier, expected] of shapes) {
    it(`${JSON.stringify(specifier)} is ${expected}`, () => {
      if (specifier === "echo '*'*") {
        // A quoted star stays literal next to a wildcard: the word is a pattern whose literal part is `*`.
        expect(shape("echo '*'*")).toBe("echo | <*> | *")
        return
      }
      expect(shape(specifier)).toBe(expected)
    })
  }

  it("a quoted star inside a word is literal, an unquoted one matches any characters", () => {
    const [, starred] = ruleWords("echo '*'x*")
    expect(starred?._tag === "Glob" && starred.pattern.test("*xyz")).toBe(true)
    expect(starred?._tag === "Glob" && starred.pattern.test("axyz")).toBe(false)
    expect(starred?._tag === "Glob" && starred.pattern.test("*x")).toBe(true)
  })

  it("a pattern's special characters are literal; only `*` is a wildcard", () => {
    for (const [specifier, text, expected] of [
      ["echo a.b*", "a.b", true],
      ["echo a.b*", "axb", false],
      ["echo a+*", "aa", false],
      ["echo a+*", "a+", true],
      ["echo (x)*", "(x)", true],
      ["echo [ab]*", "a", false],
      ["echo [ab]*", "[ab]z", true],
      ["echo ^a$*", "^a$", true],
      ["echo a?*", "a", false],
      ["echo a|b*", "a", false],
      ["echo {1}*", "{1}", true],
      ["echo \\\\*", "\\x", true],
      ["echo *x", "x", true],
      ["echo *x", "yx", true],
      ["echo *x", "xy", false],
      ["echo a*", "ba", false],
      ["echo a*b", "a\nb", true]
    ] as const) {
      expect({ specifier, text, matched: matches(`echo ${text}`, specifier) }).toEqual({ specifier, text, matched: expected })
    }
  })

  it("refuses a trailing backslash, an unterminated quote, and a rule whose first word is any words", () => {
    for (const specifier of ["echo a\\", "\\", "echo 'a", "echo \"a", "'", "* rm", "* :*", "  * x"]) {
      expect({ specifier, tag: ShellCommand.parseRule(specifier)._tag }).toEqual({ specifier, tag: "Invalid" })
    }
    // A word that is only `*` somewhere else is fine, and a glob first word is a pattern, not any words.
    expect(ShellCommand.parseRule("x*")._tag).toBe("Rule")
    expect(ShellCommand.parseRule("*x")._tag).toBe("Rule")
    expect(ShellCommand.parseRule("'*'")._tag).toBe("Rule")
  })
})

describe("ShellCommand.argvMatches", () => {
  const cases: ReadonlyArray<readonly [line: string, specifier: string, matched: boolean]> = [
    ["npm test", "npm test", true],
    ["npm test --watch", "npm test", false],
    ["npm", "npm test", false],
    ["npm tests", "npm test", false],
    ["npm test", "npm test:*", true],
    ["npm test x y", "npm test:*", true],
    ["npm testx", "npm test:*", false],
    ["git", "git:*", true],
    ["gitx", "git:*", false],
    ["gitx status", "git:*", false],
    ["git status", "git *", true],
    ["git", "git *", true],
    ["git push origin main", "git * main", true],
    ["git main", "git * main", true],
    ["git push main x", "git * main", false],
    ["git push origin", "git * main", false],
    ["a b c", "a * *", true],
    ["a", "a * *", true],
    ["ls", "ls*", true],
    ["lsof -i", "ls*", true],
    ["l", "ls*", false],
    ["xls", "ls*", false],
    ["npm run testx", "npm run test*", true],
    ["npm run tes", "npm run test*", false],
    ["ls -l", "ls* -l", true],
    ["lsof -l", "ls* -l", true],
    ["ls -l x", "ls* -l", false],
    ["", "ls", false],
    ["", "ls *", false]
  ]
  for (const [line, specifier, matched] of cases) {
    it(`${JSON.stringify(line)} ${matched ? "matches" : "does not match"} ${specifier}, in both senses`, () => {
      expect(matches(line, specifier, "must")).toBe(matched)
      expect(matches(line, specifier, "may")).toBe(matched)
    })
  }

  it("a word known only at run time: may be any words (deny), matches only a lone `*` (allow)", () => {
    const line = [wordOf("rm"), unknownWord("$X")]
    expect(ShellCommand.argvMatches(line, ruleWords("rm -rf /"), "may")).toBe(true)
    expect(ShellCommand.argvMatches(line, ruleWords("rm -rf /"), "must")).toBe(false)
    expect(ShellCommand.argvMatches(line, ruleWords("rm:*"), "must")).toBe(true)
    expect(ShellCommand.argvMatches(line, ruleWords("rm"), "may")).toBe(true)
    expect(ShellCommand.argvMatches(line, ruleWords("rm"), "must")).toBe(false)
    expect(ShellCommand.argvMatches(line, ruleWords("rm x"), "must")).toBe(false)
    // It may stand for nothing: `rm $X` may be `rm`, but never `ls`.
    expect(ShellCommand.argvMatches(line, ruleWords("ls:*"), "may")).toBe(false)
    expect(ShellCommand.argvMatches([unknownWord("$C"), wordOf("x")], ruleWords("rm x"), "may")).toBe(true)
    expect(ShellCommand.argvMatches([unknownWord("$C"), wordOf("y")], ruleWords("rm x"), "may")).toBe(false)
    // Words after it must still match what remains.
    expect(ShellCommand.argvMatches([wordOf("rm"), unknownWord("$X"), wordOf("a")], ruleWords("rm -f b"), "may")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("rm"), unknownWord("$X"), wordOf("b")], ruleWords("rm -f b"), "may")).toBe(true)
    expect(ShellCommand.argvMatches([wordOf("rm"), unknownWord("$X"), wordOf("b")], ruleWords("rm b"), "may")).toBe(true)
  })

  it("a glob, a brace expansion or a tilde is no literal: deny may match, allow does not", () => {
    const globbed = { source: "*.txt", value: "*.txt", glob: true, brace: false, tilde: false }
    const braced = { source: "{a,b}", value: "{a,b}", glob: false, brace: true, tilde: false }
    for (const word of [globbed, braced]) {
      expect(ShellCommand.argvMatches([wordOf("rm"), word], ruleWords(`rm ${word.value}`), "must")).toBe(false)
      expect(ShellCommand.argvMatches([wordOf("rm"), word], ruleWords(`rm ${word.value}`), "may")).toBe(true)
      expect(ShellCommand.argvMatches([wordOf("rm"), word], ruleWords("rm *"), "must")).toBe(true)
    }
  })

  it("`~/x` as written matches the rule word `~/x` for an allow, and nothing else", () => {
    const tilde = { source: "~/bin", value: "~/bin", glob: false, brace: false, tilde: true }
    expect(ShellCommand.argvMatches([wordOf("ls"), tilde], ruleWords("ls ~/bin"), "must")).toBe(true)
    expect(ShellCommand.argvMatches([wordOf("ls"), tilde, wordOf("x")], ruleWords("ls ~/bin"), "must")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("ls"), tilde, wordOf("x")], ruleWords("ls ~/bin x"), "must")).toBe(true)
    expect(ShellCommand.argvMatches([wordOf("ls"), tilde], ruleWords("ls ~/lib"), "must")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("ls"), tilde], ruleWords("ls ~/b*"), "must")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("ls"), { ...tilde, glob: true }], ruleWords("ls ~/bin"), "must")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("ls"), { ...tilde, brace: true }], ruleWords("ls ~/bin"), "must")).toBe(false)
    expect(ShellCommand.argvMatches([wordOf("ls"), { ...tilde, tilde: false, value: undefined }], ruleWords("ls ~/bin"), "must")).toBe(false)
  })

  it("matches long lines without recursion", () => {
    const long = [wordOf("echo"), ...Array.from({ length: 20_000 }, () => wordOf("a"))]
    expect(ShellCommand.argvMatches(long, ruleWords("echo *"), "must")).toBe(true)
    expect(ShellCommand.argvMatches(long, ruleWords("echo * b"), "may")).toBe(false)
    expect(ShellCommand.argvMatches([...long, wordOf("b")], ruleWords("echo * b"), "may")).toBe(true)
  })
})

describe("ShellCommand words and assignments", () => {
  it("literal: only a static word without glob, brace or tilde", () => {
    const base = { source: "x", value: "x", glob: false, brace: false, tilde: false }
    expect(ShellCommand.literal(base)).toBe("x")
    expect(ShellCommand.literal({ ...base, value: "" })).toBe("")
    expect(ShellCommand.literal({ ...base, value: undefined })).toBeUndefined()
    expect(ShellCommand.literal({ ...base, glob: true })).toBeUndefined()
    expect(ShellCommand.literal({ ...base, brace: true })).toBeUndefined()
    expect(ShellCommand.literal({ ...base, tilde: true })).toBeUndefined()
  })

  it("wordOf is a static literal word; unknownWord a word known only at run time", () => {
    expect(wordOf("a b")).toEqual({ source: "a b", value: "a b", glob: false, brace: false, tilde: false })
    expect(unknownWord("<input>")).toEqual({ source: "<input>", value: undefined, glob: false, brace: false, tilde: false })
  })

  it("baseName is the last component of a path", () => {
    expect(ShellCommand.baseName("/usr/bin/git")).toBe("git")
    expect(ShellCommand.baseName("git")).toBe("git")
    expect(ShellCommand.baseName("./rm")).toBe("rm")
    expect(ShellCommand.baseName("dir/")).toBe("")
  })

  const assignments: ReadonlyArray<readonly [name: string, inert: boolean]> = [
    ["LANG", true],
    ["LANGUAGE", true],
    ["LC_ALL", true],
    ["LC_CTYPE", true],
    ["LC_", false],
    ["LC_all", false],
    ["TZ", true],
    ["NO_COLOR", true],
    ["FORCE_COLOR", true],
    ["CLICOLOR", true],
    ["CLICOLOR_FORCE", true],
    ["COLUMNS", true],
    ["LINES", true],
    ["TERM", true],
    ["CI", true],
    ["DEBUG", true],
    ["NODE_ENV", true],
    ["RUST_LOG", true],
    ["RUST_BACKTRACE", true],
    ["PYTHONUNBUFFERED", true],
    ["PYTHONDONTWRITEBYTECODE", true],
    ["GIT_PAGER_IN_USE", true],
    ["XLANG", false],
    ["LANGX", false],
    ["TERMINFO", false],
    ["PATH", false],
    ["LD_PRELOAD", false],
    ["NODE_OPTIONS", false],
    ["GIT_EXTERNAL_DIFF", false],
    ["x", true],
    ["_", true],
    ["_x1", true],
    ["my_var", true],
    ["myVar", false],
    ["1x", false],
    ["http_proxy", false],
    ["https_proxy", false],
    ["no_proxy", false],
    ["x_proxy_y", true]
  ]
  for (const [name, inert] of assignments) {
    it(`${name}=... is ${inert ? "" : "not "}inert`, () => {
      expect(ShellCommand.isInertAssignment({ name, value: wordOf("1") })).toBe(inert)
    })
  }

  it("writes and reads are the targets of write and read redirections only", () => {
    const redirect = (kind: ShellCommand.Redirect["kind"], target: string | undefined): ShellCommand.Redirect => ({
      kind,
      operator: ">",
      fd: undefined,
      target: target === undefined ? undefined : wordOf(target),
      source: ""
    })
    const analysis: ShellCommand.Analysis = {
      source: "",
      commands: [],
      redirects: [redirect("write", "w"), redirect("read", "r"), redirect("discard", "/dev/null"), redirect("duplicate", "1"), redirect("input", "i"), redirect("write", undefined), redirect("read", undefined)],
      unanalysable: []
    }
    expect(ShellCommand.writes(analysis).map((word) => word.value)).toEqual(["w"])
    expect(ShellCommand.reads(analysis).map((word) => word.value)).toEqual(["r"])
    expect(ShellCommand.isAnalysed(analysis)).toBe(true)
    expect(ShellCommand.isAnalysed({ ...analysis, unanalysable: [{ kind: "Eval", message: "" }] })).toBe(false)
  })
})

const analyze = (line: string) => ShellCommand.analyze(line)

describe("ShellCommand.analyze input length", () => {
  it.effect("a line of exactly the limit is parsed; one character more is not", () =>
    Effect.gen(function* () {
      const atLimit = yield* analyze("x".repeat(ShellCommand.maxSourceLength))
      expect(atLimit.unanalysable).toEqual([])
      expect(atLimit.commands.map((command) => command.name)).toEqual(["x".repeat(ShellCommand.maxSourceLength)])
      const over = yield* analyze("x".repeat(ShellCommand.maxSourceLength + 1))
      expect(over.unanalysable.map((reason) => reason.kind)).toEqual(["TooLong"])
      expect(over.commands).toEqual([])
      expect(over.redirects).toEqual([])
      expect(over.source).toBe("x".repeat(ShellCommand.maxSourceLength + 1))
      expect(ShellCommand.maxSourceLength).toBe(65_536)
    })
  )
})

const firstCommand = (line: string) =>
  Effect.gen(function* () {
    const analysis = yield* analyze(line)
    const command = analysis.commands.at(-1)
    if (command === undefined) throw new Error(`no command in ${line}`)
    return command
  })

const text = (argv: ReadonlyArray<ShellCommand.Word>) => argv.map((word) => ShellCommand.literal(word) ?? `<${word.source}>`).join(" ")

describe("ShellCommand wrapper levels", () => {
  it.effect("argvLevels: the whole line, then after each wrapper, each with the wrappers above it", () =>
    Effect.gen(function* () {
      const levels = ShellCommand.argvLevels(yield* firstCommand("sudo -u root timeout 5 nice rm x"))
      expect(levels.map((level) => text(level.argv))).toEqual(["sudo -u root timeout 5 nice rm x", "timeout 5 nice rm x", "nice rm x", "rm x"])
      expect(levels.map((level) => level.wrappedBy.map((wrapper) => wrapper.name))).toEqual([[], ["sudo"], ["sudo", "timeout"], ["sudo", "timeout", "nice"]])
      const plain = ShellCommand.argvLevels(yield* firstCommand("rm x"))
      expect(plain.map((level) => text(level.argv))).toEqual(["rm x"])
    })
  )

  const levelCases: ReadonlyArray<readonly [line: string, specifier: string, may: boolean, must: boolean]> = [
    // Any wrapper level for a deny; for an allow, only levels under transparent wrappers.
    ["sudo rm x", "rm:*", true, false],
    ["sudo rm x", "sudo:*", true, true],
    ["sudo rm x", "sudo rm x", true, true],
    ["timeout 5 rm x", "rm x", true, true],
    ["timeout 5 rm x", "timeout:*", true, true],
    ["timeout 5 sudo rm x", "sudo rm x", true, true],
    ["timeout 5 sudo rm x", "rm x", true, false],
    ["sudo timeout 5 rm x", "timeout 5 rm x", true, false],
    ["nice timeout 5 rm x", "timeout 5 rm x", true, true],
    ["nice timeout 5 rm x", "rm:*", true, true],
    ["chroot /srv rm x", "rm:*", true, false],
    ["doas rm x", "rm:*", true, false],
    // By the last component of a path, for a deny only.
    ["/bin/rm x", "rm:*", true, false],
    ["/bin/rm x", "/bin/rm:*", true, true],
    ["sudo /bin/rm x", "rm:*", true, false],
    ["timeout 5 /bin/rm x", "rm x", true, false],
    ["./rm x", "rm x", true, false],
    ["/usr/bin/rmdir x", "rm:*", false, false],
    ["bin/ x", "'' x", false, false],
    ["bin/x y", "x y", true, false],
    // Not by a prefix of a word, at any level.
    ["sudo rmdir x", "rm:*", false, false],
    ["gitx status", "git:*", false, false],
    ["/usr/bin/gitx status", "git:*", false, false],
    ["timeout 5 gitx", "git:*", false, false]
  ]
  for (const [line, specifier, may, must] of levelCases) {
    it.effect(`${JSON.stringify(line)} ${specifier}: may ${may}, must ${must}`, () =>
      Effect.gen(function* () {
        const command = yield* firstCommand(line)
        expect(ShellCommand.commandMayMatch(command, rule(specifier))).toBe(may)
        expect(ShellCommand.commandMustMatch(command, rule(specifier))).toBe(must)
      })
    )
  }

  it.effect("assignments: an allow needs every one inert, even for the whole tool; a deny ignores them", () =>
    Effect.gen(function* () {
      const poisoned = yield* firstCommand("PATH=/tmp ls")
      expect(ShellCommand.commandMustMatch(poisoned, rule("*"))).toBe(false)
      expect(ShellCommand.commandMustMatch(poisoned, rule("ls"))).toBe(false)
      expect(ShellCommand.commandMayMatch(poisoned, rule("ls"))).toBe(true)
      const inert = yield* firstCommand("LANG=C ls")
      expect(ShellCommand.commandMustMatch(inert, rule("ls"))).toBe(true)
      const viaEnv = yield* firstCommand("env PATH=/tmp ls")
      expect(ShellCommand.commandMustMatch(viaEnv, rule("ls"))).toBe(false)
      expect(ShellCommand.commandMustMatch(viaEnv, rule("env:*"))).toBe(false)
    })
  )

  it.effect("a bare assignment: no deny rule for a command matches it, an allow covers it when inert", () =>
    Effect.gen(function* () {
      const bare = yield* firstCommand("x=1")
      expect(ShellCommand.commandMayMatch(bare, rule("rm:*"))).toBe(false)
      expect(ShellCommand.commandMayMatch(bare, rule("*"))).toBe(true)
      expect(ShellCommand.commandMustMatch(bare, rule("rm:*"))).toBe(true)
      const exported = yield* firstCommand("PATH=/tmp")
      expect(ShellCommand.commandMustMatch(exported, rule("*"))).toBe(false)
    })
  )

  it.effect("a wrapper running nothing is the command itself", () =>
    Effect.gen(function* () {
      const nice = yield* firstCommand("nice")
      expect(nice.wrappers).toEqual([])
      expect(ShellCommand.commandMayMatch(nice, rule("nice"))).toBe(true)
      expect(ShellCommand.commandMustMatch(nice, rule("nice"))).toBe(true)
      expect(ShellCommand.commandMayMatch(nice, rule("rm:*"))).toBe(false)
    })
  )
})

interface DecideCase {
  readonly line: string
  readonly allow?: ReadonlyArray<string>
  readonly ask?: ReadonlyArray<string>
  readonly deny?: ReadonlyArray<string>
  readonly unparsedDeny?: string
  readonly expect: ShellCommand.RuleDecision["_tag"]
  /** For Deny and Ask: the rule that decided (undefined: none, the line is unanalysable). */
  readonly rule?: string | undefined
  /** For Deny: the command denied, as written. */
  readonly command?: string
  /** For NoRule: the commands no allow rule covers. */
  readonly uncovered?: ReadonlyArray<string>
}

const decideCases: ReadonlyArray<DecideCase> = [
  { line: "npm test", allow: ["npm test"], expect: "Allow" },
  { line: "npm test", expect: "NoRule", uncovered: ["npm test"] },
  { line: "npm test && ls && rm x", allow: ["npm test"], expect: "NoRule", uncovered: ["ls", "rm x"] },
  { line: "x=1; npm test", allow: ["npm test"], expect: "Allow" },
  { line: "PATH=/tmp; npm test", allow: ["npm test"], expect: "NoRule", uncovered: ["PATH=/tmp"] },
  { line: "npm test; npm run lint", allow: ["npm test", "npm run:*"], expect: "Allow" },
  { line: "npm test; npm run lint", allow: ["npm run:*"], expect: "NoRule", uncovered: ["npm test"] },
  // The first deny rule that may match, for the first command it matches.
  { line: "ls && rm x && curl y", deny: ["curl:*", "rm:*"], expect: "Deny", rule: "rm:*", command: "rm x" },
  { line: "ls && rm -f x", deny: ["rm -f:*", "rm:*"], expect: "Deny", rule: "rm -f:*", command: "rm -f x" },
  { line: "ls && rm -f x", deny: ["rm:*", "rm -f:*"], expect: "Deny", rule: "rm:*", command: "rm -f x" },
  { line: "ls && rm x && curl y", deny: ["rm:*", "curl:*"], expect: "Deny", rule: "rm:*", command: "rm x" },
  { line: "rm x; curl y", deny: ["curl:*", "rm:*"], expect: "Deny", rule: "rm:*", command: "rm x" },
  { line: "sudo rm -rf x", deny: ["rm:*"], expect: "Deny", rule: "rm:*", command: "sudo rm -rf x" },
  // Deny beats ask beats allow.
  { line: "git push", allow: ["git:*"], ask: ["git push"], deny: ["git push"], expect: "Deny", rule: "git push", command: "git push" },
  { line: "git push", allow: ["git:*"], ask: ["git push"], deny: ["rm:*"], expect: "Ask", rule: "git push" },
  { line: "ls; git push", allow: ["git:*", "ls"], ask: ["curl:*", "git push"], expect: "Ask", rule: "git push" },
  { line: "git status", allow: ["git:*"], ask: ["git push"], expect: "Allow" },
  { line: "git status", ask: ["git push"], expect: "NoRule", uncovered: ["git status"] },
  { line: "gitx", ask: ["git:*"], deny: ["git:*"], expect: "NoRule", uncovered: ["gitx"] },
  // Unanalysable: denied while any deny rule exists (even an unparsed one), else asked; never allowed.
  { line: "eval x", expect: "Ask", rule: undefined },
  { line: "eval x", allow: ["*"], expect: "Ask", rule: undefined },
  { line: "eval x", ask: ["eval:*"], expect: "Ask", rule: undefined },
  { line: "eval x", deny: ["curl:*"], expect: "Deny", rule: "curl:*" },
  { line: "eval x", unparsedDeny: "rm 'x", expect: "Deny", rule: undefined },
  { line: "eval x", deny: ["curl:*"], unparsedDeny: "rm 'x", expect: "Deny", rule: "curl:*" },
  { line: "ls", unparsedDeny: "rm 'x", expect: "NoRule", uncovered: ["ls"] },
  { line: "ls", unparsedDeny: "rm 'x", allow: ["ls"], expect: "Allow" },
  // A deny rule matching a command of an unanalysable line denies it by that rule and that command.
  { line: "rm x; eval y", deny: ["curl:*"], expect: "Deny", rule: "curl:*" },
  // A word known only at run time may be no word at all: `git push $FLAGS` may run exactly `git push`.
  { line: "git push $FLAGS", deny: ["git push"], expect: "Deny", rule: "git push", command: "git push $FLAGS" },
  { line: "rm $X", deny: ["rm"], expect: "Deny", rule: "rm", command: "rm $X" },
  { line: "rm $X", ask: ["rm"], expect: "Ask", rule: "rm" },
  { line: "rm $X", allow: ["rm"], expect: "NoRule", uncovered: ["rm $X"] },
  { line: "ls $X", deny: ["rm"], expect: "NoRule", uncovered: ["ls $X"] },
  // The whole tool.
  { line: "rm x", deny: [""], expect: "Deny", rule: "", command: "rm x" },
  { line: "rm x", ask: ["*"], expect: "Ask", rule: "*" },
  { line: "rm x && ls", allow: ["*"], expect: "Allow" }
]

describe("ShellCommand.decide over every command of a line", () => {
  for (const testCase of decideCases) {
    const label = `${JSON.stringify(testCase.line)} allow=${JSON.stringify(testCase.allow ?? [])} ask=${JSON.stringify(testCase.ask ?? [])} deny=${JSON.stringify(testCase.deny ?? [])}${testCase.unparsedDeny === undefined ? "" : " unparsed deny"}`
    it.effect(`${label} -> ${testCase.expect}`, () =>
      Effect.gen(function* () {
        const analysis = yield* analyze(testCase.line)
        const decision = ShellCommand.decide(analysis, {
          allow: (testCase.allow ?? []).map(rule),
          ask: (testCase.ask ?? []).map(rule),
          deny: (testCase.deny ?? []).map(rule),
          ...(testCase.unparsedDeny === undefined ? {} : { unparsedDeny: testCase.unparsedDeny })
        })
        expect(decision._tag).toBe(testCase.expect)
        if (decision._tag === "Deny" || decision._tag === "Ask") {
          if ("rule" in testCase) expect(decision.rule?.specifier).toBe(testCase.rule)
          // The reason names what decided: the rule and the command, or why the line could not be analysed.
          if (decision.rule !== undefined && decision.rule.specifier !== "") expect(decision.reason).toContain(`(${decision.rule.specifier})`)
          if (testCase.command !== undefined) expect(decision.reason).toContain(testCase.command)
          if (!ShellCommand.isAnalysed(analysis)) for (const reason of analysis.unanalysable) expect(decision.reason).toContain(reason.message)
          if (decision.rule === undefined && testCase.unparsedDeny !== undefined) expect(decision.reason).toContain(`(${testCase.unparsedDeny})`)
        }
        if (decision._tag === "Deny") {
          if (testCase.command !== undefined) expect(decision.command?.source).toBe(testCase.command)
          else expect(decision.command === undefined || "rule" in testCase).toBe(true)
        }
        if (decision._tag === "NoRule" && testCase.uncovered !== undefined) expect(decision.uncovered.map((command) => command.source)).toEqual(testCase.uncovered)
      })
    )
  }

  it.effect("an unanalysable line's denial names no command", () =>
    Effect.gen(function* () {
      const decision = ShellCommand.decide(yield* analyze("eval x"), { allow: [], ask: [], deny: [rule("curl:*")] })
      expect(decision._tag === "Deny" && decision.command).toBeUndefined()
    })
  )

  it.effect("writes are reported for an allow and for no rule alike", () =>
    Effect.gen(function* () {
      const allowed = ShellCommand.decide(yield* analyze("ls > a; echo > b 2>/dev/null"), { allow: [rule("*")], ask: [], deny: [] })
      expect(allowed._tag === "Allow" && allowed.writes.map((word) => word.value)).toEqual(["a", "b"])
      const unruled = ShellCommand.decide(yield* analyze("make > log < in"), { allow: [], ask: [], deny: [] })
      expect(unruled._tag === "NoRule" && unruled.writes.map((word) => word.value)).toEqual(["log"])
    })
  )
})

describe("ShellCommand.analyze without its parser", () => {
  it("a parser that cannot be loaded makes every line unanalysable, never an empty analysed line", async () => {
    vi.resetModules()
    vi.doMock("../../src/permissions/ShellSyntax.js", () => ({ loadParser: () => Promise.reject(new Error("no grammar")) }))
    try {
      const fresh = await import("../../src/permissions/ShellCommand.js")
      const analysis = await Effect.runPromise(fresh.analyze("ls"))
      expect(analysis.unanalysable.map((reason) => reason.kind)).toEqual(["ParserUnavailable"])
      expect(analysis.unanalysable[0]?.message).toContain("no grammar")
      expect(analysis.commands).toEqual([])
      expect(analysis.source).toBe("ls")
      expect(fresh.decide(analysis, { allow: [rule("*")], ask: [], deny: [] })._tag).toBe("Ask")
    } finally {
      vi.doUnmock("../../src/permissions/ShellSyntax.js")
      vi.resetModules()
    }
  })
})
