import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { programWrites } from "../../src/permissions/ProgramWrites.js"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"
import { parsed } from "../../src/permissions/ShellCheck.js"
import { type Case, decisionOf, verdict } from "./support.js"

const bash = (command: string, rest: Omit<Case, "name" | "tool" | "command">): Case => ({ name: command, tool: "Bash", command, ...rest })
const rules = (permissions: { readonly allow?: ReadonlyArray<string>; readonly deny?: ReadonlyArray<string>; readonly ask?: ReadonlyArray<string> }) => ({
  user: { permissions }
})
const bypass = "bypassPermissions" as const

// ---------------------------------------------------------------------------------------------------------------
// The grammar: which words each program writes (`~` marks a tree write, `?` a target known only at run time)

const grammar: ReadonlyArray<readonly [command: string, written: ReadonlyArray<string>]> = [
  ["cp a b", ["b", "b/a"]],
  ["cp a b c dir", ["dir/a", "dir/b", "dir/c"]],
  ["cp -t dir a b", ["dir/a", "dir/b"]],
  ["cp --target-directory=dir a", ["dir/a"]],
  ["cp -T a b", ["b"]],
  ["cp -S .bak a b", ["b", "b/a"]],
  ["cp --suffix .bak a b", ["b", "b/a"]],
  ["cp -- -a b", ["b", "b/-a"]],
  ["cp -r src/. .", [".~", ".~"]],
  ["cp -r src dest", ["dest~", "dest/src~"]],
  ["cp $F dest", ["?"]],
  ["cp -- $F dest", ["dest", "dest~"]],
  ["cp $OPTS a b", ["?"]],
  ["mv a b", ["a~", "b~", "b/a~"]],
  ["mv -t d x y", ["x~", "y~", "d/x~", "d/y~"]],
  ["install -m 755 a /usr/local/bin/a", ["/usr/local/bin/a", "/usr/local/bin/a/a"]],
  ["install -d a b", ["a", "b"]],
  ["ln -s target name", ["name", "name/target"]],
  ["ln -s /x/y", ["./y"]],
  ["tee -a a b", ["a", "b"]],
  ["dd if=x of=y bs=1M", ["y"]],
  ["dd if=$IN of=y", ["y"]],
  ["dd if=x of=$OUT", ["?"]],
  ["touch -d yesterday a", ["a"]],
  ["touch -r ref a", ["a"]],
  ["mkdir -p -m 700 a/b", ["a/b"]],
  ["rmdir d", ["d"]],
  ["rm -rf d e", ["d~", "e~"]],
  ["rm --recursive d", ["d~"]],
  ["rm f", ["f"]],
  ["truncate -s 0 f", ["f"]],
  ["chmod -R 755 d", ["d~"]],
  ["chmod --reference=r f", ["f"]],
  ["chmod -w f", ["f"]],
  ["chmod -R -w d", ["d~"]],
  ["chown user:group f", ["f"]],
  ["chgrp staff f", ["f"]],
  ["sed -i s/a/b/ f g", ["f", "g"]],
  ["sed -i.bak -e s/a/b/ f", ["f"]],
  ["sed -n p f", []],
  ["sed --in-place=.bak s/a/b/ f", ["f"]],
  ["patch -p1 -i x.patch", [".~"]],
  ["patch f x.patch", ["f"]],
  ["patch -o out f x.patch", ["out", "f"]],
  ["patch -d sub -p1 -i x.patch", ["sub~"]],
  ["tar -xzf a.tgz -C dir", ["dir~"]],
  ["tar xzf a.tgz", [".~"]],
  ["tar -tf a.tar", []],
  ["tar -czf out.tgz src", ["out.tgz"]],
  ["tar czf out.tgz src", ["out.tgz"]],
  ["unzip a.zip -d dir", ["dir~"]],
  ["unzip -l a.zip", []],
  ["curl -o out https://x/y", ["out"]],
  ["curl --output=out https://x/y", ["out"]],
  ["curl -O https://x/a/file.txt", ["file.txt"]],
  ["curl -sSL https://x/y", []],
  ["curl -K cfg https://x", ["?"]],
  ["wget -O out https://x/y", ["out"]],
  ["wget -O - https://x/y", []],
  ["wget -P dl https://x/a.tgz", ["dl/a.tgz"]],
  ["wget https://x/a.tgz", ["a.tgz"]],
  ["wget -r https://x/", [".~"]],
  ["split -l 10 in part", ["part"]],
  ["csplit -f piece in /x/", ["piece"]],
  ["shred -u f", ["f"]],
  ["rsync -a src/ dest", ["dest~"]],
  ["rsync -a src dest", ["dest~", "dest/src~"]],
  ["rsync a host:dest", []],
  ["scp host:a.txt .", [".", "./a.txt"]],
  ["git config user.name x", [".git/config"]],
  ["git config --global core.pager less", ["~/.gitconfig"]],
  ["git config --file=cfg a.b c", ["cfg"]],
  ["git config --get user.name", []],
  ["git status", []],
  ["sudo cp a /etc/x", ["/etc/x", "/etc/x/a"]],
  ["ls | xargs rm", ["?"]],
  ["find . -name '*.o' -exec rm {} +", ["?"]],
  ["make install", []]
]

const describeTarget = (target: { readonly path: string | undefined; readonly tree: boolean }) =>
  target.path === undefined ? "?" : `${target.path}${target.tree ? "~" : ""}`

describe("ProgramWrites: what each writing program writes, by its grammar", () => {
  for (const [command, written] of grammar) {
    it.effect(`${command} -> ${written.join(" ") || "nothing"}`, () =>
      Effect.gen(function* () {
        const analysis = yield* ShellCommand.analyze(command)
        expect(analysis.commands.flatMap(programWrites).map(describeTarget)).toEqual(written)
      })
    )
  }
})

// ---------------------------------------------------------------------------------------------------------------
// Protected paths are asked about in every mode, bypassPermissions included, whoever writes them

const protectedWrites: ReadonlyArray<Case> = [
  bash("cp x .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("cp x .git/hooks/", { mode: bypass, expect: "ask" }),
  bash("cp -t .git/hooks x", { mode: bypass, expect: "ask" }),
  bash("mv x ~/.bashrc", { mode: bypass, expect: "ask" }),
  bash("tee -a ~/.bashrc", { mode: bypass, expect: "ask" }),
  bash("echo x | tee ~/.zshrc >/dev/null", { mode: bypass, expect: "ask" }),
  bash("ln -sf /tmp/evil .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("install -m 755 x .git/hooks/post-checkout", { mode: bypass, expect: "ask" }),
  bash("dd if=x of=.claude/settings.json", { mode: bypass, expect: "ask" }),
  bash("touch .mcp.json", { mode: bypass, expect: "ask" }),
  bash("mkdir -p .claude/commands", { mode: bypass, expect: "ask" }),
  bash("sed -i s/deny/allow/ .claude/settings.json", { mode: bypass, expect: "ask" }),
  bash("truncate -s 0 .git/config", { mode: bypass, expect: "ask" }),
  bash("chmod +x .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("chmod -w .claude/settings.json", { mode: bypass, expect: "ask" }),
  bash("curl -o .git/hooks/pre-push https://x/y", { mode: bypass, expect: "ask" }),
  bash("wget -O ~/.profile https://x/y", { mode: bypass, expect: "ask" }),
  bash("tar -xf a.tar -C .git", { mode: bypass, expect: "ask" }),
  bash("unzip a.zip -d .claude", { mode: bypass, expect: "ask" }),
  bash("rsync -a x/ .git/hooks/", { mode: bypass, expect: "ask" }),
  bash("git config core.fsmonitor ./evil", { mode: bypass, expect: "ask" }),
  bash("git config --global core.pager ./evil", { mode: bypass, expect: "ask" }),
  bash("cp x $W/settings.json", { mode: bypass, expect: "ask" }),
  // Directory writes: a rename or a removal of a protected directory, or of what holds one.
  bash("mv .git x", { mode: bypass, expect: "ask" }),
  bash("rm -r .claude", { mode: bypass, expect: "ask" }),
  bash("rm -rf .", { mode: bypass, expect: "ask" }),
  bash("mv $P /tmp/gone", { mode: bypass, expect: "ask" }),
  bash("rm -rf ~", { mode: bypass, expect: "ask" }),
  bash("rmdir .git", { mode: bypass, expect: "ask" }),
  bash("chmod -R 777 .", { mode: bypass, expect: "ask" }),
  bash("cp -r evil/. .", { mode: bypass, expect: "ask" }),
  bash("tar xf a.tar", { mode: bypass, expect: "ask" }),
  bash("patch -p1 -i x.patch", { mode: bypass, expect: "ask" }),
  // Patterns that may match a protected name (dotglob may be set in the session's shell).
  bash("rm -rf .*", { mode: bypass, expect: "ask" }),
  bash("cp x .g*/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("rm -rf *", { mode: bypass, expect: "ask" }),
  // Wrappers and compound lines.
  bash("sudo cp x .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("timeout 5 mv x .git/config", { mode: bypass, expect: "ask" }),
  bash("ls && cp x .git/hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("(cd sub; cp x ../.git/hooks/pre-commit)", { mode: bypass, expect: "ask" }),
  bash("cd .git && cp ../x hooks/pre-commit", { mode: bypass, expect: "ask" }),
  bash("echo $(cp x .git/hooks/pre-commit)", { mode: bypass, expect: "ask" }),
  bash("find . -name x -exec cp {} .git/hooks/ \\;", { mode: bypass, expect: "ask" }),
  // Names known only at run time.
  bash("cp x $DEST", { mode: bypass, expect: "ask" }),
  bash("ls | xargs rm", { mode: bypass, expect: "ask" }),
  // What stays as it was: ordinary writes in bypassPermissions run.
  bash("cp a b", { mode: bypass, expect: "allow" }),
  bash("rm -rf build *.o", { mode: bypass, expect: "allow" }),
  bash("mkdir -p src/x && touch src/x/a", { mode: bypass, expect: "allow" }),
  bash("cp -r src dest", { mode: bypass, expect: "allow" }),
  bash("tar -xf a.tar -C vendor", { mode: bypass, expect: "allow" }),
  bash("git config --get user.name", { mode: bypass, expect: "allow" }),
  bash("cp x /tmp/elsewhere", { mode: bypass, expect: "allow" })
]

// ---------------------------------------------------------------------------------------------------------------
// Deny and ask rules on Edit hold for whatever program writes, allow rule or not

const lockedDeny = rules({ deny: ["Edit(./secrets/**)"] })
const allowCpDenySecrets = rules({ allow: ["Bash(cp:*)"], deny: ["Edit(./secrets/**)"] })

const ruleWrites: ReadonlyArray<Case> = [
  bash("cp x secrets/y", { settings: allowCpDenySecrets, expect: "deny" }),
  bash("cp x secrets/y", { settings: allowCpDenySecrets, mode: bypass, expect: "deny" }),
  bash("cp -t secrets x", { settings: allowCpDenySecrets, expect: "deny" }),
  bash("cp x ./secrets/", { settings: allowCpDenySecrets, mode: "acceptEdits", expect: "deny" }),
  bash("rm secrets/key", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("rm -r secrets", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("mv secrets /tmp/out", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("mv secrets/key x", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("rm -rf .", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("rm secrets/*", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("sed -i s/a/b/ secrets/key", { settings: rules({ allow: ["Bash(sed:*)"], deny: ["Edit(./secrets/**)"] }), expect: "deny" }),
  bash("tee secrets/key", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("chmod 600 secrets/key", { settings: lockedDeny, mode: bypass, expect: "deny" }),
  bash("rm x.env", { settings: rules({ deny: ["Edit(*.env)"] }), mode: bypass, expect: "deny" }),
  bash("rm -r build", { settings: lockedDeny, mode: bypass, expect: "allow" }),
  bash("cp secrets/key x", { settings: rules({ allow: ["Bash(cp:*)"], deny: ["Edit(./secrets/**)"] }), expect: "allow" }),
  bash("touch notes/a", { settings: rules({ ask: ["Edit(./notes/**)"] }), mode: bypass, expect: "ask" }),
  bash("rm -rf notes", { settings: rules({ ask: ["Edit(./notes/**)"] }), mode: bypass, expect: "ask" })
]

// ---------------------------------------------------------------------------------------------------------------
// An allow rule for the program stands for its edits inside the workspace; outside it, and in plan mode, it does not

const grants: ReadonlyArray<Case> = [
  bash("mkdir -p src/x", { settings: rules({ allow: ["Bash(mkdir:*)"] }), expect: "allow" }),
  bash("cp a b", { settings: rules({ allow: ["Bash(cp:*)"] }), expect: "allow" }),
  bash("rm -rf build", { settings: rules({ allow: ["Bash(rm:*)"] }), expect: "allow" }),
  bash("cp a /tmp/elsewhere", { settings: rules({ allow: ["Bash(cp:*)"] }), expect: "ask" }),
  bash("cp a ../outside", { settings: rules({ allow: ["Bash(cp:*)"] }), mode: "acceptEdits", expect: "ask" }),
  bash("rm -rf ..", { settings: rules({ allow: ["Bash(rm:*)"] }), expect: "ask" }),
  bash("cp a b", { settings: rules({ allow: ["Bash(cp:*)"] }), mode: "plan", expect: "deny" }),
  bash("cp a b", { expect: "ask" }),
  bash("cp a b", { settings: rules({ allow: ["Bash(ls:*)"] }), mode: "acceptEdits", expect: "ask" }),
  // A command the rule does not cover grants nothing: `ls` allowed does not let `cp` of the same line write.
  bash("ls && cp a .git/x", { settings: rules({ allow: ["Bash(ls:*)", "Bash(cp:*)"] }), expect: "ask" })
]

const all: ReadonlyArray<readonly [string, ReadonlyArray<Case>]> = [
  ["protected paths written by programs", protectedWrites],
  ["Edit rules hold for programs' writes", ruleWrites],
  ["an allow rule for the program", grants]
]

describe("Permissions.check: files written by programs are edits of those files", () => {
  for (const [group, cases] of all) {
    describe(group, () => {
      for (const test of cases) {
        const label = `${test.command} [${[test.mode ?? "default", JSON.stringify(test.settings ?? {})].join(" ")}] -> ${test.expect}`
        it.effect(label, () =>
          Effect.gen(function* () {
            const decision = yield* decisionOf(test, parsed)
            expect(verdict(decision), decision._tag === "Allow" ? "allowed" : decision.reason).toBe(test.expect)
          })
        )
      }
    })
  }
})
