import { existsSync, readFileSync } from 'node:fs';
import { seedFile } from '../db/paths';

export interface DemoAccount {
  email: string;
  password: string;
  role: string;
  description: string;
}

/** The demo accounts supabase/seed.sql declares in `-- demo-account: email | password | role | text` lines. */
export function readDemoAccounts(path: string = seedFile): DemoAccount[] {
  if (!existsSync(path)) return [];
  const accounts: DemoAccount[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^--\s*demo-account:\s*(.+)$/.exec(line.trim());
    if (!match?.[1]) continue;
    const [email = '', password = '', role = '', ...rest] = match[1].split('|').map((part) => part.trim());
    if (email && password) accounts.push({ email, password, role, description: rest.join(' | ') });
  }
  return accounts;
}
