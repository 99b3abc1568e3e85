import { Button, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';

/** The Register with nothing to choose yet: what to do next instead of an empty dropdown (issue 25). */
export function NoRegisterYet({ canManage }: { canManage: boolean }) {
  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="note" aria-label="No register yet" data-testid="pos-no-register">
      <Text fontWeight="semibold">No register yet</Text>
      {canManage ? (
        <>
          <Text>A register is a till of one of your stores, with its own receipt numbers. Add one to start selling.</Text>
          <div><Button asChild size="sm"><RouterLink to="/dashboard/business/stores">Add a register</RouterLink></Button></div>
        </>
      ) : (
        <Text>Ask your manager or the owner to add a register for your store; it appears here at once.</Text>
      )}
    </Stack>
  );
}
