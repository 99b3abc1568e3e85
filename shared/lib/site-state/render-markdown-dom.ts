import { parseMarkdown, type Inline } from '../markdown-lite';

/**
 * Markdown (shared/lib/markdown-lite.ts) into DOM nodes for the prerendered pages' live script, which has no
 * React. Text goes in as text nodes only: nothing a document says can become markup.
 */
function inlineNodes(doc: Document, parts: Inline[]): Node[] {
  return parts.map((part) => {
    if (part.kind === 'text') return doc.createTextNode(part.text);
    const element = doc.createElement(part.kind === 'link' ? 'a' : part.kind);
    element.textContent = part.text;
    if (part.kind === 'link') element.setAttribute('href', part.href);
    return element;
  });
}

export function markdownToNodes(doc: Document, source: string): HTMLElement[] {
  return parseMarkdown(source).map((block) => {
    if (block.kind === 'list') {
      const list = doc.createElement(block.ordered ? 'ol' : 'ul');
      list.style.paddingInlineStart = '1.25rem';
      list.style.listStyle = block.ordered ? 'decimal' : 'disc';
      for (const item of block.items) {
        const li = doc.createElement('li');
        li.append(...inlineNodes(doc, item));
        list.append(li);
      }
      return list;
    }
    const element = doc.createElement(block.kind === 'heading' ? `h${block.level}` : 'p');
    element.append(...inlineNodes(doc, block.inline));
    if (block.kind === 'heading') element.style.fontWeight = '600';
    if (block.kind === 'heading') element.style.fontSize = block.level === 2 ? '1.25rem' : '1.1rem';
    element.style.lineHeight = '1.625';
    return element;
  });
}
