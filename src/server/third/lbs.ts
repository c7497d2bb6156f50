/**
 * Points of interest near a place (runtime spec: `POST /api/third/lbs/{provider}/poi {lat, lng, map}`,
 * provider `weixin` by default). A provider turns a coordinate into nearby places; the server keeps
 * its key, so the browser never sees it.
 *
 * weixin: the Tencent location service that WeChat mini-programs use (reverse geocoding with
 * `get_poi=1`). Key from `LBS_WEIXIN_KEY`, base URL from `LBS_WEIXIN_URL` (default
 * https://apis.map.qq.com). `map` names the coordinates' system: `gcj02` (the Chinese map datum,
 * default) or `wgs84` (raw GPS).
 */
import { E, fail } from '../errors.ts';

export interface Poi {
  id: string;
  title: string;
  address: string;
  category: string;
  lat: number;
  lng: number;
  /** Metres from the asked point, when the provider says. */
  distance: number | null;
}

export interface PoiQuery {
  lat: number;
  lng: number;
  map: 'gcj02' | 'wgs84';
}

export interface LbsProvider {
  poi(q: PoiQuery): Promise<Poi[]>;
}

export const LBS_PROVIDERS = ['weixin'] as const;
export type LbsProviderName = (typeof LBS_PROVIDERS)[number];

export interface LbsConfig {
  weixin: { key: string | undefined; url: string };
  timeoutMs: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Tencent location service: GET /ws/geocoder/v1/?location=lat,lng&get_poi=1&coord_type=…&key=… */
export function weixinProvider(cfg: LbsConfig): LbsProvider {
  return {
    async poi(q) {
      const key = cfg.weixin.key;
      if (!key) fail(E.LBS_NOT_CONFIGURED, 'set LBS_WEIXIN_KEY');
      const u = new URL('/ws/geocoder/v1/', cfg.weixin.url);
      u.searchParams.set('location', `${q.lat},${q.lng}`);
      u.searchParams.set('get_poi', '1');
      // 1: GPS coordinates, 5: the provider's own (GCJ-02).
      u.searchParams.set('coord_type', q.map === 'wgs84' ? '1' : '5');
      u.searchParams.set('key', key);
      let body: unknown;
      try {
        const res = await fetch(u, { signal: AbortSignal.timeout(cfg.timeoutMs) });
        if (!res.ok) fail(E.LBS_FAILED, `provider answered ${res.status}`);
        body = await res.json();
      } catch (e) {
        if (e && typeof e === 'object' && 'def' in e) throw e;
        fail(E.LBS_FAILED);
      }
      const b = body as { status?: unknown; message?: unknown; result?: { pois?: unknown } };
      if (b?.status !== 0) fail(E.LBS_FAILED, str(b?.message).slice(0, 200) || 'provider refused');
      const pois = Array.isArray(b.result?.pois) ? (b.result.pois as Record<string, unknown>[]) : [];
      return pois.slice(0, 50).map((p) => {
        const loc = (p.location ?? {}) as Record<string, unknown>;
        return {
          id: str(p.id),
          title: str(p.title),
          address: str(p.address),
          category: str(p.category),
          lat: num(loc.lat) ?? 0,
          lng: num(loc.lng) ?? 0,
          distance: num(p._distance),
        };
      });
    },
  };
}

export function lbsProviders(cfg: LbsConfig): Record<LbsProviderName, LbsProvider> {
  return { weixin: weixinProvider(cfg) };
}
