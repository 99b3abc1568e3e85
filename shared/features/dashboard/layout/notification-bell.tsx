import { Box } from '@chakra-ui/react';
import { LuBell } from 'react-icons/lu';

/**
 * The header's bell (spec: "a notification bell with a dot"). The dot means "something unread", so it shows
 * only when there is something: a dot with nothing behind it teaches owners to ignore it. No notification
 * feed exists yet, so the header passes 0 until one does.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Box position="relative" p="2" color="fg.muted" role="img" aria-label={label} data-testid="notification-bell">
      <LuBell size="20" aria-hidden />
      {unread > 0 && (
        <Box position="absolute" top="1.5" right="1.5" boxSize="2" rounded="full" bg="red.500" data-testid="notification-dot" />
      )}
    </Box>
  );
}
