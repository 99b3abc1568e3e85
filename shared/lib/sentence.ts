/**
 * A message as a sentence for a person (issue 25): the database speaks in lower-case clauses such as "permission
 * denied: your role in this business does not allow this"; a screen shows "Your role in this business does not
 * allow this." The words are kept; only the form changes.
 */
export function asSentence(message: string): string {
  const text = message.trim().replace(/^permission denied:\s*/i, '').replace(/^error:\s*/i, '');
  if (!text) return text;
  const first = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(first) ? first : `${first}.`;
}
