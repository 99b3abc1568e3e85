import { Code, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { Fragment } from 'react';
import { parseMarkdown, type Inline } from '../lib/markdown-lite';

function Inlines({ parts }: { parts: Inline[] }) {
  return parts.map((part, index) => {
    if (part.kind === 'strong') return <strong key={index}>{part.text}</strong>;
    if (part.kind === 'em') return <em key={index}>{part.text}</em>;
    if (part.kind === 'code') return <Code key={index}>{part.text}</Code>;
    if (part.kind === 'link') return <Link key={index} href={part.href} color="blue.fg">{part.text}</Link>;
    return <Fragment key={index}>{part.text}</Fragment>;
  });
}

/** Markdown of a legal page (shared/lib/markdown-lite.ts) as the page shows it: the editor's preview uses it too. */
export function MarkdownView({ source }: { source: string }) {
  return (
    <Stack gap="4">
      {parseMarkdown(source).map((block, index) => {
        if (block.kind === 'heading') {
          return <Heading key={index} as={block.level === 2 ? 'h2' : 'h3'} size={block.level === 2 ? 'lg' : 'md'}><Inlines parts={block.inline} /></Heading>;
        }
        if (block.kind === 'list') {
          return (
            <List.Root key={index} as={block.ordered ? 'ol' : 'ul'} ps="5" gap="2" lineHeight="tall">
              {block.items.map((item, itemIndex) => <List.Item key={itemIndex}><Inlines parts={item} /></List.Item>)}
            </List.Root>
          );
        }
        return <Text key={index} lineHeight="tall"><Inlines parts={block.inline} /></Text>;
      })}
    </Stack>
  );
}
