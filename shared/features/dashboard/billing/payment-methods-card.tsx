import { Badge, Button, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { FaCcMastercard, FaCcVisa } from 'react-icons/fa';
import { LuCreditCard, LuPlus, LuSmartphone, LuTrash2, LuWallet } from 'react-icons/lu';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import type { Load } from '../use-load';
import type { PaymentMethod } from './billing-api';

const CARD_ICONS: Record<string, { icon: IconType; label: string }> = {
  visa: { icon: FaCcVisa, label: 'Visa' },
  mastercard: { icon: FaCcMastercard, label: 'Mastercard' },
  mobile: { icon: LuSmartphone, label: 'Mobile payment' },
  wallet: { icon: LuWallet, label: 'Wallet' },
};
const GENERIC = { icon: LuCreditCard, label: 'Card' };

function PaymentMethodRow({ method }: { method: PaymentMethod }) {
  const { icon: Icon, label } = CARD_ICONS[method.type] ?? GENERIC;
  return (
    <Flex as="li" align="center" gap="3" borderWidth="1px" rounded="md" p="3" data-type={method.type}>
      <Icon size="28" aria-hidden />
      <Stack gap="0" flex="1" minW="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="semibold">
            {label} •••• {method.last_four}
          </Text>
          {method.is_default && <Badge colorPalette="blue">Default</Badge>}
        </HStack>
        {method.expiry && (
          <Text fontSize="sm" color="fg.muted">
            Expires {method.expiry}
          </Text>
        )}
      </Stack>
      <IconButton
        variant="ghost"
        size="sm"
        disabled
        aria-label={`Remove ${label} ending in ${method.last_four}`}
        title="Coming soon"
      >
        <LuTrash2 />
      </IconButton>
    </Flex>
  );
}

export function PaymentMethodsCard({ load }: { load: Load<PaymentMethod[]> }) {
  return (
    <SectionCard
      title="Payment Methods"
      description="Cards and accounts on file."
      actions={
        <Button size="sm" variant="outline" disabled title="Coming soon">
          <LuPlus aria-hidden /> Add Method
        </Button>
      }
    >
      <LoadedList
        load={load}
        errorMessage="We couldn't load your payment methods."
        emptyText="No payment methods saved"
        testId="payment-methods"
        gap="2"
      >
        {(method) => <PaymentMethodRow key={method.id} method={method} />}
      </LoadedList>
    </SectionCard>
  );
}
