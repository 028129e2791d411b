import { useQuery } from '@tanstack/react-query';
import { api } from '../api.js';

interface HealthSummary {
  amqp: string;
  cache: string;
  database: string;
  engines: string;
  time_series: string;
  timestamp: number;
  overall: boolean;
}

const services: [keyof HealthSummary, string][] = [
  ['database', 'Database'],
  ['engines', 'Engines'],
  ['amqp', 'AMQP broker'],
  ['cache', 'Cache'],
  ['time_series', 'Time series'],
];

/** `GET /api/v2/healthcheck`, refreshed every 15 s. */
export function Health() {
  const health = useQuery({ queryKey: ['health'], queryFn: () => api<HealthSummary>('/api/v2/healthcheck'), refetchInterval: 15_000 });
  const h = health.data;
  return (
    <main id="main" className="page">
      <h1>Health</h1>
      {health.isError && <p role="alert">{health.error.message}</p>}
      {h && (
        <>
          <p className={h.overall ? 'ok-text' : 'bad-text'}>{h.overall ? 'Every critical service is healthy.' : 'A critical service is failing.'}</p>
          <table className="simple">
            <caption className="visually-hidden">Services</caption>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {services.map(([key, label]) => (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td>{h[key] === '' ? 'healthy or not checked' : String(h[key])}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">As of {new Date(h.timestamp * 1000).toLocaleString()}</p>
        </>
      )}
    </main>
  );
}
