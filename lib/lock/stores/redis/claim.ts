// A delivery claim in Redis (one webhook delivery per event across console replicas): the key
// `<audit stream>:claims:<key>`, set only if absent (SET NX), expiring by itself after two days, longer than any
// retry series (an hour) and any replica's look-back (minutes). Its value "1" is no lock format's: never listed.

/** How long a claim is kept: far past a delivery's retries and a restarted replica's look-back. */
export const CLAIM_TTL_MS = 2 * 86_400_000;

export const claimKeyOf = (stream: string, key: string): string => `${stream}:claims:${key}`;

/** SET NX PX: true for the one caller that set it. */
export async function claimInRedis(
  cmd: (key: string, args: string[]) => Promise<unknown>,
  stream: string,
  key: string,
): Promise<boolean> {
  const k = claimKeyOf(stream, key);
  const reply = await cmd(k, ['SET', k, '1', 'NX', 'PX', String(CLAIM_TTL_MS)]);
  return reply !== null && reply !== undefined && String(reply) === 'OK';
}
