import type { InputField, ResourceKindSpec } from './kindSpecs';

/**
 * The default resource catalog: the contract's paths and versions (console-api.md, "Endpoints"),
 * fields from field-notes.md. Production paths (e.g. `/api/compute/v1/vcenters/virtual_machines`)
 * are set through `stratus.console.resourcePaths` (resourceCatalog.ts).
 */

const GIB = 1024 ** 3;

const nameField = (required: boolean): InputField => ({
  key: 'name',
  wire: 'name',
  label: 'Name',
  type: 'string',
  required,
  ...(required ? {} : { placeholder: 'unchanged' }),
});

const VM_POWER_BODY_IDS = { id: 'id', datacenterId: 'datacenter.id' } as const;

export const DEFAULT_CATALOG: readonly ResourceKindSpec[] = [
  {
    id: 'virtualMachines',
    label: { singular: 'Virtual Machine', plural: 'Virtual Machines' },
    icon: 'vm',
    collection: '/api/compute/v1/virtual-machines',
    item: '{collection}/{id}',
    presentation: {
      nameFields: ['name'],
      description: [{ path: 'cpu', format: 'vcpu' }, { path: 'memory', format: 'bytes' }, { path: 'operatingSystem.name' }],
      tooltip: [
        { label: 'ID', path: 'id' },
        { label: 'Power state', path: 'powerState' },
        { label: 'vCPU', path: 'cpu' },
        { label: 'Cores per socket', path: 'numCoresPerSocket' },
        { label: 'Memory', path: 'memory', format: 'bytes' },
        { label: 'Operating system', path: 'operatingSystem.name' },
        { label: 'Datacenter', path: 'datacenter.name' },
        { label: 'Cluster', path: 'hostCluster.name' },
        { label: 'Datastore', path: 'datastore.name' },
        { label: 'VMware Tools', path: 'tools' },
        { label: 'Template', path: 'template', format: 'boolean' },
      ],
      iconRule: { path: 'powerState', values: { running: 'vm-running', stopped: 'vm-outline' } },
    },
    actions: [
      {
        id: 'create',
        label: 'Create Virtual Machine...',
        method: 'POST',
        target: 'collection',
        path: '{collection}',
        icon: 'add',
        fields: [
          nameField(true),
          { key: 'cpu', wire: 'cpu', label: 'vCPU', type: 'integer', default: 2, min: 1, max: 128 },
          { key: 'memoryGiB', wire: 'memory', label: 'Memory (GiB)', type: 'integer', default: 4, min: 1, max: 4096, scale: GIB },
          { key: 'operatingSystem', wire: 'operatingSystem.name', label: 'Operating system', type: 'string', placeholder: 'Ubuntu Linux (64-bit)' },
          { key: 'powerOn', wire: 'powerOn', label: 'Power on after creation', type: 'boolean', default: false },
        ],
      },
      {
        id: 'modify',
        label: 'Modify...',
        method: 'PATCH',
        target: 'item',
        path: '{collection}/{id}',
        // Production modifies at its collection, the VM's id in the body (productionPaths.ts).
        idInBody: { id: 'id' },
        icon: 'edit',
        fields: [
          nameField(false),
          { key: 'cpu', wire: 'cpu', label: 'vCPU', type: 'integer', min: 1, max: 128 },
          { key: 'memoryGiB', wire: 'memory', label: 'Memory (GiB)', type: 'integer', min: 1, max: 4096, scale: GIB },
        ],
      },
      {
        id: 'powerOn',
        label: 'Power On',
        method: 'PATCH',
        target: 'item',
        path: '{collection}/{id}',
        pathKey: 'power',
        body: { powerAction: 'on' },
        idInBody: VM_POWER_BODY_IDS,
        when: [{ path: 'powerState', notEquals: 'running' }, { path: 'template', notEquals: 'true' }],
        icon: 'play',
      },
      {
        id: 'powerOff',
        label: 'Power Off',
        method: 'PATCH',
        target: 'item',
        path: '{collection}/{id}',
        pathKey: 'power',
        body: { powerAction: 'off' },
        idInBody: VM_POWER_BODY_IDS,
        when: [{ path: 'powerState', equals: 'running' }],
        confirm: "Power off virtual machine '{name}'?",
        icon: 'debug-stop',
      },
      {
        id: 'delete',
        label: 'Delete...',
        method: 'DELETE',
        target: 'item',
        path: '{collection}/{id}',
        confirm: "Delete virtual machine '{name}'? This cannot be undone.",
        icon: 'trash',
      },
    ],
  },
  {
    id: 'users',
    label: { singular: 'User', plural: 'Users' },
    icon: 'person',
    collection: '/api/iam/v1/users',
    item: '{collection}/{id}',
    presentation: {
      nameFields: ['name', 'email'],
      description: [{ path: 'email' }],
      tooltip: [
        { label: 'ID', path: 'id' },
        { label: 'Email', path: 'email' },
        { label: 'Email verified', path: 'emailVerified', format: 'boolean' },
        { label: 'Type', path: 'type' },
        { label: 'Source', path: 'source' },
      ],
    },
    actions: [
      {
        id: 'create',
        label: 'Create User...',
        method: 'POST',
        target: 'collection',
        path: '{collection}',
        icon: 'add',
        fields: [
          nameField(true),
          { key: 'email', wire: 'email', label: 'Email', type: 'email', required: true },
        ],
      },
    ],
  },
  {
    id: 'roles',
    label: { singular: 'Role', plural: 'Roles' },
    icon: 'shield',
    collection: '/api/iam/v2/roles',
    presentation: {
      nameFields: ['name'],
      description: [{ path: 'description' }],
      tooltip: [
        { label: 'ID', path: 'id' },
        { label: 'Description', path: 'description' },
      ],
    },
    actions: [],
  },
  {
    id: 'virtualNetworks',
    label: { singular: 'Virtual Network', plural: 'Virtual Networks' },
    icon: 'type-hierarchy',
    collection: '/api/network/v1/virtual-networks',
    presentation: {
      nameFields: ['name'],
      description: [
        { path: 'virtualMachinesNumber', format: 'count', unit: ['VM', 'VMs'] },
        { path: 'hostNumber', format: 'count', unit: ['host', 'hosts'] },
      ],
      tooltip: [
        { label: 'ID', path: 'id' },
        { label: 'Moref', path: 'moref' },
        { label: 'Virtual machines', path: 'virtualMachinesNumber' },
        { label: 'Hosts', path: 'hostNumber' },
        { label: 'Type', path: 'type' },
      ],
    },
    actions: [
      {
        id: 'create',
        label: 'Create Virtual Network...',
        method: 'POST',
        target: 'collection',
        path: '{collection}',
        icon: 'add',
        fields: [nameField(true)],
      },
    ],
  },
];
