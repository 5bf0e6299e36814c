/**
 * File types for Grep's `type` parameter, as ripgrep 13 defines them (`rg --type-list`), for the built-in engine.
 * A type is a list of globs matched against the file name. When `rg` runs, it uses its own (larger) table.
 */
import { globSource } from "./GlobPattern.js"

export const FILE_TYPES: Readonly<Record<string, ReadonlyArray<string>>> = {
  asm: ["*.S", "*.asm", "*.s"],
  bazel: ["*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"],
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  clojure: ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  cmake: ["*.cmake", "CMakeLists.txt"],
  config: ["*.cfg", "*.conf", "*.config", "*.ini"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  cs: ["*.cs"],
  csharp: ["*.cs"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  docker: ["*Dockerfile*"],
  elixir: ["*.eex", "*.ex", "*.exs"],
  erlang: ["*.erl", "*.hrl"],
  go: ["*.go"],
  gradle: ["*.gradle"],
  haskell: ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue"],
  json: ["*.json", "composer.lock"],
  jsonl: ["*.jsonl"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  make: ["*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  nix: ["*.nix"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  perl: ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  protobuf: ["*.proto"],
  py: ["*.py"],
  r: ["*.R", "*.Rmd", "*.Rnw", "*.r"],
  rst: ["*.rst"],
  ruby: ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  sass: ["*.sass", "*.scss"],
  scala: ["*.sbt", "*.scala"],
  sh: ["*.bash", "*.bashrc", "*.csh", "*.ksh", "*.sh", "*.tcsh", "*.zsh", ".bashrc", ".bash_profile", ".profile", ".zshrc"],
  sql: ["*.psql", "*.sql"],
  svg: ["*.svg"],
  swift: ["*.swift"],
  tex: ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"],
  tf: ["*.tf"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx"],
  txt: ["*.txt"],
  vim: ["*.vim"],
  xml: ["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"]
}

/** A predicate on file names for a type, or undefined when the type is unknown. */
export const typeMatcher = (type: string): ((name: string) => boolean) | undefined => {
  const globs = Object.hasOwn(FILE_TYPES, type) ? FILE_TYPES[type] : undefined
  if (globs === undefined) return undefined
  const regex = new RegExp(`^(?:${globs.map(globSource).join("|")})$`)
  return (name) => regex.test(name)
}
