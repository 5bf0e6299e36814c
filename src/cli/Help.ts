/**
 * `weft --help` and a command's help (`weft demo --help`), rendered from the options table (CliOptions.ts) as plain
 * text: no effect/cli, no styles, the same on a terminal and in a pipe.
 */
import { commands, dashed, environment, type OptionSpec, printOptions } from "./CliOptions.js"
import { version } from "./Version.js"

const width = 100

/** `text` wrapped to the help's width, every line after the first indented by `indent`. */
const wrap = (text: string, indent: number): string => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/)) {
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === "" ? word : `${line} ${word}`
  }
  lines.push(line)
  return lines.join(`\n${" ".repeat(indent)}`)
}

/** Two columns: each name, then its description aligned and wrapped. */
const table = (rows: ReadonlyArray<readonly [string, string]>): string => {
  const column = Math.min(36, Math.max(...rows.map(([name]) => name.length)) + 4)
  return rows
    .map(([name, description]) =>
      name.length + 3 > column
        ? `  ${name}\n${" ".repeat(column)}${wrap(description, column)}`
        : `  ${name.padEnd(column - 2)}${wrap(description, column)}`
    )
    .join("\n")
}

const optionName = (spec: OptionSpec<unknown>): string => {
  const names = [spec.name, ...spec.aliases].sort((a, b) => a.length - b.length).map(dashed)
  const value = spec.placeholder === undefined ? "" : ` <${spec.placeholder}${spec.repeatable ? "..." : ""}>`
  return `${names.join(", ")}${value}`
}

const optionRow = (spec: OptionSpec<unknown>): readonly [string, string] => [
  optionName(spec),
  spec.repeatable ? `${spec.description} Optional, repeatable.` : spec.description
]

/** A command's help: its title (`weft demo`), what it does, its usage and options. */
export const renderCommandHelp = (help: {
  readonly title: string
  readonly summary: string
  readonly usage: ReadonlyArray<string>
  readonly options?: ReadonlyArray<OptionSpec<unknown>>
}): string =>
  [
    `${help.title} (weft ${version})`,
    "",
    wrap(help.summary, 0),
    "",
    `Usage: ${help.usage.join(`\n       `)}`,
    "",
    "Options:",
    table([...(help.options ?? []).map(optionRow), ["-h, --help", "Show this help."]]),
    ""
  ].join("\n")

/** `weft --help`. */
export const renderHelp = (): string =>
  [
    `weft ${version}: an agent runtime in the shape of Claude Code.`,
    "",
    "Usage: weft [options]                  the interactive session, in a terminal (docs/terminal.md)",
    '       weft -p [options] "prompt"      run one prompt non-interactively and print the result',
    '       echo "prompt" | weft -p [options]',
    "       weft <command> [arguments]",
    "",
    "With -p and a prompt, anything piped in goes after the prompt (git diff | weft -p \"write a commit message\").",
    "Quote a prompt of several words.",
    "",
    "Options:",
    table([
      ...Object.values(printOptions).map(optionRow),
      ["-h, --help", "Show this help."],
      ["-v, --version", "Show weft's version."]
    ]),
    "",
    "Commands:",
    table(commands.map((command) => [command.name, command.summary])),
    "",
    "Environment:",
    table(environment),
    ""
  ].join("\n")
