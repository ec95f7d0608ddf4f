import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock';
import { isString } from '../core/json';
import { DEMO_PAT, EXPIRED_PAT, READ_ONLY_PAT } from '../credentials';
import { signJwt, verifyJwt } from './jwt';

export type Permission = 'read-write' | 'read-only';

export interface Identity {
  tenantId: string;
  companyId: string;
  userId: string;
  readOnlyUserId: string;
}

export interface Principal {
  tenantId: string;
  companyId: string;
  userId: string;
  permission: Permission;
  patId: string;
}

interface Session {
  principal: Principal;
  exp: number;
}

export type ExchangeResult = { ok: true; token: string; exp: number } | { ok: false; status: 400 | 401; message: string };
export type VerifyResult = { ok: true; principal: Principal } | { ok: false; message: string };

/**
 * PAT -> JWT exchange and bearer verification. JWTs are HS256 with a per-instance random key and
 * carry `iat`, `exp`, `jti`, `userId`, `companyId` and `scope: {id: tenantId}`. The server also
 * keeps the set of issued `jti`s: "expire all tokens" forgets them, so those JWTs answer 401 even
 * though their `exp` is still ahead.
 */
export class ConsoleAuth {
  private readonly key = randomBytes(32);
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly clock: Clock,
    private readonly lifetimeSeconds: number,
    readonly identity: Identity,
  ) {}

  exchange(id: unknown, secret: unknown): ExchangeResult {
    if (!isString(id) || !isString(secret) || id.length === 0 || secret.length === 0) {
      return { ok: false, status: 400, message: 'The body must be {"id": "<PAT id>", "secret": "<PAT secret>"}.' };
    }
    if (id === EXPIRED_PAT.id && secret === EXPIRED_PAT.secret) return { ok: false, status: 401, message: 'The personal access token has expired.' };
    let permission: Permission;
    let userId: string;
    if (id === DEMO_PAT.id && secret === DEMO_PAT.secret) {
      permission = 'read-write';
      userId = this.identity.userId;
    } else if (id === READ_ONLY_PAT.id && secret === READ_ONLY_PAT.secret) {
      permission = 'read-only';
      userId = this.identity.readOnlyUserId;
    } else {
      return { ok: false, status: 401, message: 'Invalid personal access token.' };
    }
    const iat = this.clock.nowSeconds();
    const exp = iat + this.lifetimeSeconds;
    const jti = randomUUID();
    const principal: Principal = { tenantId: this.identity.tenantId, companyId: this.identity.companyId, userId, permission, patId: id };
    this.prune();
    this.sessions.set(jti, { principal, exp });
    const token = signJwt({ iat, exp, jti, userId, companyId: this.identity.companyId, scope: { id: this.identity.tenantId } }, this.key);
    return { ok: true, token, exp };
  }

  verify(authorization: string | undefined): VerifyResult {
    if (authorization === undefined) return { ok: false, message: 'Missing Authorization header (Bearer <access token>).' };
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match?.[1]) return { ok: false, message: 'The Authorization header must be "Bearer <access token>".' };
    const check = verifyJwt(match[1], this.key);
    if (!check.ok) return { ok: false, message: 'Invalid access token.' };
    const { exp, jti } = check.payload;
    if (typeof exp !== 'number' || exp <= this.clock.nowSeconds()) return { ok: false, message: 'The access token has expired.' };
    const session = isString(jti) ? this.sessions.get(jti) : undefined;
    if (!session) return { ok: false, message: 'The access token has expired.' };
    return { ok: true, principal: session.principal };
  }

  expireAll(): void {
    this.sessions.clear();
  }

  private prune(): void {
    const now = this.clock.nowSeconds();
    for (const [jti, session] of this.sessions) if (session.exp <= now) this.sessions.delete(jti);
  }
}
