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
  // Store SDKs the console loads on demand are required from node_modules at run time and traced into
  // .next/standalone/node_modules, never bundled. etcd3 reads its gRPC protos at load time from
  // `${__dirname}/../proto/*.proto`: bundled, that path pointed nowhere; external, the tracer still leaves the .proto
  // files out (no require names them). Either way `import('etcd3')` failed and the console said "etcd:// sources
  // need etcd3" where the CLI found it. test/demo/console-sources.test.ts asserts every demo source answers.
  serverExternalPackages: ['@google-cloud/storage', 'etcd3'],
  outputFileTracingIncludes: { '/**': ['./node_modules/etcd3/proto/*.proto'] },
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
