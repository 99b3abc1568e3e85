import { legalSlugs, legalTitles, type LegalSlug } from '../shared/lib/legal-slugs';
import { markdownToNodes } from '../shared/lib/site-state/render-markdown-dom';
import { parseLegalVersion, parseVersionList, versionFromQuery, type LegalVersion, type SiteState } from '../shared/lib/site-state/site-state-guards';
import { liveState, rpc, type Config } from './live';

/**
 * A legal page's live part (docs/adr/0261): the version in force, or the one its address asks for (?version=N,
 * the stable address of every version), and the list of all versions. The prerendered text is version 1.
 * The legal pages load this entry (which imports web/live.ts); the landing loads web/live.ts alone.
 */
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

function showLegal(body: HTMLElement, version: LegalVersion, versions: { version: number; effective_at: string }[], current: number | undefined) {
  const slug = body.dataset.legalSlug as LegalSlug;
  body.replaceChildren(...markdownToNodes(document, version.body_md));
  body.dataset.legalVersion = String(version.version);
  const date = document.querySelector('[data-legal-date]');
  if (date) {
    date.textContent = longDate.format(new Date(version.effective_at));
    date.setAttribute('datetime', version.effective_at);
  }
  if (version.version !== current) {
    const note = document.createElement('p');
    note.setAttribute('role', 'note');
    note.style.fontWeight = '600';
    note.textContent = `You are reading version ${version.version} of the ${legalTitles[slug]}, in force from ${longDate.format(new Date(version.effective_at))}.`;
    body.prepend(note);
  }
  const list = document.createElement('ul');
  for (const item of versions) {
    const li = document.createElement('li');
    const anchor = document.createElement('a');
    anchor.href = `/${slug}?version=${item.version}`;
    anchor.textContent = `Version ${item.version}, ${new Date(item.effective_at) > new Date() ? 'from' : 'effective'} ${longDate.format(new Date(item.effective_at))}`;
    li.append(anchor);
    list.append(li);
  }
  const heading = document.createElement('h2');
  heading.textContent = 'All versions';
  heading.style.fontWeight = '600';
  const section = document.createElement('section');
  section.setAttribute('aria-label', 'All versions');
  section.append(heading, list);
  body.append(section);
}

async function refreshLegal(config: Config, state: SiteState) {
  const body = document.querySelector<HTMLElement>('[data-legal-body]');
  const slug = body?.dataset.legalSlug;
  if (!body || !slug || !(legalSlugs as readonly string[]).includes(slug)) return;
  const current = state.legal[slug]?.version;
  const wanted = versionFromQuery(location.search) ?? current;
  const [rows, versions] = await Promise.all([
    rpc(config, 'legal_version', { _slug: slug, _version: wanted ?? null }),
    rpc(config, 'legal_version_list', { _slug: slug }),
  ]);
  const version = parseLegalVersion(rows);
  const list = parseVersionList(versions);
  // The prerendered text is version 1: replaced only when another is in force or asked for, or to list versions.
  if (version && (version.version !== Number(body.dataset.legalVersion) || list.length > 1)) showLegal(body, version, list, current);
}

void liveState.then((live) => live && refreshLegal(live.config, live.state)).catch((error: unknown) => console.warn('Storewise legal version:', error));
