// What a bundle that may analyse a Bash command needs (the weft binary, and the bench in scratchpad/bench):
// web-tree-sitter's CommonJS build (its ES module build awaits at top level, which a CommonJS bundle cannot hold),
// WEFT_BUNDLED defined so that src/permissions/ShellSyntax.ts looks for the parser's two WebAssembly files beside
// the bundle, and those files copied there.
import { copyFileSync, mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const requireFromRoot = createRequire(join(root, "package.json"))
const runtimeWasm = requireFromRoot.resolve("web-tree-sitter/web-tree-sitter.wasm")
const grammarWasm = requireFromRoot.resolve("tree-sitter-bash/tree-sitter-bash.wasm")

const webTreeSitterPlugin = {
  name: "web-tree-sitter-cjs",
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: join(dirname(runtimeWasm), "web-tree-sitter.cjs") }))
  }
}

export const shellParserPlugins = [webTreeSitterPlugin]

// import.meta.url is read only when not bundled, on the branch WEFT_BUNDLED skips.
export const shellParserDefine = { WEFT_BUNDLED: "true", "import.meta.url": "undefined" }

/** Copies the parser's .wasm files into `directory`, beside the bundle. */
export const copyShellParser = (directory) => {
  mkdirSync(directory, { recursive: true })
  for (const file of [runtimeWasm, grammarWasm]) copyFileSync(file, join(directory, basename(file)))
}
