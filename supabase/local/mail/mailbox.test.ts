import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Mailbox } from './mailbox';

const mail = (to: string) => ({ to, subject: 'Confirm your Storewise account', text: 'link', html: '<a>link</a>' });

describe('Mailbox', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'storewise-mailbox-'));
    dirs.push(dir);
    return join(dir, 'mailbox.json');
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('keeps messages newest first and caps them', () => {
    const box = new Mailbox(2);
    box.add(mail('a@x.test'));
    box.add(mail('b@x.test'));
    const newest = box.add(mail('c@x.test'));
    expect(box.list().map((m) => m.To[0]?.Address)).toEqual(['c@x.test', 'b@x.test']);
    expect(box.get(newest.ID)?.Subject).toBe('Confirm your Storewise account');
  });

  it('with a file, a new mailbox (a restarted stack) reads what was sent before', async () => {
    const file = tempFile();
    const box = new Mailbox(10, file);
    const sent = box.add(mail('owner@x.test'));
    await box.flush();
    const reopened = new Mailbox(10, file);
    expect(reopened.get(sent.ID)).toEqual(sent);
    reopened.clear();
    await reopened.flush();
    expect(new Mailbox(10, file).list()).toEqual([]);
  });

  it('never writes while an email is being sent: many emails become a few background writes', async () => {
    const file = tempFile();
    const box = new Mailbox(1000, file);
    for (let i = 0; i < 50; i += 1) box.add(mail(`shop${i}@x.test`));
    // Nothing on disk yet: adding an email costs the same whether or not the disk is slow.
    expect(existsSync(file)).toBe(false);
    expect(box.fileWrites).toBe(0);
    // Without flush, the background write still happens, once for all 50.
    await vi.waitFor(() => expect(box.fileWrites).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    expect(box.fileWrites).toBe(1);
    expect((JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length).toBe(50);
    box.add(mail('late@x.test'));
    await box.flush();
    expect(box.fileWrites).toBe(2);
    expect(new Mailbox(1000, file).list()[0]?.To[0]?.Address).toBe('late@x.test');
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('starts empty on an unreadable file instead of failing', () => {
    const file = tempFile();
    writeFileSync(file, '{ not json');
    expect(new Mailbox(10, file).list()).toEqual([]);
  });
});
