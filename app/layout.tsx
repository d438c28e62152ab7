import type { ReactNode } from 'react';

export const metadata = { title: 'Lockboard', description: 'Distributed locks on Google Cloud Storage' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
