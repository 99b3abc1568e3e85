import { Button, HStack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { sendTestEmail } from './platform-settings-api';

/**
 * System Settings > Email: sends the admin a test email through the real outbox with the saved sender name and
 * reply-to (docs/adr/0281). The send lands in the change history, hence onSent.
 */
export function TestEmailButton({ onSent }: { onSent: () => void }) {
  const supabase = useSupabase();
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      const sent = await sendTestEmail(supabase);
      notify.success('Test email sent', `To ${sent.to}, from ${sent.sender_name}, replies to ${sent.reply_to}. It arrives within a minute.`);
      onSent();
    } catch (error) {
      notify.error('Test email not sent', (error as Error).message);
    } finally {
      setSending(false);
    }
  };
  return (
    <HStack gap="3" wrap="wrap">
      <Button type="button" variant="outline" loading={sending} onClick={() => void send()}>
        Send a test email
      </Button>
      <Text fontSize="sm" color="fg.muted">To your own address, with the saved sender name and reply-to.</Text>
    </HStack>
  );
}
