import type { LegalDocument } from './legal-document';

/**
 * A built-in legal document as the Markdown the editor works on (docs/adr/0261): the summary, then each section
 * as a second-level heading with its paragraphs and list. Version 1 of each page in the database is this text.
 */
export function legalDocumentToMarkdown(document: LegalDocument): string {
  const parts = [document.summary];
  for (const section of document.sections) {
    parts.push(`## ${section.heading}`, ...section.paragraphs);
    if (section.list) parts.push(section.list.map((item) => `- ${item}`).join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}
