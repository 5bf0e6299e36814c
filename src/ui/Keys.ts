/**
 * The terminal's input bytes as keys. Pure: `parse(pending, chunk)` answers the keys of the bytes so far and what
 * is left over (an escape sequence or a bracketed paste cut between two reads). A whole bracketed paste is one
 * `paste` key, so a large paste is one edit and one redraw.
 */

export type Key =
  | { readonly _tag: "char"; readonly text: string }
  | { readonly _tag: "paste"; readonly text: string }
  | {
      readonly _tag:
        | "enter"
        | "newline" // Shift+Enter or Alt+Enter: a line break in the prompt
        | "backspace"
        | "delete"
        | "left"
        | "right"
        | "up"
        | "down"
        | "home"
        | "end"
        | "wordLeft"
        | "wordRight"
        | "tab"
        | "shiftTab"
        | "escape"
        | "ctrlA"
        | "ctrlC"
        | "ctrlD"
        | "ctrlE"
        | "ctrlK"
        | "ctrlL"
        | "ctrlO"
        | "ctrlU"
        | "ctrlW"
    }

export type KeyName = Exclude<Key, { readonly _tag: "char" | "paste" }>["_tag"]

export interface Parsed {
  readonly keys: ReadonlyArray<Key>
  /** Bytes kept for the next chunk: an unfinished escape sequence or paste. */
  readonly pending: string
}

const pasteStart = "\x1b[200~"
const pasteEnd = "\x1b[201~"

const controls: Readonly<Record<string, KeyName>> = {
  "\r": "enter",
  "\n": "newline", // Ctrl+J
  "\x7f": "backspace",
  "\b": "backspace",
  "\t": "tab",
  "\x01": "ctrlA",
  "\x03": "ctrlC",
  "\x04": "ctrlD",
  "\x05": "ctrlE",
  "\x0b": "ctrlK",
  "\x0c": "ctrlL",
  "\x0f": "ctrlO",
  "\x15": "ctrlU",
  "\x17": "ctrlW",
  "\x02": "left", // Ctrl+B
  "\x06": "right", // Ctrl+F
  "\x10": "up", // Ctrl+P
  "\x0e": "down" // Ctrl+N
}

const sequences: Readonly<Record<string, KeyName>> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1bOC": "right",
  "\x1bOD": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1bOH": "home",
  "\x1bOF": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[7~": "home",
  "\x1b[8~": "end",
  "\x1b[3~": "delete",
  "\x1b[Z": "shiftTab",
  "\x1b[1;5C": "wordRight",
  "\x1b[1;5D": "wordLeft",
  "\x1b[1;3C": "wordRight",
  "\x1b[1;3D": "wordLeft",
  "\x1bf": "wordRight",
  "\x1bb": "wordLeft",
  // Shift+Enter as terminals report it: CSI u (kitty, foot, WezTerm), xterm's modifyOtherKeys, and Alt+Enter.
  "\x1b[13;2u": "newline",
  "\x1b[27;2;13~": "newline",
  "\x1b\r": "newline",
  "\x1b\n": "newline",
  "\x1b\x7f": "ctrlW"
}

/** A CSI sequence (ESC [ params final) or an SS3 one (ESC O x), or ESC and one byte. */
const escapeSequence = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O[@-~]|[\s\S])/

export const parse = (pending: string, chunk: string): Parsed => {
  let input = pending + chunk
  const keys: Array<Key> = []
  let text = ""
  const flushText = () => {
    if (text !== "") keys.push({ _tag: "char", text })
    text = ""
  }
  // Inside a paste cut over reads, its end is looked for in what came since (a large paste is not scanned again
  // for every read).
  let searchFrom = pending.startsWith(pasteStart) ? Math.max(pasteStart.length, pending.length - pasteEnd.length) : 0
  while (input.length > 0) {
    if (input.startsWith(pasteStart)) {
      const end = input.indexOf(pasteEnd, Math.max(pasteStart.length, searchFrom))
      searchFrom = 0
      if (end < 0) break // the rest of the paste comes in the next chunk
      flushText()
      keys.push({ _tag: "paste", text: input.slice(pasteStart.length, end).replace(/\r\n?/g, "\n") })
      input = input.slice(end + pasteEnd.length)
      continue
    }
    const first = input[0] ?? ""
    if (first === "\x1b") {
      if (input.length === 1) {
        // A lone ESC at the end of a read: the Escape key (terminals send a sequence in one write).
        flushText()
        keys.push({ _tag: "escape" })
        input = ""
        break
      }
      if (pasteStart.startsWith(input)) break
      const match = escapeSequence.exec(input)
      if (match === null) break // unfinished: wait for more
      const sequence = match[0]
      flushText()
      const name = sequences[sequence]
      if (name !== undefined) keys.push({ _tag: name })
      else if (sequence === "\x1b\x1b") {
        keys.push({ _tag: "escape" })
        input = input.slice(1)
        continue
      }
      // Unknown sequences (focus events, other modifiers) are dropped rather than typed.
      input = input.slice(sequence.length)
      continue
    }
    const control = controls[first]
    if (control !== undefined) {
      flushText()
      keys.push({ _tag: control })
      input = input.slice(1)
      continue
    }
    const code = first.charCodeAt(0)
    if (code < 0x20) {
      input = input.slice(1) // other control bytes are ignored
      continue
    }
    text += first
    input = input.slice(1)
  }
  flushText()
  return { keys, pending: input }
}
