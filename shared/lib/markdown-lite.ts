/**
 * The Markdown the legal pages are written in (docs/adr/0261), parsed into a small tree that the editor's
 * preview (React), the legal page (React) and the public pages' live script (DOM, no React) render alike. Only
 * what legal text needs: headings (##, ###), paragraphs, bulleted and numbered lists, **bold**, *italic*,
 * `code` and [links](https://... or /path). Nothing is ever inserted as HTML, so no text can become markup.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'em' | 'code'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; level: 2 | 3; inline: Inline[] }
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

const inlinePattern = /\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
const safeHref = (href: string) => /^(https:\/\/|\/(?!\/)|mailto:)/.test(href);

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    if (match.index > last) out.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) out.push({ kind: 'strong', text: match[1] });
    else if (match[2] !== undefined) out.push({ kind: 'em', text: match[2] });
    else if (match[3] !== undefined) out.push({ kind: 'code', text: match[3] });
    else if (safeHref(match[5]!)) out.push({ kind: 'link', text: match[4]!, href: match[5]! });
    else out.push({ kind: 'text', text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const bullet = /^\s*[-*]\s+(.*)$/;
const numbered = /^\s*\d+[.)]\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length === 3 ? 3 : 2, inline: parseInline(heading[2]!.trim()) });
    } else if (bullet.test(line) || numbered.test(line)) {
      flush();
      const ordered = !bullet.test(line);
      const pattern = ordered ? numbered : bullet;
      const items: Inline[][] = [];
      while (i < lines.length && pattern.test(lines[i]!)) items.push(parseInline(pattern.exec(lines[i++]!)![1]!.trim()));
      i--;
      blocks.push({ kind: 'list', ordered, items });
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}
