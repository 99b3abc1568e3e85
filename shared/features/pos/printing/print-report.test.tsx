import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PrintReportButton } from './print-report';

describe('PrintReportButton', { timeout: 30_000 }, () => {
  it('prints with only the report visible: the body class is on during window.print and off after', async () => {
    const during: boolean[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => void during.push(document.body.classList.contains('pos-printing-report')));
    render(<ChakraProvider value={defaultSystem}><div className="pos-report"><PrintReportButton kind="Z" /></div></ChakraProvider>);
    await userEvent.click(screen.getByRole('button', { name: 'Print Z report' }));
    expect(print).toHaveBeenCalledTimes(1);
    expect(during).toEqual([true]);
    expect(document.body.classList.contains('pos-printing-report')).toBe(false);
    const css = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(css).toContain('body.pos-printing-report .pos-report, body.pos-printing-report .pos-report * { visibility: visible !important; }');
    print.mockRestore();
  });
});
