/** weft -p starting up: the modules it loads, its transport, and what it needs to be told, through the built binary. */
import { spawnSync } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ScriptTurn, textTurn, toolUse } from "../../src/testing/Script.js"
import { runWeft, useSessions } from "./harness.js"

const { setup } = useSessions()

describe("weft -p: start-up", () => {
  it("a print run loads no Node.js module it does not use", async () => {
    // Each of these was loaded once by a print run that never used it (see docs/performance.md).
    const unused = [
      "NativeModule module", // createRequire: and with it the ES module loader
      "NativeModule internal/modules/esm/loader",
      "NativeModule internal/fs/promises", // FileSystem.readDirectory: and with it readline
      "NativeModule readline",
      "NativeModule child_process",
      "NativeModule https",
      "NativeModule tls",
      "NativeModule tty", // asking whether stdin is a terminal, when it is a pipe
      "NativeModule zlib",
      "NativeModule worker_threads",
      "process.stdout" // a socket and stream machinery for a pipe: Output writes to the descriptor itself
    ]
    const { root, dir, env } = await setup({ "notes.txt": "one\ntwo\n" }, (dir) => ({
      script: [
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "notes.txt") }, "r1")]),
        textTurn("Two lines."),
        ScriptTurn.blocks([toolUse("Read", { file_path: join(dir, "notes.txt") }, "r2")]),
        textTurn("Two lines.")
      ]
    }))
    const preload = join(root, "record-modules.cjs")
    const loaded = join(root, "modules.json")
    // Besides the modules, whether process.stdout was made (Node makes it when it is first read).
    await writeFile(
      preload,
      [
        "const made = []",
        'const stdout = Object.getOwnPropertyDescriptor(process, "stdout")',
        'Object.defineProperty(process, "stdout", { ...stdout, get() { made.push("process.stdout"); return stdout.get.call(process) } })',
        `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify([...process.moduleLoadList, ...made])))`
      ].join("\n")
    )
    // The second run finds the session store's project folder from the first and lists it.
    for (let run = 0; run < 2; run++) {
      const out = await runWeft(["-p", "count the lines"], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${preload}` } })
      expect(out).toMatchObject({ code: 0, stdout: "Two lines.\n" })
    }
    const modules: ReadonlyArray<string> = JSON.parse(await readFile(loaded, "utf8"))
    expect(modules).toContain("NativeModule http") // the recording works
    // What Node.js loads for any CommonJS script is not weft's doing (Node 22+ loads its ES module loader).
    spawnSync(process.execPath, ["-e", "0"], { env: { ...process.env, NODE_OPTIONS: `--require ${preload}` } })
    const baseline: ReadonlyArray<string> = JSON.parse(await readFile(loaded, "utf8"))
    expect(modules.filter((name) => unused.includes(name) && !baseline.includes(name))).toEqual([])
  })

  it("an https:// base URL is reached over TLS (node:https loads on first use in the bundle)", async () => {
    const { dir, env, server } = await setup({}, () => ({ script: [textTurn("never")] }))
    // The mock server speaks plain HTTP: the TLS handshake fails, and weft says so in its result.
    const out = await runWeft(["-p", "hi", "--output-format", "json"], {
      cwd: dir,
      env: { ...env, ANTHROPIC_BASE_URL: server.url.replace("http:", "https:") }
    })
    expect(out.code).toBe(1)
    const result = JSON.parse(out.stdout)
    expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true })
    expect(result.result).toMatch(/Connection failed: .*(SSL|EPROTO|TLS)/i)
  })

  it("without credentials it says what to set", async () => {
    const { dir, env } = await setup({}, () => ({ script: [textTurn("ok")] }))
    const bare = await runWeft(["-p", "hi"], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "", ANTHROPIC_BASE_URL: "", WEFT_HOME: env.WEFT_HOME }
    })
    expect(bare.code).toBe(1)
    expect(bare.stderr).toMatch(/ANTHROPIC_API_KEY/)
  })
})
