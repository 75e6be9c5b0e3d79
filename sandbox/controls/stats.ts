import { ENDPOINTS, type EndpointName } from '../../shared/api/endpoints.js';

/** Requests per endpoint, so tests can count money-moving calls on the server's side. */
export class RequestStats {
  private counts = RequestStats.zero();

  private static zero(): Record<EndpointName, number> {
    return Object.fromEntries(Object.keys(ENDPOINTS).map((name) => [name, 0])) as Record<EndpointName, number>;
  }

  count(name: EndpointName): void {
    this.counts[name]++;
  }

  snapshot(): Readonly<Record<EndpointName, number>> {
    return { ...this.counts };
  }

  reset(): void {
    this.counts = RequestStats.zero();
  }
}
