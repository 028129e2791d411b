/** A rule resource of the server that the configuration pages administer through its REST routes. */
export interface ResourceDef {
  /** The page's path segment: `/admin/<key>`. */
  key: string;
  title: string;
  /** The collection route as the OpenAPI document spells it; the item route is `<collection>/{id}`, the preview `<collection>/preview`. */
  collection: string;
  read: string;
  write: string;
  preview: boolean;
  /** What the list shows besides the id. */
  columns: { label: string; value: (item: Record<string, unknown>) => unknown }[];
  /** How the item is named in its route (`_id` unless said). */
  idOf?: (item: Record<string, unknown>) => string;
}

const field = (name: string) => (item: Record<string, unknown>) => item[name];

export const resources: ResourceDef[] = [
  { key: 'idle-rules', title: 'Idle rules', collection: '/api/v2/idle-rule', read: 'idle-rules:read', write: 'idle-rules:write', preview: true, columns: [{ label: 'Name', value: field('name') }, { label: 'Type', value: field('type') }, { label: 'Operation', value: (i) => (i.operation as { type?: string } | undefined)?.type }] },
  { key: 'actions', title: 'Actions (scenarios)', collection: '/api/v2/actions', read: 'actions:read', write: 'actions:write', preview: true, columns: [{ label: 'Type', value: field('type') }, { label: 'Priority', value: field('priority') }] },
  { key: 'eventfilter', title: 'Event filters', collection: '/api/v2/eventfilter/rules', read: 'eventfilter:read', write: 'eventfilter:write', preview: true, columns: [{ label: 'Type', value: field('type') }, { label: 'Description', value: field('description') }, { label: 'Priority', value: field('priority') }, { label: 'Enabled', value: field('enabled') }] },
  { key: 'heartbeats', title: 'Heartbeats', collection: '/api/v2/heartbeat', read: 'heartbeats:read', write: 'heartbeats:write', preview: true, columns: [{ label: 'Expected interval', value: field('expected_interval') }, { label: 'Output', value: field('output') }] },
  { key: 'alarm-filters', title: 'Alarm filters', collection: '/api/v2/alerts/filters', read: 'alarm-filters:read', write: 'alarm-filters:write', preview: true, columns: [{ label: 'Entity filter', value: field('entity_filter') }, { label: 'Limit', value: field('limit') }] },
  { key: 'meta-alarms', title: 'Meta-alarm rules', collection: '/api/v2/metaalarmrule', read: 'meta-alarms:read', write: 'meta-alarms:write', preview: true, columns: [{ label: 'Name', value: field('name') }, { label: 'Type', value: field('type') }] },
  { key: 'dynamic-infos', title: 'Dynamic infos', collection: '/api/v2/dynamic-infos', read: 'dynamic-infos:read', write: 'dynamic-infos:write', preview: true, columns: [{ label: 'Name', value: field('name') }, { label: 'Description', value: field('description') }] },
  { key: 'webhooks', title: 'Webhooks', collection: '/api/v2/webhook', read: 'webhooks:read', write: 'webhooks:write', preview: true, columns: [{ label: 'Enabled', value: field('enabled') }, { label: 'Request', value: (i) => { const r = i.request as { method?: string; url?: string } | undefined; return r ? `${r.method ?? ''} ${r.url ?? ''}` : ''; } }] },
  { key: 'broadcast', title: 'Broadcast messages', collection: '/api/v2/broadcast-message', read: 'broadcast:read', write: 'broadcast:write', preview: false, columns: [{ label: 'Message', value: field('message') }, { label: 'Colour', value: field('color') }, { label: 'From', value: (i) => (typeof i.start === 'number' ? new Date(i.start * 1000).toLocaleString() : '') }, { label: 'Until', value: (i) => (typeof i.end === 'number' ? new Date(i.end * 1000).toLocaleString() : '') }] },
];

export const resourceByKey = (key: string | undefined) => resources.find((r) => r.key === key);
