import { Parser, Language } from "web-tree-sitter"
const t0 = performance.now()
await Parser.init()
const lang = await Language.load("node_modules/tree-sitter-bash/tree-sitter-bash.wasm")
console.log("abi", lang.abiVersion, "load ms", performance.now() - t0)
const p = new Parser(); p.setLanguage(lang)
const show = (s) => { const tree = p.parse(s); console.log(JSON.stringify(s)); console.log(tree.rootNode.toString()); }
show(`timeout -s KILL 5 rm x && echo $'\\x72m' "a$(ls)" | tee >(cat) 2>&1 >/dev/null`)
show(`r"m" -rf / ; 'r''m' x; \\rm y; a=1 b=2 env c=3 ls; for i in *; do echo $i; done; f() { rm x; }; f`)
show(`cat <<EOF\nhi $(whoami)\nEOF\necho x # c\nls \\\n -la`)
show(`cat <<'EOF' > out\nhi $(whoami)\nEOF`)
show(`echo {a,b} ~/x *.c ; $CMD x; \${X}y; ls [ab]; echo "\${x:-y}" ; case $x in a) ls;; esac; [[ -f x ]]; (( x++ )); echo \`id\``)
show(`echo "unterminated`)
