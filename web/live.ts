import { parseSiteState, type SiteState } from '../shared/lib/site-state/site-state-guards';

/**
 * The live part of the prerendered public pages (docs/adr/0261): after the first paint it reads the platform's
 * public state (public_site_state) and shows the maintenance banner and the announcement (a bar fixed at the
 * bottom, so nothing on the page moves), the footer's real status, and on a legal page the version in force or
 * the one its address asks for (?version=N) with the list of every version. A published change reaches the
 * pages without a rebuild; without this script (or the network) the page stays as prerendered.
 */
export type Config = { url: string; anonKey: string };

/**
 * The project's URL and anon key, as web/runtime-config.ts finds them. Not imported from there: a module both
 * entries import becomes a chunk of its own, one more request before the landing's entry can run.
 */
async function loadConfig(): Promise<Config> {
  const url = import.meta.env.VITE_SUPABASE_URL as string | undefined;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined;
  if (url && anonKey) return { url, anonKey };
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  const config = (await response.json()) as Partial<Config>;
  if (typeof config.url !== 'string' || typeof config.anonKey !== 'string') throw new Error('config.json is incomplete');
  return { url: config.url, anonKey: config.anonKey };
}

export async function rpc(config: Config, name: string, args: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${config.url}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, Authorization: `Bearer ${config.anonKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.json();
}

const colors = { info: ['#1e40af', '#eff6ff'], warning: ['#92400e', '#fffbeb'], critical: ['#991b1b', '#fef2f2'] } as const;

function noticeBar(): HTMLElement {
  const existing = document.getElementById('site-notices');
  if (existing) return existing;
  const bar = document.createElement('div');
  bar.id = 'site-notices';
  Object.assign(bar.style, { position: 'fixed', insetInline: '0', bottom: '0', zIndex: '1000', fontSize: '0.95rem' });
  document.body.append(bar);
  return bar;
}

function notice(role: string, severity: keyof typeof colors, text: string, link?: string | null): HTMLElement {
  const line = document.createElement('div');
  line.setAttribute('role', role);
  line.dataset.siteNotice = severity;
  const [fg, bg] = colors[severity];
  Object.assign(line.style, { color: fg, background: bg, borderTop: `1px solid ${fg}`, padding: '0.6rem 1rem', textAlign: 'center' });
  line.textContent = text;
  if (link) {
    const anchor = document.createElement('a');
    anchor.href = link;
    anchor.textContent = 'Learn more';
    Object.assign(anchor.style, { marginInlineStart: '0.5rem', textDecoration: 'underline', color: fg });
    line.append(anchor);
  }
  return line;
}

function showState(state: SiteState) {
  const lines: HTMLElement[] = [];
  if (state.banner) lines.push(notice(state.banner.severity === 'info' ? 'status' : 'alert', state.banner.severity, state.banner.text));
  if (state.read_only) lines.push(notice('status', 'warning', `Read-only maintenance${state.read_only.message ? `: ${state.read_only.message}` : ''}. Changes wait until it ends.`));
  if (state.announcement && document.querySelector('[data-site-status]')) lines.push(notice('status', 'info', state.announcement.text, state.announcement.link));
  if (lines.length) noticeBar().replaceChildren(...lines);
  const status = document.querySelector('[data-site-status-text]');
  if (status) status.textContent = `Status: ${state.status.text}`;
  const dot = document.querySelector<HTMLElement>('[data-site-status-dot]');
  if (dot && state.status.level !== 'ok') dot.style.background = state.status.level === 'incident' ? '#ef4444' : '#f59e0b';
}

/** The state once read (null when it could not be): web/live-legal.ts, a legal page's entry, continues from it. */
export const liveState: Promise<{ config: Config; state: SiteState } | null> = new Promise((resolve) => {
  // After the first paint, like the app's own start (web/main.tsx): the page never waits for this.
  requestAnimationFrame(() =>
    setTimeout(() => {
      void (async () => {
        const config = await loadConfig();
        const state = parseSiteState(await rpc(config, 'public_site_state', {}));
        showState(state);
        return { config, state };
      })().then(resolve, (error: unknown) => {
        console.warn('Storewise live state:', error);
        resolve(null);
      });
    }, 0),
  );
});
