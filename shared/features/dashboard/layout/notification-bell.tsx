import { Box, Button, Flex, Menu, Portal, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { LuBell, LuClock } from 'react-icons/lu';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { BellItem, TrialNotice } from './use-notifications';
import { useNotifications } from './use-notifications';

/** "ends today", "ends tomorrow", "ends in 3 days". */
export function trialEndsText(trial: TrialNotice): string {
  const when = trial.days_left <= 0 ? 'today' : trial.days_left === 1 ? 'tomorrow' : `in ${trial.days_left} days`;
  return `Your ${trial.plan_name} trial ends ${when}`;
}

function ItemText({ item }: { item: BellItem }) {
  const unread = item.read_at === null;
  return (
    <Flex gap="2" align="flex-start" w="full">
      <Box boxSize="2" mt="1.5" flexShrink="0" rounded="full" bg={unread ? 'blue.500' : 'transparent'} aria-hidden />
      <Stack gap="0" minW="0" flex="1">
        <Text fontWeight={unread ? 'semibold' : 'normal'} lineClamp={2}>
          {unread && <span className="sr-only">Unread: </span>}
          {item.title}
        </Text>
        {item.body && <Text fontSize="sm" color="fg.muted" lineClamp={2}>{item.body}</Text>}
        <Text fontSize="xs" color="fg.subtle">{formatDateTime(item.created_at)}</Text>
      </Stack>
    </Flex>
  );
}

/**
 * The header's bell and its list (spec: "a notification bell with a dot"). The dot means "something needs you":
 * an unread notification or a trial ending within 3 days; without either there is no dot, so owners do not learn
 * to ignore it. Each item links to the thing it is about; opening one marks it read.
 */
export function NotificationBellView({ items, unread, trial, onMarkRead }: {
  items: BellItem[]; unread: number; trial: TrialNotice | null; onMarkRead: (ids: string[]) => void;
}) {
  const attention = unread + (trial ? 1 : 0);
  const label = attention > 0 ? `Notifications, ${attention} unread` : 'Notifications';
  const unreadIds = items.filter((item) => item.read_at === null).map((item) => item.id);
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="2" position="relative" color="fg.muted" aria-label={label}
          data-testid="notification-bell">
          <LuBell size="20" aria-hidden />
          {attention > 0 && (
            <Box position="absolute" top="1.5" right="1.5" boxSize="2" rounded="full" bg="red.500" data-testid="notification-dot" />
          )}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content w="22rem" maxW="calc(100vw - 1rem)" maxH="28rem" overflowY="auto">
            <Flex align="center" justify="space-between" px="2" py="1.5">
              <Text fontWeight="semibold">Notifications</Text>
              {unreadIds.length > 0 && (
                <Button size="xs" variant="ghost" onClick={() => onMarkRead(unreadIds)}>Mark all as read</Button>
              )}
            </Flex>
            <Menu.Separator />
            {trial && (
              <Menu.Item value="trial" asChild>
                <RouterLink to="/dashboard/billing" data-testid="trial-notice">
                  <Flex gap="2" align="flex-start" w="full" color="orange.fg">
                    <LuClock aria-hidden />
                    <Stack gap="0">
                      <Text fontWeight="semibold">{trialEndsText(trial)}</Text>
                      <Text fontSize="sm">On {formatDate(trial.trial_ends_at)}. Choose your plan on the Billing page.</Text>
                    </Stack>
                  </Flex>
                </RouterLink>
              </Menu.Item>
            )}
            {items.map((item) => item.link ? (
              <Menu.Item key={item.id} value={item.id} asChild data-unread={item.read_at === null}
                onSelect={() => item.read_at === null && onMarkRead([item.id])}>
                <RouterLink to={item.link}><ItemText item={item} /></RouterLink>
              </Menu.Item>
            ) : (
              <Menu.Item key={item.id} value={item.id} data-unread={item.read_at === null}
                onSelect={() => item.read_at === null && onMarkRead([item.id])}>
                <ItemText item={item} />
              </Menu.Item>
            ))}
            {!trial && items.length === 0 && (
              <Text px="2" py="3" color="fg.muted" fontSize="sm">No notifications yet.</Text>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

export function NotificationBell() {
  const { items, unread, trial, markRead } = useNotifications();
  return <NotificationBellView items={items} unread={unread} trial={trial} onMarkRead={(ids) => void markRead(ids)} />;
}
