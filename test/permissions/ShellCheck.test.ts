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
