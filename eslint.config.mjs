import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const LIBRARY_ONLY = {
  regex: '^@/(lib/(server|console)|app|components)(/|$)|^(\\.\\./)+(server|console)(/|$)',
  message: 'lib/lock is the library: it imports nothing of lib/server, lib/console or the console.',
};
const OWN_STORE_ONLY = {
  regex: '^\\.\\./(?!sql/|aws/)[\\w-]+/|^@/lib/lock/stores/(?!sql/|aws/)[\\w-]+/',
  message: "A store folder imports no other store's folder: move what they share to lib/lock/stores/sql/ (or aws/).",
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'bench-results/**',
      'next-env.d.ts',
      'dist/**',
    ],
  },
  // The library stands alone: lib/server and the console import lib/lock, never the other way (docs/architecture.md).
  { files: ['lib/lock/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [LIBRARY_ONLY] }] } },
  // A store folder imports no other store's folder: what stores share lives in lib/lock/stores/sql/, aws/ or above.
  {
    files: ['lib/lock/stores/*/**/*.ts'],
    ignores: ['lib/lock/stores/sql/**', 'lib/lock/stores/aws/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [LIBRARY_ONLY, OWN_STORE_ONLY] }] },
  },
];
export default config;
