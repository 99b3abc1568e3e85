import { useState } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { useSupabase } from '../../../lib/platform-context';
import { notify } from '../../../components/toaster';
import { LoadError } from '../../../components/load-error';
import { LoadingText } from '../../../components/loading-text';
import { fetchAdminPlans } from '../admin-api';
import { useAdminData } from '../common/use-admin-data';
import { PageHeader } from '../common/page-header';
import { PaginationControls } from '../common/pagination-controls';
import { PlansTable } from './plans-table';

export const PLANS_PAGE_SIZE = 20;

/** Plan Management: every user plan, newest first, with the owner's name, paged in the database. */
export function AdminPlansPage() {
  const supabase = useSupabase();
  const [page, setPage] = useState(1);
  const { state, reload } = useAdminData(
    String(page),
    () => fetchAdminPlans(supabase, { page, pageSize: PLANS_PAGE_SIZE }),
    (error) => notify.error('Failed to fetch plans', error.message),
  );
  const shown = state.status === 'ready' ? state.data : state.previous;

  return (
    <>
      <PageHeader title="Plan Management" description="Every subscription plan, newest first." />
      <Stack gap="4">
        {state.status === 'error' && <LoadError message="Failed to fetch plans" error={state.error} onRetry={reload} />}
        {!shown && state.status === 'loading' && <LoadingText />}
        {shown && (
          <>
            {shown.rows.length === 0 ? (
              <Text py="6" textAlign="center" color="fg.muted" bg="bg" borderWidth="1px" rounded="lg">
                No plans yet
              </Text>
            ) : (
              <PlansTable rows={shown.rows} busy={state.status === 'loading'} />
            )}
            <PaginationControls
              page={page}
              pageSize={PLANS_PAGE_SIZE}
              total={shown.total}
              noun="plans"
              disabled={state.status === 'loading'}
              onPageChange={setPage}
            />
          </>
        )}
      </Stack>
    </>
  );
}
