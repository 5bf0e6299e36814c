/**
 * The `weft` binary (`dist/bin/weft.cjs`), kept to Node built-ins so that it costs nothing: `--version` answers
 * here, every other command runs the application bundle (main.ts, `dist/bin/weft-app.cjs`) through V8's code cache
 * (CodeCache.ts). The build defines WEFT_APP_HASH, the bundle's content hash.
 */
import { join } from "node:path"
import { start } from "./CodeCache.js"
import { version } from "./Version.js"

declare const WEFT_APP_HASH: string

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${version} (weft)\n`)
} else {
  start({
    bundlePath: join(__dirname, "weft-app.cjs"),
    hash: typeof WEFT_APP_HASH === "string" ? WEFT_APP_HASH : "unbuilt",
    // Print runs, and the Agent SDK's (stream-json input, which it starts without -p).
    writesUserCache: args.some((arg) => arg === "-p" || arg === "--print" || arg === "--input-format" || arg.startsWith("--input-format=")),
    require
  })
}
