// Bundled by shell-parse.mjs as the weft binary is (CommonJS, the parser's .wasm files beside it): times loading
// the parser, then analysing each command of a list. Prints one JSON line.
import * as Effect from "effect/Effect"
import * as ReadOnlyCommands from "../../src/permissions/ReadOnlyCommands.js"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"

const commands = [
  "ls -la",
  "git status",
  "git diff --stat HEAD~1 -- src",
  "npm run test -- --reporter=dot",
  "cd src && rg -n 'TODO' --glob '*.ts' | head -20",
  "find . -name '*.log' -mtime +7 -exec rm {} \\; 2>/dev/null",
  "timeout -s KILL 30 env NODE_ENV=test npx vitest run test/permissions > out.txt 2>&1",
  "for f in $(git ls-files '*.ts'); do wc -l \"$f\"; done | sort -n | tail -5",
  "cat <<'EOF' > notes.md\n# Notes\nSome $(text) here\nEOF",
  "if [ -f package.json ]; then jq -r '.scripts | keys[]' package.json; else echo none; fi"
]

const rounds = Number(process.argv[2] ?? 200)

const main = async () => {
  const start = performance.now()
  await Effect.runPromise(ShellCommand.analyze("true"))
  await runAll(performance.now() - start)
}

const runAll = async (load: number) => {
  const perCommand: Array<{ command: string; medianMs: number; readOnly: boolean; analysed: boolean }> = []
  for (const command of commands) {
    const times: Array<number> = []
    let analysis: ShellCommand.Analysis | undefined
    for (let round = 0; round < rounds; round++) {
      const t0 = performance.now()
      analysis = await Effect.runPromise(ShellCommand.analyze(command))
      ReadOnlyCommands.readOnly(analysis)
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    perCommand.push({
      command,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      readOnly: analysis !== undefined && ReadOnlyCommands.isReadOnly(analysis),
      analysed: analysis !== undefined && ShellCommand.isAnalysed(analysis)
    })
  }
  process.stdout.write(`${JSON.stringify({ loadMs: load, perCommand })}\n`)
}

void main()
