import { Parser, Language } from "web-tree-sitter"
await Parser.init()
const lang = await Language.load("node_modules/tree-sitter-bash/tree-sitter-bash.wasm")
const p = new Parser(); p.setLanguage(lang)
const s = "é r\\\nm x"
const t = p.parse(s)
const cmd = t.rootNode.namedChildren[0]
for (const c of cmd.children) console.log(c.type, c.startIndex, c.endIndex, JSON.stringify(c.text), JSON.stringify(s.slice(c.startIndex, c.endIndex)))
