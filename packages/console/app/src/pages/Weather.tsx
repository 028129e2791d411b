import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { useAccount } from '../account.js';
import { api, bulk, holds, type BulkItemResult } from '../api.js';
import { failure } from '../ui.js';
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
  isWatcherPaused?: boolean;
  /** The pbehaviors active on the watcher itself. */
  watcher_pbehavior?: { _id: string; name: string; type_: string; rrule: string }[];
}

/** The type a watcher pause gets; resuming ends the one-off pbehaviors of that type, not a recurring schedule. */
const pauseType = 'pause';

/** The pbehaviors "Resume" ends: one-off pauses (a recurring one belongs to the maintenance calendar). */
const endablePauses = (tile: Tile) => (tile.watcher_pbehavior ?? []).filter((p) => p.type_ === pauseType && !p.rrule);

/** Pause (a pbehavior of type `pause` on the watcher entity, until resumed) or resume a watcher. */
function PauseButton({ tile, onReport }: { tile: Tile; onReport: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const pauses = endablePauses(tile);
  const resume = pauses.length > 0;
  const run = async () => {
    setBusy(true);
    try {
      const results: BulkItemResult[] = resume
        ? await bulk('DELETE', '/api/v2/bulk/pbehaviors', pauses.map((p) => ({ _id: p._id })))
        : await bulk('POST', '/api/v2/bulk/entity-pbehaviors', [{ entity: tile.entity_id, name: `Paused from the console`, type: pauseType }]);
      const failed = results.find((r) => r.status >= 300);
      onReport(failed ? `${tile.display_name} could not be ${resume ? 'resumed' : 'paused'}: ${failed.error ?? failed.status}` : `${tile.display_name} ${resume ? 'resumed' : 'paused'}`);
    } catch (err) {
      onReport(`${tile.display_name} could not be ${resume ? 'resumed' : 'paused'}: ${failure(err)}`);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['weather'] });
    }
  };
  return (
    <button type="button" className="tile-actions" disabled={busy} onClick={() => void run()} aria-label={`${resume ? 'Resume' : 'Pause'} ${tile.display_name}`}>
      {resume ? 'Resume' : 'Pause'}
    </button>
  );
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
// Glyphs of common text fonts (DejaVu, Noto): emoji such as 🛠 are missing where no emoji font is installed.
const icons: Record<Tile['tileIcon'], string> = { pause: '‖', maintenance: '⚙', unmonitored: '⊘', ok: '✓', minor: '!', major: '!!', critical: '✕' };

function Tiles() {
  const account = useAccount();
  const [notice, setNotice] = useState('');
  const mayPause = holds(account.data, 'pbehaviors:write');
  const tiles = useQuery({ queryKey: ['weather'], queryFn: () => api<Tile[]>(`/api/v2/weather/watchers/${encodeURIComponent('{}')}?limit=200`), refetchInterval: 15_000 });
  return (
    <>
      {tiles.isError && <p role="alert">{tiles.error.message}</p>}
      {tiles.data?.length === 0 && <p>No watcher yet.</p>}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
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
            {mayPause && <PauseButton tile={t} onReport={setNotice} />}
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
