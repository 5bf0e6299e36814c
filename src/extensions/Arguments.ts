/**
 * The arguments of a command or skill put into its body, as Claude Code does: `$ARGUMENTS` is the argument string
 * as typed; `$0`, `$1`, ... and `$ARGUMENTS[0]`, ... are the shell-split arguments counted from 0 (a missing one is
 * empty); a body with none of these placeholders gets `\n\nARGUMENTS: <args>` appended when there are arguments.
 */

/** Splits like a shell: whitespace separates, quotes group (and are removed), a backslash escapes outside single quotes. */
export const split = (text: string): ReadonlyArray<string> => {
  const words: Array<string> = []
  let current = ""
  let inWord = false
  let quote: "'" | '"' | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? ""
    if (quote === "'") {
      if (char === "'") quote = undefined
      else current += char
    } else if (quote === '"') {
      if (char === '"') quote = undefined
      else if (char === "\\" && index + 1 < text.length && '"\\$`'.includes(text[index + 1] ?? "")) current += text[++index]
      else current += char
    } else if (char === "'" || char === '"') {
      quote = char
      inWord = true
    } else if (char === "\\" && index + 1 < text.length) {
      current += text[++index]
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current)
      current = ""
      inWord = false
    } else {
      current += char
      inWord = true
    }
  }
  if (inWord) words.push(current)
  return words
}

const placeholder = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g

/** `body` with the arguments put in (see the module doc). */
export const substitute = (body: string, args: string): string => {
  const words = split(args)
  let found = false
  const replaced = body.replace(placeholder, (_match, indexed: string | undefined, positional: string | undefined) => {
    found = true
    const at = indexed ?? positional
    return at === undefined ? args : (words[Number(at)] ?? "")
  })
  if (found || args.trim() === "") return replaced
  return `${replaced}\n\nARGUMENTS: ${args}`
}
