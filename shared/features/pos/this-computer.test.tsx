import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StorePc, StorePcStatus } from '../../platform/platform';
import { ThisComputerPanel } from './this-computer';

const base: StorePcStatus = {
  version: '1.4.0', channel: 'stable', platform: 'win32', arch: 'x64', deviceId: '7d2c0b8e-1c6f-4a51-9d44-3f0a12345678',
  autoUpdate: true, policyProblem: null, locked: [], update: 'Up to date',
};

function renderPanel(status: StorePcStatus, changeSettings: StorePc['changeSettings'] = async () => ({ ok: true, message: 'Saved.' })) {
  const machine: StorePc = { status: async () => status, reportRegister: vi.fn(), changeSettings: vi.fn(changeSettings) };
  render(<ChakraProvider value={defaultSystem}><ThisComputerPanel machine={machine} /></ChakraProvider>);
  return machine;
}

describe('ThisComputerPanel', { timeout: 30_000 }, () => {
  it('shows the version and update state, and saves the user\'s channel', async () => {
    const machine = renderPanel({ ...base, update: 'Version 1.5.0 is ready: it installs when Storewise quits' });
    expect(await screen.findByText('Storewise 1.4.0 (stable)')).toBeInTheDocument();
    expect(screen.getByTestId('update-status')).toHaveTextContent('1.5.0 is ready');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Update channel' }), 'beta');
    expect(machine.changeSettings).toHaveBeenCalledWith({ updateChannel: 'beta' });
    expect(await screen.findByRole('status')).toHaveTextContent('Saved.');
  });

  it('disables what IT locked and shows a policy problem', async () => {
    renderPanel({ ...base, autoUpdate: false, locked: ['autoUpdate'], policyProblem: 'The machine policy has a problem: /etc/storewise/policy.json is not valid JSON' });
    expect(await screen.findByText(/is not valid JSON/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Update automatically' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Update channel' })).toBeEnabled();
    expect(screen.getByText('Some settings are set by your IT department.')).toBeInTheDocument();
  });

  it('shows main\'s refusal', async () => {
    renderPanel(base, async () => ({ ok: false, message: 'Set by your IT department: updateChannel' }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Update channel' }), 'beta');
    expect(await screen.findByRole('status')).toHaveTextContent('Set by your IT department');
  });
});
