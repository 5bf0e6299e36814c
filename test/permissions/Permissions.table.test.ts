import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type Case, decisionOf, type ScopeName, verdict } from "./support.js"

const perm = (rules: { allow?: Array<string>; ask?: Array<string>; deny?: Array<string> }) => ({ permissions: rules })

// ---------------------------------------------------------------------------------------------------------------
// Every rule form

const ruleForms: ReadonlyArray<Case> = [
  { name: "bare Read allow outside the workspace", tool: "Read", path: "$R/out/a.txt", allowedTools: ["Read"], expect: "allow" },
  { name: "Read(./src/**) deny", tool: "Read", path: "$P/src/a.ts", settings: { user: perm({ deny: ["Read(./src/**)"] }) }, expect: "deny" },
  { name: "Read(./src/**) deny leaves a sibling", tool: "Read", path: "$P/lib/a.ts", settings: { user: perm({ deny: ["Read(./src/**)"] }) }, expect: "allow" },
  { name: "Read(/secret) relative to the project", tool: "Read", path: "$P/secret/key", settings: { project: perm({ deny: ["Read(/secret)"] }) }, expect: "deny" },
  { name: "Read(./.env) exact file", tool: "Read", path: "$P/.env", settings: { project: perm({ deny: ["Read(./.env)"] }) }, expect: "deny" },
  { name: "Read(*.env) at any depth", tool: "Read", path: "$P/a/b/prod.env", settings: { project: perm({ deny: ["Read(*.env)"] }) }, expect: "deny" },
  { name: "Read(//abs/**) absolute", tool: "Read", path: "$R/abs/x", disallowedTools: ["Read(/$R/abs/**)"], expect: "deny" },
  { name: "Read(//abs/**) allow outside the workspace", tool: "Read", path: "$R/abs/x", allowedTools: ["Read(/$R/abs/**)"], expect: "allow" },
  { name: "Read outside the workspace without a rule asks", tool: "Read", path: "$R/abs/x", expect: "ask" },
  { name: "Read(~/.ssh/**) under home", tool: "Read", path: "$H/.ssh/id_rsa", settings: { user: perm({ deny: ["Read(~/.ssh/**)"] }) }, expect: "deny" },
  { name: "Read(~/docs/**) allow under home", tool: "Read", path: "$H/docs/a.md", settings: { user: perm({ allow: ["Read(~/docs/**)"] }) }, expect: "allow" },
  { name: "user settings' /path is relative to the project", tool: "Read", path: "$P/notes/a", settings: { user: perm({ deny: ["Read(/notes/**)"] }) }, expect: "deny" },
  { name: "a Read rule covers Glob", tool: "Glob", path: "$P/src", settings: { user: perm({ deny: ["Read(./src/**)"] }) }, expect: "deny" },
  { name: "a Read rule covers Grep", tool: "Grep", path: "$P/src/a.ts", settings: { user: perm({ deny: ["Read(./src)"] }) }, expect: "deny" },
  { name: "an Edit rule covers Write", tool: "Write", path: "$P/gen/a.ts", settings: { user: perm({ allow: ["Edit(./gen/**)"] }) }, expect: "allow" },
  { name: "an Edit rule covers NotebookEdit", tool: "NotebookEdit", path: "$P/n.ipynb", settings: { user: perm({ deny: ["Edit(*.ipynb)"] }) }, expect: "deny" },
  { name: "an Edit deny covers Edit", tool: "Edit", path: "$P/locked/a", settings: { user: perm({ deny: ["Edit(./locked/**)"] }) }, mode: "acceptEdits", expect: "deny" },
  { name: "a Write rule does not cover Edit", tool: "Edit", path: "$P/a.ts", settings: { user: perm({ allow: ["Write(./a.ts)"] }) }, expect: "ask" },
  { name: "a Glob rule does not cover Read", tool: "Read", path: "$P/a.ts", settings: { user: perm({ deny: ["Glob(./a.ts)"] }) }, expect: "allow" },
  { name: "Edit(dir/) directory pattern", tool: "Edit", path: "$P/build/out.js", settings: { user: perm({ allow: ["Edit(build/)"] }) }, expect: "allow" },
  { name: "brace pattern", tool: "Read", path: "$P/conf/db.yaml", settings: { user: perm({ deny: ["Read(./conf/*.{yaml,yml})"] }) }, expect: "deny" },
  { name: "WebFetch(domain:host) allow", tool: "WebFetch", url: "https://example.com/a", settings: { user: perm({ allow: ["WebFetch(domain:example.com)"] }) }, expect: "allow" },
  { name: "WebFetch another host asks", tool: "WebFetch", url: "https://example.org/a", settings: { user: perm({ allow: ["WebFetch(domain:example.com)"] }) }, expect: "ask" },
  { name: "WebFetch a subdomain is another host", tool: "WebFetch", url: "https://evil.example.com/", settings: { user: perm({ allow: ["WebFetch(domain:example.com)"] }) }, expect: "ask" },
  { name: "WebFetch a suffix-sharing host", tool: "WebFetch", url: "https://notexample.com/", settings: { user: perm({ allow: ["WebFetch(domain:*.example.com)"] }) }, expect: "ask" },
  { name: "WebFetch *.host covers subdomains", tool: "WebFetch", url: "https://docs.example.com/", settings: { user: perm({ allow: ["WebFetch(domain:*.example.com)"] }) }, expect: "allow" },
  { name: "WebFetch deny by domain, any case", tool: "WebFetch", url: "https://EVIL.com/x", settings: { user: perm({ deny: ["WebFetch(domain:evil.com)"] }) }, mode: "bypassPermissions", expect: "deny" },
  { name: "bare WebFetch allow", tool: "WebFetch", url: "https://any.where/", allowedTools: ["WebFetch"], expect: "allow" },
  { name: "mcp__server allows its tools", tool: "mcp__db__query", settings: { user: perm({ allow: ["mcp__db"] }) }, expect: "allow" },
  { name: "mcp__server__* allows its tools", tool: "mcp__db__query", settings: { user: perm({ allow: ["mcp__db__*"] }) }, expect: "allow" },
  { name: "mcp__server__tool allows that tool", tool: "mcp__db__query", settings: { user: perm({ allow: ["mcp__db__query"] }) }, expect: "allow" },
  { name: "mcp__server__tool leaves another", tool: "mcp__db__drop", settings: { user: perm({ allow: ["mcp__db__query"] }) }, expect: "ask" },
  { name: "mcp__server is not a prefix of another server", tool: "mcp__dbx__query", settings: { user: perm({ allow: ["mcp__db"] }) }, expect: "ask" },
  { name: "mcp__server deny wins over the tool's allow", tool: "mcp__db__query", settings: { user: perm({ allow: ["mcp__db__query"], deny: ["mcp__db"] }) }, expect: "deny" },
  { name: "an unlisted MCP tool asks", tool: "mcp__db__query", expect: "ask" },
  { name: "TodoWrite needs no rule", tool: "TodoWrite", expect: "allow" },
  { name: "a deny rule that does not parse holds for the whole tool", tool: "Read", path: "$P/a", settings: { user: perm({ deny: ["Read(../x)"] }) }, expect: "deny" },
  { name: "an allow rule that does not parse allows nothing", tool: "Edit", path: "$P/a", settings: { user: perm({ allow: ["Edit(../x)"] }) }, expect: "ask" },
  { name: "Tool(*) is the whole tool", tool: "Edit", path: "$P/a", settings: { user: perm({ allow: ["Edit(*)"] }) }, expect: "allow" },
  { name: "a rule for another tool does nothing", tool: "Edit", path: "$P/a", settings: { user: perm({ allow: ["Read"] }) }, expect: "ask" }
]

// ---------------------------------------------------------------------------------------------------------------
// Modes

const modes: ReadonlyArray<Case> = [
  { name: "default: read inside", tool: "Read", path: "$P/a", expect: "allow" },
  { name: "default: write inside asks", tool: "Write", path: "$P/a", expect: "ask" },
  { name: "default: WebFetch asks", tool: "WebFetch", url: "https://x.org/", expect: "ask" },
  { name: "acceptEdits: write inside", tool: "Write", path: "$P/a", mode: "acceptEdits", expect: "allow" },
  { name: "acceptEdits: new file in a new directory inside", tool: "Write", path: "$P/new/deep/a", mode: "acceptEdits", expect: "allow" },
  { name: "acceptEdits: write outside asks", tool: "Write", path: "$R/other/a", mode: "acceptEdits", expect: "ask" },
  { name: "acceptEdits: MCP tool still asks", tool: "mcp__s__t", mode: "acceptEdits", expect: "ask" },
  { name: "plan: read inside", tool: "Read", path: "$P/a", mode: "plan", expect: "allow" },
  { name: "plan: write is refused", tool: "Edit", path: "$P/a", mode: "plan", expect: "deny" },
  { name: "plan: an allow rule does not let a write run", tool: "Edit", path: "$P/a", mode: "plan", allowedTools: ["Edit"], expect: "deny" },
  { name: "plan: non-read-only MCP tool refused", tool: "mcp__s__t", mode: "plan", expect: "deny" },
  { name: "bypass: write outside", tool: "Write", path: "$R/other/a", mode: "bypassPermissions", expect: "allow" },
  { name: "bypass: MCP tool", tool: "mcp__s__t", mode: "bypassPermissions", expect: "allow" },
  { name: "bypass: a deny rule still denies", tool: "Write", path: "$P/a", mode: "bypassPermissions", disallowedTools: ["Write"], expect: "deny" },
  { name: "bypass: an ask rule still asks", tool: "Write", path: "$P/a", mode: "bypassPermissions", settings: { user: perm({ ask: ["Write"] }) }, expect: "ask" },
  { name: "bypass refused by disableBypassPermissionsMode", tool: "Write", path: "$P/a", mode: "bypassPermissions", settings: { managed: { permissions: { disableBypassPermissionsMode: "disable" } } }, expect: "ask" },
  { name: "dontAsk: an ask becomes a deny", tool: "Write", path: "$P/a", mode: "dontAsk", expect: "deny" },
  { name: "dontAsk: read inside", tool: "Read", path: "$P/a", mode: "dontAsk", expect: "allow" },
  { name: "dontAsk: allowed by a rule", tool: "Write", path: "$P/a", mode: "dontAsk", allowedTools: ["Write"], expect: "allow" },
  { name: "defaultMode from settings", tool: "Write", path: "$P/a", settings: { user: { permissions: { defaultMode: "acceptEdits" } } }, expect: "allow" },
  { name: "--permission-mode beats defaultMode", tool: "Write", path: "$P/a", mode: "default", settings: { user: { permissions: { defaultMode: "acceptEdits" } } }, expect: "ask" },
  { name: "additionalDirectories widen the workspace", tool: "Read", path: "$R/shared/a", settings: { user: { permissions: { additionalDirectories: ["$R/shared"] } } }, expect: "allow" }
]

// ---------------------------------------------------------------------------------------------------------------
// Paths: symlinks, dangling links, `..`, prefix siblings

const paths: ReadonlyArray<Case> = [
  { name: "prefix sibling is outside", tool: "Read", path: "$R/proj-evil/a", expect: "ask" },
  { name: "prefix sibling is not in a deny rule's directory either way", tool: "Read", path: "$R/proj-evil/a", allowedTools: ["Read(/$R/proj/**)"], expect: "ask" },
  { name: "`..` out of the project", tool: "Read", path: "$P/../outside/a", expect: "ask" },
  { name: "`..` back into the project", tool: "Read", path: "$P/sub/../a", expect: "allow" },
  { name: "`..` into a denied directory", tool: "Read", path: "$P/ok/../secret/k", settings: { user: perm({ deny: ["Read(./secret/**)"] }) }, expect: "deny" },
  { name: "symlinked file leading out", tool: "Read", path: "$P/link", files: ["$R/outside/f"], links: [["$P/link", "$R/outside/f"]], expect: "ask" },
  { name: "symlinked file leading out, written in acceptEdits", tool: "Write", path: "$P/link", mode: "acceptEdits", files: ["$R/outside/f"], links: [["$P/link", "$R/outside/f"]], expect: "ask" },
  { name: "symlinked parent leading out", tool: "Write", path: "$P/dir/f", mode: "acceptEdits", files: ["$R/outside/f"], links: [["$P/dir", "$R/outside"]], expect: "ask" },
  { name: "symlinked parent, new file", tool: "Write", path: "$P/dir/new/f", mode: "acceptEdits", files: ["$R/outside/x"], links: [["$P/dir", "$R/outside"]], expect: "ask" },
  { name: "dangling link leading out", tool: "Write", path: "$P/dangling", mode: "acceptEdits", links: [["$P/dangling", "$R/outside/new-file"]], expect: "ask" },
  { name: "dangling link inside", tool: "Write", path: "$P/dangling", mode: "acceptEdits", links: [["$P/dangling", "$P/target-new"]], expect: "allow" },
  { name: "dangling relative link leading out", tool: "Write", path: "$P/dl", mode: "acceptEdits", links: [["$P/dl", "../outside/x"]], expect: "ask" },
  { name: "link into a denied file is denied", tool: "Read", path: "$P/innocent", files: ["$P/secret/key"], links: [["$P/innocent", "$P/secret/key"]], settings: { user: perm({ deny: ["Read(./secret/**)"] }) }, expect: "deny" },
  { name: "a denied path named through a link is denied", tool: "Read", path: "$P/alias/key", files: ["$P/secret/key"], links: [["$P/alias", "$P/secret"]], settings: { user: perm({ deny: ["Read(./secret/**)"] }) }, expect: "deny" },
  { name: "an allow rule holds on the real path only", tool: "Read", path: "$P/pub/k", files: ["$R/private/k"], links: [["$P/pub", "$R/private"]], settings: { user: perm({ allow: ["Read(/$P/pub/**)"] }) }, expect: "ask" },
  { name: "a link out to an allowed directory is allowed", tool: "Read", path: "$P/docs", files: ["$R/docs/a"], links: [["$P/docs", "$R/docs"]], allowedTools: ["Read(/$R/docs/**)"], expect: "allow" },
  { name: "a link inside pointing inside", tool: "Read", path: "$P/l", files: ["$P/real"], links: [["$P/l", "$P/real"]], expect: "allow" },
  { name: "deny rules match another letter case", tool: "Read", path: "$P/SECRET/key", settings: { user: perm({ deny: ["Read(./secret/**)"] }) }, expect: "deny" },
  { name: "allow rules do not match another letter case", tool: "Read", path: "$R/Shared/a", allowedTools: ["Read(/$R/shared/**)"], expect: "ask" },
  { name: "a link loop is the path as written", tool: "Read", path: "$P/loop", links: [["$P/loop", "$P/loop2"], ["$P/loop2", "$P/loop"]], expect: "allow" }
]

// ---------------------------------------------------------------------------------------------------------------
// Protected paths: ask even in acceptEdits and bypass; case, Unicode and invisible characters folded

const protectedCases: ReadonlyArray<Case> = [
  { name: ".git/config in acceptEdits", tool: "Edit", path: "$P/.git/config", mode: "acceptEdits", expect: "ask" },
  { name: ".git/hooks in bypass", tool: "Write", path: "$P/.git/hooks/pre-commit", mode: "bypassPermissions", expect: "ask" },
  { name: ".GIT (case)", tool: "Write", path: "$P/.GIT/config", mode: "acceptEdits", expect: "ask" },
  { name: ".Git (mixed case)", tool: "Write", path: "$P/.Git/hooks/x", mode: "acceptEdits", expect: "ask" },
  { name: ".git with a zero-width space", tool: "Write", path: "$P/.git\u200b/config", mode: "acceptEdits", expect: "ask" },
  { name: "full-width .git", tool: "Write", path: "$P/\uff0e\uff47\uff49\uff54/config", mode: "acceptEdits", expect: "ask" },
  { name: ".git. (trailing dot)", tool: "Write", path: "$P/.git./config", mode: "acceptEdits", expect: "ask" },
  { name: ".claude/settings.json", tool: "Write", path: "$P/.claude/settings.json", mode: "acceptEdits", expect: "ask" },
  { name: ".CLAUDE/settings.local.json", tool: "Edit", path: "$P/.CLAUDE/settings.local.json", mode: "acceptEdits", expect: "ask" },
  { name: ".mcp.json", tool: "Write", path: "$P/.mcp.json", mode: "acceptEdits", expect: "ask" },
  { name: ".MCP.JSON", tool: "Write", path: "$P/.MCP.JSON", mode: "acceptEdits", expect: "ask" },
  { name: "~/.bashrc in bypass", tool: "Write", path: "$H/.bashrc", mode: "bypassPermissions", expect: "ask" },
  { name: "~/.zshrc", tool: "Edit", path: "$H/.zshrc", mode: "bypassPermissions", expect: "ask" },
  { name: "~/.profile", tool: "Write", path: "$H/.profile", mode: "bypassPermissions", expect: "ask" },
  { name: "a project's .envrc", tool: "Write", path: "$P/.envrc", mode: "acceptEdits", expect: "ask" },
  { name: "$WEFT_HOME", tool: "Write", path: "$W/trusted-projects.json", mode: "bypassPermissions", expect: "ask" },
  { name: "a link to .git/config", tool: "Write", path: "$P/innocent", mode: "acceptEdits", files: ["$P/.git/config"], links: [["$P/innocent", "$P/.git/config"]], expect: "ask" },
  { name: "a link to ~/.bashrc", tool: "Write", path: "$P/rc", mode: "bypassPermissions", files: ["$H/.bashrc"], links: [["$P/rc", "$H/.bashrc"]], expect: "ask" },
  { name: "an allow rule does not unprotect", tool: "Edit", path: "$P/.git/config", allowedTools: ["Edit(./.git/**)"], expect: "ask" },
  { name: "protected and dontAsk: denied", tool: "Write", path: "$P/.git/config", mode: "dontAsk", expect: "deny" },
  { name: "reading .git is fine", tool: "Read", path: "$P/.git/HEAD", expect: "allow" },
  { name: ".github is not .git", tool: "Write", path: "$P/.github/workflows/ci.yml", mode: "acceptEdits", expect: "allow" },
  { name: "a deny rule beats protection", tool: "Write", path: "$P/.git/config", disallowedTools: ["Write"], expect: "deny" }
]

// ---------------------------------------------------------------------------------------------------------------
// Untrusted project settings

const trust: ReadonlyArray<Case> = [
  { name: "untrusted project allow is ignored", tool: "Write", path: "$P/a", trusted: false, settings: { project: perm({ allow: ["Write"] }) }, expect: "ask" },
  { name: "trusted project allow applies", tool: "Write", path: "$P/a", trusted: true, settings: { project: perm({ allow: ["Write"] }) }, expect: "allow" },
  { name: "untrusted local allow is ignored", tool: "Write", path: "$P/a", trusted: false, settings: { local: perm({ allow: ["Write"] }) }, expect: "ask" },
  { name: "untrusted project deny applies", tool: "Read", path: "$P/a", trusted: false, settings: { project: perm({ deny: ["Read"] }) }, expect: "deny" },
  { name: "untrusted project ask applies", tool: "Read", path: "$P/a", trusted: false, settings: { project: perm({ ask: ["Read"] }) }, expect: "ask" },
  { name: "untrusted project defaultMode bypass is ignored", tool: "Write", path: "$R/x", trusted: false, settings: { project: { permissions: { defaultMode: "bypassPermissions" } } }, expect: "ask" },
  { name: "untrusted local defaultMode acceptEdits is ignored", tool: "Write", path: "$P/x", trusted: false, settings: { local: { permissions: { defaultMode: "acceptEdits" } } }, expect: "ask" },
  { name: "untrusted additionalDirectories ignored", tool: "Read", path: "$R/x/a", trusted: false, settings: { project: { permissions: { additionalDirectories: ["$R/x"] } } }, expect: "ask" },
  { name: "untrusted top-level additionalDirectories ignored", tool: "Read", path: "$R/x/a", trusted: false, settings: { project: { additionalDirectories: ["$R/x"] } } , expect: "ask" },
  { name: "user allow applies in an untrusted project", tool: "Write", path: "$P/a", trusted: false, settings: { user: perm({ allow: ["Write"] }) }, expect: "allow" }
]

// ---------------------------------------------------------------------------------------------------------------
// Every scope-precedence pair: a deny in one scope beats an allow in another, and an ask beats an allow, both ways

const scopes: ReadonlyArray<ScopeName | "cli"> = ["managed", "flag", "local", "project", "user", "cli"]

const withRule = (scope: ScopeName | "cli", behavior: "allow" | "ask" | "deny", rule: string, into: Case): Case => {
  if (scope === "cli") {
    if (behavior === "ask") return into
    return behavior === "allow" ? { ...into, allowedTools: [rule] } : { ...into, disallowedTools: [rule] }
  }
  const current = into.settings ?? {}
  return { ...into, settings: { ...current, [scope]: perm({ [behavior]: [rule] }) } }
}

const precedence: Array<Case> = []
for (const high of scopes) {
  for (const low of scopes) {
    if (high === low) continue
    const base: Case = { name: "", tool: "Write", path: "$P/a.txt", expect: "deny" }
    precedence.push(
      withRule(low, "allow", "Write", withRule(high, "deny", "Write(./a.txt)", { ...base, name: `deny in ${high} beats allow in ${low}`, expect: "deny" }))
    )
    if (high !== "cli") {
      precedence.push(
        withRule(low, "allow", "Write", withRule(high, "ask", "Write(./a.txt)", { ...base, name: `ask in ${high} beats allow in ${low}`, expect: "ask" }))
      )
    }
  }
}

const all: ReadonlyArray<readonly [string, ReadonlyArray<Case>]> = [
  ["rule forms", ruleForms],
  ["modes", modes],
  ["paths", paths],
  ["protected paths", protectedCases],
  ["untrusted project settings", trust],
  ["scope precedence", precedence]
]

describe("Permissions.check (table)", () => {
  for (const [group, cases] of all) {
    describe(group, () => {
      for (const test of cases) {
        it.effect(`${test.name} -> ${test.expect}`, () =>
          Effect.gen(function* () {
            const decision = yield* decisionOf(test)
            expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
          })
        )
      }
    })
  }

  it("has at least 120 cases", () => {
    expect(all.reduce((sum, [, cases]) => sum + cases.length, 0)).toBeGreaterThanOrEqual(120)
  })
})

describe("Permissions warnings and messages", () => {
  it.effect("a rule that does not parse is a warning naming it", () =>
    Effect.gen(function* () {
      const decision = yield* decisionOf({
        name: "",
        tool: "Read",
        path: "$P/a",
        settings: { user: perm({ allow: ["Read(", "WebFetch(example.com)", "Edit(../up)"], deny: ["mcp__x(y)"] }) },
        expect: "allow"
      })
      const text = decision.warnings.join("\n")
      expect(text).toContain('"Read("')
      expect(text).toContain('"WebFetch(example.com)"')
      expect(text).toContain('"Edit(../up)"')
      expect(text).toContain('"mcp__x(y)"')
    })
  )

  it.effect("a denial names the rule and its source, for the model", () =>
    Effect.gen(function* () {
      const decision = yield* decisionOf({ name: "", tool: "Read", path: "$P/secret", settings: { project: perm({ deny: ["Read(./secret)"] }) }, expect: "deny" })
      expect(decision._tag).toBe("Deny")
      if (decision._tag === "Deny") {
        expect(decision.reason).toContain("Read(./secret)")
        expect(decision.reason).toContain("project settings")
      }
    })
  )
})
