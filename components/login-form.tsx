'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Button } from './ui/button';

interface Props {
  providers: { id: string; name: string }[];
  demoAccounts: { email: string; password: string; role: string }[];
  /** A same-site path to return to (validated on the server). */
  callbackUrl: string;
}

export function LoginForm({ providers, demoAccounts, callbackUrl }: Props) {
  const [email, setEmail] = useState(demoAccounts[0]?.email ?? '');
  const [password, setPassword] = useState('');
  const oauth = providers.filter((p) => p.id !== 'demo');
  if (providers.length === 0) {
    return <p>No sign-in provider is configured. Set GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET or OIDC_* (see README).</p>;
  }
  return (
    <div className="space-y-6">
      {oauth.map((p) => (
        <Button key={p.id} variant="primary" className="w-full" onClick={() => void signIn(p.id, { callbackUrl })}>
          Sign in with {p.name}
        </Button>
      ))}
      {demoAccounts.length > 0 && (
        <form
          className="space-y-3 rounded-lg p-4 ring-1 ring-zinc-200 dark:ring-zinc-700"
          onSubmit={(e) => {
            e.preventDefault();
            void signIn('demo', { email, password, callbackUrl });
          }}
        >
          <h2 className="font-semibold">Demo accounts</h2>
          <ul className="text-sm text-zinc-600 dark:text-zinc-400">
            {demoAccounts.map((a) => (
              <li key={a.email}>
                <span className="font-mono">{a.email}</span> / password <span className="font-mono">{a.password}</span>{' '}
                ({a.role})
              </li>
            ))}
          </ul>
          <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={setEmail} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          <Button type="submit" variant="primary" className="w-full">
            Sign in
          </Button>
        </form>
      )}
    </div>
  );
}

function Field({
  label,
  value,
  onChange,
  ...input
}: {
  label: string;
  name: string;
  type: string;
  autoComplete: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <label className="block text-sm">
      {label}
      <input
        {...input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 w-full rounded-md border border-zinc-300 bg-transparent p-2 dark:border-zinc-600"
      />
    </label>
  );
}
