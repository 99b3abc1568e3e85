import type { StorePcStatus } from '../platform/platform';
import type { StorewiseClient } from './supabase-client';

/**
 * The store PC's heartbeat (docs/adr/0270): which version it runs, on which channel and platform, for the
 * business it is used by. No personal data: the device id is the app's own random id, and no user id, host
 * name or address is sent. The same device, version and day is stored once: a repeat is refused by the
 * database's unique key (23505), which is success here, so sending at start and every few hours costs one row a day.
 */
export const HEARTBEAT_EVERY_MS = 6 * 60 * 60 * 1000;

export async function sendStorePcHeartbeat(
  supabase: StorewiseClient,
  businessId: string,
  status: Pick<StorePcStatus, 'deviceId' | 'version' | 'channel' | 'platform' | 'arch'>,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { error } = await supabase.from('desktop_heartbeats').insert(
    {
      business_id: businessId,
      device_id: status.deviceId,
      app_version: status.version,
      channel: status.channel,
      platform: status.platform,
      arch: status.arch,
    },
  );
  // Members may insert only (no select, hence no ON CONFLICT): already reported today is a unique violation.
  return !error || error.code === '23505' ? { ok: true } : { ok: false, message: error.message };
}
