/**
 * The prompt's line editor as a pure state machine: `apply(state, key)` answers the next state, and the text when
 * Enter submitted it. Multi-line text (Shift+Enter, or `\` then Enter), history (↑/↓ on the first / last line),
 * Emacs keys (Ctrl+A/E/K/U/W). The cursor is an index into `text` (UTF-16 code units, kept on code point bounds).
 */
import type { Key } from "./Keys.js"

export interface State {
  readonly text: string
  readonly cursor: number
  /** Earlier prompts, oldest first. */
  readonly history: ReadonlyArray<string>
  /** The history entry shown (history.length: the draft being typed). */
  readonly historyIndex: number
  /** What was typed before ↑ went into the history. */
  readonly draft: string
  /** Large pastes, shown in `text` as `[Pasted text #n +k lines]` and put back in when the prompt is sent. */
  readonly pastes: ReadonlyArray<string>
}

export interface Applied {
  readonly state: State
  /** The prompt, when Enter submitted it (large pastes put back in). */
  readonly submitted?: string
  /** The prompt as it was shown (large pastes as their placeholders), for the transcript and the history. */
  readonly shown?: string
}

/** A paste longer than this (characters, or lines) is shown as a placeholder: the prompt stays a few rows. */
const pasteChars = 800
const pasteLines = 10

const placeholder = (index: number, text: string) => {
  const lines = text.split("\n").length
  return `[Pasted text #${index + 1} ${lines > 1 ? `+${lines} lines` : `${text.length} chars`}]`
}

/** The text with the pastes' placeholders replaced by the pastes. */
export const expand = (text: string, pastes: ReadonlyArray<string>): string =>
  pastes.reduce((result, paste, index) => result.replace(placeholder(index, paste), () => paste), text)

export const empty = (history: ReadonlyArray<string> = []): State => ({
  text: "",
  cursor: 0,
  history,
  historyIndex: history.length,
  draft: "",
  pastes: []
})

const lineStart = (text: string, cursor: number) => text.lastIndexOf("\n", cursor - 1) + 1
const lineEnd = (text: string, cursor: number) => {
  const end = text.indexOf("\n", cursor)
  return end < 0 ? text.length : end
}

/** The index of the code point before `cursor` (a surrogate pair is one step). */
const before = (text: string, cursor: number) => {
  if (cursor <= 0) return 0
  const low = text.charCodeAt(cursor - 1)
  return low >= 0xdc00 && low <= 0xdfff && cursor >= 2 ? cursor - 2 : cursor - 1
}
const after = (text: string, cursor: number) => {
  if (cursor >= text.length) return text.length
  const high = text.charCodeAt(cursor)
  return high >= 0xd800 && high <= 0xdbff && cursor + 2 <= text.length ? cursor + 2 : cursor + 1
}

const wordBefore = (text: string, cursor: number) => {
  let index = cursor
  while (index > 0 && /\s/.test(text[index - 1] ?? "")) index--
  while (index > 0 && !/\s/.test(text[index - 1] ?? "")) index--
  return index
}
const wordAfter = (text: string, cursor: number) => {
  let index = cursor
  while (index < text.length && /\s/.test(text[index] ?? "")) index++
  while (index < text.length && !/\s/.test(text[index] ?? "")) index++
  return index
}

const edit = (state: State, text: string, cursor: number): State => ({ ...state, text, cursor })
const insert = (state: State, inserted: string): State =>
  edit(state, state.text.slice(0, state.cursor) + inserted + state.text.slice(state.cursor), state.cursor + inserted.length)

const showHistory = (state: State, index: number): State => {
  const draft = state.historyIndex === state.history.length ? state.text : state.draft
  const text = index === state.history.length ? draft : (state.history[index] ?? "")
  return { ...state, text, cursor: text.length, historyIndex: index, draft }
}

/** The cursor one line up or down, at the same column where the line is long enough. */
const verticalMove = (state: State, direction: -1 | 1): State | undefined => {
  const { text, cursor } = state
  const start = lineStart(text, cursor)
  const column = cursor - start
  if (direction < 0) {
    if (start === 0) return undefined
    const previousStart = lineStart(text, start - 1)
    return { ...state, cursor: Math.min(previousStart + column, start - 1) }
  }
  const end = lineEnd(text, cursor)
  if (end === text.length) return undefined
  const nextStart = end + 1
  return { ...state, cursor: Math.min(nextStart + column, lineEnd(text, nextStart)) }
}

/** Adds `prompt` to the history (not twice in a row, not blank), keeping at most `limit`. */
export const remember = (history: ReadonlyArray<string>, prompt: string, limit = 500): ReadonlyArray<string> =>
  prompt.trim() === "" || history[history.length - 1] === prompt ? history : [...history, prompt].slice(-limit)

export const apply = (state: State, key: Key): Applied => {
  const { text, cursor } = state
  switch (key._tag) {
    case "char":
      return { state: insert(state, key.text) }
    case "paste": {
      const text = key.text.replace(/\r\n?/g, "\n")
      if (text.length <= pasteChars && text.split("\n").length <= pasteLines) return { state: insert(state, text) }
      const pastes = [...state.pastes, text]
      return { state: { ...insert(state, placeholder(pastes.length - 1, text)), pastes } }
    }
    case "newline":
      return { state: insert(state, "\n") }
    case "enter": {
      // `\` before the cursor at the end of a line: a line break instead of sending.
      if (cursor > 0 && text[cursor - 1] === "\\" && (cursor === text.length || text[cursor] === "\n")) {
        return { state: edit(state, `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor) }
      }
      const history = remember(state.history, text)
      return { state: empty(history), submitted: expand(text, state.pastes), shown: text }
    }
    case "backspace": {
      const from = before(text, cursor)
      return { state: edit(state, text.slice(0, from) + text.slice(cursor), from) }
    }
    case "delete":
      return { state: edit(state, text.slice(0, cursor) + text.slice(after(text, cursor)), cursor) }
    case "left":
      return { state: { ...state, cursor: before(text, cursor) } }
    case "right":
      return { state: { ...state, cursor: after(text, cursor) } }
    case "wordLeft":
      return { state: { ...state, cursor: wordBefore(text, cursor) } }
    case "wordRight":
      return { state: { ...state, cursor: wordAfter(text, cursor) } }
    case "home":
    case "ctrlA":
      return { state: { ...state, cursor: lineStart(text, cursor) } }
    case "end":
    case "ctrlE":
      return { state: { ...state, cursor: lineEnd(text, cursor) } }
    case "ctrlK": {
      const end = lineEnd(text, cursor)
      // At the end of a line, Ctrl+K joins the next one (as Emacs does).
      const to = end === cursor && end < text.length ? end + 1 : end
      return { state: edit(state, text.slice(0, cursor) + text.slice(to), cursor) }
    }
    case "ctrlU": {
      const start = lineStart(text, cursor)
      return { state: edit(state, text.slice(0, start) + text.slice(cursor), start) }
    }
    case "ctrlW": {
      const from = wordBefore(text, cursor)
      return { state: edit(state, text.slice(0, from) + text.slice(cursor), from) }
    }
    case "up": {
      const moved = verticalMove(state, -1)
      if (moved !== undefined) return { state: moved }
      return { state: state.historyIndex > 0 ? showHistory(state, state.historyIndex - 1) : state }
    }
    case "down": {
      const moved = verticalMove(state, 1)
      if (moved !== undefined) return { state: moved }
      return { state: state.historyIndex < state.history.length ? showHistory(state, state.historyIndex + 1) : state }
    }
    default:
      // Keys the editor does not own (Tab, Shift+Tab, Esc, Ctrl+C/D/L): the host's.
      return { state }
  }
}
