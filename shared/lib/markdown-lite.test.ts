import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown-lite';

describe('markdown-lite', () => {
  it('parses headings, paragraphs joined across lines, and both kinds of list', () => {
    expect(parseMarkdown('## Title\n\nOne\ntwo.\n\n- a\n- b\n\n1. x\n2. y\n### Sub')).toEqual([
      { kind: 'heading', level: 2, inline: [{ kind: 'text', text: 'Title' }] },
      { kind: 'paragraph', inline: [{ kind: 'text', text: 'One two.' }] },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'a' }], [{ kind: 'text', text: 'b' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'x' }], [{ kind: 'text', text: 'y' }]] },
      { kind: 'heading', level: 3, inline: [{ kind: 'text', text: 'Sub' }] },
    ]);
  });

  it('keeps bold, italic, code and safe links, and leaves unsafe links as plain text', () => {
    expect(parseInline('**b** *i* `c` [ok](https://x.test) [rel](/terms) [bad](javascript:x)')).toEqual([
      { kind: 'strong', text: 'b' }, { kind: 'text', text: ' ' },
      { kind: 'em', text: 'i' }, { kind: 'text', text: ' ' },
      { kind: 'code', text: 'c' }, { kind: 'text', text: ' ' },
      { kind: 'link', text: 'ok', href: 'https://x.test' }, { kind: 'text', text: ' ' },
      { kind: 'link', text: 'rel', href: '/terms' }, { kind: 'text', text: ' ' },
      { kind: 'text', text: '[bad](javascript:x)' },
    ]);
    // Markup is text: nothing here is ever HTML.
    expect(parseMarkdown('<script>x</script>')).toEqual([{ kind: 'paragraph', inline: [{ kind: 'text', text: '<script>x</script>' }] }]);
    expect(parseInline('[proto](//evil.test)')).toEqual([{ kind: 'text', text: '[proto](//evil.test)' }]);
  });
});
