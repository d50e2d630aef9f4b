import { useEffect, useState } from 'react';
import { healthAnswer } from '../../../domain/contracts/health.ts';
import { syncServerUrl } from '../../../lib/config.ts';
import { useOnline } from '../use-online.ts';

/** One question per page load: the answer only changes when the server is reconfigured. */
let answer: Promise<boolean | undefined> | undefined;

function askServer(): Promise<boolean | undefined> {
  answer ??= fetch(`${syncServerUrl()}/api/health`, { cache: 'no-store' })
    .then(async (res) => {
      const body = healthAnswer.safeParse(await res.json());
      return body.success ? body.data.payments === 'available' : undefined;
    })
    .catch(() => {
      answer = undefined; // ask again next time
      return undefined;
    });
  return answer;
}

/**
 * Whether this Pacta server takes payments (`/api/health` says; an operator may run one with
 * PAYMENTS=off). Undefined until known, and offline (the money actions then say they need a
 * connection). The money routes are asked only once this is true, so a server without payments is
 * never sent a request that can only fail.
 */
export function usePaymentsAvailable(): boolean | undefined {
  const online = useOnline();
  const [available, setAvailable] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (!online) return;
    let current = true;
    void askServer().then((a) => current && setAvailable(a));
    return () => {
      current = false;
    };
  }, [online]);
  return available;
}
