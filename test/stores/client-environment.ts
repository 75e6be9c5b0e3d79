import type { Environment } from 'vitest/environments';

/**
 * Plain Node globals, but modules go through Vite's client pipeline: the
 * Svelte plugin then compiles the stores as the renderer ships them. Under
 * Node's default (server) pipeline, $effect never runs and $state is inert,
 * so a test could not see the reactivity a view relies on.
 */
const svelteClient: Environment = {
  name: 'svelte-client',
  viteEnvironment: 'client',
  setup: () => ({ teardown: () => undefined }),
};

export default svelteClient;
