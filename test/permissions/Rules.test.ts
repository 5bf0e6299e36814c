/**
 * Rules.ts: what a rule text parses to, which tools a rule's name covers, and what `collect` keeps. Decisions, not
 * wording: a rule that must not parse, a tool a rule must not cover. The end of the file checks the same through
 * Permissions (the rules a settings file holds), for the rule forms whose reach matters most.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { collect, fileEditTools, fileReadTools, parseRuleText, ruleCoversTool, type RuleSource } from "../../src/permissions/Rules.js"
import { type Case, decisionOf, verdict } from "./support.js"

const rule = (tool: string, specifier?: string) => ({ _tag: "Rule", tool, specifier })

describe("parseRuleText", () => {
  const parses: ReadonlyArray<readonly [string, ReturnType<typeof rule>]> = [
    ["Bash", rule("Bash")],
    ["  Bash  ", rule("Bash")],
    ["Bash(npm test)", rule("Bash", "npm test")],
    ["Bash (npm test)", rule("Bash", "npm test")],
    [" Bash( npm test ) ", rule("Bash", "npm test")],
    ["Bash()", rule("Bash")],
    ["Bash(*)", rule("Bash")],
    ["Bash( * )", rule("Bash")],
    ["Bash(**)", rule("Bash", "**")],
    ["Read(./src/**)", rule("Read", "./src/**")],
    ["Bash(echo \\(x\\))", rule("Bash", "echo (x)")],
    ["Bash(f \\(a\\) \\(b\\))", rule("Bash", "f (a) (b)")],
    ["Bash(a\\nb)", rule("Bash", "a\\nb")],
    ["Bash(echo (x))", rule("Bash", "echo (x)")],
    ["_tool", rule("_tool")],
    ["my-tool_2", rule("my-tool_2")],
    ["Z9", rule("Z9")],
    // every character a tool name may hold, first and later
    ["A", rule("A")],
    ["Z", rule("Z")],
    ["a", rule("a")],
    ["z", rule("z")],
    ["aAZaz09_-", rule("aAZaz09_-")],
    ["z0", rule("z0")],
    ["a9", rule("a9")],
    ["aZ", rule("aZ")],
    ["a_", rule("a_")],
    ["a-", rule("a-")],
    ["Tool*", rule("Tool*")],
    ["mcp__db__*", rule("mcp__db__*")],
    ["mcp__db", rule("mcp__db")],
    ["WebFetch(domain:example.com)", rule("WebFetch", "domain:example.com")]
  ]
  for (const [text, expected] of parses) {
    it(`${JSON.stringify(text)} parses`, () => {
      expect(parseRuleText(text)).toEqual(expected)
    })
  }

  const invalid: ReadonlyArray<string> = [
    "",
    "   ",
    "Bash)",
    "Bash(ls",
    "Bash(ls) x",
    "(ls)",
    "Bash*(ls)",
    "mcp__db__*(x)",
    "1Bash",
    "9(ls)",
    "-tool",
    "Ba sh",
    "Ba sh(ls)",
    "Bash!",
    "Bash**",
    "a*b",
    "*",
    "Bash.x",
    "Bash.x(ls)",
    "x Bash",
    "0",
    "_*(x)",
    "\u00e9t\u00e9",
    "Bash\u00e9(x)"
  ]
  for (const text of invalid) {
    it(`${JSON.stringify(text)} does not parse`, () => {
      const parsed = parseRuleText(text)
      expect(parsed._tag).toBe("Invalid")
      if (parsed._tag === "Invalid") expect(parsed.message).not.toBe("")
    })
  }
})

describe("ruleCoversTool", () => {
  const covers: ReadonlyArray<readonly [string, string]> = [
    ["Bash", "Bash"],
    ["Write", "Write"],
    ["Glob", "Glob"],
    ["Edit", "Edit"],
    ["Edit", "Write"],
    ["Edit", "NotebookEdit"],
    ["Edit", "MultiEdit"],
    ["Read", "Read"],
    ["Read", "Glob"],
    ["Read", "Grep"],
    ["mcp__db", "mcp__db__query"],
    ["mcp__db", "mcp__db__drop_table"],
    ["mcp__db__*", "mcp__db__query"],
    ["mcp__db__*", "mcp__db__drop_table"],
    ["mcp__db__query", "mcp__db__query"],
    ["mcp__my-db", "mcp__my-db__q"],
    ["mcp__my_db__*", "mcp__my_db__q"],
    // `__*` takes all before it as the server, even a name with `__` in it
    ["mcp__a__b__*", "mcp__a__b__q"]
  ]
  for (const [ruleTool, toolName] of covers) {
    it(`${ruleTool} covers ${toolName}`, () => {
      expect(ruleCoversTool(ruleTool, toolName)).toBe(true)
    })
  }

  const notCovered: ReadonlyArray<readonly [string, string]> = [
    ["Bash", "BashOutput"],
    ["Bash", "bash"],
    ["Write", "Edit"],
    ["Write", "NotebookEdit"],
    ["NotebookEdit", "Write"],
    ["MultiEdit", "Edit"],
    ["Glob", "Read"],
    ["Grep", "Glob"],
    ["Edit", "Read"],
    ["Edit", "Bash"],
    ["Edit", "EditX"],
    ["Read", "Edit"],
    ["Read", "Write"],
    ["Read", "WebFetch"],
    ["Read", "ReadX"],
    ["Foo", "Foo__bar"],
    ["Foo__*", "Foo__bar"],
    ["xmcp__db", "xmcp__db__q"],
    // a server's rule covers that server's tools only, by whole name parts
    ["mcp__db", "mcp__dbx__query"],
    ["mcp__db", "mcp__other__query"],
    ["mcp__db", "mcp__db_query"],
    ["mcp__db__*", "mcp__dbx__query"],
    ["mcp__db__*", "mcp__other__query"],
    ["mcp__db__*", "mcp__other__db__query"],
    ["mcp__db__*", "mcp__db"],
    ["mcp__db__*", "mcp__db_x__q"],
    ["mcp__db__*", "Bash"],
    // a tool's rule covers that tool only
    ["mcp__db__query", "mcp__db__drop"],
    ["mcp__db__query", "mcp__db__query2"],
    ["mcp__db__query", "mcp__db__query__x"],
    ["mcp__db__query", "mcp__db"],
    ["mcp__a__b__*", "mcp__a__c__q"],
    ["mcp__a__b__*", "mcp__a__q"]
  ]
  for (const [ruleTool, toolName] of notCovered) {
    it(`${ruleTool} does not cover ${toolName}`, () => {
      expect(ruleCoversTool(ruleTool, toolName)).toBe(false)
    })
  }

  it("the file tool sets are the edits and the reads", () => {
    expect([...fileEditTools].sort()).toEqual(["Edit", "MultiEdit", "NotebookEdit", "Write"])
    expect([...fileReadTools].sort()).toEqual(["Glob", "Grep", "Read"])
  })
})

describe("collect", () => {
  const source: RuleSource = { scope: "user", origin: "/home/u/.claude/settings.json", root: "/proj" }

  it("keeps the rules that parse, in order, with their behaviour and source, and warns of each other one", () => {
    const collected = collect(["Bash(npm test)", "Bash(", " Read ", "Edit(*)", "1x"], "deny", source)
    expect(collected.rules).toEqual([
      { text: "Bash(npm test)", tool: "Bash", specifier: "npm test", behavior: "deny", source },
      { text: " Read ", tool: "Read", specifier: undefined, behavior: "deny", source },
      { text: "Edit(*)", tool: "Edit", specifier: undefined, behavior: "deny", source }
    ])
    expect(collected.warnings).toHaveLength(2)
    // each warning names the rule it drops and where it came from
    expect(collected.warnings[0]).toContain('"Bash("')
    expect(collected.warnings[0]).toContain(source.origin)
    expect(collected.warnings[1]).toContain('"1x"')
    expect(collected.warnings[1]).toContain(source.origin)
  })

  it("keeps the behaviour it is given", () => {
    for (const behavior of ["allow", "ask", "deny"] as const) {
      expect(collect(["Write"], behavior, source).rules.map((entry) => entry.behavior)).toEqual([behavior])
    }
  })

  it("nothing in, nothing out", () => {
    expect(collect([], "allow", source)).toEqual({ rules: [], warnings: [] })
  })
})

// ---------------------------------------------------------------------------------------------------------------
// The same through Permissions: the reach of a rule as a settings file writes it

const perm = (rules: { allow?: Array<string>; ask?: Array<string>; deny?: Array<string> }) => ({ permissions: rules })

const reach: ReadonlyArray<Case> = [
  // An unanchored rule is relative to the root it was written for: a name at any depth there, nowhere else.
  { name: "Edit(*.ts) allow covers a .ts file deep in the project", tool: "Edit", path: "$P/src/a/b.ts", settings: { project: perm({ allow: ["Edit(*.ts)"] }) }, expect: "allow" },
  { name: "Edit(*.ts) allow does not cover a .ts file outside the project", tool: "Edit", path: "$R/other/b.ts", settings: { project: perm({ allow: ["Edit(*.ts)"] }) }, expect: "ask" },
  { name: "Edit(*.ts) allow does not cover a .ts file in the home", tool: "Write", path: "$H/b.ts", settings: { user: perm({ allow: ["Edit(*.ts)"] }) }, expect: "ask" },
  { name: "Edit(*.ts) allow does not cover another extension", tool: "Edit", path: "$P/src/b.tsx", settings: { project: perm({ allow: ["Edit(*.ts)"] }) }, expect: "ask" },
  { name: "Edit(*.ts) deny holds deep in the project", tool: "Edit", path: "$P/src/a/b.ts", mode: "bypassPermissions", settings: { project: perm({ deny: ["Edit(*.ts)"] }) }, expect: "deny" },
  { name: "Edit(*.ts) deny does not reach outside the project", tool: "Edit", path: "$R/other/b.ts", mode: "bypassPermissions", settings: { project: perm({ deny: ["Edit(*.ts)"] }) }, expect: "allow" },
  { name: "Read(*.env) deny does not reach outside the project", tool: "Read", path: "$R/other/prod.env", mode: "bypassPermissions", settings: { project: perm({ deny: ["Read(*.env)"] }) }, expect: "allow" },
  // An anchored rule names one path under its root, not the same name at another depth.
  { name: "Read(./.env) deny holds for the project's .env", tool: "Read", path: "$P/.env", settings: { project: perm({ deny: ["Read(./.env)"] }) }, expect: "deny" },
  { name: "Read(./.env) deny does not hold for a nested .env", tool: "Read", path: "$P/sub/.env", settings: { project: perm({ deny: ["Read(./.env)"] }) }, expect: "allow" },
  { name: "Read(./.env) deny does not hold for a .env deeper down", tool: "Read", path: "$P/a/b/.env", settings: { project: perm({ deny: ["Read(./.env)"] }) }, expect: "allow" },
  { name: "Read(./.env) deny does not hold for the .env above the project", tool: "Read", path: "$R/.env", mode: "bypassPermissions", settings: { project: perm({ deny: ["Read(./.env)"] }) }, expect: "allow" },
  { name: "Edit(/secret) deny holds for the project's secret", tool: "Edit", path: "$P/secret", mode: "acceptEdits", settings: { project: perm({ deny: ["Edit(/secret)"] }) }, expect: "deny" },
  { name: "Edit(/secret) deny holds inside the project's secret directory", tool: "Write", path: "$P/secret/key", mode: "acceptEdits", settings: { project: perm({ deny: ["Edit(/secret)"] }) }, expect: "deny" },
  { name: "Edit(/secret) deny does not hold for a nested secret", tool: "Edit", path: "$P/a/secret", mode: "acceptEdits", settings: { project: perm({ deny: ["Edit(/secret)"] }) }, expect: "allow" },
  { name: "Edit(/secret) deny does not hold for the filesystem's /secret-like path", tool: "Edit", path: "$R/secret", mode: "bypassPermissions", settings: { project: perm({ deny: ["Edit(/secret)"] }) }, expect: "allow" },
  { name: "Edit(/secret) allow does not allow a nested secret", tool: "Edit", path: "$P/a/secret", settings: { project: perm({ allow: ["Edit(/secret)"] }) }, expect: "ask" },
  // mcp__db__*: server db's tools, by whole name parts.
  { name: "mcp__db__* deny holds for db's tools", tool: "mcp__db__query", mode: "bypassPermissions", settings: { user: perm({ deny: ["mcp__db__*"] }) }, expect: "deny" },
  { name: "mcp__db__* deny leaves server dbx", tool: "mcp__dbx__query", mode: "bypassPermissions", settings: { user: perm({ deny: ["mcp__db__*"] }) }, expect: "allow" },
  { name: "mcp__db__* deny leaves another server", tool: "mcp__other__query", mode: "bypassPermissions", settings: { user: perm({ deny: ["mcp__db__*"] }) }, expect: "allow" },
  { name: "mcp__db__* allow covers db's tools", tool: "mcp__db__query", settings: { user: perm({ allow: ["mcp__db__*"] }) }, expect: "allow" },
  { name: "mcp__db__* allow does not cover server dbx", tool: "mcp__dbx__query", settings: { user: perm({ allow: ["mcp__db__*"] }) }, expect: "ask" },
  { name: "mcp__db__* allow does not cover another server", tool: "mcp__other__query", settings: { user: perm({ allow: ["mcp__db__*"] }) }, expect: "ask" },
  { name: "mcp__db__* ask does not reach another server", tool: "mcp__other__query", mode: "bypassPermissions", settings: { user: perm({ ask: ["mcp__db__*"] }) }, expect: "allow" },
  // A rule for one file tool reaches the tools it stands for, and no other.
  { name: "an Edit deny holds for MultiEdit", tool: "MultiEdit", path: "$P/a", mode: "bypassPermissions", settings: { user: perm({ deny: ["Edit"] }) }, expect: "deny" },
  { name: "an Edit deny leaves Read", tool: "Read", path: "$P/a", settings: { user: perm({ deny: ["Edit"] }) }, expect: "allow" },
  { name: "a Read deny leaves Write", tool: "Write", path: "$P/a", mode: "bypassPermissions", settings: { user: perm({ deny: ["Read"] }) }, expect: "allow" },
  { name: "a Read deny holds for Grep", tool: "Grep", path: "$P/a", settings: { user: perm({ deny: ["Read"] }) }, expect: "deny" },
  { name: "an invalid allow rule allows nothing", tool: "Write", path: "$P/a", allowedTools: ["Write)"], expect: "ask" }
]

describe("rules through Permissions", () => {
  for (const test of reach) {
    it.effect(`${test.name} -> ${test.expect}`, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(test)
        expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
      })
    )
  }
})
