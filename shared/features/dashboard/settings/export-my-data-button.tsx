import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import { notify } from '../../../components/toaster';
import { downloadText } from '../../../lib/download-file';
import { useSupabase } from '../../../lib/platform-context';
import { exportMyPersonalData } from './settings-api';

/** Downloads what Storewise holds about the signed-in person as one JSON file (GDPR access and portability). */
export function ExportMyDataButton() {
  const supabase = useSupabase();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const data = await exportMyPersonalData(supabase);
      downloadText(`storewise-my-data-${new Date().toISOString().slice(0, 10)}.json`, JSON.stringify(data, null, 2), 'application/json');
    } catch (error) {
      notify.error('Export failed', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" loading={busy} onClick={() => void download()}>
      <LuDownload aria-hidden /> Download My Data
    </Button>
  );
}
