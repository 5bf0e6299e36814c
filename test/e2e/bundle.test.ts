// The binary's bundle holds one copy of effect: two copies would mean two sets of services (a Layer built with one
// copy's Context is not found by the other's) and a larger start. dist/meta/weft-app.json is esbuild's list of the
// bundle's inputs, written by scripts/build-bin.mjs.
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { expect, it } from "vitest"

const inputs: ReadonlyArray<string> = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../dist/meta/weft-app.json"), "utf8")).inputs

/** The folders of the copies of `name` the inputs come from (`node_modules/effect`, `node_modules/x/node_modules/effect`...). */
const copiesOf = (name: string, files: ReadonlyArray<string>) =>
  new Set(files.flatMap((file) => [...file.matchAll(new RegExp(`^(.*node_modules/${name})/`, "g"))].map((match) => match[1])))

it("bundles one copy of effect", () => {
  const copies = copiesOf("effect", inputs)
  expect(copies.size).toBe(1)
  expect([...copies][0]).toMatch(/(^|\/)node_modules\/effect$/)
})

it("would see a second copy", () => {
  const nested = ["node_modules/effect/dist/Effect.js", "node_modules/@effect/platform-node/node_modules/effect/dist/Effect.js"]
  expect(copiesOf("effect", nested).size).toBe(2)
  expect(copiesOf("effect", ["node_modules/effect-extra/index.js", "node_modules/@effect/platform-node/dist/x.js"]).size).toBe(0)
})
