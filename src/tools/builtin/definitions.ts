/**
 * The built-in tools' definitions (name, description, input JSON Schema), in `all`'s order: what a session shows
 * the model before any tool has run. Made here from the tools themselves; the binary's build (scripts/build-bin.mjs)
 * runs this module and writes its answer into the bundle in its place, so that a `weft -p` start loads no tool
 * module and builds no Schema for the definitions (BuiltinRegistry.ts loads each tool on its first call).
 */
import * as Tool from "../Tool.js"
import { all } from "./all.js"

export const definitions: ReadonlyArray<Tool.Definition> = all.map(Tool.definitionOf)
