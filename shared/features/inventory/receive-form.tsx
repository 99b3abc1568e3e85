import { Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { receiveSchema, type ReceiveValues } from './inventory-schemas';

export type ReceiveLine = ReceiveValues['lines'][number];

/**
 * What arrived of an ordered purchase order: per line a quantity (blank: nothing this time), and the lot and
 * expiry of lot-tracked items. Receiving less than ordered leaves the order partly received.
 */
export function ReceiveForm({ lines, onSubmit, onCancel }: {
  lines: ReceiveLine[]; onSubmit: (values: ReceiveValues) => Promise<void>; onCancel: () => void;
}) {
  const { register, handleSubmit, formState } = useForm<ReceiveValues>({ resolver: zodResolver(receiveSchema), defaultValues: { lines } });
  const errors = formState.errors.lines;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Receive goods">
      <Stack gap="3" borderWidth="1px" rounded="md" p="4">
        <Text fontWeight="medium">What arrived</Text>
        <Table.ScrollArea>
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Expected</Table.ColumnHeader>
                <Table.ColumnHeader>Received now</Table.ColumnHeader>
                <Table.ColumnHeader>Lot</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line, i) => (
                <Table.Row key={line.lineId}>
                  <Table.Cell>{line.label}</Table.Cell>
                  <Table.Cell textAlign="end">{line.remaining}</Table.Cell>
                  <Table.Cell minW="24">
                    <Input size="sm" inputMode="decimal" aria-label={`Received of ${line.label}`} {...register(`lines.${i}.qty` as const)}
                      aria-invalid={Boolean(errors?.[i]?.qty)} />
                    {errors?.[i]?.qty && <Text fontSize="xs" color="fg.error">{errors[i]?.qty?.message}</Text>}
                  </Table.Cell>
                  <Table.Cell minW="28">
                    {line.hasLots ? (
                      <>
                        <Input size="sm" aria-label={`Lot of ${line.label}`} {...register(`lines.${i}.lotNumber` as const)}
                          aria-invalid={Boolean(errors?.[i]?.lotNumber)} />
                        {errors?.[i]?.lotNumber && <Text fontSize="xs" color="fg.error">{errors[i]?.lotNumber?.message}</Text>}
                      </>
                    ) : '-'}
                  </Table.Cell>
                  <Table.Cell minW="36">
                    {line.hasLots ? (
                      <>
                        <Input size="sm" type="date" aria-label={`Expiry of ${line.label}`} {...register(`lines.${i}.expiresOn` as const)}
                          aria-invalid={Boolean(errors?.[i]?.expiresOn)} />
                        {errors?.[i]?.expiresOn && <Text fontSize="xs" color="fg.error">{errors[i]?.expiresOn?.message}</Text>}
                      </>
                    ) : '-'}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        {errors?.root?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.root.message}</Text>}
        {errors?.message && <Text color="fg.error" fontSize="sm" role="alert">{errors.message}</Text>}
        <HStack>
          <Button type="submit" loading={formState.isSubmitting}>Receive</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </HStack>
      </Stack>
    </form>
  );
}
