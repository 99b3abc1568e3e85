import path from 'node:path';
import { describeIssues, machinePolicySchema, type MachinePolicy } from './policy-schema';
import { policyFromRegistry } from './registry-policy';

/**
 * Reads the machine policy (docs/adr/0271): policy.json in the machine-wide folder of each OS, and on Windows
 * the Group Policy registry key, whose values win over the file's one by one. Only places a standard user
 * cannot write are read, and no environment variable can point elsewhere: a user must not be able to swap
 * in a policy that unlocks what IT locked.
 *
 * A file that is absent is no policy. A file that cannot be read, is not JSON, or breaks the schema is a
 * *problem*: reported in the app and the log, the rest of the policy still applies, and `broken` is set so
 * updates stay off (a typo in a managed PC's policy must not let an update IT held back through).
 */

export const POLICY_FILE_NAME = 'policy.json';

export function machinePolicyFile(platform: NodeJS.Platform, env: { ProgramData?: string | undefined }): string {
  if (platform === 'win32') return path.win32.join(env.ProgramData || 'C:\\ProgramData', 'Storewise', POLICY_FILE_NAME);
  if (platform === 'darwin') return path.posix.join('/Library/Application Support/Storewise', POLICY_FILE_NAME);
  return path.posix.join('/etc/storewise', POLICY_FILE_NAME);
}

export interface LoadedPolicy {
  /** The merged, validated policy (null: none at all). */
  policy: MachinePolicy | null;
  /** Where it came from, for the log and the settings screen. */
  sources: string[];
  /** What was wrong, in sentences IT can act on; null when all was well. */
  problem: string | null;
  /** A policy source exists but could not be used: updates stay off. */
  broken: boolean;
}

export interface PolicyReaders {
  /** Reads a file as UTF-8; rejects with code ENOENT when it does not exist. */
  readFile(file: string): Promise<string>;
  /** Windows only: the text of `reg query HKLM\SOFTWARE\Policies\Storewise`, or null when the key is absent. */
  readRegistry?: () => Promise<string | null>;
}

type Part = { source: string; value: MachinePolicy } | { source: string; problem: string } | null;

async function fromFile(file: string, readFile: PolicyReaders['readFile']): Promise<Part> {
  let raw: string;
  try {
    raw = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { source: file, problem: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let json: unknown;
  try {
    // A BOM is what Notepad and PowerShell's Out-File leave at the start; JSON.parse would refuse it.
    json = JSON.parse(raw.replace(/^\uFEFF/, ''));
  } catch {
    return { source: file, problem: `${file} is not valid JSON` };
  }
  const parsed = machinePolicySchema.safeParse(json);
  if (!parsed.success) return { source: file, problem: `${file}: ${describeIssues(parsed.error)}` };
  return { source: file, value: parsed.data };
}

async function fromRegistry(readRegistry: () => Promise<string | null>): Promise<Part> {
  const source = 'HKLM\\SOFTWARE\\Policies\\Storewise';
  let output: string | null;
  try {
    output = await readRegistry();
  } catch {
    return { source, problem: `the registry key ${source} could not be read` };
  }
  const raw = output === null ? null : policyFromRegistry(output);
  if (raw === null) return null;
  const parsed = machinePolicySchema.safeParse(raw);
  if (!parsed.success) return { source, problem: `${source}: ${describeIssues(parsed.error)}` };
  return { source, value: parsed.data };
}

/** Registry over file, key by key; `locked` is the union (locking is never undone by a second source). */
function merge(file: MachinePolicy | null, registry: MachinePolicy | null): MachinePolicy | null {
  if (!file) return registry;
  if (!registry) return file;
  const merged: MachinePolicy = { ...file, locked: [...new Set([...file.locked, ...registry.locked])] };
  if (registry.server !== undefined) merged.server = registry.server;
  if (registry.updateChannel !== undefined) merged.updateChannel = registry.updateChannel;
  if (registry.autoUpdate !== undefined) merged.autoUpdate = registry.autoUpdate;
  if (registry.proxy !== undefined) merged.proxy = registry.proxy;
  return merged;
}

export async function loadMachinePolicy(
  env: { platform: NodeJS.Platform; ProgramData?: string | undefined },
  readers: PolicyReaders,
): Promise<LoadedPolicy> {
  const parts: Part[] = [await fromFile(machinePolicyFile(env.platform, env), readers.readFile)];
  if (env.platform === 'win32' && readers.readRegistry) parts.push(await fromRegistry(readers.readRegistry));
  const [filePart, registryPart] = parts;
  const valueOf = (part: Part | undefined) => (part && 'value' in part ? part.value : null);
  const problems = parts.flatMap((part) => (part && 'problem' in part ? [part.problem] : []));
  return {
    policy: merge(valueOf(filePart), valueOf(registryPart)),
    sources: parts.flatMap((part) => (part && 'value' in part ? [part.source] : [])),
    problem: problems.length > 0 ? `The machine policy has a problem and was not applied in full: ${problems.join(' | ')}` : null,
    broken: problems.length > 0,
  };
}
