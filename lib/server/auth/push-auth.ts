// Authentication of Pub/Sub pushes (POST /api/gcs-events): a Google-signed OIDC token for the configured audience
// and push service account (production), or the configured shared token (emulator and tests).
import 'server-only';
import { OAuth2Client } from 'google-auth-library';
import { env } from '../env';
import { ApiError } from '../api-error';
import { tokenMatches } from '../http';

const oauth = new OAuth2Client();

/**
 * 401 unless the push is authenticated: a Google-signed OIDC token for the configured audience and push service
 * account (production), or the configured shared token as `?token=` or a Bearer token (emulator and tests).
 */
export async function authenticatePush(req: Request): Promise<void> {
  const config = env();
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1];
  const shared = config.LOCKBOARD_PUSH_TOKEN;
  if (shared) {
    const given = new URL(req.url).searchParams.get('token') ?? bearer ?? '';
    if (tokenMatches(given, shared)) return;
  }
  const audience = config.LOCKBOARD_PUSH_AUDIENCE;
  const account = config.LOCKBOARD_PUSH_SERVICE_ACCOUNT;
  if (audience && account && bearer) {
    try {
      const ticket = await oauth.verifyIdToken({ idToken: bearer, audience });
      const claims = ticket.getPayload();
      const issuer = claims?.iss;
      if (
        (issuer === 'https://accounts.google.com' || issuer === 'accounts.google.com') &&
        claims?.email === account &&
        claims.email_verified === true
      )
        return;
    } catch {
      // not a valid Google-signed token for this audience: refused below
    }
  }
  if (!shared && !(audience && account)) {
    throw new ApiError(
      'not_found',
      'GCS notifications are not enabled: set LOCKBOARD_PUSH_AUDIENCE and LOCKBOARD_PUSH_SERVICE_ACCOUNT (or LOCKBOARD_PUSH_TOKEN for the emulator).',
    );
  }
  throw new ApiError('unauthorized', 'The push is not authenticated for this console.');
}
