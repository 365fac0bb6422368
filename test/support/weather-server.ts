import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export const WEATHER_FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'weather');

/**
 * An Open-Meteo stand-in on 127.0.0.1: geocoding answers any name with the recorded Enschede
 * result renamed (except names in `unknown`, which get no `results`, as the real API does), and
 * the forecast is the recorded one. Records the names asked for.
 */
export async function startWeatherServer(unknown: string[] = []) {
  const geocoding = JSON.parse(readFileSync(join(WEATHER_FIXTURES_DIR, 'open-meteo-geocoding-enschede.json'), 'utf8'));
  const forecast = readFileSync(join(WEATHER_FIXTURES_DIR, 'open-meteo-forecast-current-subset.json'), 'utf8');
  const names: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v1/search') {
      const name = url.searchParams.get('name') ?? '';
      names.push(name);
      if (unknown.includes(name)) return res.end(JSON.stringify({ generationtime_ms: 0.1 }));
      return res.end(JSON.stringify({ ...geocoding, results: [{ ...geocoding.results[0], name }] }));
    }
    if (url.pathname === '/v1/forecast') return res.end(forecast);
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    names,
    env: { ZHIXING_GEOCODING_URL: `${base}/v1/search`, ZHIXING_WEATHER_URL: `${base}/v1/forecast` },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
