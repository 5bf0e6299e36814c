import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ShellCheck from "../../src/permissions/ShellCheck.js"
import { type Case, decisionOf, verdict } from "./support.js"

const perm = (rules: { allow?: Array<string>; ask?: Array<string>; deny?: Array<string> }) => ({ permissions: rules })
const bash = (name: string, command: string, expect: Case["expect"], rest: Partial<Case> = {}): Case => ({ name, tool: "Bash", command, expect, ...rest })

// Bash calls through the Permissions layer, on the parsed line (ShellCheck): rules, modes, the read-only table and
// the workspace together.
const cases: ReadonlyArray<Case> = [
  // Read-only commands inside the workspace run in default mode; outside, or not read-only, they ask.
  bash("ls in the project", "ls -la", "allow"),
  bash("git status", "git status --short", "allow"),
  bash("git log with a format", "git log --oneline -n 5", "allow"),
  bash("cat a project file", "cat src/a.ts", "allow"),
  bash("cat a file outside the workspace", "cat /etc/passwd", "ask"),
  bash("cat through .. out of the project", "cat ../secret", "ask"),
  bash("grep -r in the project", "grep -rn TODO src", "allow"),
  bash("rg in the project, piped to head", "rg -n TODO | head -20", "allow"),
  bash("cd then a relative read", "cd src && ls", "allow"),
  bash("cd then climbing out", "cd src && cat ../../x", "ask"),
  bash("a read-only pipeline with a glob", "wc -l src/*.ts | sort -n", "allow"),
  bash("a glob that may match ..", "cat .*/x", "ask"),
  bash("stdin from a file outside", "wc -l < /etc/passwd", "ask"),
  bash("a loop reading a file outside", "while read l; do echo $l; done < /etc/shadow", "ask"),
  bash("a write redirection in default mode", "echo hi > notes.txt", "ask"),
  bash("a write redirection in acceptEdits", "echo hi > notes.txt", "allow", { mode: "acceptEdits" }),
  bash("a write redirection outside the workspace in acceptEdits", "echo hi > /tmp/x", "ask", { mode: "acceptEdits" }),
  bash("stderr to /dev/null is no write", "ls 2>/dev/null", "allow"),
  bash("a write redirection to .git in acceptEdits", "echo x > .git/config", "ask", { mode: "acceptEdits" }),
  // Executing options of read-only tools.
  bash("find -exec", "find . -exec rm {} \\;", "ask"),
  bash("find -delete", "find . -name '*.o' -delete", "ask"),
  bash("find -name", "find . -name '*.ts'", "allow"),
  bash("sed -i", "sed -i s/a/b/ f.txt", "ask"),
  bash("sed printing", "sed -n 1,5p f.txt", "allow"),
  bash("sed w", "sed 'w out' f.txt", "ask"),
  bash("git -c", "git -c core.pager=less log", "ask"),
  bash("git diff --output", "git diff --output=/tmp/x", "ask"),
  bash("git diff abbreviated --out", "git diff --out=x", "ask"),
  bash("rg --pre", "rg --pre ./x foo", "ask"),
  bash("sort -o", "sort -o out.txt in.txt", "ask"),
  bash("sort --compress-program", "sort --compress-program=sh in.txt", "ask"),
  bash("xargs cat", "ls | xargs cat", "ask"),
  // Rules.
  bash("an allow rule", "npm test", "allow", { settings: { user: perm({ allow: ["Bash(npm test)"] }) } }),
  bash("no rule for npm test", "npm test", "ask"),
  bash("allow for one, not the other", "npm test && npm publish", "ask", { settings: { user: perm({ allow: ["Bash(npm test)"] }) } }),
  bash("allow plus read-only", "npm test && git status", "allow", { settings: { user: perm({ allow: ["Bash(npm test)"] }) } }),
  bash("a legacy prefix rule", "git push origin main", "allow", { settings: { user: perm({ allow: ["Bash(git push:*)"] }) } }),
  bash("a prefix rule is word by word", "gitx push", "ask", { settings: { user: perm({ allow: ["Bash(git:*)"] }) } }),
  bash("deny in a chain", "ls && rm -rf build", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny in a substitution", "echo $(rm -rf build)", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny through sudo and timeout", "sudo timeout 5 rm x", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny through quoting", "'r''m' -rf x", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny through ANSI-C quoting", "$'\\x72m' -rf x", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny through a path", "/bin/rm -rf x", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny beats allow", "rm x", "deny", { settings: { user: perm({ allow: ["Bash(rm:*)"] }), project: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("deny beats bypassPermissions", "rm x", "deny", { mode: "bypassPermissions", settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("ask rule", "git push", "ask", { settings: { user: perm({ allow: ["Bash(git:*)"], ask: ["Bash(git push:*)"] }) } }),
  // Unanalysable input: asked, denied where any Bash deny rule exists, in every mode.
  bash("eval asks", "eval 'ls'", "ask"),
  bash("eval is denied while a Bash deny rule exists", "eval 'rm x'", "deny", { settings: { user: perm({ deny: ["Bash(curl:*)"] }) } }),
  bash("bash -c is denied while a Bash deny rule exists", "bash -c 'rm x'", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("sh -c in bypassPermissions with a deny rule", "sh -c 'rm x'", "deny", { mode: "bypassPermissions", settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("sh -c in bypassPermissions without a deny rule", "sh -c 'ls'", "allow", { mode: "bypassPermissions" }),
  bash("a variable as the command", "$X -rf /", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } }),
  bash("an allow-all rule does not allow the unanalysable", "eval ls", "ask", { settings: { user: perm({ allow: ["Bash(*)"] }) } }),
  bash("plan mode refuses the unanalysable", "eval ls", "deny", { mode: "plan" }),
  bash("plan mode runs read-only commands", "git diff", "allow", { mode: "plan" }),
  bash("plan mode refuses writes", "npm install", "deny", { mode: "plan" }),
  bash("dontAsk denies what would ask", "npm test", "deny", { mode: "dontAsk" }),
  bash("input that does not parse", "echo \"unterminated", "ask"),
  bash("python -c with a deny rule", "python3 -c 'import os'", "deny", { settings: { user: perm({ deny: ["Bash(rm:*)"] }) } })
]

describe("Permissions on parsed Bash", () => {
  for (const testCase of cases) {
    it.effect(`${testCase.name}: ${JSON.stringify(testCase.command)} -> ${testCase.expect}`, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(testCase, ShellCheck.parsed)
        expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(testCase.expect)
      })
    )
  }

  it.effect("a deny rule that does not parse still denies an unanalysable line, and is named when it is the only one", () =>
    Effect.gen(function* () {
      const reasonOf = (verdict: { readonly _tag: string; readonly reason?: string }) => (verdict._tag === "Deny" ? verdict.reason : `not denied: ${verdict._tag}`)
      const withGood = yield* ShellCheck.check("eval 'rm x'", { allow: [], ask: [], deny: ["curl:*", "echo 'a"] })
      expect(reasonOf(withGood)).toContain("deny rule (Bash(curl:*)) is in force")
      const onlyBad = yield* ShellCheck.check("eval 'rm x'", { allow: [], ask: [], deny: ["echo 'a"] })
      expect(reasonOf(onlyBad)).toContain("deny rule (Bash(echo 'a)) is in force")
      const analysed = yield* ShellCheck.check("ls", { allow: [], ask: [], deny: ["echo 'a"] })
      expect(analysed._tag).toBe("NoRule")
    })
  )

  it("validates rule specifiers", () => {
    expect(ShellCheck.validate("git:*")).toBeUndefined()
    expect(ShellCheck.validate("echo 'a")).toContain("unterminated quote")
  })
})

// ---------------------------------------------------------------------------------------------------------------
// The verdict itself: what Permissions is given to decide on (reasons are only required to be there)

type Rules = { allow?: Array<string | undefined>; ask?: Array<string | undefined>; deny?: Array<string | undefined> }
const verdictOf = (command: string, rules: Rules = {}) =>
  Effect.map(ShellCheck.check(command, { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] }), (result) => {
    if ("reason" in result) {
      expect(result.reason).not.toBe("")
      return { ...result, reason: "<reason>" }
    }
    return result
  })

describe("ShellCheck.check: the verdict", () => {
  const directoryChanges: ReadonlyArray<readonly [string, ReadonlyArray<string | undefined>]> = [
    ["cd src && ls", ["src"]],
    ["cd", ["~"]],
    ["cd -P dir", ["dir"]],
    ["cd -LP@e dir", ["dir"]],
    ["cd -P -L dir", ["dir"]],
    ["cd -- dir", ["dir"]],
    ["cd -P -- dir", ["dir"]],
    ["cd -- -P", ["-P"]],
    ["cd $X -P", [undefined]],
    ["cd -P -- -L", ["-L"]],
    ["cd -- -P dir", ["-P"]],
    ["cd --", ["~"]],
    ["cd -P", ["~"]],
    ["cd -", []],
    ["cd $D", [undefined]],
    ["cd -- $D", [undefined]],
    ["cd dir -P", ["dir"]],
    ["cd -x dir", ["-x"]],
    ["cd +1", ["+1"]],
    ["cd a; ls; cd b", ["a", "b"]],
    ["pushd dir", ["dir"]],
    ["pushd -n dir", ["-n"]],
    ["pushd", []],
    ["pushd +1", []],
    ["pushd -2", []],
    ["pushd +12", []],
    ["pushd a+1", ["a+1"]],
    ["pushd +1x", ["+1x"]],
    ["cd a-P", ["a-P"]],
    ["cd -Px dir", ["-Px"]],
    ["popd", []],
    ["ls cd", []],
    ["echo cd x", []]
  ]
  for (const [command, expected] of directoryChanges) {
    it.effect(`${command}: directories ${JSON.stringify(expected)}`, () =>
      Effect.gen(function* () {
        const result = yield* ShellCheck.check(command, { allow: [], ask: [], deny: [] })
        expect(result._tag === "NoRule" || result._tag === "Allow" ? result.directoryChanges : result._tag).toEqual(expected)
      })
    )
  }

  it.effect("an allowed line: its redirections' and options' targets, program writes granted", () =>
    Effect.gen(function* () {
      expect(yield* verdictOf("ls > out", { allow: ["ls:*"] })).toEqual({ _tag: "Allow", writes: ["out"], files: [], directoryChanges: [] })
      expect(yield* verdictOf("git diff --output=x > y", { allow: ["git diff:*"] })).toEqual({ _tag: "Allow", writes: ["y", "x"], files: [], directoryChanges: [] })
      expect(yield* verdictOf("git diff --output=/dev/null", { allow: ["git diff:*"] })).toEqual({ _tag: "Allow", writes: [], files: [], directoryChanges: [] })
      expect(yield* verdictOf("ls > $F", { allow: ["ls:*"] })).toEqual({ _tag: "Allow", writes: [undefined], files: [], directoryChanges: [] })
      expect(yield* verdictOf("cd sub && cp a b", { allow: ["cp:*", "cd:*"] })).toEqual({
        _tag: "Allow",
        writes: [],
        files: [
          { path: "b", tree: false, glob: false, granted: true },
          { path: "b/a", tree: false, glob: false, granted: true }
        ],
        directoryChanges: ["sub"]
      })
    })
  )

  it.effect("a line no rule covers: each uncovered command's reading, writes, files granted only to covered commands", () =>
    Effect.gen(function* () {
      expect(yield* verdictOf("cp a b && mv c d && ls src > out", { allow: ["cp:*"] })).toEqual({
        _tag: "NoRule",
        uncovered: [
          { source: "mv c d", readOnly: { _tag: "NotReadOnly", reason: expect.any(String) } },
          { source: "ls src", readOnly: { _tag: "ReadOnly", paths: ["src"] } }
        ],
        writes: ["out"],
        files: [
          { path: "b", tree: false, glob: false, granted: true },
          { path: "b/a", tree: false, glob: false, granted: true },
          { path: "c", tree: true, glob: false, granted: false },
          { path: "d", tree: true, glob: false, granted: false },
          { path: "d/c", tree: true, glob: false, granted: false }
        ],
        directoryChanges: []
      })
      expect(yield* verdictOf("sort -o sorted in")).toEqual({
        _tag: "NoRule",
        uncovered: [{ source: "sort -o sorted in", readOnly: { _tag: "NotReadOnly", reason: expect.any(String) } }],
        writes: ["sorted"],
        files: [],
        directoryChanges: []
      })
      expect(yield* verdictOf("cat a b")).toEqual({
        _tag: "NoRule",
        uncovered: [{ source: "cat a b", readOnly: { _tag: "ReadOnly", paths: ["a", "b"] } }],
        writes: [],
        files: [],
        directoryChanges: []
      })
    })
  )

  it.effect("reads by a compound command's redirections are one more entry to check, only when there are some", () =>
    Effect.gen(function* () {
      const reading = yield* verdictOf("while read l; do echo; done < in.txt")
      expect(reading._tag === "NoRule" ? reading.uncovered.map((entry) => entry.readOnly) : reading).toEqual([
        { _tag: "NotReadOnly", reason: expect.any(String) },
        { _tag: "ReadOnly", paths: [] },
        { _tag: "ReadOnly", paths: ["in.txt"] }
      ])
      const unknown = yield* verdictOf("while read l; do echo; done < $F")
      expect(unknown._tag === "NoRule" ? unknown.uncovered.map((entry) => entry.readOnly._tag) : unknown).toEqual(["NotReadOnly", "ReadOnly", "NotReadOnly"])
      const plain = yield* verdictOf("while read l; do echo; done")
      expect(plain._tag === "NoRule" ? plain.uncovered.map((entry) => entry.source) : plain).toEqual(["read l", "echo"])
    })
  )

  it.effect("ask and deny: the unanalysable flag, and a deny rule that does not parse", () =>
    Effect.gen(function* () {
      expect(yield* verdictOf("eval x")).toEqual({ _tag: "Ask", reason: "<reason>", unanalysable: true })
      expect(yield* verdictOf("rm x", { ask: ["rm:*"] })).toEqual({ _tag: "Ask", reason: "<reason>", unanalysable: false })
      expect(yield* verdictOf("rm x", { deny: ["rm:*"] })).toEqual({ _tag: "Deny", reason: "<reason>" })
      expect(yield* verdictOf("eval x", { deny: ["x '"] })).toEqual({ _tag: "Deny", reason: "<reason>" })
      expect(yield* verdictOf("eval x", { deny: [undefined] })).toEqual({ _tag: "Deny", reason: "<reason>" })
      expect((yield* verdictOf("ls", { deny: ["x '"] }))._tag).toBe("NoRule")
      // An allow or ask rule that does not parse matches nothing.
      expect((yield* verdictOf("ls > out", { allow: ["x '"] }))._tag).toBe("NoRule")
      expect((yield* verdictOf("rm x", { ask: ["x '"] }))._tag).toBe("NoRule")
    })
  )
})
