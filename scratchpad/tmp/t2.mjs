import { Parser, Language } from "web-tree-sitter"
await Parser.init()
const lang = await Language.load("node_modules/tree-sitter-bash/tree-sitter-bash.wasm")
const p = new Parser(); p.setLanguage(lang)
const dump = (n, d=0) => { console.log(" ".repeat(d*2) + (n.isNamed ? n.type : JSON.stringify(n.type)) + (n.childCount===0 ? " " + JSON.stringify(n.text) : "")); for (const c of n.children) dump(c, d+1) }
for (const s of process.argv.slice(2)) { console.log("== " + s); dump(p.parse(s).rootNode) }
