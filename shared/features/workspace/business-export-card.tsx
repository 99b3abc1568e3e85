import { useEffect, useRef, useState } from 'react';
import { Button, Link, Progress, Stack, Text } from '@chakra-ui/react';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { exportDownloadLink, exportPercent, fetchExportStatus, startBusinessExport, type ExportStatus } from './business-export-api';
import { WorkspaceCard } from './workspace-card';

const POLL_MS = 1000;

/**
 * The owner exports the whole business (docs/adr/0290): a ZIP with a manifest, every table as JSON Lines and the
 * products, stock, sales and customers as CSV files the catalog import reads. Built on the server; the bar follows
 * the rows written; the link that follows works for five minutes.
 */
function BusinessExportPanel({ businessId }: { businessId: string }) {
  const supabase = useSupabase();
  const [exportId, setExportId] = useState<string | null>(null);
  const [status, setStatus] = useState<ExportStatus>(null);
  const [starting, setStarting] = useState(false);
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const alive = useRef(true);
  useEffect(() => () => { alive.current = false; }, []);

  useEffect(() => {
    if (!exportId) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await fetchExportStatus(supabase, exportId);
        if (!alive.current) return;
        setStatus(next);
        if (next?.state === 'ready') {
          const link = await exportDownloadLink(supabase, exportId);
          if (alive.current) setDownload(link);
          return;
        }
        if (next?.state === 'failed' || !next) {
          notify.error('Export failed', 'Nothing was lost. Export again.');
          return;
        }
      } catch (error) {
        notify.error('Export failed', error instanceof Error ? error.message : 'Try again.');
        return;
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => clearTimeout(timer);
  }, [exportId, supabase]);

  const start = async () => {
    setStarting(true);
    setDownload(null);
    setStatus(null);
    try {
      setExportId(await startBusinessExport(supabase, businessId));
    } catch (error) {
      notify.error('Export not started', error instanceof Error ? error.message : 'Try again.');
    } finally {
      setStarting(false);
    }
  };

  const building = exportId !== null && !download && status?.state !== 'failed';
  return (
    <Stack gap="3" maxW="lg">
      <Text fontSize="sm">
        A ZIP file of everything the business holds: every table as JSON Lines, and the products, stock, sales and
        customers as CSV files (the products file imports into another business with Catalog import).
      </Text>
      {building && (
        <Stack gap="1">
          <Progress.Root value={exportPercent(status)} size="xs" aria-label="Building the export">
            <Progress.Track><Progress.Range /></Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" color="fg.muted" role="status">
            {status ? `Written ${status.rows_done.toLocaleString()} of ${status.rows_total.toLocaleString()} rows` : 'Starting the export'}
          </Text>
        </Stack>
      )}
      {download && (
        <Text role="status">
          Your export is ready: <Link href={download.url} download={download.name} colorPalette="blue">Download {download.name}</Link>{' '}
          (the link works for five minutes).
        </Text>
      )}
      <div>
        <Button onClick={() => void start()} loading={starting} disabled={building}>Export business data</Button>
      </div>
    </Stack>
  );
}

/** The business's one export panel, on Business settings (also the copy to keep once a deletion is scheduled). */
export function BusinessExportCard({ businessId }: { businessId: string }) {
  return (
    <WorkspaceCard title="Export business data" description="Download a copy of your business, for your records or another system.">
      <BusinessExportPanel businessId={businessId} />
    </WorkspaceCard>
  );
}
