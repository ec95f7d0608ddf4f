import { uuidFrom } from '../core/ids';

/**
 * In-memory tenant data. Seeded deterministically: the same counts give the same ids and names
 * on every run. Field sets follow field-notes.md.
 */

export interface Ref {
  id: string;
  name: string;
}

export interface Vm {
  id: string;
  name: string;
  moref: string;
  powerState: 'running' | 'stopped';
  cpu: number;
  numCoresPerSocket: number;
  /** bytes */
  memory: number;
  operatingSystem: { name: string };
  datacenter: Ref;
  hostCluster: Ref;
  datastore: Ref;
  tools: string;
  template: boolean;
}

export interface User {
  id: string;
  internalId: string;
  name: string;
  type: string;
  source: string;
  sourceId: string;
  email: string;
  emailVerified: boolean;
}

export interface Role {
  id: string;
  name: string;
}

export interface Network {
  id: string;
  name: string;
  moref: string;
  virtualMachinesNumber: number;
  hostNumber: number;
}

const GIB = 1024 ** 3;
const VM_PREFIXES = ['web', 'db', 'app', 'cache', 'batch', 'vpn', 'k8s-node', 'ci-runner'];
const OPERATING_SYSTEMS = [
  'Ubuntu Linux (64-bit)',
  'Debian GNU/Linux 12 (64-bit)',
  'Microsoft Windows Server 2022 (64-bit)',
  'Red Hat Enterprise Linux 9 (64-bit)',
  'Rocky Linux (64-bit)',
];
export const DATACENTERS: readonly Ref[] = [
  { id: uuidFrom('datacenter:1'), name: 'DC-PAR7-A' },
  { id: uuidFrom('datacenter:2'), name: 'DC-PAR7-B' },
];
const CLUSTERS: readonly Ref[] = [
  { id: uuidFrom('cluster:1'), name: 'clu001-ucs01' },
  { id: uuidFrom('cluster:2'), name: 'clu002-ucs02' },
];
const DATASTORES: readonly Ref[] = [
  { id: uuidFrom('datastore:1'), name: 'ds001-gold' },
  { id: uuidFrom('datastore:2'), name: 'ds002-silver' },
  { id: uuidFrom('datastore:3'), name: 'ds003-bronze' },
];
const FIRST_NAMES = ['Alice', 'Bruno', 'Chloé', 'David', 'Emma', 'Farid', 'Gaëlle', 'Hugo', 'Inès', 'Jules', 'Karima', 'Léo'];
const LAST_NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];
export const ROLE_NAMES = [
  'activity_read',
  'backup_read',
  'backup_write',
  'bastion_read',
  'compute_iaas_vmware_read',
  'compute_iaas_vmware_management',
  'compute_iaas_vmware_console_access',
  'iam_read',
  'iam_write',
  'inference_read',
  'marketplace_read',
  'network_read',
  'network_management',
  'support_management',
  'tag_read',
  'tag_write',
];

function pick<T>(list: readonly T[], n: number): T {
  const item = list[n % list.length];
  if (item === undefined) throw new Error('empty list');
  return item;
}

export function makeVm(n: number, overrides: Partial<Vm> & { id: string; name: string }): Vm {
  const template = n % 20 === 0;
  const running = !template && n % 4 !== 0;
  return {
    moref: `vm-${1000 + n}`,
    powerState: running ? 'running' : 'stopped',
    cpu: pick([2, 4, 8, 16], n),
    numCoresPerSocket: pick([1, 2], n),
    memory: pick([4, 8, 16, 32], n) * GIB,
    operatingSystem: { name: pick(OPERATING_SYSTEMS, n) },
    datacenter: { ...pick(DATACENTERS, n) },
    hostCluster: { ...pick(CLUSTERS, n) },
    datastore: { ...pick(DATASTORES, n) },
    tools: running ? 'toolsOk' : 'toolsNotRunning',
    template,
    ...overrides,
  };
}

export interface SeedCounts {
  vms: number;
  users: number;
  networks: number;
}

export class ConsoleStore {
  vms = new Map<string, Vm>();
  users = new Map<string, User>();
  roles = new Map<string, Role>();
  networks = new Map<string, Network>();
  private created = 0;

  constructor(readonly identity: { userId: string; readOnlyUserId: string }) {
    for (const name of ROLE_NAMES) {
      const id = uuidFrom(`role:${name}`);
      this.roles.set(id, { id, name });
    }
  }

  /** A fresh id for a resource created through the API (deterministic sequence). */
  newId(kind: string): { id: string; n: number } {
    this.created += 1;
    return { id: uuidFrom(`created:${kind}:${this.created}`), n: 5000 + this.created };
  }

  seedVms(count: number): void {
    this.vms.clear();
    for (let n = 1; n <= count; n++) {
      const id = uuidFrom(`vm:${n}`);
      const name = `${pick(VM_PREFIXES, n - 1)}-${String(n).padStart(3, '0')}`;
      this.vms.set(id, makeVm(n, { id, name }));
    }
  }

  seedUsers(count: number): void {
    this.users.clear();
    const fixed: Array<{ id: string; name: string; email: string }> = [
      { id: this.identity.userId, name: 'Demo User', email: 'demo.user@sandbox.example' },
      { id: this.identity.readOnlyUserId, name: 'Read-Only Auditor', email: 'auditor@sandbox.example' },
    ];
    for (let n = 0; n < Math.max(count, 2); n++) {
      const preset = fixed[n];
      const first = pick(FIRST_NAMES, n);
      const last = pick(LAST_NAMES, Math.floor(n / FIRST_NAMES.length) + n);
      const id = preset?.id ?? uuidFrom(`user:${n}`);
      const name = preset?.name ?? `${first} ${last}`;
      const email = preset?.email ?? `${first.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase()}.${last.toLowerCase()}${n}@sandbox.example`;
      this.users.set(id, {
        id,
        internalId: uuidFrom(`user-internal:${n}`),
        name,
        type: 'LocalAccount',
        source: 'local',
        sourceId: uuidFrom(`user-source:${n}`),
        email,
        emailVerified: n % 5 !== 4,
      });
    }
  }

  seedNetworks(count: number): void {
    this.networks.clear();
    for (let n = 1; n <= count; n++) {
      const id = uuidFrom(`network:${n}`);
      this.networks.set(id, {
        id,
        name: `VLAN-${100 + n}-${pick(['frontend', 'backend', 'storage', 'management', 'dmz'], n - 1)}`,
        moref: `dvportgroup-${2000 + n}`,
        virtualMachinesNumber: (n * 7) % 40,
        hostNumber: 2 + (n % 4),
      });
    }
  }

  seed(counts: SeedCounts): void {
    this.seedVms(counts.vms);
    this.seedUsers(counts.users);
    this.seedNetworks(counts.networks);
  }
}
