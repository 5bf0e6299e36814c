/**
 * The text encodings the file tools read and write, so an edit leaves every byte it did not touch as it was.
 * Detection (as Claude Code's): a UTF-8 byte-order mark, a UTF-16LE one, else UTF-8 when the bytes are valid
 * UTF-8, else Latin-1, which maps each byte to one character and back, so any file round-trips. A BOM is kept
 * on write. Read detects from its first chunk (it never loads a big file whole); Edit, Write and NotebookEdit
 * hold the whole file and detect from all of it, so a stray invalid byte past the first chunk is still kept.
 */
export type Charset = "utf8" | "utf16le" | "latin1"

export interface TextEncoding {
  readonly charset: Charset
  /** The file starts with a byte-order mark (UTF-8 or UTF-16LE), hidden from the text and kept on write. */
  readonly bom: boolean
}

/** What a new file is written in. */
export const utf8: TextEncoding = { charset: "utf8", bom: false }

const utf8Bom = [0xef, 0xbb, 0xbf]
const utf16leBom = [0xff, 0xfe]

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>): boolean =>
  prefix.every((byte, index) => bytes[index] === byte)

/**
 * Whether `bytes` are valid UTF-8. With `complete` false they are the start of a longer file, so a multi-byte
 * character cut at their end does not count against them.
 */
const isUtf8 = (bytes: Uint8Array, complete: boolean): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes, { stream: !complete })
    return true
  } catch {
    return false
  }
}

/** The encoding of a file from its bytes: all of them (`complete`), or its first chunk. */
export const detectEncoding = (bytes: Uint8Array, complete: boolean): TextEncoding => {
  if (startsWith(bytes, utf16leBom)) return { charset: "utf16le", bom: true }
  // A UTF-8 BOM followed by bytes that are not UTF-8 is taken as Latin-1 text, so those bytes survive.
  if (isUtf8(bytes, complete)) return { charset: "utf8", bom: startsWith(bytes, utf8Bom) }
  return { charset: "latin1", bom: false }
}

/** A decoder for a file's bytes fed in order (the BOM, if any, is dropped from the text). */
export const makeDecoder = (encoding: TextEncoding) => {
  if (encoding.charset === "latin1") {
    const decode = (bytes: Uint8Array): string =>
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
    return { decode, end: (): string => "" }
  }
  const decoder = new TextDecoder(encoding.charset === "utf8" ? "utf-8" : "utf-16le", { ignoreBOM: !encoding.bom })
  return {
    decode: (bytes: Uint8Array): string => decoder.decode(bytes, { stream: true }),
    end: (): string => decoder.decode()
  }
}

/** A whole file's text and the encoding to write it back in. */
export const decodeFile = (bytes: Uint8Array): { readonly text: string; readonly encoding: TextEncoding } => {
  const encoding = detectEncoding(bytes, true)
  const decoder = makeDecoder(encoding)
  return { text: decoder.decode(bytes) + decoder.end(), encoding }
}

/** The first character of `text` that `encoding` cannot hold (only Latin-1 has such), if any. */
export const firstUnencodable = (text: string, encoding: TextEncoding): string | undefined => {
  if (encoding.charset !== "latin1") return undefined
  const match = /[^\u0000-\u00ff]/u.exec(text)
  return match?.[0]
}

/** `text` as bytes in `encoding`, BOM first when the file had one. Check `firstUnencodable` before. */
export const encodeText = (text: string, encoding: TextEncoding): Uint8Array => {
  // Text that already starts with a BOM character (the model wrote one) does not get a second.
  const body = encoding.bom && text.startsWith("\uFEFF") ? text.slice(1) : text
  const bytes = Buffer.from(body, encoding.charset)
  if (!encoding.bom) return bytes
  const bom = encoding.charset === "utf16le" ? utf16leBom : utf8Bom
  const out = new Uint8Array(bom.length + bytes.length)
  out.set(bom)
  out.set(bytes, bom.length)
  return out
}

/** The encoding's name for messages to the model. */
export const describeEncoding = (encoding: TextEncoding): string => {
  const name = encoding.charset === "utf8" ? "UTF-8" : encoding.charset === "utf16le" ? "UTF-16LE" : "Latin-1"
  return encoding.bom ? `${name} with a byte-order mark` : name
}
