/**
 * A small, tolerant HTML to Markdown converter for WebFetch (weft takes no dependency for it). It tokenises the
 * page, builds a forgiving tree (unclosed `p`/`li`/`td`..., stray end tags, void elements) and renders headings,
 * paragraphs, links, images, lists (nested), blockquotes, code and pre, emphasis, tables and rules. Scripts,
 * styles, the head, forms' widgets and embedded media are dropped; entities are decoded. It aims at readable
 * text for a model, not round-trip fidelity. Linear in the input; nesting is capped (`maxDepth`) so a
 * pathological page cannot exhaust the stack.
 */

interface ElementNode {
  readonly kind: "element"
  readonly tag: string
  readonly attributes: ReadonlyMap<string, string>
  readonly children: Array<Node>
}
interface TextNode {
  readonly kind: "text"
  readonly text: string
}
type Node = ElementNode | TextNode

/** Deepest element nesting kept; deeper elements are flattened into their ancestor at this depth. */
export const maxDepth = 200

const voidElements = new Set(
  "area base br col embed hr img input link meta param source track wbr keygen".split(" ")
)
/** Elements whose content is raw text up to their end tag. */
const rawTextElements = new Set(["script", "style", "textarea", "title", "xmp", "noscript", "template", "iframe", "noembed", "noframes"])
/** Elements dropped with everything inside. */
const droppedElements = new Set(
  "script style noscript template head title svg math canvas iframe object embed audio video picture source select option button input textarea map".split(
    " "
  )
)
/** Elements rendered as blocks (separated by blank lines). */
const blockElements = new Set(
  ("address article aside blockquote body center details dialog dd div dl dt fieldset figcaption figure footer form " +
    "h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul caption").split(" ")
)
/** A start tag of one of these closes an open `p` (as HTML's parser does). */
const closesParagraph = new Set(
  ("address article aside blockquote center details dialog div dl fieldset figcaption figure footer form h1 h2 h3 " +
    "h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul").split(" ")
)

// -------------------------------------------------------------------------------------------------------------
// Entities

const namedEntities: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00A0", copy: "©", reg: "®", trade: "™",
  hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", sbquo: "‚", ldquo: "“", rdquo: "”", bdquo: "„",
  laquo: "«", raquo: "»", lsaquo: "‹", rsaquo: "›", bull: "•", middot: "·", deg: "°", times: "×", divide: "÷",
  plusmn: "±", euro: "€", pound: "£", yen: "¥", cent: "¢", sect: "§", para: "¶", shy: "", iexcl: "¡", iquest: "¿",
  larr: "←", rarr: "→", uarr: "↑", darr: "↓", harr: "↔", lArr: "⇐", rArr: "⇒", le: "≤", ge: "≥", ne: "≠",
  asymp: "≈", infin: "∞", minus: "−", prime: "′", Prime: "″", dagger: "†", Dagger: "‡", permil: "‰", micro: "µ",
  frac12: "½", frac14: "¼", frac34: "¾", sup1: "¹", sup2: "²", sup3: "³", ensp: "\u2002", emsp: "\u2003",
  thinsp: "\u2009", zwnj: "\u200C", zwj: "\u200D", lrm: "", rlm: "", check: "✓", hearts: "♥", alpha: "α",
  beta: "β", gamma: "γ", delta: "δ", pi: "π", sigma: "σ", mu: "μ", lambda: "λ", omega: "ω", Delta: "Δ",
  Sigma: "Σ", Omega: "Ω", auml: "ä", ouml: "ö", uuml: "ü", Auml: "Ä", Ouml: "Ö", Uuml: "Ü", szlig: "ß",
  eacute: "é", egrave: "è", ecirc: "ê", aacute: "á", agrave: "à", acirc: "â", iacute: "í", oacute: "ó",
  uacute: "ú", ntilde: "ñ", ccedil: "ç", Eacute: "É", aring: "å", oslash: "ø", aelig: "æ"
}

/** Decodes character references (named, decimal, hex); unknown ones stay as written. */
export const decodeEntities = (text: string): string =>
  text.indexOf("&") === -1
    ? text
    : text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, name: string) => {
        if (name.startsWith("#")) {
          const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
          if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD"
          return String.fromCodePoint(code)
        }
        return namedEntities[name] ?? whole
      })

// -------------------------------------------------------------------------------------------------------------
// Parsing

const attributePattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

const parseAttributes = (source: string): Map<string, string> => {
  const attributes = new Map<string, string>()
  for (const match of source.matchAll(attributePattern)) {
    const name = match[1]?.toLowerCase()
    if (name === undefined || attributes.has(name)) continue
    attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ""))
  }
  return attributes
}

const element = (tag: string, attributes: ReadonlyMap<string, string>): ElementNode => ({
  kind: "element",
  tag,
  attributes,
  children: []
})

/** Parses HTML into a tree under a synthetic root. Never throws; malformed markup is taken as best it can be. */
export const parseHtml = (html: string): ElementNode => {
  const root = element("#root", new Map())
  const stack: Array<ElementNode> = [root]
  const top = (): ElementNode => stack[stack.length - 1] ?? root
  const append = (node: Node) => top().children.push(node)
  const hasOpen = (tag: string, boundaries: ReadonlyArray<string>): boolean => {
    for (let index = stack.length - 1; index > 0; index--) {
      const open = stack[index]?.tag
      if (open === tag) return true
      if (open !== undefined && boundaries.includes(open)) return false
    }
    return false
  }
  const popTo = (tag: string) => {
    while (stack.length > 1) {
      const popped = stack.pop()
      if (popped?.tag === tag) return
    }
  }
  const openElement = (tag: string, attributes: ReadonlyMap<string, string>, selfClosing: boolean) => {
    // The implied end tags of HTML's parser that matter for structure.
    if (closesParagraph.has(tag) && hasOpen("p", ["div", "td", "th", "li", "blockquote", "section", "article"])) popTo("p")
    if (tag === "li" && hasOpen("li", ["ul", "ol", "menu"])) popTo("li")
    if ((tag === "dt" || tag === "dd") && (hasOpen("dt", ["dl"]) || hasOpen("dd", ["dl"]))) {
      popTo(hasOpen("dd", ["dl"]) ? "dd" : "dt")
    }
    if (tag === "tr" && hasOpen("tr", ["table"])) popTo("tr")
    if ((tag === "td" || tag === "th") && (hasOpen("td", ["tr", "table"]) || hasOpen("th", ["tr", "table"]))) {
      popTo(hasOpen("td", ["tr", "table"]) ? "td" : "th")
    }
    if ((tag === "thead" || tag === "tbody" || tag === "tfoot") && hasOpen("tr", ["table"])) popTo("tr")
    const node = element(tag, attributes)
    append(node)
    if (!selfClosing && !voidElements.has(tag) && stack.length < maxDepth) stack.push(node)
  }

  let position = 0
  const length = html.length
  while (position < length) {
    const lt = html.indexOf("<", position)
    if (lt === -1) {
      append({ kind: "text", text: html.slice(position) })
      break
    }
    if (lt > position) append({ kind: "text", text: html.slice(position, lt) })
    const next = html[lt + 1] ?? ""
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4)
      position = end === -1 ? length : end + 3
      continue
    }
    if (html.startsWith("<![CDATA[", lt)) {
      const end = html.indexOf("]]>", lt + 9)
      append({ kind: "text", text: html.slice(lt + 9, end === -1 ? length : end) })
      position = end === -1 ? length : end + 3
      continue
    }
    if (next === "!" || next === "?") {
      const end = html.indexOf(">", lt + 2)
      position = end === -1 ? length : end + 1
      continue
    }
    const isEnd = next === "/"
    const nameStart = isEnd ? lt + 2 : lt + 1
    if (!/[A-Za-z]/.test(html[nameStart] ?? "")) {
      // A lone "<" is text.
      append({ kind: "text", text: "<" })
      position = lt + 1
      continue
    }
    const close = findTagEnd(html, nameStart)
    const inner = html.slice(nameStart, close)
    position = close === length ? length : close + 1
    const nameMatch = /^[^\s/>]+/.exec(inner)
    const tag = (nameMatch?.[0] ?? "").toLowerCase()
    if (isEnd) {
      if (tag === "br") openElement("br", new Map(), true)
      else if (hasOpen(tag, [])) popTo(tag)
      else if (tag === "p") openElement("p", new Map(), true) // `</p>` alone is an empty paragraph
      continue
    }
    const selfClosing = inner.endsWith("/")
    const attributes = parseAttributes(inner.slice(tag.length, selfClosing ? -1 : undefined))
    if (rawTextElements.has(tag) && !selfClosing) {
      const endPattern = new RegExp(`</${tag}[\\s/>]`, "ig")
      endPattern.lastIndex = position
      const end = endPattern.exec(html)
      const content = html.slice(position, end === null ? length : end.index)
      const node = element(tag, attributes)
      node.children.push({ kind: "text", text: content })
      append(node)
      position = end === null ? length : findTagEnd(html, end.index + 2) + 1
      continue
    }
    openElement(tag, attributes, selfClosing)
  }
  return root
}

/** The index of the `>` ending a tag whose name starts at `from` (quotes in attribute values respected). */
const findTagEnd = (html: string, from: number): number => {
  let quote: string | undefined
  for (let index = from; index < html.length; index++) {
    const char = html[index]
    if (quote !== undefined) {
      if (char === quote) quote = undefined
    } else if (char === '"' || char === "'") {
      quote = char
    } else if (char === ">") {
      return index
    }
  }
  return html.length
}

// -------------------------------------------------------------------------------------------------------------
// Rendering

interface RenderContext {
  readonly baseUrl: URL | undefined
}

const resolveUrl = (href: string, context: RenderContext): string => {
  const trimmed = href.trim()
  if (trimmed === "" || context.baseUrl === undefined) return trimmed
  try {
    return new URL(trimmed, context.baseUrl).href
  } catch {
    return trimmed
  }
}

const isBlock = (node: Node): node is ElementNode => node.kind === "element" && blockElements.has(node.tag)

/** Collapses runs of whitespace to one space (HTML's rendering of text); keeps hard breaks (`\n` from `br`). */
const collapse = (text: string): string =>
  text
    .replace(/[ \t\r\f\n\u00A0]+/g, " ")
    .replace(/ ?\u0000 ?/g, "\n")
    .trim()

/** The raw text of a subtree (for `pre`, table cells' fallbacks, and code). */
const textContent = (node: Node): string => {
  if (node.kind === "text") return decodeEntities(node.text)
  if (droppedElements.has(node.tag)) return ""
  if (node.tag === "br") return "\n"
  return node.children.map(textContent).join("")
}

const wrapInline = (marker: string, inner: string): string => {
  const trimmed = inner.trim()
  if (trimmed === "") return inner
  const lead = inner.startsWith(" ") ? " " : ""
  const trail = inner.endsWith(" ") ? " " : ""
  return `${lead}${marker}${trimmed}${marker}${trail}`
}

const inlineCode = (text: string): string => {
  const content = text.replace(/\s+/g, " ")
  const fence = content.includes("`") ? "``" : "`"
  return content.trim() === "" ? "" : `${fence}${content}${fence}`
}

/** Renders inline content; `\u0000` marks a hard line break until `collapse` turns it into a newline. */
const renderInline = (node: Node, context: RenderContext): string => {
  if (node.kind === "text") return decodeEntities(node.text).replace(/\u0000/g, "")
  const tag = node.tag
  if (droppedElements.has(tag)) return ""
  const inner = () => node.children.map((child) => renderInline(child, context)).join("")
  switch (tag) {
    case "br":
      return "\u0000"
    case "strong":
    case "b":
      return wrapInline("**", inner())
    case "em":
    case "i":
    case "cite":
    case "dfn":
      return wrapInline("*", inner())
    case "del":
    case "s":
    case "strike":
      return wrapInline("~~", inner())
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return inlineCode(textContent(node))
    case "a": {
      const text = collapse(inner())
      const href = node.attributes.get("href")
      if (href === undefined || href.trim() === "" || href.trim().toLowerCase().startsWith("javascript:")) return text
      const url = resolveUrl(href, context)
      if (text === "") return ""
      return text === url ? `<${url}>` : `[${text.replace(/([[\]])/g, "\\$1")}](${url.replace(/[ ()]/g, encodeURIComponent)})`
    }
    case "img": {
      const src = node.attributes.get("src")
      if (src === undefined || src.startsWith("data:")) return node.attributes.get("alt") ?? ""
      return `![${(node.attributes.get("alt") ?? "").replace(/[[\]]/g, "")}](${resolveUrl(src, context)})`
    }
    case "hr":
      return " "
    default: {
      // Block content inside inline content (a div in a link): keep its text, separated.
      const content = inner()
      return isBlock(node) ? ` ${content} ` : content
    }
  }
}

/** Prefixes every line of `text`: the first with `first`, the others with `rest`. */
const prefixLines = (text: string, first: string, rest: string): string =>
  text
    .split("\n")
    .map((line, index) => (index === 0 ? first + line : line === "" ? line : rest + line))
    .join("\n")

/** Renders a sequence of nodes as Markdown blocks (inline runs become paragraphs). */
const renderBlocks = (nodes: ReadonlyArray<Node>, context: RenderContext): Array<string> => {
  const blocks: Array<string> = []
  let inline = ""
  const flush = () => {
    const text = collapse(inline)
    if (text !== "") blocks.push(text)
    inline = ""
  }
  for (const node of nodes) {
    if (node.kind === "element" && droppedElements.has(node.tag)) continue
    if (isBlock(node)) {
      flush()
      const block = renderBlock(node, context)
      if (block.trim() !== "") blocks.push(block)
    } else {
      inline += renderInline(node, context)
    }
  }
  flush()
  return blocks
}

const renderList = (list: ElementNode, context: RenderContext): string => {
  const ordered = list.tag === "ol"
  let counter = Number.parseInt(list.attributes.get("start") ?? "1", 10)
  if (!Number.isFinite(counter)) counter = 1
  const items: Array<string> = []
  for (const child of list.children) {
    // Text or stray elements directly in a list are rendered as if in an item.
    const itemNodes = child.kind === "element" && child.tag === "li" ? child.children : [child]
    const body = renderBlocks(itemNodes, context).join("\n")
    if (body.trim() === "") continue
    const marker = ordered ? `${counter}. ` : "- "
    counter++
    items.push(prefixLines(body, marker, " ".repeat(marker.length)))
  }
  return items.join("\n")
}

const renderTable = (table: ElementNode, context: RenderContext): string => {
  const rows: Array<Array<string>> = []
  let headerRow = false
  const visit = (node: ElementNode, inHead: boolean) => {
    for (const child of node.children) {
      if (child.kind !== "element") continue
      if (child.tag === "tr") {
        const cells = child.children
          .filter((cell): cell is ElementNode => cell.kind === "element" && (cell.tag === "td" || cell.tag === "th"))
          .map((cell) =>
            renderBlocks(cell.children, context).join(" ").replace(/\n+/g, " ").replace(/\|/g, "\\|").trim()
          )
        if (rows.length === 0 && (inHead || child.children.some((cell) => cell.kind === "element" && cell.tag === "th"))) {
          headerRow = true
        }
        if (cells.length > 0) rows.push(cells)
      } else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") {
        visit(child, child.tag === "thead")
      }
    }
  }
  visit(table, false)
  if (rows.length === 0) return ""
  const width = Math.max(...rows.map((row) => row.length))
  const line = (row: ReadonlyArray<string>) =>
    `| ${Array.from({ length: width }, (_, index) => row[index] ?? "").join(" | ")} |`
  const separator = `| ${Array.from({ length: width }, () => "---").join(" | ")} |`
  const [first, ...rest] = rows
  // Markdown tables need a header row: without one, an empty header keeps the data as data.
  const lines = headerRow && first !== undefined ? [line(first), separator, ...rest.map(line)] : [line([]), separator, ...rows.map(line)]
  const caption = table.children.find((child): child is ElementNode => child.kind === "element" && child.tag === "caption")
  return caption === undefined ? lines.join("\n") : `${collapse(renderInline(caption, context))}\n\n${lines.join("\n")}`
}

const renderPre = (node: ElementNode): string => {
  let text = textContent(node).replace(/\r\n?/g, "\n")
  if (text.startsWith("\n")) text = text.slice(1)
  text = text.replace(/\n+$/, "")
  const code = node.children.find((child): child is ElementNode => child.kind === "element" && child.tag === "code")
  const classes = `${code?.attributes.get("class") ?? ""} ${node.attributes.get("class") ?? ""}`
  const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? ""
  const fence = text.includes("```") ? "~~~~" : "```"
  return `${fence}${language}\n${text}\n${fence}`
}

const renderBlock = (node: ElementNode, context: RenderContext): string => {
  const tag = node.tag
  const heading = /^h([1-6])$/.exec(tag)
  if (heading?.[1] !== undefined) {
    const text = collapse(node.children.map((child) => renderInline(child, context)).join("")).replace(/\n/g, " ")
    return text === "" ? "" : `${"#".repeat(Number(heading[1]))} ${text}`
  }
  switch (tag) {
    case "ul":
    case "ol":
    case "menu":
      return renderList(node, context)
    case "pre":
      return renderPre(node)
    case "table":
      return renderTable(node, context)
    case "hr":
      return "---"
    case "blockquote":
      return prefixLines(renderBlocks(node.children, context).join("\n\n"), "> ", "> ").replace(/\n\n/g, "\n>\n")
    case "dt":
      return `**${collapse(node.children.map((child) => renderInline(child, context)).join(""))}**`
    case "dd":
      return prefixLines(renderBlocks(node.children, context).join("\n\n"), ": ", "  ")
    default:
      return renderBlocks(node.children, context).join("\n\n")
  }
}

const findElement = (node: ElementNode, tag: string): ElementNode | undefined => {
  const queue: Array<ElementNode> = [node]
  for (let index = 0; index < queue.length; index++) {
    const current = queue[index]
    if (current === undefined) continue
    if (current.tag === tag) return current
    for (const child of current.children) if (child.kind === "element") queue.push(child)
  }
  return undefined
}

/**
 * Converts an HTML document (or fragment) to Markdown. `baseUrl` resolves relative links and images; the
 * page's `<title>` becomes a first-level heading when the body does not start with one.
 */
export const htmlToMarkdown = (html: string, baseUrl?: string): string => {
  const root = parseHtml(html)
  let base: URL | undefined
  try {
    base = baseUrl === undefined ? undefined : new URL(baseUrl)
  } catch {
    base = undefined
  }
  const baseElement = findElement(root, "base")?.attributes.get("href")
  if (baseElement !== undefined) {
    try {
      base = new URL(baseElement, base)
    } catch {
      // A broken <base> is ignored, as browsers do.
    }
  }
  const context: RenderContext = { baseUrl: base }
  const body = findElement(root, "body") ?? root
  let markdown = renderBlocks(body.children, context).join("\n\n")
  const titleNode = findElement(root, "title")
  const title = titleNode === undefined ? "" : collapse(titleNode.children.map(textContent).join(""))
  if (title !== "" && !markdown.startsWith("# ")) markdown = `# ${title}\n\n${markdown}`
  return markdown
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
}
