import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../../shared/api/accounts.js';
import * as auth from '../../../shared/api/auth.js';
import * as capacity from '../../../shared/api/capacity.js';
import * as cyber from '../../../shared/api/cyber.js';
import * as errors from '../../../shared/api/errors.js';
import { ENDPOINTS, type EndpointDef } from '../../../shared/api/endpoints.js';
import { NAMED } from '../../../shared/api/openapi.js';

/** Object schemas of the resource modules that are the app's side of a request, not a shape on the wire. */
const NOT_ON_THE_WIRE = ['SearchInput', 'CapacityListInput', 'CyberListInput'];

describe('OpenAPI components', () => {
  it('names every object and list schema of the API resource modules, so none is silently inlined', () => {
    const named = new Set<z.ZodType>(NAMED.map(([, schema]) => schema));
    const queries = new Set<z.ZodType>(Object.values(ENDPOINTS as Record<string, EndpointDef>).flatMap((def) => (def.query ? [def.query] : [])));
    const unnamed = Object.entries({ ...accounts, ...auth, ...capacity, ...cyber, ...errors })
      .filter(([, value]) => value instanceof z.ZodObject || value instanceof z.ZodArray)
      .filter(([name, value]) => !named.has(value as z.ZodType) && !queries.has(value as z.ZodType) && !NOT_ON_THE_WIRE.includes(name))
      .map(([name]) => name);
    // Add a new one to NAMED in shared/api/openapi.ts (or, for an input that never travels, to the list above).
    expect(unnamed).toEqual([]);
  });

  it('gives each named schema one name', () => {
    const ids = NAMED.map(([id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(NAMED.map(([, schema]) => schema)).size).toBe(NAMED.length);
  });
});
