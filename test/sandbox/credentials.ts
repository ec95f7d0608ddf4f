/** Obviously fake demo credentials. None of them is a real secret. */

export const DEMO_API_KEY = 'sk-sandbox-demo-not-a-real-key';

export interface PatSpec {
  id: string;
  secret: string;
}

/** Full permissions (read and write). */
export const DEMO_PAT: PatSpec = { id: 'sandbox-pat-demo-id', secret: 'sandbox-pat-demo-secret-not-real' };

/** Read-only: every write (POST/PUT/PATCH/DELETE) made with its JWT answers 403. */
export const READ_ONLY_PAT: PatSpec = { id: 'sandbox-pat-readonly-id', secret: 'sandbox-pat-readonly-secret-not-real' };

/** A PAT past its expiration date: the exchange answers 401. */
export const EXPIRED_PAT: PatSpec = { id: 'sandbox-pat-expired-id', secret: 'sandbox-pat-expired-secret-not-real' };

export const ALL_SECRETS: readonly string[] = [DEMO_API_KEY, DEMO_PAT.secret, READ_ONLY_PAT.secret, EXPIRED_PAT.secret];
