import { useState } from 'react';
import { Badge, Button, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { FaCcMastercard, FaCcVisa } from 'react-icons/fa';
import { LuCreditCard, LuPlus, LuSmartphone, LuTrash2, LuWallet } from 'react-icons/lu';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import type { Load } from '../use-load';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import type { PaymentMethod } from './billing-api';
import { removePaymentMethod } from './billing-functions';
import { usePortal } from './use-portal';

const CARD_ICONS: Record<string, { icon: IconType; label: string }> = {
  visa: { icon: FaCcVisa, label: 'Visa' },
  mastercard: { icon: FaCcMastercard, label: 'Mastercard' },
  mobile: { icon: LuSmartphone, label: 'Mobile payment' },
  wallet: { icon: LuWallet, label: 'Wallet' },
};
const GENERIC = { icon: LuCreditCard, label: 'Card' };

/**
 * One card. Its delete icon removes it at the provider, except the only card of a live subscription (said on
 * the icon; the server refuses it too). Cards recorded before billing have no provider id and stay as they are.
 */
function PaymentMethodRow({ method, onlyCardOfSubscription, onRemoved }: {
  method: PaymentMethod; onlyCardOfSubscription: boolean; onRemoved: () => void;
}) {
  const supabase = useSupabase();
  const [removing, setRemoving] = useState(false);
  const { icon: Icon, label } = CARD_ICONS[method.type] ?? GENERIC;
  const providerId = method.provider_payment_method_id;
  const why = !providerId ? 'This card was recorded before online billing' : onlyCardOfSubscription
    ? 'The only payment method of your subscription: add another first' : undefined;
  const remove = async () => {
    if (!providerId) return;
    setRemoving(true);
    try {
      await removePaymentMethod(supabase, providerId);
      notify.success('Payment method removed', `${label} ending in ${method.last_four} was removed.`);
      onRemoved();
    } catch (error) {
      notify.error('Not removed', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setRemoving(false);
    }
  };
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
        disabled={Boolean(why)}
        loading={removing}
        onClick={() => void remove()}
        aria-label={`Remove ${label} ending in ${method.last_four}`}
        title={why}
      >
        <LuTrash2 />
      </IconButton>
    </Flex>
  );
}

export function PaymentMethodsCard({ load, hasAccount, liveSubscription, onChanged }: {
  load: Load<PaymentMethod[]>; hasAccount: boolean; liveSubscription: boolean; onChanged: () => void;
}) {
  const portal = usePortal();
  const providerCards = load.state.status === 'ready' ? load.state.data.filter((m) => m.provider_payment_method_id).length : 0;
  return (
    <SectionCard
      title="Payment Methods"
      description="Cards and accounts on file."
      actions={
        <Button size="sm" variant="outline" disabled={!hasAccount} loading={portal.opening} onClick={() => void portal.open()}
          title={hasAccount ? undefined : 'Choose a plan first'}>
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
        {(method) => <PaymentMethodRow key={method.id} method={method} onRemoved={onChanged}
          onlyCardOfSubscription={liveSubscription && providerCards <= 1} />}
      </LoadedList>
    </SectionCard>
  );
}
