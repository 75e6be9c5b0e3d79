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
export class Router {
  private readonly routes: readonly (Route & { readonly match: (path: string) => Record<string, string> | null })[];

  constructor(handlers: Readonly<Record<EndpointName, Handler>>) {
    this.routes = (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => {
      const def: EndpointDef = ENDPOINTS[name];
      return { name, def, handler: handlers[name], match: compilePathMatcher(def.path) };
    });
  }

  resolve(method: string, path: string): Resolution {
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
