import { describe, expect, it } from 'vitest';
import { createInstallGuard, type RegisterState } from './install-guard';

/**
 * The no-restart guard with a fake register: a shift that opens and closes and an outbox that fills and drains,
 * reported the way the renderer reports them, and a fake clock for the grace period.
 */
function fakeRegister() {
  const timers = new Map<number, () => void>();
  let nextId = 1;
  const installs: string[] = [];
  const guard = createInstallGuard({
    install: () => void installs.push('install'),
    graceMs: 60_000,
    setTimer: (run) => {
      const id = nextId++;
      timers.set(id, run);
      return id;
    },
    clearTimer: (id) => void timers.delete(id as number),
    log: () => undefined,
  });
  const state: RegisterState = { shiftOpen: false, unsentSales: 0 };
  return {
    guard,
    installs,
    openShift: () => guard.report(Object.assign(state, { shiftOpen: true })),
    closeShift: () => guard.report(Object.assign(state, { shiftOpen: false })),
    sellOffline: () => guard.report(Object.assign(state, { unsentSales: state.unsentSales + 1 })),
    syncOutbox: () => guard.report(Object.assign(state, { unsentSales: 0 })),
    report: () => guard.report({ ...state }),
    /** Runs every pending timer, as if the grace period passed. */
    elapse: () => {
      const due = [...timers.values()];
      timers.clear();
      due.forEach((run) => run());
    },
    pendingTimers: () => timers.size,
  };
}

describe('the update never restarts a shift', () => {
  it('waits while a shift is open, installs after it closes with an empty outbox', () => {
    const register = fakeRegister();
    register.openShift();
    register.guard.updateDownloaded('1.5.0');
    expect(register.guard.phase()).toEqual({ phase: 'waiting', version: '1.5.0', reason: 'a shift is open' });
    register.elapse();
    expect(register.installs).toEqual([]);

    register.closeShift();
    expect(register.guard.phase()).toEqual({ phase: 'scheduled', version: '1.5.0' });
    register.elapse();
    expect(register.installs).toEqual(['install']);
    expect(register.guard.phase()).toEqual({ phase: 'installing', version: '1.5.0' });
  });

  it('a closed shift with unsent sales waits until the outbox is empty', () => {
    const register = fakeRegister();
    register.openShift();
    register.sellOffline();
    register.sellOffline();
    register.guard.updateDownloaded('1.5.0');
    register.closeShift();
    expect(register.guard.phase()).toEqual({ phase: 'waiting', version: '1.5.0', reason: '2 sales not sent yet' });
    register.elapse();
    expect(register.installs).toEqual([]);
    register.syncOutbox();
    register.elapse();
    expect(register.installs).toEqual(['install']);
  });

  it('a shift opened again during the grace period cancels the restart', () => {
    const register = fakeRegister();
    register.openShift();
    register.guard.updateDownloaded('1.5.0');
    register.closeShift();
    expect(register.pendingTimers()).toBe(1);
    register.openShift();
    expect(register.pendingTimers()).toBe(0);
    register.elapse();
    expect(register.installs).toEqual([]);
    expect(register.guard.phase()).toMatchObject({ phase: 'waiting', reason: 'a shift is open' });
    register.closeShift();
    register.elapse();
    expect(register.installs).toEqual(['install']);
  });

  it('does not restart when the register has never reported (unknown counts as busy)', () => {
    const register = fakeRegister();
    register.guard.updateDownloaded('1.5.0');
    expect(register.guard.phase()).toEqual({ phase: 'waiting', version: '1.5.0', reason: 'the register has not reported its shift yet' });
    // The register screen opening with no shift is not close of day: the update waits for quit.
    register.report();
    register.elapse();
    expect(register.installs).toEqual([]);
    expect(register.guard.phase()).toEqual({ phase: 'waiting', version: '1.5.0', reason: 'installs when the app quits' });
  });

  it('downloaded while nobody sells: installs on quit, not in the middle of back-office work', () => {
    const register = fakeRegister();
    register.report();
    register.guard.updateDownloaded('1.5.0');
    register.elapse();
    expect(register.installs).toEqual([]);
    // A shift later in the day, then its close: that is close of day.
    register.openShift();
    register.closeShift();
    register.elapse();
    expect(register.installs).toEqual(['install']);
  });

  it('nothing happens before an update is downloaded, and a later version replaces a waiting one', () => {
    const register = fakeRegister();
    register.openShift();
    register.closeShift();
    register.elapse();
    expect(register.installs).toEqual([]);
    expect(register.guard.phase()).toEqual({ phase: 'idle' });
    register.openShift();
    register.guard.updateDownloaded('1.5.0');
    register.guard.updateDownloaded('1.5.1');
    expect(register.guard.phase()).toMatchObject({ version: '1.5.1' });
  });
});
