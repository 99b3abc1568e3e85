import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('with a file, a new mailbox (a restarted stack) reads what was sent before', () => {
    const file = tempFile();
    const sent = new Mailbox(10, file).add(mail('owner@x.test'));
    const reopened = new Mailbox(10, file);
    expect(reopened.get(sent.ID)).toEqual(sent);
    reopened.clear();
    expect(new Mailbox(10, file).list()).toEqual([]);
  });

  it('starts empty on an unreadable file instead of failing', () => {
    const file = tempFile();
    writeFileSync(file, '{ not json');
    expect(new Mailbox(10, file).list()).toEqual([]);
  });
});
