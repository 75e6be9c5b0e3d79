// First: the first screen's calls leave before the rest of the code is evaluated (first-calls.ts).
import { firstCalls } from './first-calls.js';
import { mount } from 'svelte';
import App from './App.svelte';
import './styles/app.css';

import { loadViewState } from './lib/persisted.js';
import { scopeOf } from './lib/session-scope.js';
import { overview } from './stores/overview.svelte.js';
import { session } from './stores/session.svelte.js';
import { showServiceTextSafely } from './lib/visible-service-text.js';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
// The first screen's calls go out together (issue 25): before, the views' state, then the session, then (from the
// mounted view) the overview were asked one after another, a round trip each before the overview's count began.
// The overview is asked on the session's status alone, not after the profiles and demo accounts asked beside it.
let statusKnown: (scope: string | null) => void = () => undefined;
overview.askEarly(new Promise((resolve) => (statusKnown = resolve)));
void session.load((status) => statusKnown(scopeOf(status)), firstCalls).finally(() => statusKnown(null));
// The views' kept state (list filter, sort, place) is in the main process: read it before the first view opens.
await loadViewState(firstCalls.viewState);
// Bidi controls and zero-width characters in the service's text are shown, not obeyed, wherever the app shows it.
showServiceTextSafely();
mount(App, { target });
