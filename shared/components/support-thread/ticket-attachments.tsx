import { useEffect, useState } from 'react';
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { LuPaperclip } from 'react-icons/lu';
import { notify } from '../toaster';
import { useSupabase } from '../../lib/platform-context';
import { attachmentLink, listTicketAttachments, type TicketAttachment } from './attachments-api';

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The files attached to a ticket, in both threads (the customer's and the admins'). Each opens through a signed
 * link made on click, valid for a minute, so no long-lived URL to a private file is ever on the page.
 */
export function TicketAttachments({ ticketId, refreshKey = 0 }: { ticketId: string; refreshKey?: number }) {
  const supabase = useSupabase();
  const [files, setFiles] = useState<TicketAttachment[] | undefined>();

  useEffect(() => {
    let live = true;
    listTicketAttachments(supabase, ticketId)
      .then((list) => live && setFiles(list))
      .catch(() => live && setFiles([]));
    return () => {
      live = false;
    };
  }, [supabase, ticketId, refreshKey]);

  const open = async (file: TicketAttachment) => {
    try {
      window.location.assign(await attachmentLink(supabase, file));
    } catch (error) {
      notify.error('Attachment unavailable', error instanceof Error ? error.message : 'Please try again.');
    }
  };

  if (!files || files.length === 0) return null;
  return (
    <Stack gap="2" aria-label="Attachments" data-testid="ticket-attachments">
      <Text fontSize="sm" fontWeight="semibold">Attachments</Text>
      {files.map((file) => (
        <HStack key={file.path} gap="2">
          <Button variant="outline" size="xs" onClick={() => void open(file)} data-testid="ticket-attachment">
            <LuPaperclip aria-hidden /> {file.name}
          </Button>
          <Text fontSize="xs" color="fg.muted">{formatSize(file.size)}</Text>
        </HStack>
      ))}
    </Stack>
  );
}
