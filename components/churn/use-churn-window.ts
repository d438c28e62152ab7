'use client';

// The churn page's window lives in the address: shareable, kept on reload, undone by Back.
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { churnWindowOf, churnWindowQuery } from '@/lib/console/churn/window';
import type { ChurnWindow, RangeKey } from '@/lib/console/queries';

export function useChurnWindow() {
  const pathname = usePathname();
  const selected = churnWindowOf(useSearchParams());
  const setSelected = (w: ChurnWindow) => globalThis.history.pushState(null, '', `${pathname}${churnWindowQuery(w)}`);
  // Bumped by the range buttons so the From/To fields show the range just chosen
  const [fieldsFor, setFieldsFor] = useState(0);
  const choose = (key: RangeKey) => {
    setSelected({ range: key });
    setFieldsFor((n) => n + 1);
  };
  return { selected, setSelected, fieldsFor, choose };
}
