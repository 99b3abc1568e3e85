import { Portal, Spinner, Stack, Toast, Toaster as ChakraToaster, createToaster } from '@chakra-ui/react';

/**
 * The toast machinery and its UI (~20 KB gzip of zag-js). Loaded on demand by toaster.tsx so the landing
 * page does not carry it (docs/adr/0044); import `notify` from there, never this module directly.
 */
// Alt+Shift+N reaches the notifications: zag's default, Alt+T, is the register's "pay" shortcut (issue 25).
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, hotkey: ['altKey', 'shiftKey', 'KeyN'] });

export function ToasterUi() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid={`toast-${toast.type ?? 'info'}`}>
            {toast.type === 'loading' ? <Spinner size="sm" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
