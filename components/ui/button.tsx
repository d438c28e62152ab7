import type { ComponentProps } from 'react';

const VARIANTS = {
  primary: 'bg-blue-600 text-white hover:bg-blue-700 disabled:bg-blue-300',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300',
  ghost: 'bg-transparent hover:bg-zinc-100 dark:hover:bg-zinc-800 ring-1 ring-inset ring-zinc-300 dark:ring-zinc-600',
};

export function Button({
  variant = 'ghost',
  className = '',
  ...props
}: ComponentProps<'button'> & { variant?: keyof typeof VARIANTS }) {
  return (
    <button
      type="button"
      {...props}
      className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
    />
  );
}
