import { ENDPOINTS, compilePathMatcher, type EndpointDef, type EndpointName } from '../shared/api/endpoints.js';
import type { Handler } from './context.js';

export interface Route {
  readonly name: EndpointName;
  readonly def: EndpointDef;
  readonly handler: Handler;
}

export type Resolution =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'wrong-method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

/** Maps method and path to an entry of ENDPOINTS, the only place paths are written. */
type CompiledRoute = Route & { readonly match: (path: string) => Record<string, string> | null };

export class Router {
  private readonly routes: readonly CompiledRoute[];
  /** Paths without parameters, looked up before any pattern is tried. */
  private readonly fixed = new Map<string, CompiledRoute[]>();

  constructor(handlers: Readonly<Record<EndpointName, Handler>>) {
    this.routes = (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => {
      const def: EndpointDef = ENDPOINTS[name];
      return { name, def, handler: handlers[name], match: compilePathMatcher(def.path) };
    });
    for (const route of this.routes) {
      if (route.def.pathParams.length > 0) continue;
      const list = this.fixed.get(route.def.path) ?? [];
      list.push(route);
      this.fixed.set(route.def.path, list);
    }
  }

  resolve(method: string, path: string): Resolution {
    const fixed = this.fixed.get(path);
    const found = fixed?.find((route) => route.def.method === method);
    if (found) return { kind: 'found', route: found, params: {} };
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = route.match(path);
      if (!params) continue;
      if (route.def.method === method) return { kind: 'found', route, params };
      allowed.push(route.def.method);
    }
    return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
  }
}
