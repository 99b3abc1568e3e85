/**
 * The public pages' live script checks public_site_state's and legal_version's answers with these guards instead
 * of zod: zod's core would be 15 KB gzip on pages that otherwise load 3 KB (docs/adr/0261). The dashboard, which
 * has zod anyway, parses the same answers with site-state.ts's schemas; site-state-guards.test.ts keeps both in
 * agreement on good and bad answers.
 */
export interface SiteState {
  banner: { text: string; severity: 'info' | 'warning' | 'critical'; ends_at: string | null } | null;
  read_only: { message: string } | null;
  announcement: { text: string; link: string | null } | null;
  status: { level: 'ok' | 'maintenance' | 'incident'; text: string };
  support: { response_hours: number; email: string };
  faq: { question: string; answer: string }[];
  legal: Record<string, { version: number; effective_at: string }>;
}
export interface LegalVersion { slug: string; version: number; body_md: string; effective_at: string; published_at: string }

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isInt = (value: unknown): value is number => Number.isInteger(value);
const isDate = (value: unknown): value is string => isString(value) && !Number.isNaN(Date.parse(value));
const oneOf = <T extends string>(value: unknown, options: readonly T[]): value is T => options.includes(value as T);

function fail(what: string): never {
  throw new Error(`Unexpected answer from the server: ${what}`);
}

export function parseSiteState(value: unknown): SiteState {
  if (!isObject(value)) fail('site state');
  const { banner, read_only, announcement, status, support, faq, legal } = value;
  if (banner !== null && !(isObject(banner) && isString(banner.text) && oneOf(banner.severity, ['info', 'warning', 'critical'] as const)
    && (banner.ends_at === null || isDate(banner.ends_at)))) fail('banner');
  if (read_only !== null && !(isObject(read_only) && isString(read_only.message))) fail('read_only');
  if (announcement !== null && !(isObject(announcement) && isString(announcement.text) && (announcement.link === null || isString(announcement.link)))) fail('announcement');
  if (!(isObject(status) && oneOf(status.level, ['ok', 'maintenance', 'incident'] as const) && isString(status.text))) fail('status');
  if (!(isObject(support) && isInt(support.response_hours) && isString(support.email))) fail('support');
  if (!(Array.isArray(faq) && faq.every((e) => isObject(e) && isString(e.question) && isString(e.answer)))) fail('faq');
  if (!(isObject(legal) && Object.values(legal).every((l) => isObject(l) && isInt(l.version) && isDate(l.effective_at)))) fail('legal');
  return value as unknown as SiteState;
}

/** legal_version's rows: none (no such version) or one. */
export function parseLegalVersion(value: unknown): LegalVersion | undefined {
  if (!Array.isArray(value) || value.length > 1) fail('legal version');
  const [row] = value as unknown[];
  if (row === undefined) return undefined;
  if (!(isObject(row) && isString(row.slug) && isInt(row.version) && isString(row.body_md) && isDate(row.effective_at) && isDate(row.published_at))) fail('legal version');
  return row as unknown as LegalVersion;
}

export function parseVersionList(value: unknown): { version: number; effective_at: string }[] {
  if (!(Array.isArray(value) && value.every((r) => isObject(r) && isInt(r.version) && isDate(r.effective_at)))) fail('version list');
  return value as { version: number; effective_at: string }[];
}

/** ?version=N of a legal page's address: a positive whole number, else none (the version in force). */
export function versionFromQuery(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('version');
  return raw !== null && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : undefined;
}
