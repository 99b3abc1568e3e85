import { useId, useState } from 'react';
import { Field, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { LuInfo, LuSearch } from 'react-icons/lu';
import { useSupabase } from '../../../lib/platform-context';
import { notify } from '../../../components/toaster';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { fetchAdminUsers } from '../admin-api';
import { SEARCH_MAX, type AdminUserRow } from '../admin-schemas';
import { useAdminData } from '../common/use-admin-data';
import { useDebouncedValue } from '../common/use-debounced-value';
import { PageHeader } from '../common/page-header';
import { PaginationControls } from '../common/pagination-controls';
import { SUSPEND_NOT_AVAILABLE, UsersTable } from './users-table';

export const USERS_PAGE_SIZE = 20;
/** Long enough to wait for a typist's pause, short enough to feel immediate. */
const SEARCH_DEBOUNCE_MS = 300;

/** User Management: every profile, newest first, searchable by name and paged in the database. */
export function AdminUsersPage() {
  const supabase = useSupabase();
  const searchId = useId();
  const suspendNoteId = useId();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  // The page belongs to the search it was chosen for: a new search starts again at page 1.
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === search ? paging.page : 1;

  // docs/adr/0206: the database requires the admin's own second factor and writes the reset to the security trail.
  const resetTwoFactor = async (user: AdminUserRow) => {
    if (!window.confirm(`Remove every authenticator of ${user.full_name ?? 'this user'}? They sign in with their password alone until they set one up again.`)) return;
    const { data, error } = await supabase.rpc('admin_reset_two_factor', { _user_id: user.id });
    if (error) notify.error('Two-factor not reset', error.message);
    else notify.success('Two-factor reset', data === 0 ? 'This user had no authenticator.' : 'Their authenticators were removed.');
  };
  const { state, reload } = useAdminData(
    JSON.stringify([search, page]),
    () => fetchAdminUsers(supabase, { search, page, pageSize: USERS_PAGE_SIZE }),
    (error) => notify.error('Failed to fetch users', error.message),
  );
  const shown = state.status === 'ready' ? state.data : state.previous;

  return (
    <>
      <PageHeader title="User Management" description="Every Storewise profile, newest first." />
      <Stack gap="4">
        <Field.Root maxW={{ md: 'md' }}>
          <Field.Label htmlFor={searchId}>Search users by name</Field.Label>
          <InputGroup startElement={<LuSearch aria-hidden />}>
            <Input
              id={searchId}
              type="search"
              placeholder="Part of a name, e.g. ann"
              value={searchInput}
              maxLength={SEARCH_MAX}
              onChange={(event) => setSearchInput(event.target.value)}
              bg="bg"
            />
          </InputGroup>
        </Field.Root>

        <HStack gap="2" color="fg.muted" fontSize="sm">
          <LuInfo aria-hidden />
          <Text id={suspendNoteId}>{SUSPEND_NOT_AVAILABLE}</Text>
        </HStack>

        {state.status === 'error' && <LoadError message="Failed to fetch users" error={state.error} onRetry={reload} />}
        {!shown && state.status === 'loading' && <LoadingText />}
        {shown && (
          <>
            {shown.rows.length === 0 ? (
              <Text py="6" textAlign="center" color="fg.muted" bg="bg" borderWidth="1px" rounded="lg">
                {search ? `No users match "${search}"` : 'No users yet'}
              </Text>
            ) : (
              <UsersTable rows={shown.rows} busy={state.status === 'loading'} suspendNoteId={suspendNoteId} onResetTwoFactor={(user) => void resetTwoFactor(user)} />
            )}
            <PaginationControls
              page={page}
              pageSize={USERS_PAGE_SIZE}
              total={shown.total}
              noun="users"
              disabled={state.status === 'loading'}
              onPageChange={(next) => setPaging({ search, page: next })}
            />
          </>
        )}
      </Stack>
    </>
  );
}
