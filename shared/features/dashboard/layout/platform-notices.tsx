import { Alert, Button, Link, Stack } from '@chakra-ui/react';
import { format } from 'date-fns';
import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { notify } from '../../../components/toaster';
import { legalTitles, legalSlugs } from '../../../lib/legal-slugs';
import { useSupabase } from '../../../lib/platform-context';
import { useSiteState } from '../../../lib/site-state/use-site-state';

const noticeSchema = z.array(z.object({ slug: z.enum(legalSlugs), version: z.number(), effective_at: z.string() }));
type LegalNotice = z.infer<typeof noticeSchema>[number];

const alertStatus = { info: 'info', warning: 'warning', critical: 'error' } as const;

/**
 * Above every dashboard screen (issue 30, docs/adr/0260, 0261): the maintenance banner in its window, read-only
 * mode with why changes wait (the register keeps selling and sends its sales afterwards), and the terms the user
 * accepted that have changed since, until they have read the notice.
 */
export function PlatformNotices() {
  const supabase = useSupabase();
  const state = useSiteState();
  const [notices, setNotices] = useState<LegalNotice[]>([]);
  useEffect(() => {
    void supabase.rpc('my_legal_notices').then(({ data }) => {
      const parsed = noticeSchema.safeParse(data);
      if (parsed.success) setNotices(parsed.data);
    });
  }, [supabase]);
  const dismiss = useCallback(
    async (notice: LegalNotice) => {
      const { error } = await supabase.rpc('acknowledge_legal_version', { _slug: notice.slug, _version: notice.version });
      if (error) return notify.error('Could not dismiss the notice', error.message);
      setNotices((all) => all.filter((n) => n.slug !== notice.slug));
    },
    [supabase],
  );

  if (!state?.banner && !state?.read_only && notices.length === 0) return null;
  return (
    <Stack gap="3" mb="4" data-testid="platform-notices">
      {state?.banner && (
        <Alert.Root status={alertStatus[state.banner.severity]}>
          <Alert.Indicator />
          <Alert.Title>{state.banner.text}</Alert.Title>
        </Alert.Root>
      )}
      {state?.read_only && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Storewise is in read-only maintenance{state.read_only.message ? `: ${state.read_only.message}` : ''}</Alert.Title>
            <Alert.Description>
              Changes you make wait until it ends. Registers keep selling offline and send their sales once it is over.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {notices.map((notice) => (
        <Alert.Root key={notice.slug} status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              Our {legalTitles[notice.slug]} changed on {format(new Date(notice.effective_at), 'MMMM d, yyyy')}.
            </Alert.Title>
            <Alert.Description>
              <Link href={`/${notice.slug}?version=${notice.version}`} target="_blank" rel="noopener noreferrer" color="blue.fg">
                Read version {notice.version}
              </Link>
            </Alert.Description>
          </Alert.Content>
          <Button size="xs" variant="outline" onClick={() => void dismiss(notice)}>
            Got it
          </Button>
        </Alert.Root>
      ))}
    </Stack>
  );
}
