// Pages get a per-request nonce CSP from proxy.ts; these headers go on every response.
/** @type {import('next').NextConfig} */
const securityHeaders = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

const nextConfig = {
  poweredByHeader: false,
  // One self-contained server (.next/standalone/server.js) for npm start, the demo, the tests and the container
  output: 'standalone',
  // forbidden() in pages: a signed-in user whose role does not allow a page gets a 403 before any data is read
  // proxyClientMaxBodySize: the proxy (pages only) buffers request bodies for itself; pages take no large bodies
  experimental: { authInterrupts: true, proxyClientMaxBodySize: '64kb' },
  serverExternalPackages: ['@google-cloud/storage'],
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders },
      {
        source: '/api/:path*',
        headers: [
          { key: 'Cache-Control', value: 'no-store' },
          // JSON only: nothing may load and nothing may frame it
          { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" },
        ],
      },
      // The lock stream: Next keeps a config header over the handler's own, so no-transform must be set here
      // (no proxy or compression may buffer events)
      { source: '/api/locks/stream', headers: [{ key: 'Cache-Control', value: 'no-store, no-transform' }] },
    ];
  },
};

export default nextConfig;
