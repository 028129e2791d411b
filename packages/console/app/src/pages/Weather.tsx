import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api.js';
import { stateNames } from '../alarms/view.js';

interface Step {
  val?: number | string | null;
}

interface Tile {
  entity_id: string;
  display_name: string;
  state?: Step;
  tileColor: 'pause' | 'ok' | 'minor' | 'major' | 'critical';
  tileIcon: 'pause' | 'maintenance' | 'unmonitored' | 'ok' | 'minor' | 'major' | 'critical';
  tileSecondaryIcon: 'pause' | 'maintenance' | 'unmonitored' | null;
}

interface Dependency {
  entity_id: string;
  name: string;
  state?: Step;
  alarm_display_name?: string | null;
  component?: string | null;
  resource?: string | null;
}

/** Text glyphs for the spec's icons: no icon font to load, and screen readers get the word. */
const icons: Record<Tile['tileIcon'], string> = { pause: '⏸', maintenance: '🛠', unmonitored: '⊘', ok: '✓', minor: '!', major: '!!', critical: '✕' };

function Tiles() {
  const tiles = useQuery({ queryKey: ['weather'], queryFn: () => api<Tile[]>(`/api/v2/weather/watchers/${encodeURIComponent('{}')}?limit=200`), refetchInterval: 15_000 });
  return (
    <>
      {tiles.isError && <p role="alert">{tiles.error.message}</p>}
      {tiles.data?.length === 0 && <p>No watcher yet.</p>}
      <ul className="tiles">
        {tiles.data?.map((t) => (
          <li key={t.entity_id} className={`tile tile-${t.tileColor}`}>
            <Link href={`/weather/${encodeURIComponent(t.entity_id)}`}>
              <span className="tile-icon" aria-hidden="true">
                {icons[t.tileIcon]}
              </span>
              <span className="tile-name">{t.display_name}</span>
              <span className="tile-state">
                {t.tileIcon}
                {t.tileSecondaryIcon && ` · ${t.tileSecondaryIcon}`}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

function Dependencies({ watcher }: { watcher: string }) {
  const deps = useQuery({ queryKey: ['weather', watcher], queryFn: () => api<Dependency[]>(`/api/v2/weather/watchers/${encodeURIComponent(watcher)}`) });
  return (
    <>
      <p>
        <Link href="/weather">All watchers</Link>
      </p>
      <h2>Dependencies of {watcher}</h2>
      {deps.isError && <p role="alert">{deps.error.message}</p>}
      {deps.data && (
        <table className="simple">
          <thead>
            <tr>
              <th scope="col">Entity</th>
              <th scope="col">State</th>
              <th scope="col">Alarm</th>
            </tr>
          </thead>
          <tbody>
            {deps.data.map((d) => {
              const state = stateNames[Number(d.state?.val ?? 0)] ?? 'ok';
              return (
                <tr key={d.entity_id}>
                  <th scope="row">{d.name}</th>
                  <td className={`state-${state}`}>{state}</td>
                  <td>{d.alarm_display_name ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Service weather: one tile per watcher (`tileColor`, `tileIcon`, `tileSecondaryIcon`), and a watcher's dependencies. */
export function Weather({ watcher }: { watcher: string | undefined }) {
  return (
    <main id="main" className="page">
      <h1>Service weather</h1>
      {watcher ? <Dependencies watcher={decodeURIComponent(watcher)} /> : <Tiles />}
    </main>
  );
}
