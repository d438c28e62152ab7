// Garbage requests for the fuzz tests: every body × target × content type, `repeat` times; 5xx answers collected.
export async function fuzzPosts(
  base: string,
  targets: string[],
  bodies: string[],
  headers: Record<string, string>,
  repeat: number,
): Promise<{ sent: number; fiveXx: string[] }> {
  const fiveXx: string[] = [];
  let sent = 0;
  for (const body of bodies) {
    for (const target of targets) {
      for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        for (let i = 0; i < repeat; i++) {
          const r = await fetch(`${base}${target}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': type },
            body,
            redirect: 'manual',
          });
          if (r.status >= 500) fiveXx.push(`POST ${target} ${type} ${body.slice(0, 40)} → ${r.status}`);
          await r.arrayBuffer();
          sent++;
        }
      }
    }
  }
  return { sent, fiveXx };
}
