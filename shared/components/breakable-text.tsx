import { Fragment } from 'react';

/**
 * Where a long email address or id may wrap: after "@" and "-", and before ".", as typesetters break
 * addresses, so "owner1@storewise.local" never splits as "storewise.lo / cal". Browsers alone would not
 * break there ("-" before a digit reads as a minus sign, "@" and "." join their neighbours). The text copies
 * unchanged (<wbr> adds no character); a part wider than its box still wraps inside it where the caller sets
 * overflow-wrap: anywhere.
 */
export function breakParts(text: string): string[] {
  return text.split(/(?<=[@-])|(?=\.)/).filter((part) => part !== '');
}

export function BreakableText({ text }: { text: string }) {
  return (
    <>
      {breakParts(text).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
